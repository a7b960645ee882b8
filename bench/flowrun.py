"""What a flow run costs beyond its own work, on the temporary API, with and without heartbeats.

Command (from the repo root):

    .venv/bin/python -m bench.flowrun              # 6 runs of each kind
    .venv/bin/python -m bench.flowrun --runs 10 --work 1.3

A flow whose body sleeps `--work` seconds is run on this process's temporary API (a fresh
PREFECT_HOME under a temporary directory), alternately as Prefect runs it by default (a heartbeat
thread per flow run, which sleeps in one-second steps and is joined as the flow ends) and inside
`flows.prefect_api.run_settings()` (what `listbench ingest` does on the temporary API: no
heartbeats). Prints each kind's wall time per run, the overhead beyond `--work`, and the ratio,
measured in the same process.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence

from bench._common import header


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=6, help="runs of each kind (default 6)")
    ap.add_argument("--work", type=float, default=0.3, help="seconds of work in the flow's body (default 0.3)")
    args = ap.parse_args(argv)
    print(header("bench.flowrun: a flow run's own cost on the temporary API", "bench.flowrun", argv))
    with tempfile.TemporaryDirectory(prefix="listbench-flowrun-") as home:
        os.environ.pop("PREFECT_API_URL", None)
        os.environ["PREFECT_HOME"] = home
        from prefect import flow

        from flows.prefect_api import ensure_api, run_settings

        ensure_api()

        @flow(name="bench-flowrun", log_prints=False)
        def work() -> None:
            time.sleep(args.work)

        work()  # the first run registers the flow
        times: dict[str, list[float]] = {"heartbeats": [], "none": []}
        for _ in range(args.runs):
            for kind in times:
                t = time.perf_counter()
                if kind == "none":
                    with run_settings():
                        work()
                else:
                    work()
                times[kind].append(time.perf_counter() - t)
    med = {k: statistics.median(v) for k, v in times.items()}
    for kind, label in (("heartbeats", "Prefect's default (heartbeats)"), ("none", "listbench (no heartbeats)")):
        print(f"  {label:32} median {med[kind]:.3f} s per run, beyond the work {med[kind] - args.work:.3f} s "
              f"(runs: {', '.join(f'{x:.2f}' for x in times[kind])})")
    print(f"  ratio listbench / default: {med['none'] / med['heartbeats']:.2f}x time")
    return 0


if __name__ == "__main__":
    sys.exit(main())
