"""Fixture archives for the pipermail, hyperkitty and maildir kinds: served on 127.0.0.1 or laid out on disk."""

from __future__ import annotations

import gzip
import html
import os
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

import httpx

import flows.archives
from flows.archives.base import FetchContext, Fetched, UnitError
from flows.config import Source
from flows.http import PoliteClient
from tests.conftest import FIXTURES
from tests.httpserver import Site
from transforms.mail import Mail, decode_message
from transforms.mbox import Skipped

ARCHIVES = FIXTURES / "archives"
PIPERMAIL_ROOT = "/pipermail/virt/"
HK_ROOT = "/archives/list/kvm@lists.example.org/"
MHONARC_FIX = ARCHIVES / "mhonarc"
MHONARC_ROOT = "/archives/html/xen-devel/"
# Same-host targets of hostile links: served, so following one would show up in site.hits.
MHONARC_HOSTILE = ("/archives/html/xen-users/2008-01/index.html", "/archives/html/xen-users/2008-02/index.html",
                   "/archives/html/xen-users/2010-11/msg00008.html", MHONARC_ROOT + "2010-11/msg00005.html",
                   MHONARC_ROOT + "2010-11/msg00009.html", MHONARC_ROOT + "2010-13/index.html")
FAST_HTTP = "[http]\nrequests_per_second = 0\nretries = 0\ntimeout_s = 5\n"

# Same-host targets of the index's hostile links: served, so a hit would be a real download.
PIPERMAIL_HOSTILE = ("/elsewhere/2009-August.txt.gz", "/pipermail/other-list/2009-July.txt.gz",
                     "/pipermail/other-list/2009-September.txt.gz")
PIPERMAIL_GOOD = {"2016-April.txt": 2, "2007-June.txt.gz": 2}
PIPERMAIL_ARTICLES = {  # Message-ID -> its article page (the month indexes' numbering)
    "1460624816.5581.114.camel@example.com": "2016-April/000353.html",
    "CACRHdMZgAgzyhewu_aAJ2f2DWHVZdNH6J7zd2S=YWQuf-2yZDw@example.com": "2016-April/000361.html",
    "pipermail-netperf-1@example.com": "2007-June/002121.html",
    "pipermail-netperf-2@example.com": "2007-June/002125.html",
}
PIPERMAIL_BAD = {"2015-November.txt.gz": "corrupt or truncated gzip", "2016-March.txt.gz": "not an mbox"}
HK_MONTHS = {"2016-04": 2, "2016-05": 0, "2016-06": 1}
MAILDIR_FILES = {  # folder -> (file name, fixture)
    "cur": ("1240000000.M1P100.archive:2,S", "unixbench.eml"),
    "new": ("1240200000.M3P100.archive", "crlf.eml"),
    ".Archive/cur": ("1240100000.M2P100.archive:2,RS", "reply.eml"),
}


def gz(data: bytes) -> bytes:
    return gzip.compress(data, mtime=0)


def corrupt_gz() -> bytes:
    """A gzip header followed by bytes that are not deflate data."""
    return gz(b"From a@x Thu Apr 14 11:06:56 2016\n\nhi\n")[:10] + b"\xffnot deflate data" * 20


def pipermail_site(site: Site) -> None:
    d = ARCHIVES / "pipermail"
    site.add(PIPERMAIL_ROOT, (d / "index.html").read_bytes(), content_type="text/html; charset=utf-8")
    site.add(PIPERMAIL_ROOT + "2016-April.txt", (d / "2016-April.txt").read_bytes(), content_type="text/plain")
    june = (d / "2007-June.mbox").read_bytes()
    site.add(PIPERMAIL_ROOT + "2007-June.txt.gz", gz(june), content_type="application/x-gzip")
    site.add(PIPERMAIL_ROOT + "2007-June.txt", june, content_type="text/plain")
    site.add(PIPERMAIL_ROOT + "2015-November.txt.gz", corrupt_gz(), content_type="application/x-gzip")
    site.add(PIPERMAIL_ROOT + "2016-March.txt.gz", (d / "error.html").read_bytes(), content_type="text/html")
    for path in PIPERMAIL_HOSTILE:
        site.add(path, gz(june), content_type="application/x-gzip")
    for month in ("2016-April", "2007-June"):  # the month index and article pages: the permalinks
        for page in sorted((d / month).glob("*.html")):
            site.add(f"{PIPERMAIL_ROOT}{month}/{page.name}", page.read_bytes(), content_type="text/html")


def mhonarc_site(site: Site) -> Site:
    """The Xen MHonArc fixture months (2007-10 with a paged index, 2010-11) and hostile targets."""
    site.add(MHONARC_ROOT, (MHONARC_FIX / "root.html").read_bytes(), content_type="text/html")
    for month, names in {"2007-10": ("index.html", "mail2.html", "msg00000.html", "msg00001.html",
                                     "msg00002.html", "msg00003.html"),
                         "2010-11": ("index.html", "msg00000.html", "msg00001.html")}.items():
        for name in names:
            site.add(f"{MHONARC_ROOT}{month}/{name}", (MHONARC_FIX / month / name).read_bytes(), content_type="text/html")
    for path in MHONARC_HOSTILE:
        site.add(path, b"<html>not for us</html>", content_type="text/html")
    return site


