"""`listbench report`: one self-contained HTML page of charts over the warehouse.

Charts are Vega-Lite specs built with altair; the Vega runtime is inlined from the
vl-convert package, so the page fetches nothing when it is opened. Data comes
aggregated from DuckDB (`warehouse.report_data`); the page's filters set Vega
signals and hide post sections, offline. Text from messages reaches the page only
through Jinja's autoescaping or as JSON inside script elements with `<`, `>` and
`&` escaped; only http(s) URLs become links.
"""

from __future__ import annotations

import functools
import json
import os
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path
from typing import Any

import altair as alt
import jinja2

from warehouse import report_data as rd
from warehouse.db import connect_readonly

WIDTH = 620


@dataclass(frozen=True, slots=True)
class Built:
    path: Path
    bytes: int
    seconds: float
    posts: int
    points: int


def _script_json(value: Any) -> str:
    """JSON that cannot close its <script> element or open a comment."""
    text = json.dumps(value, default=str, ensure_ascii=False, allow_nan=False)
    return text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e") \
        .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def _filter_params() -> list[alt.Parameter]:
    return [alt.param(name="f_list", value=""), alt.param(name="f_bench", value=""),
            alt.param(name="f_system", value=""), alt.param(name="f_from", value=0),
            alt.param(name="f_to", value=9999)]


def _filter_expr(fields: set[str]) -> str:
    """A Vega expression keeping the rows the page's filters allow; fields a dataset lacks are free."""
    parts = []
    if "list_name" in fields:
        parts.append("(f_list === '' || datum.list_name === f_list)")
    if "benchmark" in fields:
        parts.append("(f_bench === '' || datum.benchmark === f_bench)")
    if "system" in fields:
        parts.append("(f_system === '' || indexof(lower(datum.system), lower(f_system)) >= 0)")
    if "year" in fields:
        parts.append("(datum.year === null || (datum.year >= f_from && datum.year <= f_to))")
    return " && ".join(parts) or "true"


ROWS = alt.Data(name="rows")  # the chart's rows, attached after altair built the spec


