"""A re-run with nothing new is only the check: no parse, no GX, no views rebuild, no read of the
lake's message ids; and the worker pool started ahead answers the first unit."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap

from tests.conftest import ROOT, SEEDS_MBOX, mbox_source, write_config

SECOND_RUN = textwrap.dedent("""
    import json, sys
    from flows import parallel, pipeline
    from flows.config import load_config
    from warehouse.lake import Lake
    import warehouse.db

    seen = {"parsed": 0, "views_rebuilt": 0, "column_sets": []}

    def no_parse(*a, **k):
        seen["parsed"] += 1
        raise AssertionError("an unchanged unit was parsed")

    parallel.decode_parallel = no_parse
    refresh = pipeline.refresh_views_if_needed
    def counted(*a):
        rebuilt = refresh(*a)
        seen["views_rebuilt"] += rebuilt
        return rebuilt
    pipeline.refresh_views_if_needed = counted
    column_set = Lake.column_set
    def watched(self, table, col):
        seen["column_sets"].append(table)
        return column_set(self, table, col)
    Lake.column_set = watched

    cfg = load_config(sys.argv[1])
    pipeline.prestart(cfg)  # a lake exists: nothing is started ahead
    from flows import workers
    seen["prestarted"] = sorted(workers._STARTING)
    summary = pipeline.run(cfg).as_dict()
    seen["pools"] = sorted(workers._POOLS)
    seen["status"] = [u["status"] for u in summary["units"]]
    seen["gx"] = "great_expectations" in sys.modules
    seen["gate"] = "expectations.gate" in sys.modules
    print(json.dumps(seen))
""")

FIRST_RUN = textwrap.dedent("""
    import json, sys, time
    from flows import pipeline, workers
    from flows.config import load_config

    cfg = load_config(sys.argv[1])
    pipeline.prestart(cfg)
    started = dict(workers._STARTING)
    summary = pipeline.run(cfg).as_dict()
    print(json.dumps({"prestarted": sorted(started), "pools": sorted(workers._POOLS),
                      "status": [u["status"] for u in summary["units"]],
                      "added": [u["messages_added"] for u in summary["units"]],
                      "gx": "great_expectations" in sys.modules}))
""")


def _run(code: str, cfg) -> dict:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "GX_ANALYTICS_ENABLED": "False"}
    p = subprocess.run([sys.executable, "-c", code, str(cfg)], cwd=ROOT, capture_output=True, text=True,
                       env=env, timeout=300)
    assert p.returncode == 0, p.stderr[-3000:]
    return json.loads(p.stdout.strip().splitlines()[-1])


def test_a_rerun_with_nothing_new_parses_validates_and_rebuilds_nothing(tmp_path):
    shutil.copy(SEEDS_MBOX, tmp_path / "seeds.mbox")
    cfg = write_config(tmp_path, mbox_source("sample", "seeds.mbox", message_timeout_s=30))
    first = _run(FIRST_RUN, cfg)
    assert first["status"] == ["ok"] and first["added"] == [5]
    assert first["prestarted"] and first["gx"]  # a new lake: GX was imported while the pool started
    assert first["pools"] == first["prestarted"]  # the small unit used the pool started ahead
    second = _run(SECOND_RUN, cfg)
    assert second["status"] == ["unchanged"]
    assert second["parsed"] == 0 and second["views_rebuilt"] == 0
    assert not second["gx"] and not second["gate"]
    assert second["prestarted"] == [] and second["pools"] == []
    assert "messages" not in second["column_sets"]
