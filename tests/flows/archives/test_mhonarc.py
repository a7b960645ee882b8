"""`mhonarc`: month folders of MHonArc pages (Xen, old Xen, GNU templates) served on 127.0.0.1."""

from __future__ import annotations

import shutil
from datetime import UTC, datetime

import httpx
import pytest

import flows.archives
from flows.archives.base import FetchContext
from flows.archives.mhonarc import KIND, month_indexes
from flows.config import Source, load_config
from flows.http import PoliteClient
from tests.archive_sites import (
    CAP,
    FAST_HTTP,
    MHONARC_FIX,
    MHONARC_HOSTILE,
    MHONARC_ROOT,
    mhonarc_site,
)
from tests.conftest import SEEDS_MBOX, mbox_source, seed_text, write_config
from tests.httpserver import Site
from transforms.mail import Mail
from transforms.mbox import Skipped
from transforms.pages.mhonarc import parse_page
from warehouse.db import query

FIX = MHONARC_FIX
ROOT = MHONARC_ROOT
HTTP = FAST_HTTP
HOSTILE = MHONARC_HOSTILE
PARDUS = "> Pardus 1*1500 74270 87.8 81596 10.0 43062  4.9 51825 68.4 95262  5.3  221.2  0.1"


@pytest.fixture(autouse=True)
def registered(monkeypatch):
    monkeypatch.setitem(flows.archives.KINDS, KIND.name, KIND)


def _grow(site: Site) -> None:
    """A new message arrives in 2010-11: its page appears and the month index links it."""
    site.add(f"{ROOT}2010-11/msg00002.html", (FIX / "2010-11" / "msg00002.html").read_bytes())
    index = site.routes[f"{ROOT}2010-11/index.html"]
    index.body = index.body.replace(b"</ul>", b'<li><a name="00002" href="msg00002.html">Luvalley</a></li>\n</ul>')


@pytest.fixture
def site():
    s = mhonarc_site(Site()).start()
    yield s
    s.stop()


def _ctx(tmp_path) -> FetchContext:
    return FetchContext(tmp_path / "raw", PoliteClient(requests_per_second=0, retries=0, timeout_s=5))


def _source(site: Site, **opts) -> Source:
    return Source("xen-devel", "mhonarc", site.url(ROOT), options={"max_page_bytes": CAP, **opts})


def _run(source: Source, ctx: FetchContext) -> dict[str, tuple[str, list]]:
    """Fetch every unit and read its messages, then record the ledger rows as the pipeline would."""
    out = {}
    for unit in KIND.units(source, ctx):
        f = KIND.fetch(unit, source, ctx)
        items = list(KIND.messages(f, source)) if f.status == "ok" else []
        out[unit.key] = (f.status, items)
        if f.status in ("ok", "unchanged"):
            ctx.previous[(unit.source, unit.key)] = {"sha256": f.sha256, "etag": f.etag}
    return out


# ---------------------------------------------------------------- pages


def test_xen_page_headers_from_comments():
    m = parse_page((FIX / "2010-11" / "msg00000.html").read_bytes())
    assert m.message_id == "2C8A71A4-7E3B-4E5E-8F3B-6A0F6B1E4D10@lagarcavilla.org"
    assert m.subject == "[Xen-devel] Re: blktap: Sync with XCP, dropping zero-copy."
    assert (m.from_name, m.from_addr) == ("Andres Lagar-Cavilla", "andres@lagarcavilla.org")  # X-From-R13
    assert m.posted_at == datetime(2010, 11, 17, 16, 36, 49, tzinfo=UTC)
    assert m.references == ["1289898792.23890.214.camel@ramone", "1289906031.23890.243.camel@ramone"]
    assert m.in_reply_to == "1289906031.23890.243.camel@ramone"
    assert "jbeulich@xxxxxxxxxx said so" in m.body  # obfuscated addresses stay as they are
    assert "block \nbackend (tapdev" in m.body  # trailing blanks kept


def test_benchmark_block_keeps_its_whitespace():
    m = parse_page((FIX / "2007-10" / "msg00000.html").read_bytes())
    lines = m.body.splitlines()
    assert PARDUS in lines  # `&gt;` decoded, double blanks intact
    seed = seed_text("004")
    block = seed[seed.index("Machine: Pardus"): seed.index("Conclusion:")]
    assert block in m.body  # the whole benchmark section verbatim, no-break spaces included
    assert "Test Disk:  /dev/xvda1 --> a LVM volume in Dom0 on RAID stripe set (2 disks)" in lines
    # The visible In-reply-to is obfuscated (`@xxxx`); the exact id comes from X-Reference.
    assert m.in_reply_to == "cbd7a4a0710150318k36e0f6c8t6c5d8c1a0e1c3f23@mail.gmail.com"
    assert m.posted_at == datetime(2007, 10, 15, 12, 2, 11, tzinfo=UTC)


