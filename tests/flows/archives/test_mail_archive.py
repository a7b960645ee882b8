"""`mail-archive`: kvm-devel as www.mail-archive.com serves it, on 127.0.0.1."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from flows.archives.base import FetchContext, UnitError
from flows.archives.mail_archive import KIND
from flows.config import Source
from tests.archive_sites import (
    FAST_HTTP,
    MA_FIX,
    MA_HOSTILE,
    MA_ROOT,
    PAGE_CAP,
    client,
    drain,
    fresh,
    mail_archive_site,
    remember,
)
from tests.conftest import mbox_source, plain_ingest, seed_text, write_config
from tests.httpserver import Site
from transforms.mail import WHITESPACE_COLLAPSED
from transforms.pages.mail_archive import parse_page
from warehouse.db import query

SEED_ID = "4672A5C1.2030406@us.ib.com"


@pytest.fixture
def site(server):
    return mail_archive_site(fresh(server))


def _source(site: Site, **opts) -> Source:
    return Source("kvm-devel", "mail-archive", site.url(MA_ROOT), options={"max_page_bytes": PAGE_CAP, **opts})


# ---------------------------------------------------------------- pages


def test_seed_page_keeps_the_table_exactly():
    m = parse_page((MA_FIX / "msg00002.html").read_bytes())
    assert m.message_id == SEED_ID and m.notes == []
    assert m.subject == "[kvm-devel] netperf results for the PV virtio drivers (kvm, xen)"
    assert (m.from_name, m.from_addr) == ("Jim", "jim.standard@us.ib.com")  # name shown, address from X-From-R13
    assert m.posted_at == datetime(2007, 6, 15, 12, 0, tzinfo=UTC)
    assert m.in_reply_to == "46726C2E.5040705@qumranet.example"
    seed = seed_text("002")
    table = seed[seed.index("TCP REQUEST/RESPONSE"): seed.index("-------------")]
    assert table in m.body  # `>>` and the rest decoded, every line as posted
    assert "Download your FREE copy of Splunk now >> http://get.splunk.com/" in m.body
    assert "[EMAIL PROTECTED]" in m.body  # the archive's obfuscation stays


def test_page_without_mhonarc_comments_reads_the_visible_head():
    m = parse_page((MA_FIX / "msg00000.html").read_bytes())
    assert m.subject == "Re: [kvm-devel] netperf latency & the PV drivers"
    assert (m.from_name, m.from_addr) == ("Dor Laor", None)
    assert m.posted_at == datetime(2007, 6, 14, 6, 12, 44, tzinfo=UTC)
    assert m.message_id.startswith("sha1-") and m.message_id == parse_page(
        (MA_FIX / "msg00000.html").read_bytes()).message_id
    assert "  kvm.rtl  <10    456.3   1200\n" in m.body  # entities inside the table decoded, blanks kept
    assert "> Can you run TCP_RR & TCP_STREAM too?" in m.body


def test_html_mail_without_pre_is_noted_as_collapsed():
    m = parse_page((MA_FIX / "msg00001.html").read_bytes())
    assert m.body == "TCP_STREAM  guest   throughput\nkvm.pv    523.39  Mbit/s"
    assert any(n.startswith(WHITESPACE_COLLAPSED) for n in m.notes)


def test_index_pages_are_not_messages():
    assert parse_page((MA_FIX / "maillist.html").read_bytes()) is None
    assert parse_page(b"<html><body><h1>404</h1></body></html>") is None


# ---------------------------------------------------------------- fetching


def test_ingests_the_site_then_reruns_download_nothing(site, tmp_path):
    source, ctx = _source(site), FetchContext(tmp_path / "raw", client())
    first = drain(source, ctx)
    assert list(first) == ["00000-00999"]
    d = first["00000-00999"]
    assert d.fetched.status == "ok"
    assert sorted(m.url.rsplit("/", 1)[-1] for m in d.mails) == ["msg00000.html", "msg00001.html", "msg00002.html"]
    assert all(m.url.startswith(site.url(MA_ROOT)) for m in d.mails)
    reasons = [s.reason for s in d.skipped]
    assert len(reasons) == 4 and "msg00003.html" in reasons[-1] and "cap" in reasons[-1]
    assert sum("leaves the archive" in r for r in reasons) == 3
    assert any("evil.example" in r for r in reasons) and any("msg00008.html" in r for r in reasons)
    assert all(site.hits[p] == 0 for p in MA_HOSTILE)  # thread pages, other lists, ../ and site pages
    remember(ctx, first)
    bodies = dict(site.full_bodies)

    second = drain(source, ctx)
    assert second["00000-00999"].fetched.status == "unchanged"
    assert dict(site.full_bodies) == bodies  # index pages answered 304, no message page again
    assert site.hits[MA_ROOT + "maillist.html"] == 2 and site.hits[MA_ROOT + "msg00002.html"] == 1


def test_a_new_message_downloads_only_its_page(site, tmp_path):
    source, ctx = _source(site), FetchContext(tmp_path / "raw", client())
    remember(ctx, drain(source, ctx))
    page = (MA_FIX / "msg00002.html").read_bytes().replace(SEED_ID.encode(), b"new-one@example.org")
    site.add(MA_ROOT + "msg00004.html", page, content_type="text/html")
    index = site.routes[MA_ROOT + "maillist.html"]
    index.body = index.body.replace(b'<ul class="icons">', b'<ul class="icons">\n<li><a href="msg00004.html">new</a></li>')
    again = drain(source, ctx)["00000-00999"]
    assert again.fetched.status == "ok"
    assert [m.message_id for m in again.mails if m.url.endswith("msg00004.html")] == ["new-one@example.org"]
    assert site.full_bodies[MA_ROOT + "msg00004.html"] == 1
    assert site.full_bodies[MA_ROOT + "msg00002.html"] == 1  # cached pages are not fetched again
    assert site.full_bodies[MA_ROOT + "mail2.html"] == 1  # an unchanged index page costs a 304


def test_blocks_of_message_numbers_are_the_units(site, tmp_path):
    source, ctx = _source(site, block_size=2), FetchContext(tmp_path / "raw", client())
    got = drain(source, ctx)
    assert {k: len(d.mails) for k, d in got.items()} == {"00000-00001": 2, "00002-00003": 1}
    assert all(u.month is None for u in KIND.units(source, ctx))


def test_options_are_typed(site, tmp_path):
    ctx = FetchContext(tmp_path / "raw", client())
    with pytest.raises(UnitError, match="block_size must be an integer"):
        KIND.units(_source(site, block_size="1000"), ctx)
    with pytest.raises(UnitError, match="http"):
        KIND.units(Source("k", "mail-archive", str(tmp_path)), ctx)


# ---------------------------------------------------------------- the flow


def _one(cfg_path, sql):
    from flows.config import load_config

    return query(load_config(cfg_path).db_path, sql)[1]


def test_kvm_devel_ingest_loads_the_seed_netperf_table(site, tmp_path):
    cfg = write_config(tmp_path, mbox_source("kvm-devel", site.url(MA_ROOT), kind="mail-archive",
                                             max_page_bytes=PAGE_CAP), extra=FAST_HTTP)
    first = plain_ingest(cfg)
    assert {u["unit"]: (u["status"], u["messages_added"], u["skipped"]) for u in first["units"]} == {
        "00000-00999": ("ok", 3, 4)}
    rows = dict(_one(cfg, "SELECT params['test'] || '/' || params['size'] || '/' || system, value"
                          " FROM benchmark_results WHERE benchmark = 'netperf' AND layout = 'tool_output'"))
    assert rows["TCP_RR/1/xen.pv"] == 18052.37
    assert rows["TCP_RR/16384/kvm.lo"] == 17460.30
    assert rows["TCP_STREAM/131072/kvm.pv"] == 520.87
    assert len([k for k in rows if k.startswith("TCP_RR/")]) == 50  # 10 sizes x 5 systems
    assert len([k for k in rows if k.startswith("TCP_STREAM/")]) == 35  # 7 sizes x 5 systems
    # msg00000's hand-made latency table (`kvm.rtl  <10  456.3  1200`: the bound holds its column)
    latency = _one(cfg, "SELECT system, statistic, value FROM benchmark_results WHERE layout = 'hand_table'"
                        " ORDER BY system, value")
    assert latency == [("kvm.pv", "mean", 104.9), ("kvm.pv", "max", 310.0),
                       ("kvm.rtl", "mean", 456.3), ("kvm.rtl", "max", 1200.0)]
    url = _one(cfg, f"SELECT url FROM messages WHERE message_id = '{SEED_ID}'")[0][0]
    assert url == site.url(MA_ROOT + "msg00002.html")
    bodies = dict(site.full_bodies)

    second = plain_ingest(cfg)
    assert {u["status"] for u in second["units"]} == {"unchanged"}
    assert dict(site.full_bodies) == bodies


def test_cli_ingest_source_kvm_devel(site, tmp_path, prefect_api):
    """`listbench ingest --source kvm-devel` with kvm-devel disabled, as the shipped config lists it."""
    from typer.testing import CliRunner

    import flows.cli

    sources = mbox_source("kvm-devel", site.url(MA_ROOT), kind="mail-archive", max_page_bytes=PAGE_CAP)
    cfg = write_config(tmp_path, sources.replace('kind = "mail-archive"', 'kind = "mail-archive"\nenabled = false'),
                       extra=FAST_HTTP)
    out = CliRunner().invoke(flows.cli.app, ["ingest", "--config", str(cfg), "--source", "kvm-devel"])
    assert out.exit_code == 0, out.output
    rows = _one(cfg, "SELECT value FROM benchmark_results WHERE benchmark = 'netperf' AND system = 'kvm.pv'"
                     " AND params['test'] = 'TCP_STREAM' AND params['size'] = '65536'")
    assert rows == [(523.39,)]


def test_a_huge_index_page_is_reported_and_the_rest_read(site, tmp_path):
    site.routes[MA_ROOT + "mail2.html"].body = b"<html>" + b"<li>x</li>" * 5_000 + b"</html>"
    got = drain(_source(site), FetchContext(tmp_path / "raw", client()))["00000-00999"]
    assert sorted(m.url.rsplit("/", 1)[-1] for m in got.mails) == ["msg00001.html", "msg00002.html"]
    assert any(s.reason.startswith("mail2.html:") and "cap" in s.reason for s in got.skipped)
    assert site.hits[MA_ROOT + "mail3.html"] == 0  # only mail2.html linked it


def test_a_body_outside_pre_loads_inferred_rows_and_reextract_keeps_them(site, tmp_path, monkeypatch):
    page = site.routes[MA_ROOT + "msg00002.html"]
    page.body = page.body.replace(b"<pre>", b'<div dir="ltr">').replace(b"</pre>", b"</div>")
    cfg = write_config(tmp_path, mbox_source("kvm-devel", site.url(MA_ROOT), kind="mail-archive",
                                             max_page_bytes=PAGE_CAP), extra=FAST_HTTP)
    plain_ingest(cfg)
    sql = f"SELECT alignment, count(*) FROM benchmark_results WHERE message_id = '{SEED_ID}' GROUP BY 1"
    assert _one(cfg, sql) == [("inferred", 85)]
    notes = _one(cfg, f"SELECT notes FROM runs WHERE message_id = '{SEED_ID}'")
    assert notes and all(any(n.startswith(WHITESPACE_COLLAPSED) for n in row[0]) for row in notes)
    import dataclasses

    from flows.config import load_config
    from flows.reextract import reextract
    from transforms.parsers import PARSERS

    real = PARSERS["netperf"].parse

    def changed(seg):  # a parser change that moves one value, so the rows are written again
        runs = real(seg)
        for run in runs:
            for r in run.results:
                if r.system == "kvm.lo" and r.params.get("size") == "1":
                    r.value += 1
        return runs

    monkeypatch.setitem(PARSERS, "netperf", dataclasses.replace(PARSERS["netperf"], parse=changed))
    assert reextract(load_config(cfg), benchmark="netperf").messages == 1
    assert _one(cfg, sql) == [("inferred", 85)]  # the archive's note still applies
    assert _one(cfg, "SELECT value FROM benchmark_results WHERE system = 'kvm.lo'"
                     " AND params['test'] = 'TCP_RR' AND params['size'] = '1'") == [(42401.73,)]
