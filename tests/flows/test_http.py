"""PoliteClient against a real server on 127.0.0.1: conditional requests, retries, caps, safety."""

from __future__ import annotations

from pathlib import Path

import pytest

from flows.archives.base import FetchContext, Unit, download
from flows.archives.mbox import KIND as MBOX
from flows.config import Source
from flows.http import VALIDATORS, FetchError, PoliteClient, archive_root, cache_path, resolve_link
from tests.httpserver import Site

CAP = 1 << 20


@pytest.fixture
def site():
    s = Site().start()
    yield s
    s.stop()


def _client(**kw) -> PoliteClient:
    return PoliteClient(requests_per_second=0, retries=2, backoff_s=0.01, timeout_s=2, **kw)


def test_download_then_304_then_changed(site, tmp_path):
    route = site.add("/a.mbox", b"From x Thu Apr 14 11:06:56 2016\n\nhi\n")
    src = Source("s", "mbox", site.url("/a.mbox"))
    unit = Unit("s", "a.mbox", site.url("/a.mbox"))
    ctx = FetchContext(tmp_path, _client(user_agent="listbench-test", contact="ops@example.org"))
    f1 = download(unit, src, ctx, max_bytes=CAP)
    assert f1.status == "ok" and Path(f1.path).read_bytes() == route.body and f1.etag
    ctx.previous[("s", "a.mbox")] = {"etag": f1.etag, "last_modified": f1.last_modified, "sha256": f1.sha256}
    f2 = download(unit, src, ctx, max_bytes=CAP)
    assert f2.status == "unchanged" and site.full_bodies["/a.mbox"] == 1
    route.body += b"\nmore\n"
    f3 = download(unit, src, ctx, max_bytes=CAP)
    assert f3.status == "ok" and f3.sha256 != f1.sha256
    assert "listbench-test (ops@example.org)" in site.user_agents


def test_flaky_500_is_retried(site, tmp_path):
    site.add("/f", b"ok", fail_first=2)
    f = download(Unit("s", "f", site.url("/f")), Source("s", "mbox", site.url("/f")), FetchContext(tmp_path, _client()),
                 max_bytes=CAP)
    assert f.status == "ok" and site.hits["/f"] == 3


def test_slow_answer_times_out_and_fails_cleanly(site, tmp_path):
    site.add("/slow", b"late", delay_s=1.5)
    c = PoliteClient(requests_per_second=0, retries=1, backoff_s=0.01, timeout_s=0.3)
    f = download(Unit("s", "slow", site.url("/slow")), Source("s", "mbox", site.url("/slow")), FetchContext(tmp_path, c),
                 max_bytes=CAP)
    assert f.status == "failed" and "timed out after 2 attempts" in f.error


def test_size_cap(site, tmp_path):
    site.add("/big", b"x" * 5000)
    src = Source("s", "mbox", site.url("/big"), options={"max_unit_bytes": 1000})
    f = MBOX.fetch(Unit("s", "big", site.url("/big")), src, FetchContext(tmp_path, _client()))  # max_unit_bytes
    assert f.status == "failed" and "over the 1000-byte cap" in f.error
    assert not list(tmp_path.rglob("*big*"))


def test_404_is_not_retried(site, tmp_path):
    f = download(Unit("s", "nope", site.url("/nope")), Source("s", "mbox", site.url("/nope")), FetchContext(tmp_path, _client()),
                 max_bytes=CAP)
    assert f.status == "failed" and "HTTP 404" in f.error and site.hits["/nope"] == 1


def test_get_text_raises_on_error(site):
    with pytest.raises(FetchError):
        _client().get_text(site.url("/missing"))


