"""Permalinks: each message's own page in its archive (`messages.url`, `benchmark_results.url`)."""

from __future__ import annotations

import shutil

import pytest
from hypothesis import given
from hypothesis import strategies as st

from flows.archives import permalink_base
from flows.config import Source
from tests.archive_sites import ARCHIVES
from tests.conftest import SEEDS_MBOX, mbox_source, plain_ingest, write_config
from transforms.mail import Mail
from transforms.permalinks import (
    Article,
    ArticleLinks,
    hyperkitty_hash,
    permalink,
    pipermail_articles,
)
from transforms.records import Records, add_mail
from warehouse.db import query


def test_hyperkitty_hash_is_mailmans():
    # Mailman 3's own documentation (src/mailman/handlers/docs): Message-ID <ant> is archived as
    # X-Message-ID-Hash MS6QLWERIJLGCRF44J7USBFDELMNT2BW, the id HyperKitty's message URLs carry.
    assert hyperkitty_hash("<ant>") == "MS6QLWERIJLGCRF44J7USBFDELMNT2BW"
    assert hyperkitty_hash(" ant ") == hyperkitty_hash("ant")


def test_public_inbox_and_hyperkitty_links():
    # https://lore.kernel.org/lkml/20020709005901.GA9616@rushmore/ (the post listed in docs/queries.md style)
    assert permalink("public-inbox", "https://lore.kernel.org/lkml", "20020709005901.GA9616@rushmore") \
        == "https://lore.kernel.org/lkml/20020709005901.GA9616@rushmore/"
    # public-inbox escapes what is not safe in a path segment, `/` included
    assert permalink("public-inbox", "https://lore.kernel.org/kvm/", "a/b c%d@x") \
        == "https://lore.kernel.org/kvm/a%2Fb%20c%25d@x/"
    assert permalink("hyperkitty", "https://lists.example.org/archives/list/kvm@lists.example.org/", "<ant>") \
        == "https://lists.example.org/archives/list/kvm@lists.example.org/message/MS6QLWERIJLGCRF44J7USBFDELMNT2BW/"


@pytest.mark.parametrize("style, base, mid", [
    ("public-inbox", "/srv/inbox/kvm", "x@y"),  # a local mirror has no pages
    ("public-inbox", "https://lore.kernel.org/kvm", "sha1-0123456789abcdef01234567@listbench"),  # made-up id
    (None, "https://example.org/", "x@y"),
    ("public-inbox", "javascript:alert(1)//", "x@y"),
])
def test_no_link_where_there_is_no_page(style, base, mid):
    assert permalink(style, base, mid) is None


def test_unknown_style_is_an_error():
    with pytest.raises(ValueError, match="unknown permalink style"):
        permalink("pipermail", "https://example.org/", "x@y")


def test_kinds_declare_their_style():
    pi = Source("kvm", "public-inbox", "https://lore.kernel.org/kvm")
    hk = Source("kvm", "hyperkitty", "https://lists.example.org/archives/list/kvm@lists.example.org")
    assert permalink_base(pi) == ("public-inbox", "https://lore.kernel.org/kvm/")
    assert permalink_base(hk) == ("hyperkitty", "https://lists.example.org/archives/list/kvm@lists.example.org/")
    assert permalink_base(Source("kvm", "public-inbox", "/srv/inbox/kvm")) == (None, None)
    assert permalink_base(Source("s", "mbox", "https://example.org/a.mbox")) == (None, None)


def test_message_rows_carry_the_link():
    rec = Records()
    add_mail(rec, Mail(message_id="20020709005901.GA9616@rushmore", body="hi"), list_name="lkml", unit="0",
             archive_url=None, batch_id="b", permalink=("public-inbox", "https://lore.kernel.org/lkml/"))
    add_mail(rec, Mail(message_id="p@x", body="hi", url="https://h/l/2007-10/msg00001.html"), list_name="x",
             unit="2007-10", archive_url=None, batch_id="b", permalink=("public-inbox", "https://lore.kernel.org/x/"))
    assert [m["url"] for m in rec.messages] == [
        "https://lore.kernel.org/lkml/20020709005901.GA9616@rushmore/",
        "https://h/l/2007-10/msg00001.html",  # a page the kind read wins
    ]


