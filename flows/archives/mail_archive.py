"""`mail-archive`: a list on www.mail-archive.com (kvm-devel's complete public copy).

What the real pages look like. Seen in saved copies: the message template (a 2024 client's
test page modelled on live lightning-dev pages), the MHonArc comments, `maillist.html`,
`mailN.html` and `msg%05d.html` (Gnus' nnwarchive, 2000), kvm-devel bodies with
`[EMAIL PROTECTED]` and, in text copies, both intact and squeezed blanks. Assumed: that
today's pages still carry the comments (the visible head is the fallback) and that the date
index still pages as `mailN.html`.

* One folder per list, `https://www.mail-archive.com/<list-address>/`, no month folders and
  no bulk export. Messages are `msgNNNNN.html`, numbered per list from msg00000.
* The date index is `maillist.html` (newest messages), paged on to older ones as
  `mail2.html`, `mail3.html`, ...; the thread index is `index.html` / `thrdN.html`. Only the
  date index is followed: it lists every message once.
* A message page is MHonArc output in mail-archive's own template: the `<!--X-Subject: -->`,
  `<!--X-From-R13: -->`, `<!--X-Date: -->`, `<!--X-Message-Id: -->` comments before the
  HTML, a `div.msgHead` with `span.subject`, `span.sender` and `span.date` (name and date
  only), and `div.msgBody` holding the body between `<!--X-Body-of-Message-->` markers,
  in `<pre>` for plain-text mail. Addresses in bodies are `[EMAIL PROTECTED]` on old pages.

Units are blocks of message numbers (`block_size`, default 1000): the date index is read
once per run (conditional GETs), a block whose list of pages did not change is unchanged,
and a grown block downloads only its new pages. A body that is not in `<pre>` has lost its
whitespace; the message then carries a note so that parsers' rows are flagged `inferred`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import flows.http as fhttp
from flows.archives import crawl
from flows.archives.base import FetchContext, Fetched, RawItem, Unit, UnitError
from flows.archives.options import typed_options
from flows.source import Source
from transforms.pages.mail_archive import parse_page

_MSG = re.compile(r"^msg(\d{5,6})\.html$")
_INDEX = re.compile(r"^(?:maillist|mail\d{1,5})\.html$")
MANIFEST = "manifest.json"


@dataclass(frozen=True, slots=True)
class Options:
    max_page_bytes: int = fhttp.DEFAULT_MAX_PAGE_BYTES
    index_page: str = "maillist.html"  # the first page of the date index
    block_size: int = 1000  # message numbers per unit
    max_index_pages: int = 2000


def classify(root: str) -> crawl.Classify:
    def kind(base: str, href: str) -> tuple[str | None, str]:
        if not href or href.startswith(("mailto:", "javascript:", "#")):
            return None, ""
        url = urljoin(base, href.strip()).split("#", 1)[0]
        parts = urlsplit(url)
        name = parts.path.rsplit("/", 1)[-1]
        if not fhttp.same_origin(root, url) or not parts.path.startswith(urlsplit(root).path):
            return ("refused" if _MSG.match(name) or _INDEX.match(name) else None), url
        if parts.query or "/" in parts.path[len(urlsplit(root).path):]:
            return None, url
        if _MSG.match(name):
            return "msg", url
        return ("index" if _INDEX.match(name) else None), url
    return kind


# ---------------------------------------------------------------- the kind


class MailArchiveKind:
    name = "mail-archive"
    Options = Options

    def units(self, source: Source, ctx: FetchContext) -> list[Unit]:
        crawl.remote_only(source)
        opts: Options = typed_options(Options, source)
        root = fhttp.archive_root(source.url)
        folder = fhttp.cache_path(ctx.raw_dir, source.name, "index")
        found = crawl.crawl_indexes(ctx.http, root + opts.index_page, folder, opts.max_page_bytes,
                                    classify(root), lambda u: u.rsplit("/", 1)[-1] or "index.html",
                                    opts.max_index_pages)
        blocks: dict[str, list[str]] = {}
        for url in found.messages:
            num = int(_MSG.match(url.rsplit("/", 1)[-1]).group(1))
            start = num - num % opts.block_size
            blocks.setdefault(f"{start:05d}-{start + opts.block_size - 1:05d}", []).append(url)
        first = min(blocks) if blocks else None
        manifest = {key: {"pages": sorted(urls), "refused": found.refused if key == first else [],
                          "skipped": found.skipped if key == first else []}
                    for key, urls in blocks.items()}
        crawl.save_json(fhttp.cache_path(ctx.raw_dir, source.name, MANIFEST), manifest)
        return [Unit(source.name, key, root) for key in sorted(blocks)]

    def fetch(self, unit: Unit, source: Source, ctx: FetchContext) -> Fetched:
        opts: Options = typed_options(Options, source)
        manifest_path = fhttp.cache_path(ctx.raw_dir, source.name, MANIFEST)
        try:
            block = json.loads(manifest_path.read_text()).get(unit.key)
        except (OSError, ValueError) as exc:
            return Fetched(unit, "failed", error=f"no index manifest: {exc}")
        if block is None:
            return Fetched(unit, "failed", error=f"block {unit.key} is not in the date index any more")
        pages, refused = block["pages"], block["refused"]
        sha, _ = crawl.digest([], pages + refused + [f"{p}: {r}" for p, r in block["skipped"]])
        if (ctx.last(unit) or {}).get("sha256") == sha:
            return Fetched(unit, "unchanged", path=manifest_path, sha256=sha)
        folder = fhttp.cache_path(ctx.raw_dir, source.name, "pages")
        wanted = [(u, u, fhttp.cache_path(folder, u.rsplit("/", 1)[-1])) for u in pages]
        try:
            got = crawl.download(ctx.http, wanted, opts.max_page_bytes)
        except (fhttp.FetchError, OSError) as exc:
            return Fetched(unit, "failed", error=str(exc))
        found = crawl.IndexCrawl(refused=refused, skipped=[tuple(s) for s in block["skipped"]])
        return crawl.result(unit, manifest_path, sha, 0, got, found)

    def messages(self, fetched: Fetched, source: Source) -> Iterator[RawItem]:
        if fetched.path is None or not Path(fetched.path).exists():
            raise UnitError("nothing fetched")
        yield from crawl.read_pages(fetched, lambda p: parse_page(p.read_bytes()), "mail-archive.com message page")


KIND = MailArchiveKind()
