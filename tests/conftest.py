"""Shared fixtures: paths, a temporary config, and one Prefect test API per session."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import settings

# CI explores the same examples every time (a failure there reproduces); locally each run explores anew
settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

ROOT = Path(__file__).resolve().parents[1]
SEEDS_MBOX = ROOT / "examples" / "archives" / "seeds.mbox"
SEED_FIXTURES = {  # byte-identical copies of shared/seeds/*.txt (below their Source line)
    "000": "unixbench/seed_000", "001": "lmbench/seed_001", "002": "netperf/seed_002",
    "003": "lmbench/seed_003", "004": "bonnie/seed_004",
}  # fmt: skip


def seed_text(num: str) -> str:
    """The seed post `num` exactly as shared/seeds holds it (CI and fresh clones may lack shared/)."""
    from tests.transforms.parsers.fixtures_io import FIXTURES, fixture_body

    return fixture_body(FIXTURES / f"{SEED_FIXTURES[num]}.txt")
FIXTURES = Path(__file__).parent / "fixtures"

os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")
os.environ.setdefault("GX_ANALYTICS_ENABLED", "False")
os.environ.setdefault("PREFECT_LOGGING_LEVEL", "WARNING")
os.environ.setdefault("PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS", "180")


def write_config(tmp: Path, sources: str, extra: str = "") -> Path:
    cfg = tmp / "listbench.toml"
    cfg.write_text(f'data_dir = "data"\n{extra}\n{sources}\n', encoding="utf-8")
    return cfg


def mbox_source(name: str, url: Path | str, kind: str = "mbox", **opts: object) -> str:
    extra = "".join(f"{k} = {v!r}\n".replace("'", '"') for k, v in opts.items())
    return f'[[sources]]\nname = "{name}"\nkind = "{kind}"\nurl = "{url}"\n{extra}'


def run_cli(*args: str, cwd: Path | None = None, input: bytes | None = None,
            env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    e = {**os.environ, **(env or {})}
    return subprocess.run([sys.executable, "-m", "flows.cli", *args], cwd=cwd or ROOT, input=input,
                          capture_output=True, env=e, timeout=300)


@pytest.fixture(scope="session")
def prefect_api():
    """A real Prefect API (test harness) shared by every flow test of the session."""
    from prefect.testing.utilities import prefect_test_harness

    with prefect_test_harness(server_startup_timeout=120):
        yield


def plain_ingest(cfg_path: Path) -> dict:
    """The ingest steps without Prefect (same functions the flow calls)."""
    from flows import pipeline
    from flows.config import load_config

    return pipeline.run(load_config(cfg_path)).as_dict()


@pytest.fixture(scope="session")
def sample_warehouse(tmp_path_factory):
    """The bundled sample ingested once (read-only use): returns the Config."""
    import shutil

    from flows.config import load_config

    tmp = tmp_path_factory.mktemp("sample")
    shutil.copy(SEEDS_MBOX, tmp / "seeds.mbox")
    cfg_path = write_config(tmp, mbox_source("sample", "seeds.mbox"))
    plain_ingest(cfg_path)
    return load_config(cfg_path)


def lake_row(table: str, **values: object) -> dict:
    """A hand-made row for a lake table: every column, NULL where the test does not care
    (the lake refuses rows with missing or unknown columns)."""
    from warehouse.schema import partial_row

    return partial_row(table, **values)
