"""The known ids handed to workers: a snapshot per batch, read incrementally from one file, and
on a worker process a known message is decoded (message row, membership) but not extracted."""

from __future__ import annotations

import gc
import os
import pickle
from datetime import UTC, datetime

from flows import knownhint
from flows.keyset import digest
from flows.knownhint import DigestLog, KnownHint
from flows.parallel import decode_parallel
from flows.steps import Known
from tests.mboxes import numbered_mbox
from transforms.mbox import split_mbox


def test_a_hint_sees_what_was_known_when_it_was_made():
    log = DigestLog(b"".join(digest(m) for m in ("a", "b")))
    first = pickle.loads(pickle.dumps(log.hint()))
    log.add(digest("c"))
    assert first.known("a") and first.known("b") and not first.known("c")
    later = pickle.loads(pickle.dumps(log.hint()))
    assert later.known("c") and later.known("a") and not later.known("d")
    assert os.path.getsize(log.path) == later.size == 3 * 16
    log.close()
    assert not os.path.exists(log.path)
    assert not KnownHint(log.path, 4 * 16).known("x")  # a file gone: no hint, the parent decides


def test_a_new_log_removes_files_a_killed_run_left_a_day_ago(tmp_path):
    left, recent = tmp_path / "listbench-known-old.digests", tmp_path / "listbench-known-new.digests"
    for f in (left, recent):
        f.write_bytes(digest("a"))
    os.utime(left, (0, 0))
    log = DigestLog(b"", str(tmp_path))
    assert not left.exists() and recent.exists() and os.path.exists(log.path)
    log.close()


def test_the_file_is_read_once_then_only_its_new_end(monkeypatch):
    log = DigestLog(b"".join(digest(f"m{i}") for i in range(1000)))
    hint = pickle.loads(pickle.dumps(log.hint()))
    assert hint.known("m999")
    reads: list[int] = []
    extend = knownhint.KeySet.extend
    monkeypatch.setattr(knownhint.KeySet, "extend", lambda self, block: (reads.append(len(block)), extend(self, block)))
    assert hint.known("m1") and not hint.known("n")
    log.add(digest("n"))
    assert pickle.loads(pickle.dumps(log.hint())).known("n")
    assert reads == [16]
    log.close()


def test_known_hints_its_keys_in_process_and_through_a_file_for_workers():
    known = Known(set(), set())
    assert known.hint(True) is None and known.hint(False) is None  # nothing known: no file either
    new, _ = known.accept(["x", "y"], "a")
    local = known.hint(False)
    assert local is not None and local.path is None and local.known("x")
    shared = known.hint(True)
    assert shared is not None and shared.path and pickle.loads(pickle.dumps(shared)).known("y")
    assert pickle.loads(pickle.dumps(local)).local is None  # the parent's keys never cross a process
    known.accept(["z"], "a")
    assert pickle.loads(pickle.dumps(known.hint(True))).known("z")
    path = shared.path
    del known, local, shared
    gc.collect()
    assert not os.path.exists(path)


def test_a_worker_process_decodes_known_messages_but_does_not_extract_them(tmp_path):
    ids = numbered_mbox(tmp_path / "s.mbox", 20, {})  # p0 and p10 have results
    known = Known(ids[:10], [(m, "s") for m in ids[:10]])
    items = list(split_mbox([(tmp_path / "s.mbox").read_bytes()]))
    batches = list(decode_parallel(items, 1, [], budget_s=30, batch_messages=8, known_hint=known.hint,
                                   list_name="s", unit="s.mbox", archive_url=None, batch_id="b",
                                   now=datetime.now(UTC)))
    got = [mid for batch_ids, _ in batches for mid in batch_ids]
    assert got == ids
    rows = {t: [r["message_id"] for _, rec in batches for r in getattr(rec, t)]
            for t in ("messages", "memberships", "message_bodies", "extractions", "runs")}
    assert rows["messages"] == rows["memberships"] == ids  # every message read
    assert set(rows["runs"]) == {"p10@test"}  # p0 has results too, but was not extracted
    assert set(rows["message_bodies"]) == set(rows["extractions"]) == {"p10@test"}
