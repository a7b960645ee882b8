"""`listbench`: the command line. Heavy imports (Prefect, GX, DuckDB) happen inside commands."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated, Any, NoReturn

import typer

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  help="Mine benchmark results out of mailing-list archives into DuckDB.")

ConfigOpt = Annotated[str | None, typer.Option("--config", "-c", help="Path of listbench.toml")]
FormatOpt = Annotated[str, typer.Option("--format", "-f", help="table | json | csv")]


def quiet_prefect(verbose: bool = False) -> None:
    """Defaults for an embedded run: no telemetry (its first-run write races the migration), quiet logs."""
    os.environ.setdefault("PREFECT_LOGGING_LEVEL", "INFO" if verbose else "WARNING")
    os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")
    # a first run on a fresh machine compiles Prefect's modules and migrates its database:
    # the default 20 s for the temporary API to answer is too tight on 2 cores
    os.environ.setdefault("PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS", "180")
    os.environ.setdefault("GX_ANALYTICS_ENABLED", "False")
    # log lines carry unit names and error texts from archives: never markup or emoji codes
    os.environ["PREFECT_LOGGING_MARKUP"] = "false"
    os.environ.setdefault("PREFECT_LOGGING_HANDLERS_CONSOLE_CLASS", "flows.prefect_log.PlainConsoleHandler")


def fail(msg: str, code: int = 1) -> None:
    typer.echo(f"listbench: {msg}", err=True)
    raise typer.Exit(code)


def _fmt(fmt: str) -> str:
    from flows.output import FORMATS

    if fmt not in FORMATS:
        fail(f"unknown format {fmt!r} (use one of: {', '.join(FORMATS)})")
    return fmt


def _months(since: str | None, until: str | None) -> None:
    import re

    for label, v in (("--since", since), ("--until", until)):
        if v is not None and not re.fullmatch(r"\d{4}-(0[1-9]|1[0-2])", v):
            fail(f"{label} must be YYYY-MM (got {v!r})")


def _config(path: str | None):
    from flows.config import ConfigError, load_config

    try:
        return load_config(path)
    except ConfigError as exc:
        fail(str(exc))


@app.command()
def ingest(
    config: ConfigOpt = None,
    source: Annotated[list[str] | None, typer.Option("--source", "-s", help="Only this source (repeatable)")] = None,
    since: Annotated[str | None, typer.Option(help="First month, YYYY-MM")] = None,
    until: Annotated[str | None, typer.Option(help="Last month, YYYY-MM")] = None,
    verbose: Annotated[bool, typer.Option("--verbose", "-v")] = False,
    task_runner: Annotated[str, typer.Option(help="default | dask (per-unit extraction on a Dask cluster)")] = "default",
    dask_address: Annotated[str | None, typer.Option(help="Dask scheduler tcp://HOST:PORT (default: a local 2-worker cluster)")] = None,
    recheck: Annotated[bool, typer.Option("--recheck", help="Ask again for units taken as settled (HyperKitty months)")] = False,
    full_flow: Annotated[bool, typer.Option("--full-flow", help="Run the Prefect flow even when no unit has changed")] = False,
    workers: Annotated[int | None, typer.Option(
        "--workers", min=1, help="Worker processes that decode and extract a unit (default: the CPUs, at most 4)")] = None,
) -> None:
    """Run the ingest flow for every enabled source (or the named ones).

    With PREFECT_API_URL set, the units are checked first: when none changed, the run is only
    those checks and its record (ledger, summary, a `no-change` flow run in Prefect)."""
    cfg = _config(config)
    from flows.runners import RunnerError, check_runner

    try:
        check_runner(task_runner, dask_address)
    except RunnerError as exc:
        fail(str(exc))
    for name in source or []:
        if name not in {s.name for s in cfg.sources}:
            fail(f"no source named {name!r} in {cfg.path}")
    _months(since, until)
    if not source and not cfg.enabled_sources:
        fail(f"no enabled source in {cfg.path}")
    if workers is not None:
        from flows.workers import WORKERS_ENV

        os.environ[WORKERS_ENV] = str(workers)  # read where the pool is sized, here and in deployments' runs
    quiet_prefect(verbose)
    from warehouse.lake import LakeError

    try:
        from flows.checkfirst import ingest as run_ingest
        from flows.summary import print_summary

        with _progress():
            result = run_ingest(cfg, source or None, since, until, task_runner, dask_address, recheck, full_flow)
    except (LakeError, RunnerError) as exc:
        fail(str(exc))
    print_summary(cfg, result)
    _alert_failures(result.get("alert_failures") or {})
    _END_AT_ONCE.append(True)
    if result["failed"]:
        typer.echo(f"listbench: {result['failed']} unit(s) failed; see `listbench sql \"SELECT * FROM archives WHERE status = 'failed'\"`", err=True)
        raise typer.Exit(2)


def _alert_failures(failed: dict[str, str]) -> None:
    """One line per alert channel that did not accept the alert (reported, never fatal)."""
    for channel, reason in failed.items():
        typer.echo(f"listbench: alert channel {channel} failed ({reason}); the other channels were tried", err=True)


@contextmanager
def _progress() -> Iterator[None]:
    """Units and bytes as the run goes (stderr; plain terminals get no live display)."""
    from flows.console import console, progress
    from flows.summary import observe

    bar = progress(console(stderr=True))
    tasks: dict[str, Any] = {}

    def on(event: str, d: dict[str, Any]) -> None:
        if event == "source":
            tasks[d["source"]] = bar.add_task(f"{d['source']}: units", total=d["units"], mb=0.0)
        elif event == "unit" and d["source"] in tasks:
            t = tasks[d["source"]]
            mb = bar.tasks[t].fields["mb"] + (d["bytes"] or 0) / 1e6
            bar.update(t, advance=1, mb=mb, description=f"{d['source']}: {d['unit']} ({d['status']})")

    stop = observe(on)
    try:
        with bar:
            yield
    finally:
        stop()


@app.command()
def extract(
    path: Annotated[str, typer.Argument(help="A post (plain text), an .eml, an mbox (.gz ok), or - for stdin")],
    fmt: FormatOpt = "table",
    explain: Annotated[bool, typer.Option("--explain", help="Say, on stderr, what each block was taken for and why")] = False,
    intervals: Annotated[bool, typer.Option("--intervals", help="Also print interval series rows (statistic "
                                            "'interval': sysbench, iperf -i, fio --status-interval)")] = False,
) -> None:
    """Parse one post or mbox and print the rows (no warehouse, no Prefect)."""
    fmt = _fmt(fmt)
    from flows.extract_cmd import EXTRACT_COLUMNS, extract_rows
    from flows.output import print_rows

    problems: list[str] = []
    notes: list[str] | None = [] if explain else None
    try:
        rows = extract_rows(path, problems, explain=notes)
    except (OSError, ValueError) as exc:
        fail(str(exc))
    for line in problems:  # messages that were skipped or read with damage; their neighbours still count
        typer.echo(line, err=True)
    for line in notes or []:
        typer.echo(line, err=True)
    if not rows:
        typer.echo(f"{path}: no benchmark results found", err=True)
    series = [r for r in rows if r.get("statistic") == "interval"]
    if series and not intervals:  # the summary, as benchmark_results shows it; the series on request
        rows = [r for r in rows if r.get("statistic") != "interval"]
        typer.echo(f"{path}: {len(series)} interval rows not shown (--intervals prints them)", err=True)
    print_rows(EXTRACT_COLUMNS, [[r.get(c) for c in EXTRACT_COLUMNS] for r in rows], fmt)


@app.command()
def sql(
    query: Annotated[str, typer.Argument(help="SQL to run on the warehouse (read-only)")],
    config: ConfigOpt = None,
    fmt: Annotated[str, typer.Option("--format", "-f", help="table | json | csv | parquet")] = "table",
    out: Annotated[str | None, typer.Option("--out", "-o", help="Write to this file instead of stdout")] = None,
    as_of: Annotated[str | None, typer.Option(
        "--as-of", help="Query the lake as it was: a version (`listbench history`) or a time (ISO 8601, UTC if no zone)")] = None,
) -> None:
    """Query the warehouse (views over the Delta lake; opened read-only)."""
    if fmt != "parquet":
        fmt = _fmt(fmt)
    elif not out:
        fail("--format parquet needs --out FILE")
    cfg = _config(config)
    if as_of is not None:
        with _as_of(cfg, as_of) as db:
            _sql(db, query, fmt, out)
        return
    _catch_up(cfg)
    _sql(cfg.db_path, query, fmt, out)


def _catch_up(cfg: Any) -> None:
    """Rebuild the views file when the lake has commits it does not show yet (a writer killed
    between its commit and its views refresh); reads the lake only."""
    from warehouse.db import refresh_views_if_needed
    from warehouse.lake import Lake

    try:
        lake = Lake(cfg.lake_dir, cfg.storage)
        if cfg.db_path.exists() and lake.exists():
            refresh_views_if_needed(cfg.db_path, lake)
    except Exception as exc:  # the views file as it is still answers
        typer.echo(f"listbench: views not refreshed ({type(exc).__name__}: {exc}); showing the last snapshot", err=True)


@contextmanager
def _as_of(cfg: Any, when: str) -> Iterator[Any]:
    """A temporary views file over the lake as of a version or time."""
    import tempfile
    from datetime import UTC, datetime
    from pathlib import Path

    from warehouse.db import WarehouseMissing, views_as_of
    from warehouse.lake import LakeError

    point: int | datetime
    if when.isdigit():
        point = int(when)
    else:
        try:
            point = datetime.fromisoformat(when)
        except ValueError:
            fail(f"--as-of {when!r}: not a version number nor an ISO 8601 time")
        if point.tzinfo is None:
            point = point.replace(tzinfo=UTC)
    with tempfile.TemporaryDirectory(prefix="listbench-asof-") as tmp:
        try:
            db = views_as_of(cfg.db_path, cfg.lake_dir, point, Path(tmp) / "asof.duckdb", cfg.storage)
        except (WarehouseMissing, LakeError) as exc:
            fail(str(exc))
        yield db


def _sql(db_path: Any, query: str, fmt: str, out: str | None) -> None:
    import duckdb

    from flows.output import print_rows
    from warehouse.db import WarehouseMissing, error_line, export_parquet
    from warehouse.db import query as run_query
    from warehouse.guard import Refused

    try:
        if fmt == "parquet":
            n = export_parquet(db_path, query, out)
            typer.echo(f"{n} rows written to {out}", err=True)
            return
        cols, rows = run_query(db_path, query)  # a lake on object storage is read through fsspec
    except (WarehouseMissing, Refused) as exc:
        fail(str(exc))
    except duckdb.Error as exc:
        fail(f"query failed: {error_line(exc)}")
    if out:
        try:
            with open(out, "w", encoding="utf-8", newline="") as f:
                print_rows(cols, rows, fmt, out=f)
        except OSError as exc:
            fail(f"cannot write {out}: {exc.strerror}")
    else:
        print_rows(cols, rows, fmt)


@app.command()
def shell(config: ConfigOpt = None) -> None:
    """An interactive SQL prompt on the warehouse (read statements only, like `sql`)."""
    cfg = _config(config)
    if not cfg.db_path.exists():
        fail(f"no warehouse at {cfg.db_path}: run `listbench ingest` first")
    # not DuckDB's own CLI: it would run COPY ... TO and friends (read_only guards the catalog only)
    from flows.repl import repl

    repl(cfg.db_path)


STATS_QUERIES = {
    "messages per list and year":
        "SELECT list_name, year(posted_at) AS year, count(*) AS messages FROM messages GROUP BY ALL ORDER BY ALL",
    "blocks per benchmark":
        "SELECT benchmark, count(*) AS blocks, count(DISTINCT message_id) AS messages, sum(n_results) AS rows"
        " FROM runs WHERE duplicate_of IS NULL GROUP BY ALL ORDER BY ALL",
    "quarantine":
        "SELECT table_name, expectation, severity, count(*) AS rows FROM quarantine GROUP BY ALL ORDER BY rows DESC",
}


@app.command()
def stats(config: ConfigOpt = None, fmt: FormatOpt = "table") -> None:
    """Messages per list and year, blocks per benchmark, quarantine counts."""
    fmt = _fmt(fmt)
    cfg = _config(config)
    from flows.output import print_rows
    from warehouse.db import WarehouseMissing
    from warehouse.db import query as run_query

    try:
        for title, q in STATS_QUERIES.items():
            cols, rows = run_query(cfg.db_path, q)
            print_rows(cols, rows, fmt, title=None if fmt != "table" else title)
    except WarehouseMissing as exc:
        fail(str(exc))


@app.command()
def validate(config: ConfigOpt = None, fmt: FormatOpt = "table") -> None:
    """Re-run every expectation suite over the whole warehouse; exit 1 when an error-level one fails."""
    fmt = _fmt(fmt)
    cfg = _config(config)
    quiet_prefect()
    from expectations.revalidate import validate_warehouse
    from flows.output import print_rows
    from warehouse.db import WarehouseMissing

    try:
        findings = validate_warehouse(cfg.db_path, [s.name for s in cfg.sources])
    except WarehouseMissing as exc:
        fail(str(exc))
    cols = ("table", "expectation", "severity", "count")
    print_rows(cols, [[f[c] for c in cols] for f in findings], fmt, title="failed expectations")
    if any(f["severity"] == "error" for f in findings):
        raise typer.Exit(1)


@app.command()
def quarantine(config: ConfigOpt = None, fmt: FormatOpt = "table",
               limit: Annotated[int, typer.Option(help="Rows to show")] = 50) -> None:
    """What was rejected, by which rule, with the raw snippet."""
    fmt = _fmt(fmt)
    cfg = _config(config)
    from flows.output import print_rows
    from warehouse.db import WarehouseMissing
    from warehouse.db import query as run_query

    try:
        cols, rows = run_query(
            cfg.db_path,
            "SELECT detected_at, list_name, table_name, expectation, severity, benchmark, metric, value, observed,"
            " message_id, left(snippet, 200) AS snippet FROM quarantine ORDER BY detected_at DESC LIMIT ?",
            [limit],
        )
    except WarehouseMissing as exc:
        fail(str(exc))
    print_rows(cols, rows, fmt)


@app.command()
def reextract(
    config: ConfigOpt = None,
    benchmark: Annotated[str | None, typer.Option(help="Only this benchmark's runs")] = None,
    since: Annotated[str | None, typer.Option(help="First month, YYYY-MM")] = None,
    until: Annotated[str | None, typer.Option(help="Last month, YYYY-MM")] = None,
) -> None:
    """Re-run the current parsers over stored message bodies (no network); swap the runs atomically."""
    cfg = _config(config)
    _months(since, until)
    from transforms.parsers import known_benchmarks

    if benchmark and benchmark not in known_benchmarks():
        fail(f"unknown benchmark {benchmark!r} (known: {', '.join(sorted(known_benchmarks()))})")
    quiet_prefect()
    from flows.reextract import reextract as run
    from warehouse.lake import LakeError

    try:
        rep = run(cfg, benchmark, since, until)
    except LakeError as exc:
        fail(str(exc))
    typer.echo(f"messages re-extracted: {rep.messages}; rows added {rep.added}, changed {rep.changed}, "
               f"removed {rep.removed}, unchanged {rep.unchanged}; quarantined {rep.quarantined}")
    _alert_failures(rep.alert_failures)
    for mid in rep.timed_out:
        typer.echo(f"listbench: extraction of {mid} timed out (over {cfg.limits.message_timeout_s:g} s); "
                   "left as it was", err=True)
    for lost in rep.lost_rows:
        typer.echo(f"listbench: parser lost rows in {lost['message_id']}: {lost['before']} -> {lost['after']}", err=True)


RETENTION_DAYS = 7.0  # Delta's own default: time travel a week back


@app.command()
def compact(
    config: ConfigOpt = None,
    z_order: Annotated[bool | None, typer.Option("--z-order/--no-z-order",
                                                 help="Cluster rows by benchmark (default: [lake] z_order)")] = None,
    retention_days: Annotated[float | None, typer.Option(
        "--retention-days", min=0, help="Keep files time travel needs this far back (default: [lake] retention_days, 7)")] = None,
) -> None:
    """Optimize every lake table (small files merged), then vacuum files older than the retention."""
    cfg = _config(config)
    from warehouse.db import open_writer, refresh_views_if_needed
    from warehouse.lake import LakeError
    from warehouse.schema import BATCHES, TABLES

    z = bool(cfg.lake.get("z_order", False)) if z_order is None else z_order
    days = float(cfg.lake.get("retention_days", RETENTION_DAYS)) if retention_days is None else retention_days
    try:
        lake = open_writer(cfg.lake_dir, cfg.storage, cfg.db_path, "compact")
        for t, n in lake.recover().items():
            typer.echo(f"{t}: {n} rows of never-committed batches deleted")
        for t in (*TABLES, BATCHES):
            before, after = lake.compact(t, z_order=z)
            typer.echo(f"{t}: {before} -> {after} files")
        refresh_views_if_needed(cfg.db_path, lake)
        gone = lake.vacuum(days)
    except LakeError as exc:
        fail(str(exc))
    typer.echo(f"vacuum: {sum(gone.values())} files older than {days:g} days deleted")


@app.command()
def history(
    config: ConfigOpt = None,
    limit: Annotated[int, typer.Option("--limit", "-n", min=1, help="Newest commits to list")] = 50,
    fmt: FormatOpt = "table",
) -> None:
    """The lake's commits: when, which command and run, rows added or removed per table."""
    fmt = _fmt(fmt)
    cfg = _config(config)
    from flows.output import print_rows
    from warehouse.lake import Lake, LakeError

    lake = Lake(cfg.lake_dir, cfg.storage)
    try:
        if not lake.exists():
            fail(f"no lake at {lake.url}: run `listbench ingest` first")
        rows = lake.history(limit)
    except LakeError as exc:
        fail(str(exc))
    cols = ["version", "at", "command", "run", "source", "batch", "added", "removed"]
    print_rows(cols, [tuple(r[c] for c in cols) for r in rows], fmt)


