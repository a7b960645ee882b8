"""The Great Expectations gate vs the Parquet write, on 1M result rows.

Command (from the repo root):

    .venv/bin/python -m bench.validate                      # 1,000,000 result rows
    .venv/bin/python -m bench.validate --rows 3000000 --repeat 3
    .venv/bin/python -m bench.validate --rows 1000000 --bad-share 0.01   # 1% rows quarantined
    .venv/bin/python -m bench.validate --no-full-gate --profile --no-gc

Issue: "Validation must not dominate ingestion: measure the time to validate 1M result
rows with all suites, as a ratio to the time to write the same rows to Parquet".

Rows: every golden fixture is extracted once (transforms.extract.extract_runs +
transforms.records.add_runs, as ingest does); the rows are replicated into
distinct messages (message_id per copy, run_id = run_id_for(message_id, block)) until
--rows result rows exist. Timed, in one process:

  GX first call   `expectations.gate._context()` (import great_expectations + ephemeral
                  context) and building the results checkpoint; one warm-up validation
                  of 1,000 rows. Reported apart: a one-off per process, not per batch.
  (a) validate    `expectations.derive.results_frame(rows)` (of which `pd.DataFrame(rows)`
                  is timed on its own as well) + `expectations.gate.run_suite("results",
                  results_expectations, frame, cols)`; the GX checkpoint run inside
                  run_suite is timed separately from run_suite's own row routing.
                  The gate's tool_version join (`{**r, "tool_version": ...}` per row,
                  done in `gate()` before derive) is timed too.
  (b) write       `warehouse.schema.to_table("results", rows)` + `write_parquet` (one zstd Parquet file, fsync'd).
  ratio           (a) / (b): the headline. Also against write_parquet alone.
  (c) full gate   `expectations.gate.gate(records)` on the messages, runs and results of
                  the same rows (all three suites, as `flows.steps.load_units` calls it)
                  vs (d) `to_table` of every table + `Lake.commit` (fsync'd, atomic), i.e.
                  the validation and the write of one ingest chunk. Skip with --no-full-gate.

Every step also reports the time Python's cyclic GC took inside it (gc.callbacks): a
million live row dicts make each full collection expensive, and it lands on whichever
step allocates at that moment (--no-gc switches it off to show its cost). The report
always says where the validation time goes (derive vs GX vs gate's own code); when
validation is much slower than the write (ratio > 2) or with --profile, derive is also
broken down with cProfile on a --profile-rows subsample.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import io
import pstats
import random
import resource
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from bench._common import fixture_records, header, ratio, table


def write_parquet(table: Any, path: Path, name: str) -> None:
    """One zstd Parquet file, fsync'd: what the earlier lake wrote per table and batch."""
    import os

    import pyarrow.parquet as pq

    pq.write_table(table, path, compression="zstd")
    with open(path, "rb") as f:
        os.fsync(f.fileno())

class _TimedCheckpoint:
    """Stands in for the cached GX checkpoint so run_suite's `.run()` is timed on its own."""

    def __init__(self, cp: Any) -> None:
        self.cp = cp
        self.seconds = 0.0

    def run(self, *args: Any, **kwargs: Any) -> Any:
        t0 = time.perf_counter()
        try:
            return self.cp.run(*args, **kwargs)
        finally:
            self.seconds += time.perf_counter() - t0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.cp, name)