def test_local_archives_have_no_link(tmp_path):
    shutil.copy(SEEDS_MBOX, tmp_path / "seeds.mbox")
    cfg = write_config(tmp_path, mbox_source("sample", "seeds.mbox"))
    plain_ingest(cfg)
    cols, rows = query(tmp_path / "data" / "listbench.duckdb",
                       "SELECT count(*), count(url) FROM benchmark_results")
    assert rows[0][0] == 574 and rows[0][1] == 0


# ---------------------------------------------------------------- pipermail article pages

JUNE = (ARCHIVES / "pipermail" / "2007-June" / "date.html").read_text()


def test_month_index_lists_articles_by_number():
    arts = pipermail_articles(JUNE)
    assert [(a.href, a.number, a.author) for a in arts] == [("002121.html", 2121, "Jim"),
                                                          ("002125.html", 2125, "Dor Laor")]
    assert arts[0].subject == "[kvm-devel] netperf results for the PV virtio drivers (kvm, xen)"
    # sorted by number whatever the page order (date.html sorts by date, the mbox by arrival)
    swapped = '<ul><LI><A HREF="000009.html">b\n</A><A NAME="9">&nbsp;</A>\n<I>B\n</I>' \
              '<LI><A HREF="000007.html">a &amp; c\n</A><A NAME="7">&nbsp;</A>\n<I>A\n</I></ul>'
    assert [(a.href, a.subject) for a in pipermail_articles(swapped)] == [("000007.html", "a & c"),
                                                                          ("000009.html", "b")]
    assert pipermail_articles('<li><a href="../../evil/000001.html">x</a></li><li><a href="x.html">y</a>') == []


def _links(*articles: tuple[int, str, str]) -> ArticleLinks:
    return ArticleLinks("https://lists.example.org/pipermail/virt/2007-June/",
                        [Article(f"{n:06d}.html", n, s, a) for n, s, a in articles])


def test_same_subject_replies_pair_in_mbox_order():
    links = _links((1, "[virt] netperf results", "Jim"), (2, "[virt] netperf results", "Dor Laor"))
    assert links.link("[virt] netperf results", "Jim").endswith("/2007-June/000001.html")
    assert links.link("[virt] netperf results", "Dor Laor").endswith("/2007-June/000002.html")
    assert links.link("[virt] netperf results", "Jim") is None  # each page is used once


def test_a_message_the_index_lacks_gets_no_link_and_the_rest_still_pair():
    links = _links((1, "a", "Ann"), (2, "c", "Cy"), (3, "c", "Dee"))
    assert links.link("A", "ann").endswith("000001.html")  # case and spacing do not matter
    assert links.link("b", "Bo") is None  # not in the index: NULL, not the next page
    assert links.link("c", "Cy").endswith("000002.html")
    assert links.link("Re: c", "Dee") is None  # a different subject is never paired
    assert links.link("c", "Dee").endswith("000003.html")
    lost = _links((1, "c", "Cy"), (2, "c", "Dee"))  # Cy's message is not in the mbox
    assert lost.link("c", "Dee").endswith("000002.html")


def test_an_article_the_mbox_lacks_is_skipped_by_subject_and_author():
    links = _links((1, "a", "Ann"), (2, "gone", "Gus"), (3, "b", "Bo"))
    assert links.link("a", "Ann").endswith("000001.html")
    assert links.link("b", "Bo").endswith("000003.html")
    rows = [{"subject": "x", "from_name": "X", "url": None}]
    _links((5, "[virt] x", "X")).fill(rows)  # the list tag the index shows is not part of the match
    assert rows[0]["url"].endswith("000005.html")


@given(st.lists(st.tuples(st.sampled_from(["a", "b", "Re: a"]), st.sampled_from(["Ann", "Bo"])), max_size=12),
       st.lists(st.tuples(st.sampled_from(["a", "b", "Re: a", "c"]), st.sampled_from(["Ann", "Bo", ""])),
                max_size=12))
def test_links_never_pair_disagreeing_subjects_nor_reuse_a_page(index, mbox):
    links = _links(*[(n, s, a) for n, (s, a) in enumerate(index, start=1)])
    by_page = {f"{n:06d}.html": s for n, (s, _) in enumerate(index, start=1)}
    got = [(s, links.link(s, a)) for s, a in mbox]
    pages = [url.rsplit("/", 1)[1] for _, url in got if url]
    assert len(pages) == len(set(pages))
    assert all(by_page[url.rsplit("/", 1)[1]].casefold() == s.casefold() for s, url in got if url)
    if index == mbox:  # the same month on both sides pairs fully, in order
        assert pages == list(by_page)