@app.command()
def migrate(config: ConfigOpt = None) -> None:
    """Convert a lake of the earlier layout (Parquet parts) to Delta tables (also done on first open)."""
    cfg = _config(config)
    from warehouse import migrate as mig
    from warehouse.db import refresh_views_if_needed
    from warehouse.lake import Lake

    lake = Lake(cfg.lake_dir, cfg.storage)
    if lake.exists():
        typer.echo(f"{lake.url}: already Delta tables; nothing to do")
        return
    rows = mig.migrate(lake)
    for t, n in rows.items():
        typer.echo(f"{t}: {n} rows")
    refresh_views_if_needed(cfg.db_path, lake.open())


def _day(label: str, value: str | None, end: bool = False):
    """YYYY, YYYY-MM or YYYY-MM-DD as a date (the last day of the period for --until)."""
    import calendar
    import re
    from datetime import date

    if value is None:
        return None
    m = re.fullmatch(r"(\d{4})(?:-(0[1-9]|1[0-2])(?:-(0[1-9]|[12]\d|3[01]))?)?", value)
    if not m:
        fail(f"{label} must be YYYY, YYYY-MM or YYYY-MM-DD (got {value!r})")
    y, mo, d = int(m.group(1)), m.group(2), m.group(3)
    month = int(mo) if mo else (12 if end else 1)
    day = int(d) if d else (calendar.monthrange(y, month)[1] if end else 1)
    try:
        return date(y, month, day)
    except ValueError:
        fail(f"{label}: no such day {value!r}")


