"""A writer process for the concurrency tests: `python -m tests.lake_writer LAKE DB NAME N`.

Commits N batches through `warehouse.lake.Lake`, as ingest does: each batch reads the visible
message ids first (what makes a re-run add nothing), then commits three messages of its own and
one message `shared-<i>` that the other writer commits too, each message with two results and
an `extractions` row. Prints one JSON line: commits, conflicting commits retried, seconds.
"""

from __future__ import annotations

import json
import sys
import time
from datetime import UTC, datetime

from warehouse.db import refresh_views_if_needed
from warehouse.lake import Lake, new_batch_id
from warehouse.schema import to_table

RESULTS_PER_MESSAGE = 2


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


def main(lake_url: str, db: str, name: str, n: int) -> None:
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


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]))
