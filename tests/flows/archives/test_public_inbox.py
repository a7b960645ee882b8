"""`public-inbox`: real git epochs (one commit per message, blob `m`) read locally and over dumb HTTP."""

from __future__ import annotations

import gzip
import json

import pytest

import flows.archives
from flows.archives.base import FetchContext, Fetched
from flows.archives.public_inbox import KIND, local_epochs
from flows.config import Source, load_config
from flows.http import PoliteClient
from tests.archive_sites import FIRST, PUBLIC_INBOX_FIX, Epoch, answers_with, linked, message_page
from tests.conftest import mbox_source, write_config
from tests.httpserver import Site
from transforms.mail import decode_message
from transforms.mbox import Skipped
from warehouse.db import query

LATER = "04-later-lmbench.eml"
HTTP = "[http]\nrequests_per_second = 0\nretries = 0\ntimeout_s = 5\n"


@pytest.fixture(autouse=True)
def registered(monkeypatch):
    monkeypatch.setitem(flows.archives.KINDS, KIND.name, KIND)


@pytest.fixture
def inbox(tmp_path) -> Epoch:
    epoch = Epoch(tmp_path / "kvm" / "git" / "0.git")
    epoch.add(*FIRST)
    return epoch


def _source(url: str, **opts) -> Source:
    return Source("kvm", "public-inbox", url, options=opts)


def _read(source: Source, ctx: FetchContext) -> tuple[Fetched, list]:
    (unit,) = KIND.units(source, ctx)
    f = KIND.fetch(unit, source, ctx)
    items = list(KIND.messages(f, source)) if f.status == "ok" else []
    if f.status in ("ok", "unchanged"):
        ctx.previous[(unit.source, unit.key)] = {"sha256": f.sha256}
    return f, items


def test_epoch_layouts(tmp_path):
    for rel in ("a/git/0.git", "a/git/1.git", "b/0.git", "c/5.git"):
        Epoch(tmp_path / rel)
    assert [n for n, _ in local_epochs(tmp_path / "a")] == [0, 1]
    assert [n for n, _ in local_epochs(tmp_path / "b")] == [0]
    assert [n for n, _ in local_epochs(tmp_path / "c" / "5.git")] == [5]
    assert local_epochs(tmp_path / "nothing") == []


def test_local_epoch_then_unchanged_then_one_new_commit(inbox, tmp_path):
    source, ctx = _source(str(tmp_path / "kvm")), FetchContext(tmp_path / "raw")
    f, items = _read(source, ctx)
    assert f.unit.key == "epoch-0" and f.status == "ok" and f.sha256 == inbox.git("rev-parse", "HEAD")
    assert (tmp_path / "raw" / "kvm" / "epoch-0.git" / "HEAD").is_file()  # a mirror in the raw cache
    mails = [decode_message(raw) for raw in items]
    assert [m.message_id for m in mails] == ["7vslimiiwu.fsf@assigned-by-dhcp.cox.net",
                                             "20101224132135.GD24424@redhat.com",
                                             "2f3a5c1e0904162330x5d2b7e4ak@mail.example.com"]
    assert b"quoted-printable" in items[1] and b"x=3D1" in items[1]  # the blob is raw, QP undecoded
    qp = mails[1].body.splitlines()
    assert "1 2191.47 9533.74 18052.37 13593.58 42400.73" in qp
    assert "TCP REQUEST/RESPONSE (Trans. Rate per sec)   " in qp  # `=20` and soft breaks decoded
    assert "Benchmark Run: \u4e94 4\u6708 17 2009 11:32:22 - 11:44:22" in mails[2].body  # base64, utf-8
    assert mails[2].subject.startswith("Re: Luvalley-2")

    again, items = _read(source, ctx)
    assert again.status == "unchanged" and items == [] and again.sha256 == f.sha256

    inbox.add(LATER)
    grown, items = _read(source, ctx)
    assert grown.status == "ok" and grown.extra["since"] == f.sha256
    assert [decode_message(raw).message_id for raw in items] == ["E1C2pQr-0004xY-00@example.com"]