@app.command()
def report(
    config: ConfigOpt = None,
    out: Annotated[str, typer.Option("--out", "-o", help="HTML file to write")] = "",
    list_name: Annotated[list[str] | None, typer.Option("--list", help="Only this list (repeatable)")] = None,
    benchmark: Annotated[list[str] | None, typer.Option("--benchmark", "-b", help="Only this benchmark (repeatable)")] = None,
    since: Annotated[str | None, typer.Option(help="First day, YYYY[-MM[-DD]]")] = None,
    until: Annotated[str | None, typer.Option(help="Last day, YYYY[-MM[-DD]]")] = None,
    max_posts: Annotated[int, typer.Option(help="Posts shown with their own chart")] = 40,
) -> None:
    """Write a self-contained HTML report with charts (default: <data_dir>/report.html)."""
    from pathlib import Path

    cfg = _config(config)
    filters_since, filters_until = _day("--since", since), _day("--until", until, end=True)
    import duckdb

    from flows.report import build
    from warehouse.db import WarehouseMissing, error_line
    from warehouse.report_data import Filters

    target = Path(out) if out else Path(cfg.db_path).parent / "report.html"
    filters = Filters(lists=tuple(list_name or ()), benchmarks=tuple(benchmark or ()),
                      since=filters_since, until=filters_until)
    try:
        built = build(cfg.db_path, target, filters, max_posts=max(0, max_posts))
    except WarehouseMissing as exc:
        fail(str(exc))
    except duckdb.Error as exc:
        fail(f"report failed: {error_line(exc)}")
    except OSError as exc:
        fail(f"cannot write {target}: {exc.strerror}")
    typer.echo(f"report: {built.path} ({built.bytes / 1e6:.1f} MB, {built.posts} posts, "
               f"{built.points} overhead points, {built.seconds:.1f} s)")