def build_rows(n: int, bad_share: float, seed: int = 7) -> dict[str, list[dict[str, Any]]]:
    """`n` result rows (+ their runs, messages, memberships) replicated from the golden fixtures."""
    from transforms.extract import run_id_for

    templates = [(p, rec) for p, rec in fixture_records() if rec.results or rec.runs]
    rng = random.Random(seed)
    out: dict[str, list[dict[str, Any]]] = {"messages": [], "memberships": [], "runs": [], "results": []}
    start = datetime(2004, 1, 1, tzinfo=UTC)
    copy = 0
    while len(out["results"]) < n:
        for path, rec in templates:
            mid = f"bench{copy:05d}.{path.parent.name}.{path.stem}@listbench"
            batch = f"b{copy:05d}"
            rid = {r["run_id"]: run_id_for(mid, r["block_index"]) for r in rec.runs}
            out["messages"].append({
                "message_id": mid, "list_name": "bench", "posted_at": start + timedelta(days=rng.randrange(3650)),
                "from_name": "Bench Poster", "subject": f"{path.parent.name} numbers ({path.stem})",
                "in_reply_to": None, "thread_id": mid, "archive_url": None, "url": None, "unit": batch, "notes": None,
                "batch_id": batch})
            out["memberships"].append({"message_id": mid, "list_name": "bench", "unit": batch,
                                       "archive_url": None, "batch_id": batch})
            out["runs"] += [{**r, "run_id": rid[r["run_id"]], "message_id": mid, "batch_id": batch} for r in rec.runs]
            room = n - len(out["results"])
            out["results"] += [{**r, "run_id": rid[r["run_id"]], "message_id": mid, "batch_id": batch}
                               for r in rec.results[:room]]
            if len(out["results"]) >= n:
                break
        copy += 1
    if bad_share > 0:  # rows the results suite quarantines (unknown unit): exercises row routing
        res = out["results"]
        for i in rng.sample(range(len(res)), int(len(res) * bad_share)):
            res[i] = {**res[i], "unit": "furlongs/fortnight"}
    return out


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


class _GCClock:
    """Time spent in Python's cyclic garbage collector (gc.callbacks), to split it out of each step."""

    def __init__(self) -> None:
        self.total = 0.0
        self._t: float | None = None

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._t = time.perf_counter()
        elif self._t is not None:
            self.total += time.perf_counter() - self._t
            self._t = None


GC = _GCClock()


class _Steps:
    """Wall time and GC time per labelled step."""

    def __init__(self) -> None:
        self.t: dict[str, float] = {}

    def run(self, label: str, fn: Any, *args: Any) -> Any:
        g0, t0 = GC.total, time.perf_counter()
        try:
            return fn(*args)
        finally:
            self.t[label] = time.perf_counter() - t0
            self.t[f"gc:{label}"] = GC.total - g0


def measure(data: dict[str, list[dict[str, Any]]], tmp: Path, run: int) -> dict[str, float]:
    """One round of (a) validation and (b) write of the results rows."""
    import pandas as pd

    from expectations import derive, gate
    from expectations.suites import results_expectations
    from warehouse.schema import to_table

    rows, runs = data["results"], data["runs"]
    cols = ("message_id", "run_id", "benchmark", "system", "metric", "value", "unit")
    st = _Steps()
    version = {r["run_id"]: r.get("tool_version") for r in runs}
    framed = st.run("gate tool_version join", lambda: [{**r, "tool_version": version.get(r["run_id"])} for r in rows])
    st.run("  pd.DataFrame(rows) alone", lambda x: len(pd.DataFrame(x)), framed)
    frame = st.run("derive.results_frame", derive.results_frame, framed)
    cp = gate._STATE["cp:results"]
    proxy = _TimedCheckpoint(cp)
    gate._STATE["cp:results"] = proxy
    try:
        bad, _findings = st.run("gate.run_suite", gate.run_suite, "results", results_expectations, frame, cols)
    finally:
        gate._STATE["cp:results"] = cp
    t = st.t
    t["  GX checkpoint.run"] = proxy.seconds
    t["  run_suite row routing"] = t["gate.run_suite"] - proxy.seconds
    t["rows failing"] = float(len(bad))
    del frame, framed
    tbl = st.run("to_table", to_table, "results", rows)
    path = tmp / f"results-{run}.parquet"
    st.run("write_parquet", write_parquet, tbl, path, "results")
    t["parquet bytes"] = float(path.stat().st_size)
    path.unlink()
    return t


