"""What the HTML report shows, aggregated in DuckDB: the page gets summaries, never raw tables.

Every function takes a read-only connection and a `Filters`; filters become bound parameters,
never SQL text. Each list a chart draws is capped (`cap`), and the cap says when it cut.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from datetime import date
from typing import Any

import duckdb

# The metrics the across-posts chart follows: (label, benchmark, metrics, params each row must have).
HEADLINE: tuple[tuple[str, str, tuple[str, ...], tuple[str, ...]], ...] = (
    ("lmbench fork", "lmbench", ("fork_proc",), ()),
    ("lmbench exec", "lmbench", ("exec_proc",), ()),
    ("lmbench context switch 2p/0K", "lmbench", ("ctxsw",), ("procs=2", "size_kb=0")),
    ("lmbench page fault", "lmbench", ("page_fault",), ()),
    ("netperf TCP_STREAM", "netperf", ("throughput",), ("test=TCP_STREAM",)),
    ("netperf TCP_RR", "netperf", ("transaction_rate",), ("test=TCP_RR",)),
    ("UnixBench index", "unixbench", ("index_score",), ()),
    ("Bonnie block write", "bonnie", ("seq_output_block",), ()),
    ("Bonnie block read", "bonnie", ("seq_input_block",), ()),
    ("fio IOPS", "fio", ("iops",), ()),
    ("iperf throughput", "iperf", ("throughput",), ()),
)


@dataclass(frozen=True, slots=True)
class Filters:
    """What the user asked for on the command line (the page filters further, offline)."""

    lists: tuple[str, ...] = ()
    benchmarks: tuple[str, ...] = ()
    since: date | None = None
    until: date | None = None  # inclusive


@dataclass(slots=True)
class Capped:
    """Rows of one chart or table, and how many there were before the cap."""

    rows: list[dict[str, Any]]
    total: int

    @property
    def cut(self) -> bool:
        return self.total > len(self.rows)


@dataclass(slots=True)
class Post:
    """One message that compares systems: its ratios to the first system and its raw values."""

    message_id: str
    subject: str | None
    list_name: str | None
    posted_at: str | None
    url: str | None
    benchmarks: list[str]
    systems: list[str]
    ratios: list[dict[str, Any]] = field(default_factory=list)
    values: list[dict[str, Any]] = field(default_factory=list)
    metrics_total: int = 0


def has_column(con: duckdb.DuckDBPyConnection, view: str, column: str) -> bool:
    """Older warehouses lack newer columns; the report uses them only where present."""
    cols = con.execute(
        "SELECT column_name FROM information_schema.columns WHERE table_name = ?", [view]
    ).fetchall()
    return any(c[0] == column for c in cols)


def _where(f: Filters, alias: str = "", date_col: str = "posted_at",
           with_benchmark: bool = True) -> tuple[str, list[Any]]:
    p = f"{alias}." if alias else ""
    sql: list[str] = []
    args: list[Any] = []
    if f.lists:
        sql.append(f"{p}list_name IN (SELECT unnest(?::VARCHAR[]))")
        args.append(list(f.lists))
    if f.benchmarks and with_benchmark:
        sql.append(f"{p}benchmark IN (SELECT unnest(?::VARCHAR[]))")
        args.append(list(f.benchmarks))
    if f.since:
        sql.append(f"{p}{date_col} >= ?::DATE")
        args.append(f.since)
    if f.until:
        sql.append(f"{p}{date_col} < ?::DATE + INTERVAL 1 DAY")
        args.append(f.until)
    return (" AND ".join(sql) or "TRUE"), args


def _dicts(cur: duckdb.DuckDBPyConnection) -> list[dict[str, Any]]:
    cols = [d[0] for d in cur.description]
    return [dict(zip(cols, row, strict=True)) for row in cur.fetchall()]


def _layout_sql(con: duckdb.DuckDBPyConnection) -> str:
    return "coalesce(b.layout, 'unrecorded')" if has_column(con, "benchmark_results", "layout") \
        else "'unrecorded'"


SNAPSHOT = "report_rows"


def snapshot(con: duckdb.DuckDBPyConnection, f: Filters) -> int:
    """Read the filtered `benchmark_results` once into memory and register it as `report_rows`.

    The view stack (current extraction, duplicates, joins) costs a full scan per query; every
    chart below reads this one copy instead. Returns its row count.
    """
    w, args = _where(f, "b")
    table = con.sql(
        f"SELECT b.message_id, b.list_name, b.posted_at, b.subject, b.run_id, r.block_index, b.benchmark, "
        f"b.system, b.metric, b.metric_label, "
        f"array_to_string(list_sort(list_transform(map_entries(b.params), lambda e: e.key || '=' || e.value)), ' ') "
        f"AS params, b.value, b.unit, b.higher_is_better, b.statistic, b.platform, {_layout_sql(con)} AS layout, "
        f"CASE WHEN regexp_matches(b.url, '^https?://') THEN b.url END AS url "
        f"FROM benchmark_results b JOIN lake_runs r USING (run_id) WHERE {w}", params=args).to_arrow_table()
    con.register(SNAPSHOT, table)
    return table.num_rows


def coverage(con: duckdb.DuckDBPyConnection, f: Filters) -> dict[str, list[dict[str, Any]]]:
    """Messages per list and year, blocks per benchmark and year, rows per layout, quarantine."""
    w_msg, a_msg = _where(f, with_benchmark=False)
    w_q, a_q = _where(f, "q", date_col="detected_at")
    out = {
        "messages": _dicts(con.execute(
            f"SELECT list_name, year(posted_at) AS year, count(*) AS messages FROM messages "
            f"WHERE {w_msg} GROUP BY ALL ORDER BY ALL", a_msg)),
        "blocks": _dicts(con.execute(
            f"SELECT list_name, benchmark, year(posted_at) AS year, count(DISTINCT run_id) AS blocks "
            f"FROM {SNAPSHOT} GROUP BY ALL ORDER BY ALL")),
        "layouts": _dicts(con.execute(
            f"SELECT list_name, benchmark, year(posted_at) AS year, layout, count(*) AS rows "
            f"FROM {SNAPSHOT} GROUP BY ALL ORDER BY ALL")),
        "quarantine": _dicts(con.execute(
            f"SELECT q.list_name, coalesce(q.benchmark, '') AS benchmark, year(q.detected_at) AS year, "
            f"q.expectation, q.severity, count(*) AS rows FROM quarantine q WHERE {w_q} "
            f"GROUP BY ALL ORDER BY rows DESC", a_q)),
    }
    for rows in out.values():
        for r in rows:
            r["year"] = None if r["year"] is None else int(r["year"])
    return out


def posts(con: duckdb.DuckDBPyConnection, max_posts: int = 40, max_metrics: int = 60) -> Capped:
    """Posts that compare systems, most compared first: ratios to the post's first system."""
    ids = con.execute(
        f"SELECT message_id FROM {SNAPSHOT} WHERE system IS NOT NULL AND value IS NOT NULL "
        f"GROUP BY message_id HAVING count(DISTINCT system) > 1 "
        f"ORDER BY count(*) DESC, min(posted_at) NULLS LAST, message_id").fetchall()
    chosen = [r[0] for r in ids[:max_posts]]
    rows = _dicts(con.execute(
        f"SELECT message_id, subject, list_name, strftime(posted_at, '%Y-%m-%d') AS posted, url, benchmark, "
        f"system, metric, metric_label, params, value, unit, higher_is_better, statistic FROM {SNAPSHOT} "
        f"WHERE message_id IN (SELECT unnest(?::VARCHAR[])) AND system IS NOT NULL AND value IS NOT NULL "
        f"ORDER BY message_id, block_index, benchmark, metric, params, system", [chosen]))
    by_post: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        by_post.setdefault(r["message_id"], []).append(r)
    out = [_post(mid, by_post[mid], max_metrics) for mid in chosen if mid in by_post]
    return Capped(rows=[asdict(p) for p in out], total=len(ids))