def _with_rows(spec: dict[str, Any], rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Attach the rows as a named dataset: altair walks inline data row by row, which is slow."""
    spec["datasets"] = {"rows": rows}
    return spec


def _chart(rows: list[dict[str, Any]], mark: alt.Chart, fields: set[str]) -> dict[str, Any]:
    spec = mark.add_params(*_filter_params()).transform_filter(_filter_expr(fields)).to_dict(validate=False)
    return _with_rows(spec, rows)


def _bar(rows: list[dict[str, Any]], x: str, y: str, color: str, title: str,
         horizontal: bool = False) -> dict[str, Any]:
    data = ROWS
    enc = dict(x=alt.X(f"sum({y}):Q", title=y), y=alt.Y(f"{x}:N", title=None, sort="-x")) if horizontal \
        else dict(x=alt.X(f"{x}:O", title=None), y=alt.Y(f"sum({y}):Q", title=y))
    chart = alt.Chart(data, title=title).mark_bar().encode(
        **enc, color=alt.Color(f"{color}:N"), tooltip=[f"{x}:N", f"{color}:N", f"sum({y}):Q"],
    ).properties(width=WIDTH if not horizontal else WIDTH - 200, height=220)
    return _chart(rows, chart, set(rows[0]) if rows else set())


def coverage_specs(cov: dict[str, list[dict[str, Any]]]) -> list[tuple[str, dict[str, Any] | None]]:
    return [
        ("Messages per list and year",
         _bar(cov["messages"], "year", "messages", "list_name", "Messages per list and year")
         if cov["messages"] else None),
        ("Benchmark blocks per benchmark and year",
         _bar(cov["blocks"], "year", "blocks", "benchmark", "Benchmark blocks per benchmark and year")
         if cov["blocks"] else None),
        ("How result rows were read",
         _bar(cov["layouts"], "layout", "rows", "benchmark", "Result rows by how they were read",
              horizontal=True) if cov["layouts"] else None),
        ("Quarantined rows by rule",
         _bar(cov["quarantine"], "expectation", "rows", "severity", "Quarantined rows by rule",
              horizontal=True) if cov["quarantine"] else None),
    ]


@functools.cache
def _post_template() -> str:
    """One post chart built by altair (~0.1 s); each post gets a copy with its own title, order and rows."""
    chart = alt.Chart(ROWS).mark_bar().encode(
        x=alt.X("metric:N", title=None, sort=None, axis=alt.Axis(labelAngle=-40, labelLimit=180)),
        xOffset=alt.XOffset("system:N", sort=["first"]),
        y=alt.Y("ratio:Q", title="ratio (log)", scale=alt.Scale(type="log")),
        color=alt.Color("system:N", sort=["first"]),
        tooltip=["metric:N", "system:N", alt.Tooltip("ratio:Q", format=".3f"),
                 alt.Tooltip("value:Q", format=",.4~g"), "unit:N"],
    ).properties(title="title", width=alt.Step(14), height=220)
    rule = alt.Chart(alt.Data(values=[{"one": 1}])).mark_rule(strokeDash=[4, 3]).encode(y="one:Q")
    spec = alt.layer(chart, rule).add_params(*_filter_params()).to_dict(validate=False)
    spec["layer"][0]["transform"] = [{"filter": _filter_expr({"system"})}]
    return json.dumps(spec)


def post_spec(post: dict[str, Any]) -> dict[str, Any] | None:
    """A grouped bar per metric: each system's ratio to the post's first system (> 1 is better)."""
    rows = post["ratios"]
    if not rows:
        return None
    spec = json.loads(_post_template())
    bars = spec["layer"][0]
    bars["title"] = f"Ratio to {post['systems'][0]} (> 1 is better)"
    bars["encoding"]["xOffset"]["sort"] = list(post["systems"])
    bars["encoding"]["color"]["sort"] = list(post["systems"])
    return _with_rows(spec, rows)


def overhead_spec(rows: list[dict[str, Any]]) -> dict[str, Any] | None:
    if not rows:
        return None
    for r in rows:
        r["year"] = int(r["posted"][:4]) if r.get("posted") else None
    base = alt.Chart(ROWS).mark_point(filled=True, size=70).encode(
        x=alt.X("posted:T", title="posted"),
        y=alt.Y("ratio:Q", title="guest / native (> 1: guest better)", scale=alt.Scale(type="log")),
        color=alt.Color("hypervisor:N"),
        href=alt.Href("url:N"),
        tooltip=["headline:N", "hypervisor:N", "posted:T", alt.Tooltip("ratio:Q", format=".3f"),
                 "subject:N", "list_name:N"],
    ).properties(width=260, height=160)
    chart = base.facet(facet=alt.Facet("headline:N", title=None), columns=3) \
        .resolve_scale(y="independent")
    return _chart(rows, chart, {"list_name", "benchmark", "year"})


_ENV = jinja2.Environment(
    loader=jinja2.FunctionLoader(
        lambda name: resources.files("flows").joinpath(name).read_text(encoding="utf-8")),
    autoescape=True, undefined=jinja2.StrictUndefined,
)
_ENV.filters["script_json"] = lambda v: jinja2.utils.markupsafe.Markup(_script_json(v))


def _vega_bundle(cache_dir: Path | None = None) -> str:
    """The Vega + Vega-Lite + vega-embed runtime; bundling takes seconds, so it is kept per version."""
    import vl_convert

    version = getattr(vl_convert, "__version__", "unknown")
    cached = cache_dir / f".vega-embed-{version}.js" if cache_dir is not None else None
    if cached is not None and cached.is_file():
        return cached.read_text(encoding="utf-8")
    text = vl_convert.javascript_bundle().replace("</script", "<\\/script")
    if cached is not None:
        tmp = cached.with_name(f"{cached.name}.{os.getpid()}.tmp")
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, cached)
    return text


def render(con: Any, filters: rd.Filters, *, max_posts: int = 40, cap: int = 5000,
           title: str = "listbench report", cache_dir: Path | None = None) -> tuple[str, int, int]:
    """(HTML, posts shown, overhead points) for the warehouse behind `con`."""
    rd.snapshot(con, filters)
    cov = rd.coverage(con, filters)
    posts = rd.posts(con, max_posts=max_posts)
    over = rd.overhead(con, cap=cap)
    specs: dict[str, dict[str, Any]] = {}
    coverage = []
    for i, (name, spec) in enumerate(coverage_specs(cov)):
        if spec is not None:
            specs[f"cov{i}"] = spec
        coverage.append({"title": name, "id": f"cov{i}" if spec is not None else None})
    post_items = []
    for i, post in enumerate(posts.rows):
        spec = post_spec(post)
        if spec is not None:
            specs[f"post{i}"] = spec
        url = post["url"] if post["url"] and post["url"].startswith(("http://", "https://")) else None
        year = post["posted_at"][:4] if post["posted_at"] else ""
        post_items.append({**post, "url": url, "id": f"post{i}" if spec is not None else None,
                           "year": year})
    over_spec = overhead_spec(over.rows)
    if over_spec is not None:
        specs["overhead"] = over_spec
    html = _ENV.get_template("report.html.j2").render(
        title=title,
        generated=datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        totals=rd.totals(con),
        choices=rd.choices(con),
        coverage=coverage,
        posts=post_items,
        posts_total=posts.total,
        overhead=over,
        headline=[h[0] for h in rd.HEADLINE],
        specs=specs,
        vega=jinja2.utils.markupsafe.Markup(_vega_bundle(cache_dir)),
    )
    return html, len(post_items), len(over.rows)


def build(db_path: Path, out: Path, filters: rd.Filters, *, max_posts: int = 40,
          cap: int = 5000) -> Built:
    """Write the report atomically (a half-written page never replaces a good one)."""
    t0 = time.perf_counter()
    con = connect_readonly(db_path)
    try:
        html, n_posts, n_points = render(con, filters, max_posts=max_posts, cap=cap,
                                         cache_dir=Path(db_path).parent)
    finally:
        con.close()
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(f".{out.name}.{os.getpid()}.tmp")
    tmp.write_text(html, encoding="utf-8")
    os.replace(tmp, out)
    return Built(path=out, bytes=out.stat().st_size, seconds=time.perf_counter() - t0,
                 posts=n_posts, points=n_points)