def test_oversized_and_removed_messages(inbox, tmp_path):
    inbox.commit({"m": b"Message-ID: <big@x>\n\n" + b"x" * 5000})
    inbox.commit({"d": (PUBLIC_INBOX_FIX / FIRST[0]).read_bytes()})  # public-inbox removal: no `m` in the tree
    source = _source(str(tmp_path / "kvm"), max_message_bytes=4000)
    _, items = _read(source, FetchContext(tmp_path / "raw"))
    assert len(items) == 4 and isinstance(items[3], Skipped) and "larger than 4000" in items[3].reason


def test_history_rewritten_reads_the_epoch_again(inbox, tmp_path):
    source, ctx = _source(str(tmp_path / "kvm")), FetchContext(tmp_path / "raw")
    ctx.previous[("kvm", "epoch-0")] = {"sha256": "0" * 40}  # a commit the mirror does not have
    f, items = _read(source, ctx)
    assert f.status == "ok" and len(items) == 3


def test_max_commits_splits_a_backfill_over_runs(inbox, tmp_path):
    source, ctx = _source(str(tmp_path / "kvm"), max_commits=2), FetchContext(tmp_path / "raw")
    runs = [_read(source, ctx) for _ in range(3)]
    assert [(f.status, [decode_message(r).message_id[:10] for r in items]) for f, items in runs] == [
        ("ok", ["7vslimiiwu", "2010122413"]), ("ok", ["2f3a5c1e09"]), ("unchanged", [])]


def test_no_epochs_is_a_clear_error(tmp_path):
    with pytest.raises(Exception, match="no public-inbox epochs"):
        KIND.units(_source(str(tmp_path)), FetchContext(tmp_path / "raw"))


# ---------------------------------------------------------------- over HTTP


def _publish(site: Site, epoch: Epoch, prefix: str) -> None:
    """Serve the bare repo as git's dumb HTTP protocol expects: static files after update-server-info."""
    epoch.git("update-server-info")
    for p in epoch.path.rglob("*"):
        if p.is_file():
            site.add(f"{prefix}/{p.relative_to(epoch.path).as_posix()}", p.read_bytes())


def _mboxrd(*names: str) -> bytes:
    return b"".join(b"From mboxrd@z Thu Jan  1 00:00:00 1970\n" + (PUBLIC_INBOX_FIX / n).read_bytes() + b"\n" for n in names)


def test_dumb_http_clone_then_fetch_and_threads(inbox, tmp_path):
    site = Site().start()
    try:
        _publish(site, inbox, "/kvm/0")
        site.add("/kvm/manifest.js.gz", gzip.compress(json.dumps({"/kvm/git/0.git": {"modified": 1}}).encode()))
        site.add("/kvm/20101224132135.GD24424@redhat.com/t.mbox.gz", gzip.compress(_mboxrd(*FIRST[1:])))
        source = _source(site.url("/kvm"), threads=["<20101224132135.GD24424@redhat.com>"])
        ctx = FetchContext(tmp_path / "raw", PoliteClient(requests_per_second=0, retries=0, timeout_s=5))
        epoch, thread = KIND.units(source, ctx)
        assert (epoch.key, epoch.url) == ("epoch-0", site.url("/kvm/0"))
        assert thread.url == site.url("/kvm/20101224132135.GD24424@redhat.com/t.mbox.gz")

        f = KIND.fetch(epoch, source, ctx)
        assert f.status == "ok" and len(list(KIND.messages(f, source))) == 3
        ctx.previous[("kvm", "epoch-0")] = {"sha256": f.sha256}
        assert KIND.fetch(epoch, source, ctx).status == "unchanged"
        inbox.add(LATER)
        _publish(site, inbox, "/kvm/0")
        grown = KIND.fetch(epoch, source, ctx)
        assert grown.status == "ok" and len(list(KIND.messages(grown, source))) == 1

        t = KIND.fetch(thread, source, ctx)
        ids = [decode_message(raw).message_id for raw in KIND.messages(t, source)]
        assert t.status == "ok" and ids == ["20101224132135.GD24424@redhat.com",
                                            "2f3a5c1e0904162330x5d2b7e4ak@mail.example.com"]
    finally:
        site.stop()


