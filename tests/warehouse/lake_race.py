"""Two writers racing on one lake (local or S3), and the check of what they left."""

from __future__ import annotations

import json
import subprocess
import sys

from bench.writer import RESULTS_PER_MESSAGE
from tests.conftest import ROOT
from warehouse.lake import Lake


def _race(lake_url: str, db: str, n: int, env: dict[str, str] | None = None) -> list[dict]:
    import os

    procs = [subprocess.Popen([sys.executable, "-m", "bench.writer", "--write", lake_url, db, name, str(n)], cwd=ROOT,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, env={**os.environ, **(env or {})})
             for name in ("w1", "w2")]
    out = []
    for p in procs:
        o, e = p.communicate(timeout=600)
        assert p.returncode == 0, e.decode()[-3000:]
        out.append(json.loads(o.decode().strip().splitlines()[-1]))
    return out


def _check_race(lake: Lake, n: int) -> None:
    ids = lake.read("messages", ["message_id"]).column("message_id").to_pylist()
    assert len(ids) == len(set(ids)) == 7 * n  # 3 own messages per writer and batch + 1 shared, once
    res = lake.read("results", ["run_id", "result_index"]).to_pylist()
    assert len(res) == len({(r["run_id"], r["result_index"]) for r in res}) == 7 * n * RESULTS_PER_MESSAGE
    assert lake.read("archives").num_rows == 2 * n
    assert len(lake.committed()) == 2 * n