def hk_export_path(month: str, end: str) -> str:
    return f"{HK_ROOT}export/kvm-{month}.mbox.gz?start={month}-01&end={end}-01"


def hyperkitty_site(site: Site, overview: bool = True) -> None:
    d = ARCHIVES / "hyperkitty"
    if overview:
        site.add(HK_ROOT, (d / "overview.html").read_bytes(), content_type="text/html; charset=utf-8")
    ends = {"2016-04": "2016-05", "2016-05": "2016-06", "2016-06": "2016-07"}
    for month, end in ends.items():
        f = d / f"kvm-{month}.mbox"
        site.add(hk_export_path(month, end), gz(f.read_bytes() if f.exists() else b""),
                 content_type="application/gzip")


def make_maildir(root: Path) -> Path:
    """cur/, new/, a Maildir++ `.Archive` folder, and a half-delivered file in tmp/ that must be ignored."""
    for sub in ("cur", "new", "tmp", ".Archive/cur", ".Archive/new", ".Archive/tmp"):
        (root / sub).mkdir(parents=True, exist_ok=True)
    for folder, (name, fixture) in MAILDIR_FILES.items():
        shutil.copy(ARCHIVES / "maildir" / fixture, root / folder / name)
    (root / "tmp" / "1240300000.M9P100.archive").write_bytes(
        b"Message-ID: <md-partial@example.com>\nSubject: still being delivered\n\nhalf")
    return root


def client() -> PoliteClient:
    return PoliteClient(requests_per_second=0, retries=0, timeout_s=5)


@dataclass
class Drained:
    fetched: Fetched
    mails: list[Mail] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    error: str | None = None


def drain(source: Source, ctx: FetchContext) -> dict[str, Drained]:
    """List, fetch and decode every unit of a source without Prefect: unit key -> what came out."""
    kind = flows.archives.KINDS[source.kind]
    out: dict[str, Drained] = {}
    for unit in kind.units(source, ctx):
        d = out[unit.key] = Drained(kind.fetch(unit, source, ctx))
        if d.fetched.status != "ok":
            continue
        try:
            for item in kind.messages(d.fetched, source):
                if isinstance(item, Skipped):
                    d.skipped.append(item)
                else:
                    d.mails.append(item if isinstance(item, Mail) else decode_message(item))
        except UnitError as exc:
            d.error = str(exc)
    return out


def linked(source: Source, ctx: FetchContext) -> dict[str, str | None]:
    """Message-ID -> `messages.url` as ingest records it (fetch, then the pipeline's extraction step)."""
    from flows.steps import Known, extract_unit

    kind = flows.archives.KINDS[source.kind]
    urls: dict[str, str | None] = {}
    for unit in kind.units(source, ctx):
        work = extract_unit(kind.fetch(unit, source, ctx), source, Known(set(), set()), workers=1)
        urls |= {row["message_id"]: row["url"] for row in work.records.messages}
    return urls


def message_page(message_id: str, subject: str) -> bytes:
    """A message's own page as an archive shows it: its header block, escaped, in `<pre>`."""
    head = f"Subject: {subject}\nMessage-ID: <{message_id}> (raw)\n"
    return f"<html><body><pre>{html.escape(head)}</pre></body></html>".encode()


def answers_with(url: str, message_id: str) -> bool:
    """The link answers 200 and the page is that message (its Message-ID is on it)."""
    page = httpx.get(url)
    return page.status_code == 200 and html.escape(message_id) in page.text


def remember(ctx: FetchContext, drained: dict[str, Drained]) -> None:
    """What the ledger would hand the next run: the last good fetch of each unit."""
    for d in drained.values():
        f = d.fetched
        if f.status in ("ok", "unchanged") and d.error is None:
            ctx.previous[(f.unit.source, f.unit.key)] = {
                "etag": f.etag, "last_modified": f.last_modified, "sha256": f.sha256, "bytes": f.bytes}


def fresh(site: Site) -> Site:
    """A started server reused across a module's tests, with no routes and zeroed counters."""
    site.routes.clear()
    site.hits.clear()
    site.full_bodies.clear()
    return site


# ---------------------------------------------------------------- mail-archive.com, Hypermail, MARC

MA_FIX = ARCHIVES / "mail-archive"
MA_ROOT = "/kvm-devel@lists.sourceforge.net/"
HUGE = 30_000  # bytes of the oversized page each site serves; tests cap pages below it
PAGE_CAP = 20_000
# Same-host targets of hostile links: served, so following one would show up in site.hits.
MA_HOSTILE = ("/other-list@lists.example.org/msg00007.html", "/other-list@lists.example.org/msg00008.html",
              MA_ROOT + "thrd2.html", "/faq.html")
HM_FIX = ARCHIVES / "hypermail"
HM_ROOT = "/hypermail/linux/kernel/"
HM_HOSTILE = (HM_ROOT + "0706.1/0100.html", "/hypermail/linux/net/0706.2/0001.html",
              "/hypermail/linux/net/0706.2/date.html", HM_ROOT + "1513.0/date.html")