def full_gate(data: dict[str, list[dict[str, Any]]], tmp: Path) -> dict[str, float]:
    """(c) gate() with all suites on the chunk vs (d) to_table + Lake.commit of the chunk."""
    from expectations import derive, gate
    from expectations.suites import messages_expectations, runs_expectations
    from transforms.records import Records
    from warehouse.lake import Lake, new_batch_id
    from warehouse.schema import to_table

    gate._checkpoint("messages:bench", messages_expectations(["bench"]))  # one-off costs out of the timing
    gate._checkpoint("runs", runs_expectations)
    rec = Records(messages=list(data["messages"]), memberships=list(data["memberships"]),
                  runs=list(data["runs"]), results=list(data["results"]))
    t: dict[str, float] = {}
    spent: dict[str, float] = {}

    def timing(label: str, fn: Any) -> Any:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            t0 = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                key = f"{label} {args[0].split(':')[0]}" if label == "run_suite" else label
                spent[key] = spent.get(key, 0.0) + time.perf_counter() - t0
        return wrapper

    # time gate()'s parts from outside: wrap the functions it looks up at call time (restored below)
    saved = (gate.run_suite, derive.messages_frame, derive.runs_frame, derive.results_frame)
    gate.run_suite = timing("run_suite", gate.run_suite)
    derive.messages_frame = timing("derive.messages_frame", derive.messages_frame)
    derive.runs_frame = timing("derive.runs_frame", derive.runs_frame)
    derive.results_frame = timing("derive.results_frame", derive.results_frame)
    try:
        t0 = time.perf_counter()
        findings = gate.gate(rec, list_names=["bench"])
        total = time.perf_counter() - t0
    finally:
        gate.run_suite, derive.messages_frame, derive.runs_frame, derive.results_frame = saved
    t["gate (messages+runs+results suites)"] = total
    for k in ("derive.messages_frame", "run_suite messages", "derive.runs_frame", "run_suite runs",
              "derive.results_frame", "run_suite results"):
        t[f"  {k}"] = spent.get(k, 0.0)
    t["  gate's own code (tool_version join, routing)"] = total - sum(spent.values())
    t["rows quarantined"] = float(len(rec.quarantine))
    t["findings"] = float(len(findings))
    lake = Lake(tmp / "lake").open()
    t0 = time.perf_counter()
    tables = {name: to_table(name, rows) for name, rows in rec.tables().items()}
    t["to_table (all tables)"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    lake.commit(new_batch_id(), tables)
    t["Lake.commit (all tables)"] = time.perf_counter() - t0
    return t


def profile_derive(data: dict[str, list[dict[str, Any]]], n: int) -> str:
    from expectations import derive

    version = {r["run_id"]: r.get("tool_version") for r in data["runs"]}
    framed = [{**r, "tool_version": version.get(r["run_id"])} for r in data["results"][:n]]
    pr = cProfile.Profile()
    pr.enable()
    derive.results_frame(framed)
    pr.disable()
    buf = io.StringIO()
    pstats.Stats(pr, stream=buf).sort_stats("tottime").print_stats(12)
    lines = [ln for ln in buf.getvalue().splitlines() if ln.strip()]
    keep = [ln for ln in lines if "function calls" in ln or "ncalls" in ln or ":" in ln and "(" in ln]
    return "\n".join("  " + ln.replace(str(Path(sys.prefix)), "<venv>") for ln in keep)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.validate", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rows", type=int, default=1_000_000, help="result rows (default 1,000,000)")
    ap.add_argument("--repeat", type=int, default=1, help="rounds of (a)+(b); medians reported")
    ap.add_argument("--bad-share", type=float, default=0.0,
                    help="share of rows given an unknown unit, so the suite quarantines them (default 0)")
    ap.add_argument("--no-full-gate", dest="full_gate", action="store_false",
                    help="skip (c)/(d): gate() with all suites vs Lake.commit")
    ap.add_argument("--no-gc", action="store_true",
                    help="disable Python's cyclic GC during the timed steps (shows what GC costs)")
    ap.add_argument("--profile", action="store_true", help="always print the cProfile of derive")
    ap.add_argument("--profile-rows", type=int, default=200_000, help="subsample for the profile")
    args = ap.parse_args(argv)
    t_start = time.perf_counter()
    print(header("bench.validate: GX gate vs Parquet write", "bench.validate", argv))

    t0 = time.perf_counter()
    data = build_rows(args.rows, args.bad_share)
    t_build = time.perf_counter() - t0
    n = len(data["results"])
    print(f"\nrows: {n:,} results, {len(data['runs']):,} runs, {len(data['messages']):,} messages "
          f"(golden fixtures replicated; {args.bad_share:.1%} made invalid); built in {t_build:.1f} s; "
          f"peak RSS {peak_rss_mb():,.0f} MB")

    # one-off GX costs, first call in this process
    from expectations import derive, gate
    from expectations.suites import results_expectations

    t0 = time.perf_counter()
    gate._context()
    t_ctx = time.perf_counter() - t0
    t0 = time.perf_counter()
    gate._checkpoint("results", results_expectations)
    t_cp = time.perf_counter() - t0
    warm = derive.results_frame([{**r, "tool_version": None} for r in data["results"][:1000]])
    t0 = time.perf_counter()
    gate.run_suite("results", results_expectations, warm, ("run_id",))
    t_warm = time.perf_counter() - t0
    print("\nGX first call (once per process, not per batch):")
    print(table(["step", "seconds"], [["import great_expectations + ephemeral context", t_ctx],
                                      ["results suite + checkpoint", t_cp],
                                      ["warm-up run_suite on 1,000 rows", t_warm]]))

    rounds = []
    gc.callbacks.append(GC)
    if args.no_gc:
        gc.disable()
    try:
        with tempfile.TemporaryDirectory(prefix="bench-validate-") as d:
            tmp = Path(d)
            for i in range(max(1, args.repeat)):
                rounds.append(measure(data, tmp, i))
            med = {k: statistics.median(r[k] for r in rounds) for k in rounds[0]}
            g0 = GC.total
            full = full_gate(data, tmp) if args.full_gate else None
            gc_full = GC.total - g0
    finally:
        gc.callbacks.remove(GC)
        gc.enable()
    validate = med["derive.results_frame"] + med["gate.run_suite"]
    validate_join = validate + med["gate tool_version join"]
    write = med["to_table"] + med["write_parquet"]
    def line(part: str, step: str, whole: float | None) -> list[Any]:
        v = med[step]
        gc_s = med.get(f"gc:{step}")
        return [part, step, v, None if whole is None else v / whole, gc_s]

    rows = [
        line("(a) validate", "gate tool_version join", None),
        line("(a) validate", "derive.results_frame", validate),
        line("(a) validate", "  pd.DataFrame(rows) alone", validate),
        line("(a) validate", "gate.run_suite", validate),
        line("(a) validate", "  GX checkpoint.run", validate),
        line("(a) validate", "  run_suite row routing", validate),
        line("(b) write", "to_table", write),
        line("(b) write", "write_parquet", write),
    ]
    print(f"\n(a) validation vs (b) write of {n:,} result rows (median of {len(rounds)}; "
          f"{int(med['rows failing']):,} rows failed an expectation; "
          f"Parquet {med['parquet bytes'] / 2**20:.1f} MiB):")
    print(table(["part", "step", "seconds", "share of part", "of which GC s"], rows))
    gc_a = sum(med.get(f"gc:{k}", 0.0) for k in ("derive.results_frame", "gate.run_suite"))
    gc_b = sum(med.get(f"gc:{k}", 0.0) for k in ("to_table", "write_parquet"))
    print(f"  (cyclic GC: {gc_a:.2f} s of (a), {gc_b:.2f} s of (b), {med['gc:gate tool_version join']:.2f} s of the "
          f"join{'; gc disabled by --no-gc' if not gc.isenabled() else ''})")
    r_main = ratio(validate, write)
    print(f"\nvalidate (derive + run_suite)        {validate:8.2f} s  {n / validate:>12,.0f} rows/s")
    print(f"write (to_table + write_parquet)     {write:8.2f} s  {n / write:>12,.0f} rows/s")
    print(f"RATIO validate / write               {r_main:8.2f}x")
    print(f"  incl. gate's tool_version join     {ratio(validate_join, write):8.2f}x")
    print(f"  vs write_parquet alone             {ratio(validate, med['write_parquet']):8.2f}x")
    print(f"  GX checkpoint.run / write          {ratio(med['  GX checkpoint.run'], write):8.2f}x")
    print(f"  one-off GX first call / write      {ratio(t_ctx + t_cp + t_warm, write):8.2f}x")

    if full:
        g = full["gate (messages+runs+results suites)"]
        w = full["to_table (all tables)"] + full["Lake.commit (all tables)"]
        print(f"\n(c) all suites vs (d) commit, the same chunk as load_units sees it "
              f"({len(data['messages']):,} messages, {len(data['runs']):,} runs, {n:,} results):")
        print(table(["step", "seconds"], [[k, v] for k, v in full.items()]))
        print(f"  (cyclic GC during gate + to_table + commit: {gc_full:.2f} s)")
        r_full = ratio(g, w)
        print(f"RATIO gate(all suites) / (to_table + Lake.commit)  {r_full:.2f}x")
    else:
        r_full = None

    slow = any(r is not None and r > 2 for r in (r_main, r_full))
    # always say where the time goes; the cProfile only when validation is slow or when asked
    d = med["derive.results_frame"]
    df_share = med["  pd.DataFrame(rows) alone"] / d if d else 0
    gx = med["  GX checkpoint.run"]
    print("\nwhere the validation time goes" + (" (validation takes more than 2x the write):" if slow else
                                               " (validation within 2x of the write):"))
    print(f"  derive.results_frame {d:.2f} s = {d / validate:.0%} of (a); of it pd.DataFrame(list of dicts) "
          f"{med['  pd.DataFrame(rows) alone']:.2f} s (~{df_share:.0%}), the derived columns (spec lookups,"
          f" per-row list comprehensions, UnixBench ratios) the rest")
    print(f"  GX checkpoint.run    {gx:.2f} s = {gx / validate:.0%} of (a) ({len(results_expectations())} "
          f"expectations, pandas execution engine)")
    print(f"  run_suite outside GX {med['  run_suite row routing']:.2f} s (batches < 50,000 rows: "
          f"df.to_dict('index') of the whole frame, even when nothing failed; >= 50,000 rows: "
          f"df.iloc[i].to_dict() per failing row)")
    print(f"  not in (a): gate's tool_version join {med['gate tool_version join']:.2f} s (a dict copy per row)")
    if full:
        g = full["gate (messages+runs+results suites)"]
        der = sum(v for k, v in full.items() if k.startswith("  derive."))
        gx_all = sum(v for k, v in full.items() if k.startswith("  run_suite "))
        own = full["  gate's own code (tool_version join, routing)"]
        print(f"  (c) gate() {g:.2f} s: derive (3 frames) {der:.2f} s = {der / g:.0%}, run_suite (GX, 3 suites) "
              f"{gx_all:.2f} s = {gx_all / g:.0%}, gate's own Python {own:.2f} s = {own / g:.0%}")
    if slow or args.profile:
        k = min(args.profile_rows, n)
        print(f"\ncProfile of derive.results_frame on {k:,} rows (top by own time):")
        print(profile_derive(data, k))
    print(f"\npeak RSS {peak_rss_mb():,.0f} MB; total time {time.perf_counter() - t_start:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