@pytest.mark.parametrize(
    "href, ok",
    [
        ("2009-April.txt.gz", True),
        ("/pipermail/kvm/2009-May.txt", True),
        ("../other-list/2009-May.txt.gz", False),
        ("http://evil.example.org/x.txt.gz", False),
        ("http://127.0.0.1:1/pipermail/kvm/x", False),
        ("mailto:a@b", False),
        ("2009-April/%2e%2e/%2e%2e/x", True),  # stays under the base after normalisation by the server
    ],
)
def test_same_origin_links(href, ok):
    base = "http://127.0.0.1:8000/pipermail/kvm/"
    assert (resolve_link(base, href) is not None) == ok


def test_cache_path_never_leaves_root(tmp_path):
    p = cache_path(tmp_path, "src", "../../etc/passwd")
    assert tmp_path in p.parents and ".." not in p.parts
    assert cache_path(tmp_path, "s", "/abs/olute").is_relative_to(tmp_path)


def test_429_waits_as_long_as_retry_after_says(site, tmp_path):
    site.add("/busy", b"ok", fail_first=2, fail_status=429, retry_after="7")
    waits: list[float] = []
    c = PoliteClient(requests_per_second=0, retries=3, backoff_s=0.01, timeout_s=2, sleep=waits.append)
    f = download(Unit("s", "busy", site.url("/busy")), Source("s", "mbox", site.url("/busy")), FetchContext(tmp_path, c),
                 max_bytes=CAP)
    assert f.status == "ok" and site.hits["/busy"] == 3
    assert waits == [7.0, 7.0]


def test_requests_to_one_host_are_spaced(site, tmp_path):
    site.add("/a", b"a")
    waits: list[float] = []
    c = PoliteClient(requests_per_second=2.0, retries=0, timeout_s=2, sleep=waits.append)
    for _ in range(3):
        c.get_text(site.url("/a"))
    # slots are reserved at 0.5 s steps; the fake sleep returns at once, so the waits add up
    assert len(waits) == 2 and 0.4 < waits[0] <= 0.5 and 0.9 < waits[1] <= 1.0


SECRET = "pa55-w0rd-SECRET"


def test_credentials_leave_the_source_url_and_go_only_to_their_own_origin(tmp_path):
    from flows.config import load_config
    from tests.conftest import mbox_source, write_config

    cfg = load_config(write_config(tmp_path, mbox_source("s", f"https://bob:{SECRET}@lists.example.org:8443/l/")
                                   + mbox_source("t", "https://other.example.org/l/")))
    assert cfg.source("s").url == "https://lists.example.org:8443/l/"
    assert SECRET not in repr(cfg) and SECRET not in repr(cfg.sources)
    client = PoliteClient.from_config(cfg)
    assert client.auth_for("https://lists.example.org:8443/l/2024-01.txt") is not None
    assert client.auth_for("https://lists.example.org/l/") is None  # another port: another origin
    assert client.auth_for("http://lists.example.org:8443/l/") is None
    assert client.auth_for("https://other.example.org/l/") is None
    assert SECRET not in repr(client)


def test_ingest_from_a_url_with_credentials_stores_and_logs_none(tmp_path, caplog):
    import json

    from flows.config import load_config
    from tests.conftest import SEEDS_MBOX, mbox_source, plain_ingest, write_config
    from warehouse.lake import Lake
    from warehouse.schema import TABLES

    s = Site().start()
    try:
        s.add("/list/current.mbox", SEEDS_MBOX.read_bytes(), auth=f"bob:{SECRET}")
        url = s.url("/list/current.mbox").replace("http://", f"http://bob:{SECRET}@")
        cfg_path = write_config(tmp_path, mbox_source("auth", url), "[http]\nrequests_per_second = 0\nretries = 0\n")
        caplog.set_level("DEBUG")
        out = plain_ingest(cfg_path)
        assert (out["units"][0]["status"], out["units"][0]["messages_added"]) == ("ok", 5)
        assert s.authorizations and all(a and a.startswith("Basic ") for a in s.authorizations)
        s.routes["/list/current.mbox"].auth = "bob:wrong"  # a refused login: the error names no secret
        out = plain_ingest(cfg_path)
        assert out["units"][0]["status"] == "failed" and "401" in out["units"][0]["error"]
        assert SECRET not in json.dumps(out)
    finally:
        s.stop()
    cfg = load_config(cfg_path)
    lake = Lake(cfg.lake_dir)
    for t in TABLES:
        assert SECRET not in json.dumps(lake.read(t).to_pylist(), default=str), t
    assert lake.read("archives").column("url").to_pylist()[0] == s.url("/list/current.mbox")
    assert SECRET not in caplog.text
    assert not [p for p in cfg.data_dir.rglob("*") if SECRET in p.name]


