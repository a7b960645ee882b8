"""The lake commits batches atomically and recovers from a crash between steps."""

from __future__ import annotations

import json

from tests.conftest import lake_row
from warehouse.db import query, refresh_views
from warehouse.lake import READY, Lake, write_parquet
from warehouse.schema import to_table


def _msg(mid: str) -> dict:
    return lake_row("messages", message_id=mid, list_name="l", batch_id="b")


def test_commit_and_read(tmp_path):
    lake = Lake(tmp_path / "lake").open()
    lake.commit("b1", {"messages": to_table("messages", [_msg("a"), _msg("b")])})
    assert lake.column_set("messages", "message_id") == {"a", "b"}
    assert not list((tmp_path / "lake" / "_staging").iterdir())


def test_ready_batch_is_rolled_forward_and_unready_one_dropped(tmp_path):
    lake = Lake(tmp_path / "lake").open()
    ready = lake.staging / "b-ready"
    ready.mkdir(parents=True)
    write_parquet(to_table("messages", [_msg("kept")]), ready / "messages.parquet", "messages")
    (ready / READY).write_text(json.dumps(["messages"]))
    half = lake.staging / "b-half"
    half.mkdir()
    write_parquet(to_table("messages", [_msg("lost")]), half / "messages.parquet", "messages")
    assert lake.recover() == ["b-ready"]
    assert lake.column_set("messages", "message_id") == {"kept"}
    assert not lake.staging.exists() or not list(lake.staging.iterdir())


def test_views_over_empty_lake_answer_zero(tmp_path):
    lake = Lake(tmp_path / "lake").open()
    db = tmp_path / "w.duckdb"
    refresh_views(db, lake.root)
    cols, rows = query(db, "SELECT count(*) FROM benchmark_results")
    assert rows == [(0,)]
    # the file can be rebuilt while a reader holds it open
    from warehouse.db import connect_readonly

    con = connect_readonly(db)
    refresh_views(db, lake.root)
    assert con.execute("SELECT count(*) FROM messages").fetchall() == [(0,)]
    con.close()