@app.command()
def serve(config: ConfigOpt = None) -> None:
    """Serve the deployments (nightly ingest on the configured cron, maintenance flows) until stopped.

    Runs against PREFECT_API_URL (start one with `prefect server start`); see docs/scale-out.md.
    """
    cfg = _config(config)
    if not os.environ.get("PREFECT_API_URL"):
        typer.echo("listbench: PREFECT_API_URL is not set; serving against a temporary local API "
                   "(schedules need a persistent `prefect server start`)", err=True)
    quiet_prefect()
    from flows.deploy import serve as run_serve
    from flows.prefect_api import ensure_api

    ensure_api()  # a temporary API dies with this process

    run_serve(cfg)


_END_AT_ONCE: list[bool] = []  # a command whose process may end without tearing its heap down


def main() -> None:
    try:
        app()
    except KeyboardInterrupt:
        typer.echo("listbench: interrupted", err=True)
        sys.exit(130)
    except SystemExit as exc:
        if _END_AT_ONCE:
            end_process(exc.code)
        raise


def end_process(code: int | str | None) -> NoReturn:
    """End an ingest's process as soon as its work is done and recorded: other threads are
    joined, exit handlers run (Prefect's, logging's, the temporary API's) and output is flushed,
    but the interpreter does not free the run's objects one by one (~1 s after a 50,000-message
    run, once everything is on disk)."""
    import atexit
    import threading

    if isinstance(code, str):
        typer.echo(code, err=True)
    # the interpreter's own first step at exit: thread pools told to stop, other threads joined
    shutdown = getattr(threading, "_shutdown", None)
    if shutdown is not None:
        shutdown()
    else:
        for t in threading.enumerate():
            if t is not threading.current_thread() and not t.daemon:
                t.join()
    atexit._run_exitfuncs()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code if isinstance(code, int) else (0 if code is None else 1))


if __name__ == "__main__":
    main()