def test_every_message_links_to_its_page(inbox, tmp_path):
    """lore serves a message at `<inbox>/<Message-ID>/`: the link ingest records answers with that message."""
    site = Site().start()
    try:
        _publish(site, inbox, "/kvm/0")
        site.add("/kvm/manifest.js.gz", gzip.compress(json.dumps({"/kvm/git/0.git": {"modified": 1}}).encode()))
        pages = {"7vslimiiwu.fsf@assigned-by-dhcp.cox.net": "/kvm/7vslimiiwu.fsf@assigned-by-dhcp.cox.net/",
                 "20101224132135.GD24424@redhat.com": "/kvm/20101224132135.GD24424@redhat.com/",
                 "2f3a5c1e0904162330x5d2b7e4ak@mail.example.com":
                     "/kvm/2f3a5c1e0904162330x5d2b7e4ak@mail.example.com/"}
        for mid, path in pages.items():
            site.add(path, message_page(mid, "fixture"), content_type="text/html")
        ctx = FetchContext(tmp_path / "raw", PoliteClient(requests_per_second=0, retries=0, timeout_s=5))
        urls = linked(_source(site.url("/kvm")), ctx)
        assert urls == {mid: site.url(path) for mid, path in pages.items()}
        assert all(answers_with(url, mid) for mid, url in urls.items())
    finally:
        site.stop()


# ---------------------------------------------------------------- the flow


def _one(cfg, sql):
    return query(cfg.db_path, sql)[1][0][0]


def test_flow_reads_each_commit_once(inbox, tmp_path, prefect_api):
    from flows.ingest import run_ingest

    cfg = load_config(write_config(tmp_path, mbox_source("kvm", tmp_path / "kvm", kind="public-inbox"), extra=HTTP))
    first = run_ingest(cfg)
    assert [(u["unit"], u["status"], u["messages"], u["messages_added"]) for u in first["units"]] == [
        ("epoch-0", "ok", 3, 3)]
    assert _one(cfg, "SELECT count(*) FROM messages") == 3
    assert _one(cfg, "SELECT value FROM benchmark_results WHERE benchmark = 'netperf' AND system = 'xen.pv'"
                     " AND params['test'] = 'TCP_RR' AND params['size'] = '1'") == 18052.37
    assert _one(cfg, "SELECT value FROM benchmark_results WHERE benchmark = 'unixbench' AND system = 'Luvalley'"
                     " AND metric = 'index_score' AND params['copies'] = '1'") == 631.2
    rows = _one(cfg, "SELECT count(*) FROM benchmark_results")

    second = run_ingest(cfg)
    assert [(u["status"], u["messages"]) for u in second["units"]] == [("unchanged", 0)]  # no commit read again
    assert _one(cfg, "SELECT count(*) FROM benchmark_results") == rows
    assert _one(cfg, "SELECT count(*) FROM messages") == 3

    inbox.add(LATER)
    third = run_ingest(cfg)
    assert [(u["status"], u["messages"], u["messages_added"]) for u in third["units"]] == [("ok", 1, 1)]
    assert _one(cfg, "SELECT count(*) FROM messages") == 4
    assert _one(cfg, "SELECT count(DISTINCT message_id) FROM benchmark_results WHERE benchmark = 'lmbench'") == 1


def test_a_login_from_the_config_reaches_git_too(inbox, tmp_path):
    from flows.config import origin

    site = Site().start()
    try:
        _publish(site, inbox, "/kvm/0")
        site.add("/kvm/manifest.js.gz", gzip.compress(json.dumps({"/kvm/git/0.git": {"modified": 1}}).encode()))
        for route in site.routes.values():
            route.auth = "bob:s3cret-git"
        source = _source(site.url("/kvm"))
        http = PoliteClient(requests_per_second=0, retries=0, timeout_s=5,
                            credentials={origin(site.base): ("bob", "s3cret-git")})
        ctx = FetchContext(tmp_path / "raw", http)
        (epoch,) = KIND.units(source, ctx)
        f = KIND.fetch(epoch, source, ctx)
        assert f.status == "ok", f.error
        assert len(list(KIND.messages(f, source))) == 3
        assert all(a for a in site.authorizations)  # git sent the login on every request
        nologin = FetchContext(tmp_path / "raw2", PoliteClient(requests_per_second=0, retries=0, timeout_s=5))
        bad = KIND.fetch(epoch, source, nologin)
        assert bad.status == "failed" and "s3cret" not in (bad.error or "")
    finally:
        site.stop()
