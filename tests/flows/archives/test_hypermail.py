"""`hypermail`: LKML as lkml.iu.edu serves it (week buckets, both page generations), on 127.0.0.1."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from flows.archives.base import FetchContext
from flows.archives.hypermail import KIND, folders
from flows.config import Source
from tests.archive_sites import (
    HM_FIX,
    HM_HOSTILE,
    HM_ROOT,
    PAGE_CAP,
    client,
    drain,
    fresh,
    hypermail_site,
    remember,
)
from tests.httpserver import Site
from transforms.pages.hypermail import body_text, parse_page

NETPERF_ROW = " 87380  16384  16384    10.01     941.23"


@pytest.fixture
def site(server):
    return hypermail_site(fresh(server))


def _source(site: Site, **opts) -> Source:
    return Source("lkml", "hypermail", site.url(HM_ROOT), options={"max_page_bytes": PAGE_CAP, **opts})


# ---------------------------------------------------------------- pages


def test_old_hypermail_page_headers_from_comments_and_lines_from_br():
    m = parse_page((HM_FIX / "0706.2" / "0269.html").read_bytes())
    assert m.message_id == "Pine.LNX.4.64.0706251250.1234@d.namei.example"
    assert (m.from_name, m.from_addr) == ("James Morris", "jmorris@namei.example")
    assert m.subject == "Re: [PATCH] lguest: virtio net numbers"
    assert m.posted_at == datetime(2007, 6, 25, 16, 52, 59, tzinfo=UTC)
    assert m.in_reply_to == "1182733110.6470.12.camel@localhost.localdomain"
    lines = m.body.splitlines()
    assert lines[:3] == ["On Mon, 25 Jun 2007, Rusty Russell wrote:", "> Numbers please?", ""]
    assert NETPERF_ROW in lines  # leading &nbsp; and the blank runs between columns kept
    assert "Socket Socket  Message  Elapsed" in lines
    assert "That is lguest -> host, 2.6.22-rc5 & the new vring code." in lines
    assert m.notes == []


def test_mhonarc_generation_page():
    m = parse_page((HM_FIX / "1509.3" / "05252.html").read_bytes())
    assert m.message_id == "1443654180-29416-1-git-send-email-kevin@example.com"  # &#45; decoded
    assert (m.from_name, m.from_addr) == ("kevin", "kevin@example.com")  # shown name, X-From-R13 address
    assert m.posted_at == datetime(2015, 9, 30, 23, 3, 14, tzinfo=UTC)
    assert "  groups   before   after\n\t10       0.412    0.398\n\t20       0.811    0.790\n" in m.body
    assert m.body.startswith("From: Kevin Example <kevin@xxxxxxxxxxx>\n\nhackbench")


def test_missing_comments_fall_back_to_the_shown_date():
    page = (HM_FIX / "0706.2" / "0269.html").read_text()
    page = page.replace('<!-- sent="Mon, 25 Jun 2007 12:52:59 -0400 (EDT)" -->\n', "").replace(
        '<!-- id="Pine.LNX.4.64.0706251250.1234@d.namei.example" -->\n', "")
    m = parse_page(page.encode())
    assert m.posted_at == datetime(2007, 6, 25, 16, 52, 59, tzinfo=UTC)  # `Mon Jun 25 2007 - 11:52:59 EST`
    assert "date from the archive's received stamp" in m.notes
    assert m.message_id.startswith("sha1-") and "no Message-Id on the archive page" in m.notes


def test_body_text_rules():
    assert body_text("a\n<BR>\n<P>b&nbsp;&nbsp;c\n<BR>") == "a\n\nb  c\n"
    assert body_text("<pre>x   y\n  z</pre>") == "x   y\n  z"
    assert parse_page(b"<html><body><h1>Re: CFS</h1><p>removed</p></body></html>") is None


def test_root_links_week_buckets_only():
    root = "http://h/hypermail/linux/kernel/"
    got = folders(root, ["9506/", "0111.3/index.html", "1509.3/date.html", "../net/0706.2/", "1513.0/",
                         "http://evil/hypermail/linux/kernel/0707.0/", "0706.2/?x=1"])
    assert got == {"9506": ("1995-06", root + "9506/"), "0111.3": ("2001-11", root + "0111.3/"),
                   "1509.3": ("2015-09", root + "1509.3/")}


# ---------------------------------------------------------------- fetching


def test_ingests_the_site_then_reruns_download_nothing(site, tmp_path):
    source, ctx = _source(site), FetchContext(tmp_path / "raw", client())
    first = drain(source, ctx)
    assert {k: (d.fetched.status, len(d.mails)) for k, d in first.items()} == {
        "0706.2": ("ok", 1), "1509.3": ("ok", 1)}
    units = KIND.units(source, ctx)
    assert [(u.key, u.month) for u in units] == [("0706.2", "2007-06"), ("1509.3", "2015-09")]
    reasons = [s.reason for s in first["0706.2"].skipped]
    assert sum("leaves the archive" in r for r in reasons) == 3  # ../, another host, another list
    assert reasons[-1] == "0270.html: not a Hypermail message page"
    assert first["0706.2"].mails[0].url == site.url(HM_ROOT + "0706.2/0269.html")
    assert first["1509.3"].mails[0].url == site.url(HM_ROOT + "1509.3/05252.html")
    assert all(site.hits[p] == 0 for p in HM_HOSTILE)
    remember(ctx, first)
    bodies = dict(site.full_bodies)

    second = drain(source, ctx)
    assert {d.fetched.status for d in second.values()} == {"unchanged"}
    assert dict(site.full_bodies) == bodies
    assert site.hits[HM_ROOT + "0706.2/date.html"] == 2 and site.hits[HM_ROOT + "0706.2/0269.html"] == 1


def test_a_huge_page_is_skipped_and_reported(site, tmp_path):
    site.add(HM_ROOT + "1509.3/05253.html", b"<html>" + b"y" * 40_000 + b"</html>", content_type="text/html")
    index = site.routes[HM_ROOT + "1509.3/date.html"]
    index.body = index.body.replace(b"</ul>\n</ul>", b'<li><a href="05253.html">big</a>\n</ul>\n</ul>')
    got = drain(_source(site), FetchContext(tmp_path / "raw", client()))["1509.3"]
    assert len(got.mails) == 1 and len(got.skipped) == 1
    assert got.skipped[0].reason.startswith("05253.html:") and "cap" in got.skipped[0].reason
