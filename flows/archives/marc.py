"""`marc`: MARC (marc.info, formerly marc.theaimsgroup.com), read through its raw messages.

What the real pages look like. Seen: a saved message page (2016) with its header block
and raw link, month listing URLs paged as `r=2&b=YYYYMM`, and a 2005 LKML post reporting
that "Download message RAW" omits the header. Assumed: the listing pages' markup beyond
"links `?l=<list>&m=<id>&w=2` and a Next link" (a scraper's reading), and whether today's
raw download has its headers: both are handled.

* Everything is one CGI with query parameters. `?l=<list>&r=1&w=2` lists the list's months
  as links `?l=<list>&r=1&b=YYYYMM&w=2`; a month listing is paged on as `r=2`, `r=3`, ...
  (a `Next` link), each page a `<pre>` of numbered lines linking `?l=<list>&m=<id>&w=2`.
* A message page is a `<pre>` with a `[prev in list] [next in list] [prev in thread]
  [next in thread]` bar, `List:`, `Subject:`, `From:`, `Date: 2016-07-31 20:18:42` and
  `Message-ID:` lines (addresses written `user () host ! com`), the body, and a
  `[Download message RAW]` link, `?l=<list>&m=<id>&q=raw`.
* The raw download is the message body as received, text/plain, whitespace intact: the
  best source for pasted tables. When it starts without a header block, the message page is
  fetched once for its Subject, From, Date and Message-ID lines; its HTML body is never read.

A unit is one month: its listing pages are re-read conditionally, raw messages already in
the raw cache are not requested again. `messages.url` is the message's `&w=2` page.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qs, urljoin, urlsplit

import flows.http as fhttp
from flows.archives import crawl
from flows.archives.base import FetchContext, Fetched, RawItem, Unit, UnitError
from flows.archives.options import typed_options
from flows.source import Source
from transforms.html import decode_html, links
from transforms.mail import Mail
from transforms.pages.marc import has_header, is_html, parse_raw

_MONTH = re.compile(r"^(\d{4})(0[1-9]|1[0-2])$")
_ID = re.compile(r"^\d{6,20}$")


@dataclass(frozen=True, slots=True)
class Options:
    list_name: str = ""  # the `l=` name; taken from the URL query when empty
    max_page_bytes: int = fhttp.DEFAULT_MAX_PAGE_BYTES
    max_index_pages: int = 500  # listing pages per month


def base_and_list(source: Source, opts: Options) -> tuple[str, str]:
    """(CGI URL without query, list name) from `https://marc.info/?l=linux-kernel` or the option."""
    parts = urlsplit(source.url)
    name = opts.list_name or (parse_qs(parts.query).get("l") or [""])[0]
    if not name:
        raise UnitError(f"{source.name}: say which list: url ...?l=<list> or option list_name")
    return f"{parts.scheme}://{parts.netloc}{parts.path or '/'}", name


def _query(base: str, href: str) -> tuple[str, dict[str, str]] | None:
    if not href or href.startswith(("mailto:", "javascript:", "#")):
        return None
    url = urljoin(base, href.strip()).split("#", 1)[0]
    return url, {k: v[0] for k, v in parse_qs(urlsplit(url).query).items()}


def months(base: str, name: str, hrefs: list[str]) -> dict[str, str]:
    """YYYY-MM -> first listing page, for the list's own month links."""
    out: dict[str, str] = {}
    for href in hrefs:
        got = _query(base, href)
        if got is None or not fhttp.same_origin(base, got[0]):
            continue
        q = got[1]
        m = _MONTH.match(q.get("b", ""))
        if q.get("l") == name and m and "m" not in q:
            out[f"{m.group(1)}-{m.group(2)}"] = f"{base}?l={name}&r=1&b={q['b']}&w=2"
    return out


def classify(base: str, name: str, month: str) -> crawl.Classify:
    def kind(page: str, href: str) -> tuple[str | None, str]:
        got = _query(page, href)
        if got is None:
            return None, ""
        url, q = got
        is_msg = bool(_ID.match(q.get("m", ""))) and "q" not in q
        if not fhttp.same_origin(base, url) or urlsplit(url).path != urlsplit(base).path:
            return ("refused" if is_msg else None), url
        if is_msg:
            return ("msg", f"{base}?l={name}&m={q['m']}&w=2") if q.get("l") == name else ("refused", url)
        if q.get("l") == name and q.get("b") == month and q.get("r", "").isdigit() and "m" not in q:
            return "index", f"{base}?l={name}&r={int(q['r'])}&b={month}&w=2"
        return None, url
    return kind



class MarcKind:
    name = "marc"
    Options = Options

    def units(self, source: Source, ctx: FetchContext) -> list[Unit]:
        crawl.remote_only(source)
        opts: Options = typed_options(Options, source)
        base, name = base_and_list(source, opts)
        page = ctx.http.cached_page(f"{base}?l={name}&r=1&w=2",
                                fhttp.cache_path(ctx.raw_dir, source.name, "months.html"), opts.max_page_bytes)
        found = months(base, name, links(decode_html(page.read_bytes())))
        return [Unit(source.name, month, url, month=month) for month, url in sorted(found.items())]

    def fetch(self, unit: Unit, source: Source, ctx: FetchContext) -> Fetched:
        opts: Options = typed_options(Options, source)
        base, name = base_and_list(source, opts)
        folder = fhttp.cache_path(ctx.raw_dir, source.name, unit.key)
        month = unit.key.replace("-", "")
        try:
            found = crawl.crawl_indexes(ctx.http, unit.url, folder, opts.max_page_bytes,
                                        classify(base, name, month), _listing_name, opts.max_index_pages)
            sha, size = crawl.digest(found.paths, found.refused)
            if (ctx.last(unit) or {}).get("sha256") == sha:
                return Fetched(unit, "unchanged", path=found.paths[0], sha256=sha, bytes=size)
            wanted = []
            for link in found.messages:
                mid = parse_qs(urlsplit(link).query)["m"][0]
                wanted.append((f"{base}?l={name}&m={mid}&q=raw", link, fhttp.cache_path(folder, f"{mid}.txt")))
            got = crawl.download(ctx.http, wanted, opts.max_page_bytes)
            # A raw download without its header block: the message page shows the headers.
            bare = [(link, link, p.with_suffix(".html")) for p, link in zip(got.paths, got.urls, strict=True)
                    if not has_header(head := p.read_bytes()[:8192]) and not is_html(head)]
            pages = crawl.download(ctx.http, bare, opts.max_page_bytes)
            got.failed += pages.failed
            got.skipped += pages.skipped
        except (fhttp.FetchError, OSError) as exc:
            return Fetched(unit, "failed", error=str(exc))
        return crawl.result(unit, found.paths[0], sha, size, got, found)

    def messages(self, fetched: Fetched, source: Source) -> Iterator[RawItem]:
        if fetched.path is None:
            raise UnitError("nothing fetched")
        yield from crawl.read_pages(fetched, _read, "raw message")


def _read(path: Path) -> Mail | None:
    page = path.with_suffix(".html")
    return parse_raw(path.read_bytes(), page.read_bytes() if page.exists() else None)


def _listing_name(url: str) -> str:
    return f"r{parse_qs(urlsplit(url).query).get('r', ['1'])[0]}.html"


KIND = MarcKind()
