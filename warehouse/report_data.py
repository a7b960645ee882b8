"""What the HTML report shows, aggregated in DuckDB: the page gets summaries, never raw tables.

Every function takes a read-only connection and a `Filters`; filters become bound parameters,
never SQL text. Each list a chart draws is capped (`cap`), and the cap says when it cut.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from datetime import date
from typing import Any

import duckdb

# The metrics the across-posts chart follows: (label, benchmark, metrics, netperf test or None).
HEADLINE: tuple[tuple[str, str, tuple[str, ...], str | None], ...] = (
    ("lmbench fork", "lmbench", ("fork_proc",), None),
    ("lmbench exec", "lmbench", ("exec_proc",), None),
    ("lmbench context switch 2p/0K", "lmbench", ("ctxsw_2p_0k", "lat_ctxsw_2p_0k"), None),
    ("lmbench page fault", "lmbench", ("page_fault",), None),
    ("netperf TCP_STREAM", "netperf", ("throughput",), "TCP_STREAM"),
    ("netperf TCP_RR", "netperf", ("transaction_rate",), "TCP_RR"),
    ("UnixBench index", "unixbench", ("index_score",), None),
    ("Bonnie block write", "bonnie", ("seq_output_block",), None),
    ("Bonnie block read", "bonnie", ("seq_input_block",), None),
    ("fio IOPS", "fio", ("iops",), None),
    ("iperf throughput", "iperf", ("throughput",), None),
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


def _url_sql(con: duckdb.DuckDBPyConnection, alias: str) -> str:
    """The post's own page when the warehouse knows it, else nothing (a month file is no permalink)."""
    if has_column(con, "messages", "url"):
        return f"CASE WHEN regexp_matches({alias}.url, '^https?://') THEN {alias}.url END"
    return "NULL::VARCHAR"


def _layout_sql(con: duckdb.DuckDBPyConnection) -> str:
    return "coalesce(layout, 'unrecorded')" if has_column(con, "benchmark_results", "layout") \
        else "'unrecorded'"


def coverage(con: duckdb.DuckDBPyConnection, f: Filters) -> dict[str, list[dict[str, Any]]]:
    """Messages per list and year, blocks per benchmark and year, rows per layout, quarantine."""
    w_msg, a_msg = _where(f, with_benchmark=False)
    w_res, a_res = _where(f, "b")
    w_q, a_q = _where(f, "q", date_col="detected_at")
    out = {
        "messages": _dicts(con.execute(
            f"SELECT list_name, year(posted_at) AS year, count(*) AS messages FROM messages "
            f"WHERE {w_msg} GROUP BY ALL ORDER BY ALL", a_msg)),
        "blocks": _dicts(con.execute(
            f"SELECT b.list_name, b.benchmark, year(b.posted_at) AS year, count(DISTINCT b.run_id) AS blocks "
            f"FROM benchmark_results b WHERE {w_res} GROUP BY ALL ORDER BY ALL", a_res)),
        "layouts": _dicts(con.execute(
            f"SELECT b.list_name, b.benchmark, year(b.posted_at) AS year, {_layout_sql(con)} AS layout, "
            f"count(*) AS rows FROM benchmark_results b WHERE {w_res} GROUP BY ALL ORDER BY ALL", a_res)),
        "quarantine": _dicts(con.execute(
            f"SELECT q.list_name, coalesce(q.benchmark, '') AS benchmark, year(q.detected_at) AS year, "
            f"q.expectation, q.severity, count(*) AS rows FROM quarantine q WHERE {w_q} "
            f"GROUP BY ALL ORDER BY rows DESC", a_q)),
    }
    for rows in out.values():
        for r in rows:
            r["year"] = None if r["year"] is None else int(r["year"])
    return out


