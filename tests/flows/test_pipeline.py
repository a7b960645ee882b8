"""A big unit committed in parts: the same rows as one part, flat memory, crash-safe."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from flows import steps
from flows.archives import kind_for
from flows.archives.base import FetchContext, Unit
from flows.config import Source, load_config
from tests.conftest import ROOT, mbox_source, plain_ingest, write_config
from tests.mboxes import PART, big_mbox
from warehouse.db import query
from warehouse.lake import Lake

# map key order is not compared: run attributes are filled from a set (order varies with the hash seed)
TABLES_SQL = {
    "results": "SELECT * EXCLUDE (params, run_attributes), CAST(list_sort(map_entries(params)) AS VARCHAR),"
               " CAST(list_sort(map_entries(run_attributes)) AS VARCHAR) FROM benchmark_results",
    "messages": "SELECT message_id, list_name, lists, posted_at, subject FROM messages",
    "memberships": "SELECT message_id, list_name, unit FROM memberships",
    "runs": "SELECT run_id, message_id, benchmark, system, duplicate_of FROM runs",
    "quarantine": "SELECT table_name, expectation, message_id, run_id, metric FROM quarantine",
    "ledger": "SELECT source, unit, status, sha256, messages, messages_added, skipped FROM archives",
}
COUNTS = ("SELECT (SELECT count(*) FROM lake_messages), (SELECT count(DISTINCT message_id) FROM lake_messages),"
          " (SELECT count(*) FROM results), (SELECT count(*) FROM lake_runs),"
          " (SELECT count(*) FROM archives WHERE status = 'ok')")


def _config(tmp: Path, part_messages: int) -> Path:
    tmp.mkdir(parents=True, exist_ok=True)
    big_mbox(tmp / "big.mbox")
    return write_config(tmp, mbox_source("big", "big.mbox", part_messages=part_messages))


def _rows(cfg_path: Path) -> dict[str, list[tuple]]:
    cfg = load_config(cfg_path)
    return {name: sorted(query(cfg.db_path, sql)[1], key=repr) for name, sql in TABLES_SQL.items()}


@pytest.fixture(scope="module")
def one_part(tmp_path_factory):
    """The unit ingested as one batch: (summary, rows) every parted run is compared with."""
    cfg = _config(tmp_path_factory.mktemp("one"), 0)
    summary = plain_ingest(cfg)
    return summary, _rows(cfg), query(load_config(cfg).db_path, COUNTS)[1][0]


def test_parts_are_bounded_numbered_and_flag_only_the_last(tmp_path):
    path = big_mbox(tmp_path / "big.mbox")
    source = Source("big", "mbox", str(path))
    fetched = kind_for("mbox").fetch(Unit("big", "big.mbox", str(path)), source, FetchContext(raw_dir=tmp_path))
    parts = list(steps.extract_parts(fetched, source, steps.Known(set(), set()), workers=1, part_messages=PART))
    assert [p.part for p in parts] == list(range(7))
    assert [p.last for p in parts] == [False] * 6 + [True]
    # 41 messages read, 6 per part; the repeat (last message) adds no row
    assert [len(p.records.messages) for p in parts] == [6, 6, 6, 6, 6, 6, 4]
    assert len({p.batch_id for p in parts}) == 7
    for p in parts:  # every row carries its own part's batch id
        assert {r["batch_id"] for rows in p.records.tables().values() for r in rows} == {p.batch_id}
    stats = parts[-1].stats
    assert all(p.stats is stats for p in parts)
    assert (stats.messages, stats.messages_added) == (41, 40)
    whole = steps.extract_unit(fetched, source, steps.Known(set(), set()), workers=1)
    assert [m["message_id"] for p in parts for m in p.records.messages] == [m["message_id"] for m in whole.records.messages]
    assert sum(len(p.records.results) for p in parts) == len(whole.records.results) > 500


def test_a_row_bound_ends_a_part_too(tmp_path):
    path = big_mbox(tmp_path / "big.mbox", copies=2)
    source = Source("big", "mbox", str(path))
    fetched = kind_for("mbox").fetch(Unit("big", "big.mbox", str(path)), source, FetchContext(raw_dir=tmp_path))
    parts = list(steps.extract_parts(fetched, source, steps.Known(set(), set()), workers=1,
                                        part_messages=1, part_rows=100))
    # one message per batch: a part ends at the first batch that brings it to 100 result rows
    assert len(parts) == 11 and all(len(p.records.messages) == 1 for p in parts[:-1])
    assert len(parts[-1].records.messages) == 0  # the repeat: read, nothing new


def test_a_unit_in_parts_loads_the_same_rows_as_in_one(tmp_path, one_part):
    summary1, rows1, _ = one_part
    cfg = _config(tmp_path, PART)
    summary = plain_ingest(cfg)
    keys = ("status", "messages", "messages_added", "runs", "results", "quarantined", "skipped")
    assert [{k: u[k] for k in keys} for u in summary["units"]] == [{k: u[k] for k in keys} for u in summary1["units"]]
    assert summary["units"][0]["messages_added"] == 40
    rows = _rows(cfg)
    for name in TABLES_SQL:
        assert rows[name] == rows1[name], name
    assert len(rows["results"]) > 500 and len(rows["ledger"]) == 1
    lake = Lake(load_config(cfg).lake_dir)
    assert lake.read("batches").num_rows == 7  # one batch per part, the ledger row with the last one
    assert plain_ingest(cfg)["units"][0]["status"] == "unchanged"
    again = _rows(cfg)
    assert [again[n] for n in TABLES_SQL if n != "ledger"] == [rows[n] for n in TABLES_SQL if n != "ledger"]


@pytest.mark.parametrize("point", ["commit:published", "commit:staged"])
def test_sigkill_after_the_first_part_then_rerun_loses_nothing_and_adds_nothing_twice(tmp_path, one_part, point):
    _, rows1, counts1 = one_part
    cfg = _config(tmp_path, PART)
    env = {**os.environ, "LISTBENCH_FAILPOINT": point}
    p = subprocess.run([sys.executable, "-m", "tests.crash_ingest", str(cfg)], cwd=ROOT, env=env,
                       capture_output=True, timeout=300)
    assert p.returncode == -signal.SIGKILL, p.stderr.decode()[-2000:]
    lake = Lake(load_config(cfg).lake_dir)
    # the first part is in whole (or, killed before its commit, not at all); the unit is not done
    assert lake.read("messages").num_rows == (PART if point == "commit:published" else 0)
    assert lake.read("archives").num_rows == 0
    summary = plain_ingest(cfg)
    unit = summary["units"][0]
    assert unit["status"] == "ok"
    assert unit["messages_added"] == (40 - PART if point == "commit:published" else 40)
    got = query(load_config(cfg).db_path, COUNTS)[1][0]
    assert got[0] == got[1], "duplicate messages"
    assert got == counts1
    assert _rows(cfg)["results"] == rows1["results"]
    plain_ingest(cfg)  # and a third run adds nothing
    assert query(load_config(cfg).db_path, COUNTS)[1][0] == counts1


def test_skipped_messages_are_all_counted_but_only_the_first_reasons_kept(tmp_path):
    path = big_mbox(tmp_path / "big.mbox", copies=25)  # 126 messages, every one over the cap below
    source = Source("big", "mbox", str(path), options={"max_message_bytes": 100})
    fetched = kind_for("mbox").fetch(Unit("big", "big.mbox", str(path)), source, FetchContext(raw_dir=tmp_path))
    parts = list(steps.extract_parts(fetched, source, steps.Known(set(), set()), workers=1, part_messages=PART))
    stats = parts[-1].stats
    assert stats.skipped == 126
    assert len(stats.skipped_reasons) == steps.MAX_SKIPPED_REASONS == 100
    assert stats.skipped_reasons[0].startswith("message 0: message larger than 100 bytes")
    assert stats.skipped_reasons[-1].startswith("message 99: ")
    # every skipped message still has its quarantine row
    assert sum(len(p.records.quarantine) for p in parts) == 126


def test_an_unknown_mode_is_refused_before_anything_runs():
    from flows import pipeline

    with pytest.raises(ValueError, match="unknown mode 'threads'"):
        pipeline.run(None, mode="threads")  # type: ignore[arg-type]
