"""A lake written by the earlier code (Parquet parts, a READY batch in staging) becomes Delta
tables with no row lost or doubled: by `listbench migrate`, or on the first open by an ingest."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from flows.config import load_config
from tests.conftest import plain_ingest, run_cli
from tests.mboxes import _setup
from warehouse.db import query
from warehouse.lake import Lake

FIXTURE = Path(__file__).parents[1] / "fixtures" / "lake_v1" / "lake"
COUNTS = ("SELECT (SELECT count(*) FROM lake_messages), (SELECT count(*) FROM memberships),"
          " (SELECT count(*) FROM results), (SELECT count(*) FROM lake_runs), (SELECT count(*) FROM archives),"
          " (SELECT count(*) FROM benchmark_results), (SELECT count(DISTINCT message_id) FROM lake_messages)")
EARLIER = (13, 15, 1605, 43, 3, 567, 13)  # what the earlier code showed (fixtures/lake_v1/README.md)


def _old_lake(tmp_path: Path) -> Path:
    cfg = _setup(tmp_path)  # the same three sources the fixture was ingested from
    shutil.copytree(FIXTURE, tmp_path / "data" / "lake")
    return cfg


@pytest.mark.parametrize("how", ["command", "first-ingest"])
def test_a_lake_of_the_earlier_layout_is_converted_whole(tmp_path, how):
    cfg_path = _old_lake(tmp_path)
    cfg = load_config(cfg_path)
    parts = sorted(p.relative_to(cfg.lake_dir) for p in Path(cfg.lake_dir).glob("*/part-*.parquet"))
    assert len(parts) == 8 + 2 * 7  # an empty part per table, two batches of seven tables each
    if how == "command":
        r = run_cli("migrate", "--config", str(cfg_path))
        assert r.returncode == 0, r.stderr.decode()
        assert "results: 1605 rows" in r.stdout.decode()
        assert query(cfg.db_path, COUNTS)[1][0] == EARLIER
        r = run_cli("migrate", "--config", str(cfg_path))
        assert "nothing to do" in r.stdout.decode()
        r = run_cli("history", "--config", str(cfg_path), "--format", "csv")
        assert r.returncode == 0 and ",migrate," in r.stdout.decode()
    out = plain_ingest(cfg_path)  # (auto-migrates on first open) then every source is already in
    assert out["failed"] == 0 and sum(u["messages_added"] for u in out["units"]) == 0
    got = query(cfg.db_path, COUNTS)[1][0]
    assert got[:4] + got[5:] == EARLIER[:4] + EARLIER[5:]
    # nothing of the earlier layout is left
    lake = Path(cfg.lake_dir)
    assert not (lake / "_staging").exists()
    assert not [p for p in lake.glob("*/part-*.parquet") if p.relative_to(lake) in parts]
    assert Lake(lake).exists()


def test_a_migration_killed_part_way_is_finished_by_the_next_open(tmp_path, monkeypatch):
    cfg_path = _old_lake(tmp_path)
    cfg = load_config(cfg_path)
    from warehouse import migrate

    real = migrate._write_new
    calls = []

    def dies_at_the_fourth_table(lake, name, tbl, command):
        calls.append(name)
        if len(calls) == 4:
            raise KeyboardInterrupt  # as if the process stopped here
        real(lake, name, tbl, command)

    monkeypatch.setattr(migrate, "_write_new", dies_at_the_fourth_table)
    with pytest.raises(KeyboardInterrupt):
        Lake(cfg.lake_dir).open()
    assert not Lake(cfg.lake_dir).exists()  # no `batches` yet: nothing visible, nothing half-done
    monkeypatch.setattr(migrate, "_write_new", real)
    lake = Lake(cfg.lake_dir).open()
    from warehouse.db import refresh_views

    refresh_views(cfg.db_path, lake)
    assert query(cfg.db_path, COUNTS)[1][0] == EARLIER