def posts(con: duckdb.DuckDBPyConnection, f: Filters, max_posts: int = 40,
          max_metrics: int = 60) -> Capped:
    """Posts that compare systems, most compared first: ratios to the post's first system."""
    w, args = _where(f, "b")
    ids = con.execute(
        f"SELECT b.message_id, count(DISTINCT b.system) AS systems, count(*) AS n, min(b.posted_at) AS t "
        f"FROM benchmark_results b WHERE {w} AND b.system IS NOT NULL AND b.value IS NOT NULL "
        f"GROUP BY b.message_id HAVING count(DISTINCT b.system) > 1 "
        f"ORDER BY n DESC, t NULLS LAST, b.message_id", args).fetchall()
    chosen = [r[0] for r in ids[:max_posts]]
    out: list[Post] = []
    url = _url_sql(con, "m")
    for mid in chosen:
        head = con.execute(
            f"SELECT m.subject, m.list_name, strftime(m.posted_at, '%Y-%m-%d') AS posted, {url} AS url "
            f"FROM messages m WHERE m.message_id = ?", [mid]).fetchone() or (None, None, None, None)
        rows = _dicts(con.execute(
            "SELECT b.run_id, b.benchmark, b.system, b.metric, b.metric_label, "
            "array_to_string(list_sort(list_transform(map_entries(b.params), lambda e: e.key || '=' || e.value)), ' ') "
            "AS params, b.value, b.unit, b.higher_is_better, b.statistic "
            "FROM benchmark_results b JOIN runs r USING (run_id) "
            "WHERE b.message_id = ? AND b.system IS NOT NULL AND b.value IS NOT NULL "
            "ORDER BY r.block_index, b.benchmark, b.metric, params, b.system", [mid]))
        out.append(_post(mid, head, rows, max_metrics))
    return Capped(rows=[asdict(p) for p in out], total=len(ids))


def _post(mid: str, head: tuple, rows: list[dict[str, Any]], max_metrics: int) -> Post:
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
    subject, list_name, posted, url = head
    return Post(message_id=mid, subject=subject, list_name=list_name, posted_at=posted, url=url,
                benchmarks=sorted({r["benchmark"] for r in rows}), systems=systems, ratios=ratios,
                values=values, metrics_total=len(compared))


def overhead(con: duckdb.DuckDBPyConnection, f: Filters, cap: int = 5000) -> Capped:
    """Guest vs native per hypervisor over time for the headline metrics: one point per post,
    metric and hypervisor (the median over params), > 1 meaning the guest did better."""
    w, args = _where(f, "o")
    cases = []
    for label, bench, metrics, test in HEADLINE:
        cond = "o.benchmark = ? AND o.metric IN (SELECT unnest(?::VARCHAR[]))"
        cargs: list[Any] = [bench, list(metrics)]
        if test:
            cond += " AND o.params['test'] = ?"
            cargs.append(test)
        cases.append((label, cond, cargs))
    when = " ".join(f"WHEN {c} THEN ?" for _, c, _ in cases)
    when_args: list[Any] = []
    for label, _, cargs in cases:
        when_args += [*cargs, label]
    url = _url_sql(con, "m")
    sql = (
        f"SELECT * FROM (SELECT CASE {when} END AS headline, o.message_id, o.list_name, o.benchmark, "
        f"o.hypervisor, strftime(o.posted_at, '%Y-%m-%d') AS posted, median(o.ratio) AS ratio, "
        f"count(*) AS n, any_value(m.subject) AS subject, any_value({url}) AS url "
        f"FROM overhead o JOIN messages m USING (message_id) "
        f"WHERE {w} AND o.ratio IS NOT NULL AND o.posted_at IS NOT NULL GROUP BY ALL) "
        f"WHERE headline IS NOT NULL ORDER BY posted, headline, hypervisor"
    )
    rows = _dicts(con.execute(sql, when_args + args))
    return Capped(rows=rows[:cap], total=len(rows))


def choices(con: duckdb.DuckDBPyConnection, f: Filters) -> dict[str, list[str]]:
    """The values the page's filters offer."""
    w, args = _where(f, "b")
    return {
        "lists": [r[0] for r in con.execute(
            f"SELECT DISTINCT b.list_name FROM benchmark_results b WHERE {w} ORDER BY 1", args).fetchall()],
        "benchmarks": [r[0] for r in con.execute(
            f"SELECT DISTINCT b.benchmark FROM benchmark_results b WHERE {w} ORDER BY 1", args).fetchall()],
    }


def totals(con: duckdb.DuckDBPyConnection, f: Filters) -> dict[str, int]:
    w, args = _where(f, "b")
    row = con.execute(
        f"SELECT count(DISTINCT b.message_id), count(DISTINCT b.run_id), count(*) "
        f"FROM benchmark_results b WHERE {w}", args).fetchone()
    return {"messages": row[0], "blocks": row[1], "rows": row[2]}