MARC_FIX = ARCHIVES / "marc"
MARC_LIST = "linux-kernel"
MARC_HOSTILE = ("/?l=other-list&m=118279000099999&q=raw", "/?l=other-list&r=1&b=200706&w=2")


def _huge_page(kind: str) -> bytes:
    return f"<html><body><!-- {kind} --><pre>{'x' * HUGE}</pre></body></html>".encode()


def mail_archive_site(site: Site) -> Site:
    """kvm-devel as mail-archive.com serves it: a paged date index and four message pages (one huge)."""
    for page in sorted(MA_FIX.iterdir()):
        site.add(MA_ROOT + page.name, page.read_bytes(), content_type="text/html; charset=utf-8")
    site.add(MA_ROOT + "msg00003.html", _huge_page("mail-archive"), content_type="text/html")
    for path in MA_HOSTILE:
        site.add(path, b"<html>not for us</html>", content_type="text/html")
    return site


def hypermail_site(site: Site) -> Site:
    """LKML as lkml.iu.edu serves it: week-bucket folders, both page generations, hostile links."""
    for page in sorted(HM_FIX.rglob("*.html")):
        site.add(HM_ROOT + page.relative_to(HM_FIX).as_posix(), page.read_bytes(), content_type="text/html")
    site.add(HM_ROOT, (HM_FIX / "index.html").read_bytes(), content_type="text/html")
    for path in HM_HOSTILE:
        site.add(path, b"<html>not for us</html>", content_type="text/html")
    return site


def marc_path(**q: str) -> str:
    """A MARC CGI path with its parameters in MARC's own order (l, m or r and b, then w or q)."""
    order = ("l", "m", "r", "b", "w", "q")
    return "/?" + "&".join(f"{k}={q[k]}" for k in order if k in q)


def marc_site(site: Site) -> Site:
    """linux-kernel as marc.info serves it: the month list, paged listings, raw messages."""
    html, text = "text/html", "text/plain"
    site.add(marc_path(l=MARC_LIST, r="1", w="2"), (MARC_FIX / "months.html").read_bytes(), content_type=html)
    for name in ("200706-r1", "200706-r2", "200801-r1"):
        month, page = name.split("-r")
        site.add(marc_path(l=MARC_LIST, r=page, b=month, w="2"), (MARC_FIX / f"{name}.html").read_bytes(),
                 content_type=html)
    for raw in MARC_FIX.glob("*.txt"):
        site.add(marc_path(l=MARC_LIST, m=raw.stem, q="raw"), raw.read_bytes(), content_type=text)
        site.add(marc_path(l=MARC_LIST, m=raw.stem, w="2"), (MARC_FIX / "message.html").read_bytes(),
                 content_type=html)
    site.add(marc_path(l=MARC_LIST, m="118279000033333", q="raw"), b"Subject: huge\n\n" + b"x" * HUGE,
             content_type=text)
    site.add(marc_path(l=MARC_LIST, m="119999000044444", q="raw"),
             b"<html><head><title>MARC</title></head><body>No such message</body></html>", content_type=html)
    for path in MARC_HOSTILE:
        site.add(path, b"not for us", content_type=text)
    return site


CAP = 20_000  # msg00003.html of 2007-10 is larger


PUBLIC_INBOX_FIX = FIXTURES / "archives" / "public-inbox"


FIRST = ("01-gmane-plain.eml", "02-qp-netperf.eml", "03-b64-unixbench.eml")


_ENV = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_AUTHOR_NAME": "a", "GIT_AUTHOR_EMAIL": "a@example.org", "GIT_COMMITTER_NAME": "c",
        "GIT_COMMITTER_EMAIL": "c@example.org"}


class Epoch:
    """A bare repo laid out like a public-inbox v2 epoch: each commit's tree is one file `m`."""

    def __init__(self, path: Path) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(["git", "init", "--bare", "-q", "-b", "master", str(path)], check=True, env=_ENV)

    def git(self, *args: str, data: bytes | None = None) -> str:
        return subprocess.run(["git", f"--git-dir={self.path}", *args], input=data, capture_output=True,
                              check=True, env=_ENV).stdout.decode().strip()

    def commit(self, files: dict[str, bytes]) -> str:
        entries = b"".join(b"100644 blob %s\t%s\n" % (self.git("hash-object", "-w", "--stdin", data=body).encode(),
                                                      name.encode()) for name, body in files.items())
        tree = self.git("mktree", data=entries)
        parent = subprocess.run(["git", f"--git-dir={self.path}", "rev-parse", "-q", "--verify", "refs/heads/master"],
                                capture_output=True, env=_ENV).stdout.decode().strip()
        commit = self.git("commit-tree", tree, "-m", "msg", *(["-p", parent] if parent else []))
        self.git("update-ref", "refs/heads/master", commit)
        return commit

    def add(self, *names: str) -> None:
        for name in names:
            self.commit({"m": (PUBLIC_INBOX_FIX / name).read_bytes()})
