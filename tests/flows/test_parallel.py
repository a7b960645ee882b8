"""Decoding a unit on a process pool gives exactly the rows of the in-process path."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from flows.archives.base import Fetched, Unit, sha256_file
from flows.config import Source
from flows.steps import Known, extract_unit
from tests.conftest import ROOT
from tests.mboxes import numbered_mbox, planted, poison_decoding

GEN = ROOT.parent / "shared" / "tools" / "gen_corpus.py"


@pytest.fixture
def plant(monkeypatch):
    """Swap in the planted batch function (reaches worker processes) and add_mail (reaches inline runs)."""
    from flows import parallel
    from tests import slow_plant

    monkeypatch.setattr(parallel, "decode_batch", slow_plant.decode_batch)
    monkeypatch.setattr(parallel, "add_mail", slow_plant.planted_add_mail)
    return slow_plant


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    if not GEN.exists():
        pytest.skip("shared/tools/gen_corpus.py not present")
    out = tmp_path_factory.mktemp("corpus") / "c.mbox"
    subprocess.run([sys.executable, str(GEN), "-n", "600", "-f", "0.1", "--seed", "5", "-o", str(out)],
                   check=True, capture_output=True)
    return out


def _rows(path, workers):
    digest, size = sha256_file(path)
    fetched = Fetched(Unit("s", "c.mbox", str(path)), "ok", path=path, sha256=digest, bytes=size)
    work = extract_unit(fetched, Source("s", "mbox", str(path)), Known(set(), set()), workers=workers)
    rec = work.records
    key = lambda r: (r["message_id"], r.get("run_id") or "", r.get("result_index") or 0)  # noqa: E731
    strip = lambda r: {k: v for k, v in r.items() if k not in ("batch_id", "detected_at", "extracted_at")}  # noqa: E731
    return work.stats, {t: sorted((strip(r) for r in rows), key=key) for t, rows in rec.tables().items()}


def test_pool_and_inline_give_the_same_rows(corpus):
    s1, inline = _rows(corpus, 1)
    s2, pooled = _rows(corpus, 2)
    assert (s1.messages, s1.messages_added) == (s2.messages, s2.messages_added) == (600, 600)
    assert len(inline["results"]) > 500
    assert inline == pooled


# ---------------------------------------------------------------- one bad message costs no other


def extract(path, workers, **options):
    digest, size = sha256_file(path)
    fetched = Fetched(Unit("s", path.name, str(path)), "ok", path=path, sha256=digest, bytes=size)
    return extract_unit(fetched, Source("s", "mbox", str(path), options=options), Known(set(), set()), workers=workers)


@pytest.mark.parametrize("workers", [1, 2])
def test_a_planted_slow_message_is_quarantined_and_the_rest_of_its_unit_loads(tmp_path, plant, workers):
    import time

    path = tmp_path / "slow.mbox"
    ids = numbered_mbox(path, 40, {23: planted(23, plant.MARK_SLOW)})  # in the 1st of 1 or 2 batches
    t = time.monotonic()
    work = extract(path, workers, message_timeout_s=1.0)
    assert time.monotonic() - t < 30
    stats, rec = work.stats, work.records
    assert stats.status == "ok", stats.error
    assert (stats.messages, stats.messages_added) == (40, 40)
    assert {m["message_id"] for m in rec.messages} == set(ids)
    (q,) = [q for q in rec.quarantine if q["expectation"] == "extraction timed out"]
    assert q["message_id"] == "p23@test" and q["table_name"] == "messages"
    assert json.loads(q["row_json"]) == {"unit": "slow.mbox", "index": 23, "bytes": len(planted(23, plant.MARK_SLOW)) + 1,
                                         "seconds": 1.0}
    assert stats.skipped_reasons == ["message 23: extraction timed out (over 1 s)"]
    assert {r["message_id"] for r in rec.results} == {f"p{i}@test" for i in range(0, 40, 10)}
    assert [b["message_id"] for b in rec.message_bodies if b["message_id"] == "p23@test"] == ["p23@test"]


@pytest.mark.parametrize("workers", [1, 2])
def test_a_message_whose_extraction_raises_costs_no_neighbour(tmp_path, plant, workers):
    path = tmp_path / "poison.mbox"
    ids = numbered_mbox(path, 451, {420: planted(420, plant.MARK_CRASH)})
    work = extract(path, workers)
    stats, rec = work.stats, work.records
    assert stats.status == "ok", stats.error
    assert (stats.messages, stats.messages_added) == (451, 451)
    assert {m["message_id"] for m in rec.messages} == set(ids)
    (q,) = rec.quarantine
    assert (q["expectation"], q["message_id"], q["observed"]) == (
        "extraction failed", "p420@test", "RuntimeError: planted parser bug")
    assert stats.skipped_reasons == ["message 420: extraction failed: RuntimeError: planted parser bug"]
    assert {r["message_id"] for r in rec.results} == {f"p{i}@test" for i in range(0, 451, 10)} - {"p420@test"}


def test_an_undecodable_message_is_recorded_with_its_raw_bytes(tmp_path, monkeypatch):
    from flows import parallel

    poison_decoding(monkeypatch, parallel, "p7@test")
    path = tmp_path / "undecodable.mbox"
    ids = numbered_mbox(path, 12, {})
    work = extract(path, 1, message_timeout_s=0)  # inline: the patch applies
    rec = work.records
    assert {m["message_id"] for m in rec.messages} == set(ids)
    (q,) = rec.quarantine
    assert (q["expectation"], q["message_id"]) == ("undecodable message", "p7@test")
    assert q["observed"] == "RecursionError: maximum recursion depth exceeded"
    (body,) = [b["body"] for b in rec.message_bodies if b["message_id"] == "p7@test"]
    assert body.startswith("Message-ID: <p7@test>") or "Message-ID: <p7@test>" in body
    assert work.stats.skipped_reasons == ["message 7: undecodable: RecursionError: maximum recursion depth exceeded"]


def test_real_poison_messages_decode_in_isolation(tmp_path):
    deep = b"From: a@test\nMessage-ID: <p3@test>\nSubject: deep\nContent-Type: message/rfc822\n\n" + (
        b"From: a@test\nSubject: deeper\nContent-Type: message/rfc822\n\n" * 1000) + b"\n\nbody\n"
    charset = (b"From: a@test\nMessage-ID: <p5@test>\nContent-Type: multipart/mixed; boundary=BB\n\n--BB\n"
               b"Content-Type: text/plain; charset=\"utf\x008\"\n\nhello\n--BB--\n")
    path = tmp_path / "poison.mbox"
    ids = numbered_mbox(path, 10, {3: deep, 5: charset})
    work = extract(path, 1)
    assert work.stats.status == "ok" and work.stats.messages_added == 10
    notes = {m["message_id"]: m["notes"] for m in work.records.messages}
    assert set(notes) == set(ids)
    assert notes["p3@test"] == ["MIME tree cut at depth 50"]
    assert notes["p5@test"] == ["unusable charset '\"utf\\x008\"'"] or "charset" in notes["p5@test"][0]


def test_a_message_over_max_message_bytes_is_recorded_not_parsed(tmp_path, monkeypatch):
    from flows import parallel

    seen = []
    monkeypatch.setattr(parallel, "decode_message", lambda raw, *a, **kw: seen.append(raw) or real(raw))
    from transforms.mail import decode_message as real

    path = tmp_path / "big.mbox"
    big = planted(2, "x" * 20000)
    numbered_mbox(path, 6, {2: big})
    work = extract(path, 1, message_timeout_s=0, max_message_bytes=15000)
    assert work.stats.messages == 5 and len(seen) == 5
    assert work.stats.skipped_reasons == ["message 2: message larger than 15000 bytes"]
    (q,) = work.records.quarantine
    assert (q["expectation"], q["message_id"], q["observed"]) == (
        "message skipped", None, "message larger than 15000 bytes")
    assert json.loads(q["row_json"])["index"] == 2


def test_mail_items_over_the_cap_are_skipped_too():
    from datetime import UTC, datetime

    from flows.parallel import decode_parallel
    from transforms.mail import Mail

    skipped = []
    items = [Mail("a@t", "small"), Mail("b@t", "y" * 100), Mail("c@t", "small")]
    out = list(decode_parallel(items, 1, skipped, budget_s=0, max_message_bytes=50, list_name="s", unit="u",
                               archive_url=None, batch_id="b", now=datetime.now(UTC)))
    assert [i for ids, _ in out for i in ids] == ["a@t", "c@t"]
    assert [(s.index, s.reason) for s in skipped] == [(1, "message larger than 50 bytes")]


def test_without_worker_processes_the_budget_holds_inline(tmp_path, plant, monkeypatch):
    """Where no child process can start (a daemonic Dask worker), SIGALRM bounds the message."""
    from flows import workers

    monkeypatch.setattr(workers, "pool", lambda size: None)
    path = tmp_path / "slow.mbox"
    ids = numbered_mbox(path, 15, {4: planted(4, plant.MARK_SLOW)})
    work = extract(path, 1, message_timeout_s=0.5)
    assert {m["message_id"] for m in work.records.messages} == set(ids)
    (q,) = work.records.quarantine
    assert (q["expectation"], q["message_id"]) == ("extraction timed out", "p4@test")
    assert work.stats.skipped_reasons == ["message 4: extraction timed out (over 0.5 s)"]


def test_when_workers_cannot_start_the_unit_runs_inline(tmp_path, monkeypatch):
    """A program spawn cannot re-import (read from stdin) still ingests: inline, after one try."""
    from collections import deque

    from flows import workers

    class Dud(workers._Worker):
        def __init__(self, ctx):
            self.slot = ctx.RawArray("d", 3)
            self.conn, child = ctx.Pipe()
            self.proc = ctx.Process(target=sys.exit, args=(3,), daemon=True)
            self.proc.start()
            child.close()
            self.seqs = deque()

    monkeypatch.setattr(workers, "_Worker", Dud)
    monkeypatch.setattr(workers, "_POOLS", {})
    monkeypatch.setattr(workers, "_UNAVAILABLE", [])
    path = tmp_path / "m.mbox"
    ids = numbered_mbox(path, 25, {})
    for _ in range(2):
        work = extract(path, 2)
        assert work.stats.status == "ok" and {m["message_id"] for m in work.records.messages} == set(ids)
        assert {r["message_id"] for r in work.records.results} == {"p0@test", "p10@test", "p20@test"}
    assert workers._UNAVAILABLE == [True] and workers._POOLS == {}


@pytest.mark.parametrize("workers", [1, 2])
def test_batches_queued_behind_a_stopped_one_load_once_and_in_order(tmp_path, plant, monkeypatch, workers):
    from flows import parallel

    monkeypatch.setattr(parallel, "BATCH_MESSAGES", 4)  # 10 batches: several in flight per worker
    path = tmp_path / "slow.mbox"
    ids = numbered_mbox(path, 40, {13: planted(13, plant.MARK_SLOW), 26: planted(26, plant.MARK_SLOW)})
    work = extract(path, workers, message_timeout_s=1.0)
    assert work.stats.status == "ok" and work.stats.messages == 40
    assert [m["message_id"] for m in work.records.messages] == ids  # archive order, no repeats
    assert work.stats.skipped_reasons == ["message 13: extraction timed out (over 1 s)",
                                          "message 26: extraction timed out (over 1 s)"]
    assert {r["message_id"] for r in work.records.results} == {f"p{i}@test" for i in range(0, 40, 10)}


def test_a_message_that_kills_its_worker_is_recorded_and_the_rest_load(tmp_path, plant):
    path = tmp_path / "killer.mbox"
    ids = numbered_mbox(path, 30, {7: planted(7, plant.MARK_DIE)})
    work = extract(path, 2)
    assert work.stats.status == "ok" and {m["message_id"] for m in work.records.messages} == set(ids)
    (q,) = work.records.quarantine
    assert (q["expectation"], q["message_id"]) == ("extraction crashed", "p7@test")
    assert work.stats.skipped_reasons == ["message 7: extraction crashed (worker process died)"]


def test_the_number_of_workers_is_the_one_asked_for(tmp_path, monkeypatch):
    # `listbench ingest --workers N` sets LISTBENCH_WORKERS; a unit's pool is sized by it
    from flows import steps
    from flows import workers as wk
    from flows.parallel import default_workers

    corpus = tmp_path / "c.mbox"
    numbered_mbox(corpus, 60, {})  # seed posts with results among replies
    monkeypatch.setattr(steps, "PARALLEL_MIN_BYTES", 0)
    asked: list[int] = []
    real = wk.pool
    monkeypatch.setattr(wk, "pool", lambda n: asked.append(n) or real(n))
    monkeypatch.setenv(wk.WORKERS_ENV, "3")
    assert default_workers() == 3
    stats, rows = _rows(corpus, None)
    assert asked == [3] and stats.messages == 60 and rows["results"]
    assert rows == _rows(corpus, 1)[1]
    for bad in ("0", "two", "-1"):
        monkeypatch.setenv(wk.WORKERS_ENV, bad)
        with pytest.raises(ValueError, match="LISTBENCH_WORKERS must be a whole number"):
            default_workers()
    monkeypatch.delenv(wk.WORKERS_ENV)
    assert 1 <= default_workers() <= 4