def test_old_template_plain_header_lines():
    m = parse_page((FIX / "2007-10" / "msg00001.html").read_bytes())
    assert m.subject == "[Xen-devel] Re: Tmem [PATCH 2/5] (Take 3): Implement cleancache on top of tmem layer"
    assert (m.from_name, m.from_addr) == ("Jeremy Fitzhardinge", "jeremy@xxxxxxxx")
    assert m.posted_at == datetime(2009, 12, 18, 1, 7, 7, tzinfo=UTC)
    assert m.in_reply_to == "dee07055-5763-4e91-b6a2-964bbc8217aa@default"
    assert m.message_id.startswith("sha1-") and m.message_id == parse_page(
        (FIX / "2007-10" / "msg00001.html").read_bytes()).message_id  # stable without a Message-Id
    assert m.body.startswith("On 12/17/2009 04:33 PM, Dan Magenheimer wrote:\n> Hi Jeremy --\n>\n>    \n>> ")
    assert "waste & it" in m.body and "WARNING" not in m.body


def test_gnu_template_name_only_and_latin1():
    m = parse_page((FIX / "2007-10" / "msg00002.html").read_bytes())
    assert (m.from_name, m.from_addr) == ("Yoshiaki Tamura", None)
    assert m.subject.endswith("handle inuse varialble.")
    assert m.posted_at == datetime(2010, 12, 26, 10, 57, 52, tzinfo=UTC)
    assert "2010/12/26 Michael S. Tsirkin <address@hidden>:" in m.body
    assert "Caf\u00e9 test." in m.body


def test_a_page_without_a_message_is_not_one():
    assert parse_page(b"<html><body><h1>404 Not Found</h1></body></html>") is None


# ---------------------------------------------------------------- fetching


def test_units_are_the_months_and_hostile_links_are_ignored(site, tmp_path):
    units = KIND.units(_source(site), _ctx(tmp_path))
    assert [(u.key, u.month) for u in units] == [("2007-10", "2007-10"), ("2010-11", "2010-11")]
    assert units[0].url == site.url(ROOT + "2007-10/index.html")  # a folder link: its index.html
    assert month_indexes("http://h/l/", '<a href="2009-02/maillist.html">x</a>') == {"2009-02": "http://h/l/2009-02/maillist.html"}


def test_fetch_messages_then_unchanged_then_grown(site, tmp_path):
    source, ctx = _source(site), _ctx(tmp_path)
    first = _run(source, ctx)
    status, items = first["2007-10"]
    mails = [i for i in items if isinstance(i, Mail)]
    skipped = [i for i in items if isinstance(i, Skipped)]
    assert status == "ok" and len(mails) == 3  # index.html lists two, its page mail2.html two more
    assert len(skipped) == 1 and "msg00003.html" in skipped[0].reason and "cap" in skipped[0].reason
    assert [m.subject[:12] for m in mails] == ["[Xen-users] ", "[Xen-devel] ", "[Qemu-devel]"]
    assert first["2010-11"][0] == "ok" and len(first["2010-11"][1]) == 2
    assert (tmp_path / "raw" / "xen-devel" / "2010-11" / "msg00001.html").is_file()
    assert all(site.hits[p] == 0 for p in HOSTILE)
    bodies = dict(site.full_bodies)

    second = _run(source, ctx)
    assert {k: v[0] for k, v in second.items()} == {"2007-10": "unchanged", "2010-11": "unchanged"}
    assert dict(site.full_bodies) == bodies  # one conditional request per index page, no bodies
    assert site.hits[ROOT + "2010-11/index.html"] == 2 and site.hits[ROOT + "2010-11/msg00000.html"] == 1

    _grow(site)
    third = _run(source, ctx)
    assert third["2007-10"][0] == "unchanged" and third["2010-11"][0] == "ok"
    assert [m.message_id for m in third["2010-11"][1]][-1] == "luvalley-unixbench@example.com"
    assert site.full_bodies[ROOT + "2010-11/msg00002.html"] == 1
    assert site.full_bodies[ROOT + "2010-11/msg00000.html"] == 1  # old pages are not downloaded again
    assert all(site.hits[p] == 0 for p in HOSTILE)


def test_a_failed_page_is_retried_next_run(site, tmp_path):
    site.routes[ROOT + "2010-11/msg00001.html"].fail_first = 1
    source, ctx = _source(site), _ctx(tmp_path)
    f = KIND.fetch(KIND.units(source, ctx)[1], source, ctx)
    assert f.status == "ok" and "1 pages failed" in f.error and len(list(KIND.messages(f, source))) == 1
    ctx.previous[("xen-devel", "2010-11")] = {"sha256": f.sha256}
    again = KIND.fetch(KIND.units(source, ctx)[1], source, ctx)  # the index did not change
    assert again.status == "ok" and again.error is None and len(list(KIND.messages(again, source))) == 2


