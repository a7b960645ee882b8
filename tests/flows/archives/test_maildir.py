"""maildir: folders as units, content-defined file batches, fingerprint-based unchanged, raw file bytes."""

from __future__ import annotations

import os
from datetime import UTC, datetime

import pytest

from flows.archives.base import FetchContext, UnitError
from flows.archives.maildir import KIND, batch_tag, batches
from flows.config import Source, load_config
from tests.archive_sites import MAILDIR_FILES, drain, make_maildir, remember
from tests.conftest import mbox_source, write_config
from warehouse.db import query

KEYS = ["cur/head", "new/head", ".Archive/cur/head"]




@pytest.fixture
def maildir(tmp_path):
    return make_maildir(tmp_path / "Maildir")


def test_units_are_folders_and_tmp_is_ignored(maildir, tmp_path):
    src = Source("md", "maildir", str(maildir))
    units = KIND.units(src, FetchContext(tmp_path))
    assert [u.key for u in units] == KEYS
    assert [u.url for u in units] == [str(maildir / f) for f in MAILDIR_FILES]
    out = drain(src, FetchContext(tmp_path))
    ids = sorted(m.message_id for d in out.values() for m in d.mails)
    assert ids == ["md-crlf-1@example.com", "md-reply-1@example.com", "md-unixbench-1@example.com"]
    (ub,) = out["cur/head"].mails
    assert ub.from_name == "Xiaodong Yi" and ub.posted_at == datetime(2009, 4, 17, 6, 30, tzinfo=UTC)
    assert "BYTE UNIX Benchmarks (Version 5.1.2)" in ub.body and "五 4月" in ub.body
    (crlf,) = out["new/head"].mails
    assert "\r" not in crlf.body and crlf.subject == "Re: Luvalley-2 has been released"


def test_fingerprint_unchanged_then_touched(maildir, tmp_path):
    src = Source("md", "maildir", str(maildir))
    ctx = FetchContext(tmp_path)
    remember(ctx, drain(src, ctx))
    assert {k: d.fetched.status for k, d in drain(src, ctx).items()} == dict.fromkeys(KEYS, "unchanged")
    name = MAILDIR_FILES["new"][0]
    os.utime(maildir / "new" / name, ns=(0, 10**18))
    assert {k: d.fetched.status for k, d in drain(src, ctx).items()}["new/head"] == "ok"


def test_batches_are_stable_under_growth_and_flag_changes():
    names = [f"{1_200_000_000 + i * 7}.M{i}P1.host:2,S" for i in range(600)]
    before = batches(names, 50)
    assert len(before) > 3 and sum(map(len, before.values())) == 600
    grown = batches([*names, "1299999999.M9P1.host"], 50)
    assert [t for t in grown if grown[t] != before.get(t)] == [list(grown)[-1]]  # only the last batch
    flagged = batches([n.replace(":2,S", ":2,RS") for n in names], 50)
    assert {t: len(v) for t, v in flagged.items()} == {t: len(v) for t, v in before.items()}
    gone = next(i for i in range(300, 600) if batch_tag(names[i], 50) is None)
    removed = batches(names[:gone] + names[gone + 1:], 50)
    assert list(removed) == list(before) and sum(removed[t] != before[t] for t in before) == 1


def test_oversized_file_is_skipped(maildir, tmp_path):
    src = Source("md", "maildir", str(maildir), options={"max_message_bytes": 5000})
    out = drain(src, FetchContext(tmp_path))
    assert not out["cur/head"].mails and "larger than 5000 bytes" in out["cur/head"].skipped[0].reason


def test_links_out_of_the_maildir_are_not_followed(maildir, tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_bytes(b"Message-ID: <secret@example.com>\nSubject: secret\n\nroot password: hunter2\n")
    (maildir / "cur" / "1240300000.M5P100.archive").symlink_to(secret)
    (maildir / "new" / "1240300000.M6P100.archive").symlink_to(maildir / "cur" / MAILDIR_FILES["cur"][0])
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / "cur").mkdir(parents=True)
    (elsewhere / "cur" / "1240300000.M7P100.archive").write_bytes(secret.read_bytes())
    (maildir / ".Linked").symlink_to(elsewhere)
    src = Source("md", "maildir", str(maildir))
    out = drain(src, FetchContext(tmp_path))
    assert list(out) == KEYS  # the linked folder is not a unit
    ids = sorted(m.message_id for d in out.values() for m in d.mails)
    assert ids == ["md-crlf-1@example.com", "md-reply-1@example.com", "md-unixbench-1@example.com"]
    assert [s.reason for s in out["cur/head"].skipped] == [
        "1240300000.M5P100.archive: symbolic link, not followed"]
    assert [s.reason for s in out["new/head"].skipped] == [
        "1240300000.M6P100.archive: symbolic link, not followed"]


def test_not_a_maildir(tmp_path):
    with pytest.raises(UnitError, match="not a maildir"):
        KIND.units(Source("md", "maildir", str(tmp_path)), FetchContext(tmp_path))
    with pytest.raises(UnitError, match="needs a local directory"):
        KIND.units(Source("md", "maildir", str(tmp_path / "nope")), FetchContext(tmp_path))


def test_flow_then_rerun_then_one_new_mail(maildir, tmp_path, prefect_api):
    from flows.ingest import run_ingest

    cfg = load_config(write_config(tmp_path, mbox_source("md", maildir, kind="maildir")))
    first = run_ingest(cfg)
    assert first["failed"] == 0 and sum(u["messages_added"] for u in first["units"]) == 3
    assert query(cfg.db_path, "SELECT count(*) FROM messages")[1][0][0] == 3
    rows = query(cfg.db_path, "SELECT count(*) FROM benchmark_results WHERE benchmark = 'unixbench'")[1][0][0]
    assert rows > 0

    second = run_ingest(cfg)
    assert {u["unit"]: u["status"] for u in second["units"]} == dict.fromkeys(KEYS, "unchanged")
    assert query(cfg.db_path, "SELECT count(*) FROM benchmark_results")[1][0][0] == rows

    (maildir / "new" / "1240300000.M4P100.archive").write_bytes(
        b"Message-ID: <md-late@example.com>\nDate: Tue, 21 Apr 2009 09:00:00 +0000\nSubject: late\n\nlate\n")
    third = run_ingest(cfg)
    assert {u["unit"]: u["status"] for u in third["units"]} == {**dict.fromkeys(KEYS, "unchanged"), "new/head": "ok"}
    assert [u["messages_added"] for u in third["units"] if u["unit"] == "new/head"] == [1]
    assert query(cfg.db_path, "SELECT count(*) FROM messages")[1][0][0] == 4
