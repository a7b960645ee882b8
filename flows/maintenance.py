"""The other Prefect flows: per-source ingest, backfill, re-extraction, validation. Thin."""

from __future__ import annotations

from typing import Any

from prefect import flow, get_run_logger

from flows.config import load_config
from flows.ingest import ingest_flow


@flow(name="ingest-source")
def ingest_source_flow(config_path: str, source: str) -> dict[str, Any]:
    """One list per flow run: what a work pool spreads over workers."""
    return ingest_flow(config_path, [source])


@flow(name="backfill")
def backfill_flow(config_path: str, since: str, until: str, sources: list[str] | None = None) -> dict[str, Any]:
    """Ingest a window of months (YYYY-MM .. YYYY-MM) of every enabled or named source."""
    return ingest_flow(config_path, sources, since, until)


@flow(name="reextract")
def reextract_flow(config_path: str, benchmark: str | None = None, since: str | None = None,
                   until: str | None = None) -> dict[str, Any]:
    """Re-run the current parsers over stored bodies (after a parser release)."""
    from flows.reextract import reextract

    rep = reextract(load_config(config_path), benchmark, since, until).as_dict()
    get_run_logger().info("re-extraction: %s", {k: v for k, v in rep.items() if k not in ("findings", "lost_rows")})
    return rep


@flow(name="validate")
def validate_flow(config_path: str) -> list[dict[str, Any]]:
    """Every suite over the whole warehouse; fails the flow run on error-level findings."""
    from expectations.revalidate import validate_warehouse

    cfg = load_config(config_path)
    findings = validate_warehouse(cfg.db_path, [s.name for s in cfg.sources])
    errors = [f for f in findings if f["severity"] == "error"]
    if errors:
        raise RuntimeError(f"{len(errors)} expectation(s) failed: {', '.join(f['expectation'] for f in errors)}")
    return findings