def _post(mid: str, rows: list[dict[str, Any]], max_metrics: int) -> Post:
    systems: list[str] = []
    for r in rows:
        if r["system"] not in systems:
            systems.append(r["system"])
    first = systems[0]
    by_key: dict[tuple, dict[str, dict[str, Any]]] = {}
    for r in rows:
        key = (r["benchmark"], r["metric"], r["params"] or "", r["statistic"], r["unit"])
        by_key.setdefault(key, {}).setdefault(r["system"], r)
    ratios: list[dict[str, Any]] = []
    compared = [k for k, v in by_key.items() if first in v and len(v) > 1]
    for key in compared[:max_metrics]:
        base = by_key[key][first]
        label = " ".join(x for x in (key[1], key[2]) if x)
        for system, r in by_key[key].items():
            if r["higher_is_better"] is None or not base["value"] or not r["value"]:
                continue
            ratio = r["value"] / base["value"] if r["higher_is_better"] else base["value"] / r["value"]
            ratios.append({"metric": label, "benchmark": key[0], "system": system, "ratio": ratio,
                           "value": r["value"], "unit": r["unit"]})
    values = [{k: r[k] for k in ("benchmark", "system", "metric_label", "params", "value", "unit")}
              for r in rows]
    head = rows[0]
    return Post(message_id=mid, subject=head["subject"], list_name=head["list_name"], posted_at=head["posted"],
                url=head["url"], benchmarks=sorted({r["benchmark"] for r in rows}), systems=systems,
                ratios=ratios, values=values, metrics_total=len(compared))


