"""Concurrent writers on one lake: commit throughput, one writer vs two at once.

    python -m bench.writer                     # 2 x 40 commits on a fresh local lake, then 1 x 40
    python -m bench.writer --commits 100 --lake s3://bucket/prefix/lake   # any lake URL (credentials from the environment)
    python -m bench.writer --views             # each writer also rebuilds its views file after every commit

A writer (`python -m bench.writer --write LAKE DB NAME N`, also what the concurrency tests run)
commits N batches through `warehouse.lake.Lake`, as ingest does: each batch reads the visible
message ids first (what makes a re-run add nothing), then commits three messages of its own and
one message `shared-<i>` that the other writer commits too, each with two results, a membership
and an `extractions` row, plus an `archives` ledger row. It prints one JSON line: commits,
conflicting commits retried, seconds. The benchmark starts two such processes at once on a
fresh lake, then one alone on another, and prints commits per second of each run. With
`--views` every writer rebuilds a views file of its own (warehouse.db) after each commit, as
ingest does, so a commit is counted once readers of that file can see it.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime

from warehouse.db import refresh_views_if_needed
from warehouse.lake import Lake, new_batch_id
from warehouse.schema import partial_row
from warehouse.schema import to_table as _to_table

RESULTS_PER_MESSAGE = 2


def to_table(table: str, rows: list[dict]):
    """Synthetic rows: the columns a writer benchmark does not care about are NULL."""
    return _to_table(table, [partial_row(table, **r) for r in rows])


def batch_tables(name: str, i: int, known: set[str], batch_id: str) -> dict:
    mids = [m for m in (f"{name}-{i}-{j}" for j in range(3)) if m not in known]
    if f"shared-{i}" not in known:
        mids.append(f"shared-{i}")
    now = datetime.now(UTC)
    return {
        "messages": to_table("messages", [{"message_id": m, "list_name": name} for m in mids]),
        "memberships": to_table("memberships", [{"message_id": m, "list_name": name} for m in mids]),
        "extractions": to_table("extractions", [{"message_id": m, "batch_id": batch_id, "extracted_at": now}
                                                for m in mids]),
        "results": to_table("results", [{"run_id": f"{m}#0", "message_id": m, "result_index": k,
                                         "benchmark": "dbench", "metric": "throughput", "value": float(k)}
                                        for m in mids for k in range(RESULTS_PER_MESSAGE)]),
        "archives": to_table("archives", [{"source": name, "unit": str(i), "status": "ok"}]),
    }


def write(lake_url: str, db: str, name: str, n: int) -> None:
    lake = Lake(lake_url).open()
    lake.command, lake.run = "test-writer", name
    if db != "-":
        lake.on_commit.append(lambda lk: refresh_views_if_needed(db, lk))
    t0 = time.perf_counter()
    for i in range(n):
        lake.mark_known()
        known = lake.column_set("messages", "message_id")
        batch_id = new_batch_id()
        lake.commit(batch_id, batch_tables(name, i, known, batch_id), source=name)
    print(json.dumps({"writer": name, "commits": n, "retries": lake.retries,
                      "seconds": round(time.perf_counter() - t0, 3)}))


def race(lake_url: str, n: int, writers: int, views: str | None = None) -> tuple[float, list[dict]]:
    """Start `writers` writer processes at once; (wall seconds, their JSON lines). `views`: a
    local folder where each writer keeps its views file."""
    Lake(lake_url).open()
    dbs = [f"{views}/w{k + 1}-{time.time_ns()}/listbench.duckdb" if views else "-" for k in range(writers)]
    t0 = time.perf_counter()
    procs = [subprocess.Popen([sys.executable, "-m", "bench.writer", "--write", lake_url, db, f"w{k + 1}", str(n)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE) for k, db in enumerate(dbs)]
    out = []
    for p in procs:
        o, e = p.communicate()
        if p.returncode:
            raise SystemExit(f"writer failed:\n{e.decode()[-3000:]}")
        out.append(json.loads(o.decode().strip().splitlines()[-1]))
    return time.perf_counter() - t0, out


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["--write"]:
        write(args[1], args[2], args[3], int(args[4]))
        return 0
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--commits", type=int, default=40, help="batches per writer (default 40)")
    ap.add_argument("--lake", help="a lake URL prefix (default: a temporary local folder)")
    ap.add_argument("--views", action="store_true", help="each writer rebuilds its views file after every commit")
    a = ap.parse_args(args)
    print(f"command: python -m bench.writer {' '.join(args)}")
    with tempfile.TemporaryDirectory(prefix="bench-writer-") as tmp:
        base = a.lake.rstrip("/") if a.lake else tmp
        for writers, name in ((2, "two"), (1, "one")):
            wall, out = race(f"{base}/{name}-{time.time_ns()}", a.commits, writers, tmp if a.views else None)
            commits = sum(o["commits"] for o in out)
            retries = sum(o["retries"] for o in out)
            print(f"{writers} writer(s) x {a.commits} commits: {wall:6.2f} s wall, {commits / wall:5.2f} commits/s "
                  f"in all, {retries} conflicting commits retried; per writer: "
                  + ", ".join(f"{o['writer']} {o['seconds']:.2f} s" for o in out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
