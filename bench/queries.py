"""docs/queries.md on a lake of >= 1M result rows: median time per query, rows, lake size.

Command (from the repo root):

    .venv/bin/python -m bench.queries                         # 1.2M result rows
    .venv/bin/python -m bench.queries --rows 5000000 --unit month
    .venv/bin/python -m bench.queries --unit quarter --compact  # also time after `Lake.compact`
    .venv/bin/python -m bench.queries --keep /tmp/qlake       # keep the lake (and its config)

How the lake is built (fast, but through the real lake code): every golden fixture is
extracted once (extract_runs + records.add_runs, as ingest does) and turned into
template Arrow tables with `warehouse.schema.to_table`. The templates are replicated
into many synthetic messages (distinct message_id, run_id, content_hash per copy; values
scaled by a per-message factor; posted_at spread over 2004-2014; six list names). 2% of
the copies are reposts of an earlier copy (same content_hash: the `runs` view marks them
`duplicate_of`, benchmark_results hides them), 3% are cross-posted to a second list,
5% are re-extracted later (a second extraction batch that supersedes the first; the
`current_extractions` view hides the old rows). Messages are committed with
`warehouse.lake.Lake(...).open().commit(batch, tables)` one batch per list and --unit
(year by default: 6 lists x 11 years = 66 part files per table; `--unit month` gives the
~800 parts per table of an un-compacted monthly ingest), each batch carrying messages, memberships, runs, results,
extractions, quarantine and an archives ledger row, like one ingested archive unit.
Then `warehouse.db.refresh_views` builds the DuckDB file.

What is timed: every query of docs/queries.md (the ```sql block after each `### N.`
heading), --repeat times (default 5) through one `warehouse.db.connect_readonly`
connection, fetching all rows; the median is reported beside two baselines measured the
same way in the same run: `SELECT count(*) FROM benchmark_results` (the view stack)
and a plain `read_parquet` scan of the results files (`count(*), sum(value)`).
Also: the lake's size on disk per table, and `python -m flows.cli sql "SELECT count(*)
FROM benchmark_results" --config <tmp config>` end to end once, against the start-up of
a bare `python -c "import duckdb"`.
"""

from __future__ import annotations

import argparse
import math
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from bench._common import ROOT, fixture_records, header, human_bytes, ratio, table

LISTS = {"kvm": 30, "kvm-devel": 15, "virtualization": 10, "xen-devel": 25, "xen-users": 12, "qemu-devel": 8}
START, END = datetime(2004, 1, 1, tzinfo=UTC), datetime(2015, 1, 1, tzinfo=UTC)
QUERY_RE = re.compile(r"### (\d+)\. (.*?)\n\n```sql\n(.*?)```", re.S)


def doc_queries(path: Path | None = None) -> list[tuple[str, str, str]]:
    text = (path or ROOT / "docs" / "queries.md").read_text(encoding="utf-8")
    return [(n, title.strip(), sql.strip()) for n, title, sql in QUERY_RE.findall(text)]


@dataclass
class Templates:
    """Fixture rows as Arrow tables, with each template message's row range."""

    names: list[str]  # "<benchmark>/<case>"
    runs: pa.Table
    results: pa.Table
    quarantine: list[list[dict[str, Any]]]
    run_span: np.ndarray  # (M, 2) start/end row of each template's runs
    res_span: np.ndarray

    @classmethod
    def build(cls) -> Templates:
        from warehouse.schema import to_table

        names, runs, results, quarantine, rs, qs = [], [], [], [], [], []
        for path, rec in fixture_records():  # negative fixtures too: messages without results
            names.append(f"{path.parent.name}/{path.stem}")
            rs.append((len(runs), len(runs) + len(rec.runs)))
            qs.append((len(results), len(results) + len(rec.results)))
            runs += rec.runs
            results += rec.results
            quarantine.append(rec.quarantine)
        return cls(names, to_table("runs", runs), to_table("results", results), quarantine,
                   np.array(rs, dtype=np.int64), np.array(qs, dtype=np.int64))


def _set(tbl: pa.Table, name: str, arr: Any) -> pa.Table:
    i = tbl.schema.get_field_index(name)
    return tbl.set_column(i, tbl.schema.field(name), pa.array(arr, tbl.schema.field(name).type)
                          if not isinstance(arr, (pa.Array, pa.ChunkedArray)) else arr)