def overhead(con: duckdb.DuckDBPyConnection, cap: int = 5000) -> Capped:
    """Guest vs native per hypervisor over time for the headline metrics: one point per post,
    metric and hypervisor (the median over params), > 1 meaning the guest did better.

    The `overhead` view's rule (a virtualized system against a native one measured in the same
    post on the same metric, params, statistic and unit), applied to the headline rows only.
    """
    cases = []
    args: list[Any] = []
    for label, bench, metrics, required in HEADLINE:
        cond = "benchmark = ? AND metric IN (SELECT unnest(?::VARCHAR[]))"
        args += [bench, list(metrics)]
        for param in required:
            cond += " AND (' ' || params || ' ') LIKE ?"  # the param, whole
            args.append(f"% {param} %")
        cases.append(f"WHEN {cond} THEN ?")
        args.append(label)
    sql = (
        f"WITH h AS (SELECT * FROM (SELECT *, CASE {' '.join(cases)} END AS headline FROM {SNAPSHOT} "
        f"  WHERE posted_at IS NOT NULL AND platform IS NOT NULL AND value <> 0) WHERE headline IS NOT NULL) "
        f"SELECT a.headline, a.message_id, a.list_name, a.benchmark, a.platform AS hypervisor, "
        f"strftime(a.posted_at, '%Y-%m-%d') AS posted, "
        f"median(CASE WHEN a.higher_is_better THEN a.value / b.value ELSE b.value / a.value END) AS ratio, "
        f"count(*) AS n, any_value(a.subject) AS subject, any_value(a.url) AS url "
        f"FROM h a JOIN h b ON a.message_id = b.message_id AND a.benchmark = b.benchmark "
        f"AND a.metric = b.metric AND a.params = b.params AND a.statistic = b.statistic AND a.unit = b.unit "
        f"AND a.system <> b.system "
        f"WHERE b.platform = 'native' AND a.platform <> 'native' AND a.higher_is_better IS NOT NULL "
        f"GROUP BY ALL ORDER BY posted, a.headline, hypervisor"
    )
    rows = _dicts(con.execute(sql, args))
    return Capped(rows=rows[:cap], total=len(rows))


def choices(con: duckdb.DuckDBPyConnection) -> dict[str, list[str]]:
    """The values the page's filters offer."""
    return {
        "lists": [r[0] for r in con.execute(
            f"SELECT DISTINCT list_name FROM {SNAPSHOT} WHERE list_name IS NOT NULL ORDER BY 1").fetchall()],
        "benchmarks": [r[0] for r in con.execute(
            f"SELECT DISTINCT benchmark FROM {SNAPSHOT} ORDER BY 1").fetchall()],
    }


def totals(con: duckdb.DuckDBPyConnection) -> dict[str, int]:
    row = con.execute(
        f"SELECT count(DISTINCT message_id), count(DISTINCT run_id), count(*) FROM {SNAPSHOT}").fetchone()
    return {"messages": row[0], "blocks": row[1], "rows": row[2]}