def test_mbox_url_prefers_the_raw_monthly_mbox(site, tmp_path):
    site.add("/archive/mbox/xen-devel/2010-11", SEEDS_MBOX.read_bytes(), content_type="text/plain")
    source, ctx = _source(site, mbox_url=site.url("/archive/mbox/xen-devel/")), _ctx(tmp_path)
    unit = KIND.units(source, ctx)[1]
    assert unit.key == "2010-11" and unit.url == site.url("/archive/mbox/xen-devel/2010-11")
    f = KIND.fetch(unit, source, ctx)
    assert f.status == "ok" and len(list(KIND.messages(f, source))) == 5
    assert site.hits[ROOT + "2010-11/index.html"] == 0
    ctx.previous[("xen-devel", "2010-11")] = {"sha256": f.sha256, "etag": f.etag}
    assert KIND.fetch(unit, source, ctx).status == "unchanged"


def test_local_mirror(tmp_path):
    root = tmp_path / "mirror"
    shutil.copytree(FIX, root)
    source, ctx = Source("m", "mhonarc", str(root), options={"max_page_bytes": CAP}), FetchContext(tmp_path / "raw")
    got = _run(source, ctx)
    assert {k: (s, len(i)) for k, (s, i) in got.items()} == {"2007-10": ("ok", 4), "2010-11": ("ok", 2)}
    assert _run(source, ctx)["2010-11"][0] == "unchanged"


# ---------------------------------------------------------------- the flow


def _one(cfg, sql):
    return query(cfg.db_path, sql)[1][0][0]


def test_flow_loads_months_then_reruns_add_nothing(tmp_path, prefect_api):
    from flows.ingest import run_ingest

    site = mhonarc_site(Site()).start()
    try:
        cfg = load_config(write_config(tmp_path, mbox_source("xen-devel", site.url(ROOT), kind="mhonarc",
                                                             max_page_bytes=CAP), extra=HTTP))
        first = run_ingest(cfg)
        assert {u["unit"]: (u["status"], u["messages_added"], u["skipped"]) for u in first["units"]} == {
            "2007-10": ("ok", 3, 1), "2010-11": ("ok", 2, 0)}
        assert _one(cfg, "SELECT count(*) FROM messages") == 5
        assert _one(cfg, "SELECT value FROM benchmark_results WHERE benchmark = 'bonnie' AND system = 'Pardus'"
                         " AND metric = 'seq_output_char'") == 74270
        assert _one(cfg, "SELECT value FROM benchmark_results WHERE benchmark = 'netperf' AND system = 'xen.pv'"
                         " AND params['test'] = 'TCP_RR' AND params['size'] = '1'") == 18052.37
        rows = _one(cfg, "SELECT count(*) FROM benchmark_results")
        bodies = dict(site.full_bodies)

        second = run_ingest(cfg)
        assert {u["status"] for u in second["units"]} == {"unchanged"}
        assert dict(site.full_bodies) == bodies
        assert _one(cfg, "SELECT count(*) FROM benchmark_results") == rows

        _grow(site)
        third = run_ingest(cfg)
        assert {u["unit"]: (u["status"], u["messages_added"]) for u in third["units"]} == {
            "2007-10": ("unchanged", 0), "2010-11": ("ok", 1)}
        assert _one(cfg, "SELECT count(*) FROM messages") == 6
        assert _one(cfg, "SELECT value FROM benchmark_results WHERE benchmark = 'unixbench' AND system = 'Luvalley'"
                         " AND metric = 'index_score' AND params['copies'] = '1'") == 631.2
        assert all(site.hits[p] == 0 for p in HOSTILE)
    finally:
        site.stop()


def test_permalink_is_the_page_read_and_it_shows_the_message(tmp_path):
    site = mhonarc_site(Site()).start()
    try:
        source = Source("xen-devel", "mhonarc", site.url(ROOT), options={"max_page_bytes": 20_000})
        mails = [m for _, items in _run(source, _ctx(tmp_path)).values() for m in items if isinstance(m, Mail)]
        assert len(mails) == 5
        for mail in mails:
            assert mail.url and mail.url.startswith(site.url(ROOT)) and mail.url.endswith(".html")
            page = httpx.get(mail.url)
            assert page.status_code == 200
            assert mail.message_id in page.text or (mail.subject or "")[:20] in page.text
    finally:
        site.stop()