def _sig4(x: np.ndarray) -> np.ndarray:
    """Round to 4 significant digits (posted numbers look like that)."""
    out = x.copy()
    ok = np.isfinite(x) & (x != 0)
    scale = 10.0 ** (3 - np.floor(np.log10(np.abs(x[ok]))))
    out[ok] = np.round(x[ok] * scale) / scale
    return out


class LakeBuilder:
    """Synthetic messages from the templates, committed batch by batch through `Lake.commit`."""

    def __init__(self, tpl: Templates, rows: int, unit: str, seed: int, reextract_share: float) -> None:
        self.tpl = tpl
        self.rng = np.random.default_rng(seed)
        per_copy = int(tpl.res_span[:, 1][-1])
        self.copies = max(1, math.ceil(rows / per_copy))
        m = len(tpl.names)
        n = self.copies * m
        self.n = n
        self.tmpl = np.tile(np.arange(m), self.copies)
        lists = list(LISTS)
        w = np.array(list(LISTS.values()), dtype=float)
        self.list_idx = self.rng.choice(len(lists), size=n, p=w / w.sum())
        self.lists = lists
        span = (END - START).total_seconds()
        self.posted = self.rng.uniform(0, span, size=n)
        self.factor = np.exp(self.rng.normal(0, 0.15, size=n))
        self.hashkey = np.arange(n)
        # reposts: same content (hash and values) as an earlier copy of the same template
        dup = np.flatnonzero((self.rng.random(n) < 0.02) & (np.arange(n) >= m))
        src = dup - m * self.rng.integers(1, np.maximum(2, dup // m + 1), size=len(dup)).clip(max=dup // m)
        self.hashkey[dup] = src
        self.factor[dup] = self.factor[src]
        self.cross = self.rng.random(n) < 0.03
        self.reextract = self.rng.random(n) < reextract_share
        self.unit = unit
        y = np.array([(START + timedelta(seconds=float(s))).year for s in self.posted])
        mo = np.array([(START + timedelta(seconds=float(s))).month for s in self.posted])
        if unit == "month":
            period = [f"{a}-{b:02d}" for a, b in zip(y, mo, strict=True)]
        elif unit == "quarter":
            period = [f"{a}-Q{(b - 1) // 3 + 1}" for a, b in zip(y, mo, strict=True)]
        else:
            period = [str(a) for a in y]
        self.period = np.array(period)
        self.mids = np.array([f"{i:07d}.{tpl.names[t].replace('/', '.')}@{lists[li]}.bench.example.org"
                              for i, t, li in zip(range(n), self.tmpl, self.list_idx, strict=True)], dtype=object)

    def batches(self) -> list[np.ndarray]:
        key = np.char.add(np.array(self.lists, dtype=object)[self.list_idx].astype(str), self.period.astype(str))
        order = np.argsort(key, kind="stable")
        _, starts = np.unique(key[order], return_index=True)
        return np.split(order, starts[1:])

    def tables(self, inst: np.ndarray, batch_id: str, when: datetime, reason: str,
               quarantine_too: bool = True) -> dict[str, pa.Table]:
        from transforms.records import PARSER_VERSIONS
        from warehouse.schema import to_table

        tpl = self.tpl
        t = self.tmpl[inst]
        out: dict[str, pa.Table] = {}
        for name, src, span in (("runs", tpl.runs, tpl.run_span), ("results", tpl.results, tpl.res_span)):
            counts = span[t, 1] - span[t, 0]
            idx = np.concatenate([np.arange(a, b, dtype=np.int64) for a, b in span[t]] + [np.zeros(0, np.int64)])
            tbl = src.take(pa.array(idx, pa.int64()))
            prefix = np.repeat(np.array([f"{i:06x}" for i in inst], dtype=object), counts)
            tbl = _set(tbl, "run_id", pc.binary_join_element_wise(
                pa.array(prefix, pa.string()), pc.utf8_slice_codeunits(tbl.column("run_id"), 6), ""))
            tbl = _set(tbl, "message_id", pa.array(np.repeat(self.mids[inst], counts), pa.string()))
            tbl = _set(tbl, "batch_id", pa.array([batch_id] * len(idx), pa.string()))
            if name == "runs":
                hk = np.repeat(np.array([f"{h:08x}" for h in self.hashkey[inst]], dtype=object), counts)
                tbl = _set(tbl, "content_hash", pc.binary_join_element_wise(
                    pa.array(hk, pa.string()), pc.utf8_slice_codeunits(tbl.column("content_hash"), 8), ""))
            else:
                v = tbl.column("value").to_numpy()
                tbl = _set(tbl, "value", pa.array(_sig4(v * np.repeat(self.factor[inst], counts)), pa.float64()))
            out[name] = tbl
        msgs, mems, exts, quar = [], [], [], []
        for i in inst:
            mid, lst = self.mids[i], self.lists[self.list_idx[i]]
            posted = START + timedelta(seconds=float(self.posted[i]))
            url = f"https://lists.example.org/{lst}/{self.period[i]}/{i}.html"
            bench, case = self.tpl.names[self.tmpl[i]].split("/")
            msgs.append({"message_id": mid, "list_name": lst, "posted_at": posted, "from_name": f"Poster {i % 997}",
                         "subject": f"[{lst}] {bench} numbers: {case.replace('_', ' ')}", "in_reply_to": None,
                         "thread_id": mid, "archive_url": url, "url": url, "unit": f"{lst}/{self.period[i]}", "notes": None,
                         "batch_id": batch_id})
            mems.append({"message_id": mid, "list_name": lst, "unit": f"{lst}/{self.period[i]}",
                         "archive_url": url, "batch_id": batch_id})
            if self.cross[i]:
                other = self.lists[(self.list_idx[i] + 1) % len(self.lists)]
                mems.append({"message_id": mid, "list_name": other, "unit": f"{other}/{self.period[i]}",
                             "archive_url": url, "batch_id": batch_id})
            exts.append({"message_id": mid, "batch_id": batch_id, "extracted_at": when,
                         "parsers": PARSER_VERSIONS, "reason": reason})
            if quarantine_too:
                quar += [{**q, "message_id": mid, "list_name": lst, "batch_id": batch_id, "detected_at": when}
                         for q in self.tpl.quarantine[self.tmpl[i]]]
        if reason == "ingest":
            out["messages"] = to_table("messages", msgs)
            out["memberships"] = to_table("memberships", mems)
        out["extractions"] = to_table("extractions", exts)
        out["quarantine"] = to_table("quarantine", quar)
        return out


def build_lake(lake_dir: Path, rows: int, unit: str, seed: int, reextract_share: float) -> dict[str, Any]:
    from warehouse.lake import Lake, new_batch_id
    from warehouse.schema import partial_row, to_table

    stats: dict[str, Any] = {}
    t0 = time.perf_counter()
    tpl = Templates.build()
    stats["templates"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    b = LakeBuilder(tpl, rows, unit, seed, reextract_share)
    lake = Lake(lake_dir).open()
    t_tables = t_commit = 0.0
    n_results = n_batches = 0
    fetched = datetime(2015, 1, 2, tzinfo=UTC)
    for k, inst in enumerate(b.batches()):
        batch_id = new_batch_id()
        t1 = time.perf_counter()
        tables = b.tables(inst, batch_id, fetched, "ingest")
        lst, period = b.lists[b.list_idx[inst[0]]], b.period[inst[0]]
        failed = k % 97 == 13  # now and then a unit failed before (a later retry loaded it)
        tables["archives"] = to_table("archives", [{
            "source": lst, "unit": f"{lst}/{period}", "url": f"https://lists.example.org/{lst}/{period}.txt.gz",
            "etag": f'"{batch_id[:8]}"', "last_modified": None, "sha256": batch_id * 3, "bytes": 1000 * len(inst),
            "status": "ok", "error": None, "messages": len(inst), "messages_added": len(inst), "skipped": 0,
            "fetched_at": fetched, "ingest_run": "bench", "batch_id": batch_id}] + ([partial_row(
                "archives", source=lst, unit=f"{lst}/{period}", url=f"https://lists.example.org/{lst}/{period}.txt.gz",
                status="failed", error="ReadTimeout: timed out", fetched_at=fetched - timedelta(days=1),
                ingest_run="bench-earlier", batch_id=batch_id)] if failed else []))
        t2 = time.perf_counter()
        lake.commit(batch_id, tables)
        t3 = time.perf_counter()
        t_tables += t2 - t1
        t_commit += t3 - t2
        n_results += tables["results"].num_rows
        n_batches += 1
    re_inst = np.flatnonzero(b.reextract)
    if len(re_inst):
        batch_id = new_batch_id()
        t1 = time.perf_counter()
        tables = b.tables(re_inst, batch_id, fetched + timedelta(days=30), "reextract", quarantine_too=False)
        t2 = time.perf_counter()
        lake.commit(batch_id, tables)
        t_tables += t2 - t1
        t_commit += time.perf_counter() - t2
        n_results += tables["results"].num_rows
        n_batches += 1
    stats.update(build=time.perf_counter() - t0, tables=t_tables, commit=t_commit, messages=b.n,
                 copies=b.copies, templates_n=len(tpl.names), results=n_results, batches=n_batches,
                 reextracted=len(re_inst), reposts=int((b.hashkey != np.arange(b.n)).sum()),
                 cross=int(b.cross.sum()))
    return stats


def lake_sizes(lake_dir: Path) -> list[list[Any]]:
    rows = []
    for d in sorted(p for p in lake_dir.iterdir() if p.is_dir() and not p.name.startswith("_")):
        files = list(d.glob("*.parquet"))
        size = sum(f.stat().st_size for f in files)
        rows.append([d.name, len(files), size, human_bytes(size)])
    return rows


def time_sql(con: Any, sql: str, repeat: int) -> tuple[float, float, int]:
    """(median, first, rows) of running `sql` `repeat` times and fetching every row."""
    times, n = [], 0
    for _ in range(max(1, repeat)):
        t0 = time.perf_counter()
        n = len(con.execute(sql).fetchall())
        times.append(time.perf_counter() - t0)
    return statistics.median(times), times[0], n


def run_queries(db_path: Path, lake_dir: Path, repeat: int, label: str) -> tuple[list[str], float]:
    from warehouse.db import connect_readonly

    out = []
    con = connect_readonly(db_path)
    try:
        scan = f"SELECT count(*), sum(value) FROM read_parquet('{lake_dir}/results/*.parquet')"
        b_count, b_count_first, _ = time_sql(con, "SELECT count(*) FROM benchmark_results", repeat)
        b_scan, b_scan_first, _ = time_sql(con, scan, repeat)
        visible = con.execute("SELECT count(*) FROM benchmark_results").fetchone()[0]
        physical = con.execute(scan).fetchone()[0]
        rows = []
        total = 0.0
        for num, title, sql in doc_queries():
            try:
                med, first, n = time_sql(con, sql, repeat)
            except Exception as exc:  # a broken doc query is a finding, not a crash
                rows.append([num, title[:58], None, None, f"ERROR {type(exc).__name__}", None, None])
                continue
            total += med
            rows.append([num, title[:58], med * 1000, first * 1000, n, med / b_count, med / b_scan])
    finally:
        con.close()
    out += [f"baselines ({label}; median of {repeat}, fetching all rows):",
            f"  SELECT count(*) FROM benchmark_results        {b_count * 1000:9.1f} ms (first {b_count_first * 1000:.1f} ms)"
            f" -> {visible:,} visible rows",
            f"  read_parquet scan of results (count, sum)     {b_scan * 1000:9.1f} ms (first {b_scan_first * 1000:.1f} ms)"
            f" -> {physical:,} physical rows",
            f"  view stack / plain scan                       {ratio(b_count, b_scan):9.2f}x",
            "",
            table(["#", "question", "median ms", "first ms", "rows", "x count(*)", "x scan"], rows),
            f"sum of medians {total:.2f} s = {ratio(total, b_count):.1f}x count(*) baseline, "
            f"{ratio(total, b_scan):.1f}x scan baseline"]
    return out, b_count


def time_cli(data_dir: Path, cfg_dir: Path) -> list[str]:
    cfg = cfg_dir / "listbench.toml"
    cfg.write_text(f'data_dir = "{data_dir}"\n', encoding="utf-8")
    cmd = [sys.executable, "-m", "flows.cli", "sql", "SELECT count(*) FROM benchmark_results", "--config", str(cfg),
           "--format", "csv"]
    t0 = time.perf_counter()
    p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    t_cli = time.perf_counter() - t0
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-c", "import duckdb"], cwd=ROOT, check=True)
    t_bare = time.perf_counter() - t0
    shown = " ".join(["python", "-m", "flows.cli", "sql", '"SELECT count(*) FROM benchmark_results"',
                      "--config", str(cfg), "--format", "csv"])
    answer = p.stdout.strip().splitlines()[-1] if p.stdout.strip() else p.stderr.strip()[:200]
    return [f"CLI end to end: {shown}",
            f"  exit {p.returncode}, answer {answer!r}, {t_cli:.2f} s wall; "
            f"baseline `python -c \"import duckdb\"` {t_bare:.2f} s; ratio {ratio(t_cli, t_bare):.2f}x"]


def time_report(db_path: Path, root: Path) -> list[str]:
    """`listbench report` on the big lake: build time (a cold and a warm Vega bundle) and page size."""
    from flows.report import build
    from warehouse.report_data import Filters

    out = []
    for label in ("first build (bundles the Vega runtime)", "second build"):
        built = build(db_path, root / "report.html", Filters())
        out.append(f"report, {label}: {built.seconds:.1f} s, {human_bytes(built.bytes)}, {built.posts} posts charted, "
                   f"{built.points} overhead points")
    return ["", *out]


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.queries", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rows", type=int, default=1_200_000, help="result rows at least (default 1,200,000)")
    ap.add_argument("--unit", choices=("month", "quarter", "year"), default="year",
                    help="one committed batch (part file per table) per list and this period (default year)")
    ap.add_argument("--repeat", type=int, default=5, help="runs per query (median reported; default 5)")
    ap.add_argument("--reextract-share", type=float, default=0.05, help="messages re-extracted later (default 0.05)")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--compact", action="store_true", help="then compact every table and time the queries again")
    ap.add_argument("--no-cli", dest="cli", action="store_false", help="skip the CLI end-to-end run")
    ap.add_argument("--keep", type=Path, help="build the lake in this folder and keep it")
    ap.add_argument("--report", action="store_true", help="also time `listbench report` on the lake")
    ap.add_argument("--no-queries", dest="queries", action="store_false", help="skip the timed queries")
    args = ap.parse_args(argv)
    t_start = time.perf_counter()
    print(header("bench.queries: docs/queries.md on a big lake", "bench.queries", argv))
    from warehouse.db import refresh_views

    with tempfile.TemporaryDirectory(prefix="bench-queries-") as tmp:
        root = args.keep or Path(tmp)
        data_dir = root / "data"
        if data_dir.exists() and any(data_dir.iterdir()):
            print(f"error: {data_dir} is not empty", file=sys.stderr)
            return 1
        lake_dir, db_path = data_dir / "lake", data_dir / "listbench.duckdb"
        st = build_lake(lake_dir, args.rows, args.unit, args.seed, args.reextract_share)
        t0 = time.perf_counter()
        refresh_views(db_path, lake_dir)
        t_views = time.perf_counter() - t0
        print(f"\nlake: {st['messages']:,} messages ({st['templates_n']} fixture templates x {st['copies']} copies; "
              f"{st['reposts']:,} reposts, {st['cross']:,} cross-posted, {st['reextracted']:,} re-extracted), "
              f"{st['results']:,} physical result rows in {st['batches']} committed batches (one per list and "
              f"{args.unit}, + 1 re-extraction)")
        print(f"build: templates {st['templates']:.2f} s, tables {st['tables']:.1f} s, Lake.commit {st['commit']:.1f} s "
              f"({st['results'] / max(st['commit'], 1e-9):,.0f} result rows/s committed), refresh_views {t_views:.2f} s")
        sizes = lake_sizes(lake_dir)
        total = sum(r[2] for r in sizes)
        print(f"\nlake size on disk ({human_bytes(total)}; {lake_dir}):")
        print(table(["table", "files", "bytes", "size"], sizes + [["TOTAL", sum(r[1] for r in sizes), total,
                                                                   human_bytes(total)]]))
        if args.queries:
            print()
            lines, _ = run_queries(db_path, lake_dir, args.repeat, f"{st['batches']} parts per table")
            print("\n".join(lines))
        if args.report:
            print("\n".join(time_report(db_path, root)))
        if args.cli:
            print()
            print("\n".join(time_cli(data_dir, root)))
        if args.compact:
            from warehouse.lake import Lake
            from warehouse.schema import TABLES

            lake = Lake(lake_dir).open()
            t0 = time.perf_counter()
            for t in TABLES:
                lake.compact(t)
            refresh_views(db_path, lake_dir)
            print(f"\nafter Lake.compact of every table ({time.perf_counter() - t0:.1f} s):")
            lines, _ = run_queries(db_path, lake_dir, args.repeat, "1 part per table")
            print("\n".join(lines))
        if args.keep:
            print(f"\nkept: {root} (config {root / 'listbench.toml'})")
    print(f"\ntotal time {time.perf_counter() - t_start:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