def test_get_file_sends_validators_only_for_a_cached_copy(site, tmp_path):
    route = site.add("/p.html", b"<p>one</p>")
    c, dest = _client(), tmp_path / "p.html"
    first = c.get_file(site.url("/p.html"), dest, {}, 1000)
    assert first.changed and dest.read_bytes() == b"<p>one</p>" and first.bytes == 10 and first.etag
    again = c.get_file(site.url("/p.html"), dest, first.validators(), 1000)
    assert not again.changed and again.etag == first.etag and site.full_bodies["/p.html"] == 1
    dest.unlink()  # validators without the copy are not sent: the body comes again
    assert c.get_file(site.url("/p.html"), dest, first.validators(), 1000).changed
    assert site.full_bodies["/p.html"] == 2
    route.body = b"<p>two</p>"
    assert c.get_file(site.url("/p.html"), dest, first.validators(), 1000).changed
    assert dest.read_bytes() == b"<p>two</p>"


def test_get_file_same_bytes_is_unchanged_and_cap_keeps_the_old_copy(site, tmp_path):
    site.add("/u", b"x" * 50)
    c, dest = _client(), tmp_path / "u"
    got = c.get_file(site.url("/u"), dest, {}, 100)
    same = c.get_file(site.url("/u"), dest, {"sha256": got.sha256}, 100)  # no etag kept: hashed
    assert not same.changed and same.sha256 == got.sha256 and site.full_bodies["/u"] == 2
    with pytest.raises(FetchError, match="over the 10-byte cap"):
        c.get_file(site.url("/u"), dest, {}, 10)
    assert dest.read_bytes() == b"x" * 50 and [p.name for p in tmp_path.iterdir()] == ["u"]
    with pytest.raises(FetchError, match="HTTP 404"):
        c.get_file(site.url("/gone"), tmp_path / "gone", {}, 10_000)
    assert not (tmp_path / "gone").exists()


def test_cached_page_keeps_validators_beside_the_copy(site, tmp_path):
    site.add("/i/index.html", b"<a href=msg00001.html>1</a>")
    c, dest = _client(), tmp_path / "m" / "index.html"
    assert c.cached_page(site.url("/i/index.html"), dest, 1000) == dest
    kept = (dest.parent / VALIDATORS).read_text()
    assert '"index.html"' in kept and "etag" in kept
    c.cached_page(site.url("/i/index.html"), dest, 1000)
    assert site.hits["/i/index.html"] == 2 and site.full_bodies["/i/index.html"] == 1
    (dest.parent / VALIDATORS).write_text("{torn")  # a torn write: fetched whole once
    c.cached_page(site.url("/i/index.html"), dest, 1000)
    assert site.full_bodies["/i/index.html"] == 2


def test_get_once_does_not_ask_again(site, tmp_path):
    site.add("/msg1.html", b"m")
    c = _client()
    c.get_once(site.url("/msg1.html"), tmp_path / "msg1.html", 100)
    c.get_once(site.url("/msg1.html"), tmp_path / "msg1.html", 100)
    assert site.hits["/msg1.html"] == 1


def test_archive_root_has_one_trailing_slash():
    assert archive_root("https://h/pipermail/kvm") == "https://h/pipermail/kvm/"
    assert archive_root("https://h/pipermail/kvm/") == "https://h/pipermail/kvm/"
