"""`marc`: linux-kernel as marc.info serves it (month list, paged listings, raw messages), on 127.0.0.1."""

from __future__ import annotations

from datetime import UTC, datetime

import httpx
import pytest

from flows.archives.base import FetchContext, UnitError
from flows.archives.marc import KIND, months
from flows.config import Source
from tests.archive_sites import (
    FAST_HTTP,
    MARC_FIX,
    MARC_HOSTILE,
    MARC_LIST,
    PAGE_CAP,
    client,
    drain,
    fresh,
    marc_path,
    marc_site,
    remember,
)
from tests.conftest import mbox_source, plain_ingest, write_config
from tests.httpserver import Site
from transforms.pages.marc import parse_raw
from warehouse.db import query

NETPERF_ROW = " 87380  16384  16384    10.01     941.23"


@pytest.fixture
def site(server):
    return marc_site(fresh(server))


def _source(site: Site, **opts) -> Source:
    return Source("lkml-marc", "marc", site.url(f"/?l={MARC_LIST}"), options={"max_page_bytes": PAGE_CAP, **opts})


def test_raw_message_keeps_whitespace_and_readdresses_marc_obfuscation():
    bare = (MARC_FIX / "118279000011111.txt").read_bytes()  # a raw download without its header block
    assert parse_raw(bare) is None
    m = parse_raw(bare, (MARC_FIX / "message.html").read_bytes())  # headers from the message page
    assert m.message_id == "Pine.LNX.4.64.0706251250.1234@d.namei.example"
    assert (m.from_name, m.from_addr) == ("James Morris", "jmorris@namei.example")
    assert m.subject == "Re: [PATCH] lguest: virtio net numbers"
    assert m.posted_at == datetime(2007, 6, 25, 16, 52, 59, tzinfo=UTC)
    assert m.body.startswith("On Mon, 25 Jun 2007, Rusty Russell wrote:\n> Numbers please?\n\nTCP STREAM")
    assert NETPERF_ROW in m.body.splitlines()
    o = parse_raw((MARC_FIX / "118279000022222.txt").read_bytes())
    assert (o.from_name, o.from_addr) == ("Ingo Molnar", "mingo@elte.hu")
    assert o.posted_at == datetime(2007, 6, 25, 18, 1, tzinfo=UTC)
    assert "\tgroups\tv17\tv18\n\t10\t0.41\t0.39" in o.body
    assert parse_raw(b"<html><head><title>MARC</title></head><body>No such message</body></html>") is None


def test_month_links_of_the_list_only():
    base = "https://marc.info/"
    hrefs = ["?l=linux-kernel&r=1&b=200706&w=2", "?l=other&r=1&b=200707&w=2", "?l=linux-kernel&r=1&b=200713&w=2",
             "http://evil/?l=linux-kernel&r=1&b=200705&w=2", "?l=linux-kernel&m=118279000011111&w=2"]
    assert months(base, "linux-kernel", hrefs) == {"2007-06": base + "?l=linux-kernel&r=1&b=200706&w=2"}


def test_ingests_the_site_then_reruns_download_nothing(site, tmp_path):
    source, ctx = _source(site), FetchContext(tmp_path / "raw", client())
    first = drain(source, ctx)
    assert {k: (d.fetched.status, len(d.mails), len(d.skipped)) for k, d in first.items()} == {
        "2007-06": ("ok", 2, 3), "2008-01": ("ok", 0, 1)}
    june = first["2007-06"]
    reasons = [s.reason for s in june.skipped]
    assert sum("leaves the archive" in r for r in reasons) == 2 and "cap" in reasons[2]
    assert first["2008-01"].skipped[0].reason == "119999000044444.txt: not a raw message"
    urls = sorted(m.url for m in june.mails)
    assert urls == [site.url(marc_path(l=MARC_LIST, m=i, w="2")) for i in ("118279000011111", "118279000022222")]
    assert site.hits[marc_path(l=MARC_LIST, r="2", b="200706", w="2")] == 1  # the listing's second page
    assert site.hits[marc_path(l=MARC_LIST, m="118279000011111", w="2")] == 1  # its raw has no headers
    assert site.hits[marc_path(l=MARC_LIST, m="118279000022222", w="2")] == 0  # its raw has them
    assert all(site.hits[p] == 0 for p in MARC_HOSTILE)
    remember(ctx, first)
    bodies = dict(site.full_bodies)

    second = drain(source, ctx)
    assert {d.fetched.status for d in second.values()} == {"unchanged"}
    assert dict(site.full_bodies) == bodies


def test_permalink_shows_the_message(site, tmp_path):
    mails = drain(_source(site), FetchContext(tmp_path / "raw", client()))["2007-06"].mails
    page = httpx.get(mails[0].url)
    assert page.status_code == 200 and "Download message RAW" in page.text


def test_list_is_required(site, tmp_path):
    with pytest.raises(UnitError, match="list_name"):
        KIND.units(Source("m", "marc", site.url("/")), FetchContext(tmp_path / "raw", client()))
    named = Source("m", "marc", site.url("/"), options={"list_name": MARC_LIST, "max_page_bytes": PAGE_CAP})
    assert [u.key for u in KIND.units(named, FetchContext(tmp_path / "raw", client()))] == ["2007-06", "2008-01"]


def test_flow_loads_the_netperf_row_from_the_raw_message(site, tmp_path):
    cfg = write_config(tmp_path, mbox_source("lkml-marc", site.url(f"/?l={MARC_LIST}"), kind="marc",
                                             max_page_bytes=PAGE_CAP), extra=FAST_HTTP)
    first = plain_ingest(cfg)
    assert {u["unit"]: (u["status"], u["messages_added"]) for u in first["units"]} == {
        "2007-06": ("ok", 2), "2008-01": ("ok", 0)}
    from flows.config import load_config

    db = load_config(cfg).db_path
    rows = query(db, "SELECT metric, value, alignment FROM benchmark_results WHERE benchmark = 'netperf'")[1]
    assert ("throughput", 941.23, "exact") in [(r[0], r[1], r[2]) for r in rows]
