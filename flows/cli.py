"""`listbench`: the command line. Heavy imports (Prefect, GX, DuckDB) happen inside commands."""

from __future__ import annotations

import os
import sys
from typing import Annotated

import typer

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  help="Mine benchmark results out of mailing-list archives into DuckDB.")

ConfigOpt = Annotated[str | None, typer.Option("--config", "-c", help="Path of listbench.toml")]
FormatOpt = Annotated[str, typer.Option("--format", "-f", help="table | json | csv")]


def quiet_prefect(verbose: bool = False) -> None:
    """Defaults for an embedded run: no telemetry (its first-run write races the migration), quiet logs."""
    os.environ.setdefault("PREFECT_LOGGING_LEVEL", "INFO" if verbose else "WARNING")
    os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")
    os.environ.setdefault("GX_ANALYTICS_ENABLED", "False")


def fail(msg: str, code: int = 1) -> None:
    typer.echo(f"listbench: {msg}", err=True)
    raise typer.Exit(code)


def _fmt(fmt: str) -> str:
    from flows.output import FORMATS

    if fmt not in FORMATS:
        fail(f"unknown format {fmt!r} (use one of: {', '.join(FORMATS)})")
    return fmt


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
) -> None:
    """Run the ingest flow for every enabled source (or the named ones)."""
    import re

    cfg = _config(config)
    for name in source or []:
        if name not in {s.name for s in cfg.sources}:
            fail(f"no source named {name!r} in {cfg.path}")
    for label, v in (("--since", since), ("--until", until)):
        if v is not None and not re.fullmatch(r"\d{4}-(0[1-9]|1[0-2])", v):
            fail(f"{label} must be YYYY-MM (got {v!r})")
    if not source and not cfg.enabled_sources:
        fail(f"no enabled source in {cfg.path}")
    quiet_prefect(verbose)
    from flows.ingest import run_ingest
    from flows.pipeline import IngestBusy
    from flows.summary import print_summary

    try:
        result = run_ingest(cfg, source or None, since, until)
    except IngestBusy as exc:
        fail(str(exc))
    print_summary(cfg, result)
    if result["failed"]:
        typer.echo(f"listbench: {result['failed']} unit(s) failed; see `listbench sql \"SELECT * FROM archives WHERE status = 'failed'\"`", err=True)
        raise typer.Exit(2)


@app.command()
def extract(
    path: Annotated[str, typer.Argument(help="A post (plain text), an .eml, an mbox (.gz ok), or - for stdin")],
    fmt: FormatOpt = "table",
) -> None:
    """Parse one post or mbox and print the rows (no warehouse, no Prefect)."""
    fmt = _fmt(fmt)
    from flows.extract_cmd import EXTRACT_COLUMNS, extract_rows
    from flows.output import print_rows

    try:
        rows = extract_rows(path)
    except (OSError, ValueError) as exc:
        fail(str(exc))
    print_rows(EXTRACT_COLUMNS, [[r.get(c) for c in EXTRACT_COLUMNS] for r in rows], fmt)


@app.command()
def sql(
    query: Annotated[str, typer.Argument(help="SQL to run on the warehouse (read-only)")],
    config: ConfigOpt = None,
    fmt: FormatOpt = "table",
) -> None:
    """Query the warehouse (views over the Parquet lake; opened read-only)."""
    fmt = _fmt(fmt)
    cfg = _config(config)
    import duckdb

    from flows.output import print_rows
    from warehouse.db import WarehouseMissing
    from warehouse.db import query as run_query

    try:
        cols, rows = run_query(cfg.db_path, query)
    except WarehouseMissing as exc:
        fail(str(exc))
    except duckdb.Error as exc:
        fail(f"query failed: {str(exc).splitlines()[0]}")
    print_rows(cols, rows, fmt)


def main() -> None:
    try:
        app()
    except KeyboardInterrupt:
        typer.echo("listbench: interrupted", err=True)
        sys.exit(130)


if __name__ == "__main__":
    main()
