"""The Delta lake: batches committed whole, invisible until committed, concurrent writers,
time travel, optimize and vacuum."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

from bench.writer import RESULTS_PER_MESSAGE
from tests.conftest import ROOT, lake_row
from tests.warehouse.lake_race import _check_race, _race
from warehouse.db import connect_readonly, query, refresh_views
from warehouse.lake import Lake, LakeError, batch_age, new_batch_id
from warehouse.schema import to_table


def _msg(mid: str, lst: str = "l") -> dict:
    return lake_row("messages", message_id=mid, list_name=lst, batch_id="ignored")


def _mem(mid: str, lst: str = "l") -> dict:
    return lake_row("memberships", message_id=mid, list_name=lst, batch_id="ignored")


def _res(**values: object) -> dict:
    return lake_row("results", **values)


def _ids(lake: Lake) -> list[str]:
    return sorted(lake.read("messages", ["message_id"]).column("message_id").to_pylist())


def test_commit_and_read(tmp_path):
    lake = Lake(tmp_path / "lake").open()
    assert lake.commit("b1", {"messages": to_table("messages", [_msg("a"), _msg("b")])})
    assert lake.column_set("messages", "message_id") == {"a", "b"}
    assert lake.column_set("messages", "batch_id") == {"b1"}  # rows carry their batch's id
    assert not lake.commit("b1", {"messages": to_table("messages", [_msg("a")])})  # same batch: nothing
    assert _ids(lake) == ["a", "b"]
    # every lake table is a Delta table any engine can read
    from deltalake import DeltaTable

    assert DeltaTable(str(tmp_path / "lake" / "messages")).to_pyarrow_table().num_rows == 2
    assert (tmp_path / "lake" / "batches" / "_delta_log").is_dir()


def test_a_process_that_read_a_local_lake_exits_cleanly(tmp_path):
    """Reading through delta-rs's Python file handler made a process abort at exit now and then
    (`terminate called without an active exception`, exit -6); local tables are read natively."""
    lake = Lake(tmp_path / "a lake").open()
    lake.commit("b1", {"messages": to_table("messages", [_msg("a")])})
    code = ("import sys; from warehouse.lake import Lake, table_filesystem; import pyarrow.fs as f\n"
            "lake = Lake(sys.argv[1]); assert lake.column_set('messages', 'message_id') == {'a'}\n"
            "assert isinstance(table_filesystem(lake.table('messages')), f.SubTreeFileSystem)\n")
    for _ in range(4):
        p = subprocess.run([sys.executable, "-c", code, str(tmp_path / "a lake")], cwd=ROOT,
                           capture_output=True, text=True, timeout=120)
        assert p.returncode == 0, p.stderr[-2000:]


def test_rows_of_an_uncommitted_batch_stay_invisible_until_recovered(tmp_path):
    lake = Lake(tmp_path / "lake").open()
    lake.commit("b1", {"messages": to_table("messages", [_msg("a")])})
    # a writer of this host that died after appending, before its batch record
    import socket

    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    meta = {"batch": "dead", "command": "ingest", "host": socket.gethostname(), "pid": str(gone.pid)}
    lake._append("messages", to_table("messages", [{**_msg("lost"), "batch_id": "dead"}]), meta)
    young = new_batch_id()  # a writer in flight elsewhere (its batch id is seconds old)
    lake._append("messages", to_table("messages", [{**_msg("pending"), "batch_id": young}]), {"batch": young})
    assert lake.table("messages").to_pyarrow_table().num_rows == 3
    assert _ids(lake) == ["a"]
    db = tmp_path / "w.duckdb"
    refresh_views(db, lake)
    assert query(db, "SELECT message_id FROM messages")[1] == [("a",)]
    assert lake.recover() == {"messages": 1}  # the dead writer's rows go, the young batch's stay
    assert sorted(lake.table("messages").to_pyarrow_table().column("message_id").to_pylist()) == ["a", "pending"]
    assert batch_age(young) is not None and batch_age(young) < 60


def test_a_message_committed_meanwhile_by_another_writer_is_not_added_twice(tmp_path):
    one = Lake(tmp_path / "lake").open()
    two = Lake(tmp_path / "lake").open()  # both read the lake before either commits
    one.commit("b1", {"messages": to_table("messages", [_msg("a"), _msg("x")]),
                      "memberships": to_table("memberships", [_mem("a"), _mem("x")]),
                      "results": to_table("results", [_res(message_id="x", run_id="x#0", value=1.0)])})
    two.commit("b2", {"messages": to_table("messages", [_msg("b"), _msg("x")]),
                      "memberships": to_table("memberships", [_mem("b"), _mem("x"), _mem("a", "other")]),
                      "results": to_table("results", [_res(message_id="x", run_id="x#0", value=1.0),
                                                      _res(message_id="b", run_id="b#0", value=2.0)])})
    assert _ids(one) == ["a", "b", "x"]
    mem = one.read("memberships", ["message_id", "list_name"]).to_pylist()
    assert sorted((r["message_id"], r["list_name"]) for r in mem) == [("a", "l"), ("a", "other"), ("b", "l"), ("x", "l")]
    assert sorted(one.read("results", ["run_id"]).column("run_id").to_pylist()) == ["b#0", "x#0"]
    assert {h["batch"] for h in one.history() if h["command"] == "ingest"} == {"b1", "b2"}


def test_views_over_empty_lake_answer_zero(tmp_path):
    lake = Lake(tmp_path / "lake").open()
    db = tmp_path / "w.duckdb"
    refresh_views(db, lake)
    cols, rows = query(db, "SELECT count(*) FROM benchmark_results")
    assert rows == [(0,)]
    # the file can be rebuilt while a reader holds it open
    con = connect_readonly(db)
    refresh_views(db, lake)
    assert con.execute("SELECT count(*) FROM messages").fetchall() == [(0,)]
    con.close()


def test_views_read_files_of_an_older_schema_and_another_column_order(tmp_path):
    """The views are created over the schema files alone and then handed the snapshot's files: a
    file lacking a newer column reads it as NULL, one with its columns in another order or with a
    column the schema dropped reads by name."""
    import dataclasses

    import pyarrow as pa
    import pyarrow.parquet as pq

    lake = Lake(tmp_path / "lake").open()
    lake.commit("b1", {"messages": to_table("messages", [_msg("a")])})
    old = tmp_path / "lake" / "messages" / "old.parquet"  # written before `url` and `notes` existed
    pq.write_table(pa.table({"batch_id": ["b1"], "message_id": ["old"], "list_name": ["l2"], "subject": ["s"]}), old)
    odd = tmp_path / "lake" / "messages" / "odd.parquet"  # columns reversed, and one the schema dropped
    row = to_table("messages", [{**_msg("odd"), "url": "u", "batch_id": "b1"}])
    pq.write_table(row.select(list(reversed(row.column_names))).append_column("gone", pa.array(["x"])), odd)
    snap = lake.snapshot()
    snap = dataclasses.replace(snap, files={**snap.files, "messages": [*snap.files["messages"], str(old), str(odd)]})
    db = tmp_path / "w.duckdb"
    refresh_views(db, lake, snap=snap)
    cols, rows = query(db, "SELECT * FROM lake_messages ORDER BY message_id")
    from warehouse.schema import SCHEMAS

    assert cols == SCHEMAS["messages"].names
    got = [dict(zip(cols, r, strict=True)) for r in rows]
    assert [(g["message_id"], g["list_name"], g["url"], g["subject"]) for g in got] == [
        ("a", "l", None, None), ("odd", "l", "u", None), ("old", "l2", None, "s")]


def test_time_travel_by_version_and_by_time(tmp_path):
    lake = Lake(tmp_path / "lake").open()
    lake.commit("b1", {"messages": to_table("messages", [_msg("a")])})
    v1 = lake.snapshot().version
    time.sleep(0.05)
    from datetime import UTC, datetime

    t1 = datetime.now(UTC)
    time.sleep(0.05)
    lake.commit("b2", {"messages": to_table("messages", [_msg("b"), _msg("c")])})
    lake.compact("messages")  # files rewritten after v1: time travel still finds v1's files
    db = tmp_path / "w.duckdb"
    for point in (v1, t1):
        snap = refresh_views(db, lake, as_of=point)
        assert snap.version == v1
        assert query(db, "SELECT message_id FROM messages")[1] == [("a",)]
    refresh_views(db, lake)
    assert query(db, "SELECT count(*) FROM messages")[1] == [(3,)]
    with pytest.raises(LakeError, match="no version 99"):
        lake.snapshot(99)


def test_time_travel_to_a_commit_time_history_printed_finds_that_commit(tmp_path):
    """A commit's log file is written after its timestamp is taken: on a slow disk its
    modification time is later. The time `history` prints must still name that commit."""
    import os

    lake = Lake(tmp_path / "lake").open()
    lake.commit("b1", {"messages": to_table("messages", [_msg("a")])})
    lake.commit("b2", {"messages": to_table("messages", [_msg("b")])})
    for log in (tmp_path / "lake").glob("*/_delta_log/*.json"):  # every write took 2 s
        st = log.stat()
        os.utime(log, ns=(st.st_atime_ns, st.st_mtime_ns + 2_000_000_000))
    db = tmp_path / "w.duckdb"
    hist = [h for h in lake.history() if h["command"] == "ingest" or h["batch"]]
    assert [h["batch"] for h in hist] == ["b2", "b1"]
    for h, want in zip(hist, (2, 1), strict=True):
        for point in (h["version"], h["at"]):
            snap = refresh_views(db, lake, as_of=point)
            assert snap.version == h["version"]
            assert query(db, "SELECT count(*) FROM messages")[1] == [(want,)]


def test_vacuum_keeps_every_file_the_current_snapshot_needs(tmp_path):
    lake = Lake(tmp_path / "lake").open()
    for i in range(4):
        lake.commit(f"b{i}", {"messages": to_table("messages", [_msg(f"m{i}")]),
                              "results": to_table("results", [_res(message_id=f"m{i}", run_id=f"r{i}",
                                                                   benchmark="fio" if i % 2 else "dbench")])})
    assert lake.compact("results", z_order=True)[1] == 1
    assert lake.compact("messages") == (4, 1)
    gone = lake.vacuum(0)  # no time travel kept: every superseded file goes
    assert gone["messages"] == 4 and gone["results"] >= 4
    from pathlib import Path

    for t in ("messages", "results", "batches"):
        for f in lake.parts(t):
            assert Path(f).exists(), f
    assert _ids(lake) == ["m0", "m1", "m2", "m3"]
    db = tmp_path / "w.duckdb"
    refresh_views(db, lake)
    assert query(db, "SELECT count(*) FROM all_results")[1] == [(4,)]


def test_a_lake_folder_delta_rs_cannot_open_is_one_clear_error(tmp_path):
    with pytest.raises(LakeError, match=r"has a '\[' or '\]'"):
        Lake(tmp_path / "data[1]" / "lake")


def test_two_writer_processes_race_on_a_local_lake_and_a_reader_never_sees_half_a_batch(tmp_path):
    n = 20
    lake = Lake(tmp_path / "lake").open()
    db = tmp_path / "w.duckdb"
    refresh_views(db, lake)
    reader = subprocess.Popen(
        [sys.executable, "-c",
         "import sys, time\nfrom warehouse.db import query\nseen = set()\nt = time.monotonic()\n"
         "while time.monotonic() - t < 600:\n"
         "    m, r, e = query(sys.argv[1], 'SELECT (SELECT count(*) FROM lake_messages),"
         " (SELECT count(*) FROM all_results), (SELECT count(*) FROM extractions)')[1][0]\n"
         f"    assert r == {RESULTS_PER_MESSAGE} * m and e == m, (m, r, e)\n"
         "    seen.add(m)\n"
         f"    if m == {7 * n}: break\n"
         "print(len(seen))", str(db)], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    stats = _race(str(tmp_path / "lake"), str(db), n)
    out, err = reader.communicate(timeout=600)
    assert reader.returncode == 0, err.decode()[-2000:]
    assert int(out.decode()) > 2  # the reader saw the lake grow, batch by batch
    _check_race(lake, n)
    print(f"\nlocal: two writers x {n} commits: {stats}")


def test_a_file_of_one_committed_batch_is_read_whole_and_merged_files_are_filtered(tmp_path):
    """Delta's file statistics give each file's batch ids: a file of one committed batch needs no
    row filter, one of an uncommitted batch is left out, and a file optimize merged from several
    batches (one of them uncommitted) shows only the committed batches' rows."""
    lake = Lake(tmp_path / "lake").open()
    lake.commit("b1", {"messages": to_table("messages", [_msg("a")])})
    lake.commit("b2", {"messages": to_table("messages", [_msg("b")])})
    lake._append("messages", to_table("messages", [{**_msg("c"), "batch_id": "b3"}]), {"batch": "b3"})  # no batch row
    snap = lake.snapshot()
    assert len(snap.files["messages"]) == 2 and snap.mixed["messages"] == []
    db = tmp_path / "w.duckdb"
    refresh_views(db, lake, snap=snap)
    assert query(db, "SELECT message_id FROM lake_messages ORDER BY 1")[1] == [("a",), ("b",)]
    lake.compact("messages")
    snap = lake.snapshot()
    assert snap.files["messages"] == [] and len(snap.mixed["messages"]) == 1
    refresh_views(db, lake, snap=snap)
    assert query(db, "SELECT message_id FROM lake_messages ORDER BY 1")[1] == [("a",), ("b",)]
    lake.commit("b4", {"messages": to_table("messages", [_msg("d")])})
    refresh_views(db, lake)
    assert query(db, "SELECT message_id FROM lake_messages ORDER BY 1")[1] == [("a",), ("b",), ("d",)]
