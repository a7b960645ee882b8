"""Permalinks: each message's own page in its archive (`messages.url`, `benchmark_results.url`)."""

from __future__ import annotations

import shutil

import pytest

from flows.archives import permalink_base
from flows.config import Source
from tests.conftest import SEEDS_MBOX, mbox_source, plain_ingest, write_config
from transforms.mail import Mail
from transforms.permalinks import hyperkitty_hash, permalink
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
    assert rows[0][0] == 567 and rows[0][1] == 0
