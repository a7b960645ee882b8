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
from flows.config import Source
from transforms.html import html_to_text
from transforms.mail import Mail, decode_message

_MONTH = re.compile(r"^(\d{4})(0[1-9]|1[0-2])$")
_ID = re.compile(r"^\d{6,20}$")
_HEADER = re.compile(rb"^[A-Za-z][A-Za-z0-9-]{0,60}:[ \t]")
_NAMED = re.compile(rb"(?i)^(?:from|subject|date|message-id):[ \t]")
_SHOWN = re.compile(r"^(List|Subject|From|Date|Message-ID):\s{1,20}(\S.{0,2000})$")
_OBFUSCATED = re.compile(rb"([^\s@<>()!]{1,200}) \(\) ([^\s<>()!]{1,200}(?: ! [^\s<>()!]{1,200}){1,10})")


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


def parse_raw(data: bytes, page: bytes | None = None) -> Mail | None:
    """A raw download (and, when the raw has no header block, the message page) to a `Mail`.

    An HTML answer in place of the raw message (an error page) is not a message.
    """
    if is_html(data):
        return None
    if not has_header(data):
        if page is None:
            return None
        data = _page_headers(page) + b"\n" + data
    end = data.find(b"\n\n")
    head = data[:end if end >= 0 else len(data)]
    # MARC writes addresses as `user () host ! com`; put them back so the headers parse.
    head = _OBFUSCATED.sub(lambda m: m.group(1) + b"@" + m.group(2).replace(b" ! ", b"."), head)
    return decode_message(head + data[len(head):])


def is_html(data: bytes) -> bool:
    return data[:512].lstrip().lower().startswith((b"<!doctype", b"<html", b"<head"))


def has_header(data: bytes) -> bool:
    """Whether a raw download starts with a header block naming the message (some carry only the body)."""
    end = data.find(b"\n\n")
    block = data[:end if end >= 0 else min(len(data), 8192)]
    lines = block.split(b"\n")
    return bool(_HEADER.match(lines[0])) and any(_NAMED.match(line) for line in lines)


def _page_headers(page: bytes) -> bytes:
    """Subject, From, Date and Message-ID as the message page shows them, as header lines."""
    from flows.archives.mhonarc import decode_page

    text = html_to_text(decode_page(page))
    text = text[:text.find("[Download message RAW]")] if "[Download message RAW]" in text else text
    out = []
    for line in text.splitlines():
        m = _SHOWN.match(line)
        if m and m.group(1).lower() != "list":
            value = m.group(2).strip()
            if m.group(1).lower() == "message-id" and not value.startswith("<"):
                value = f"<{value}>"
            out.append(f"{m.group(1)}: {value}")
    return "\n".join(out).encode("utf-8") + b"\n"


class MarcKind:
    name = "marc"

    def units(self, source: Source, ctx: FetchContext) -> list[Unit]:
        crawl.remote_only(source)
        opts: Options = crawl.typed_options(Options, source)
        base, name = base_and_list(source, opts)
        page = ctx.http.cached_page(f"{base}?l={name}&r=1&w=2",
                                fhttp.cache_path(ctx.raw_dir, source.name, "months.html"), opts.max_page_bytes)
        found = months(base, name, crawl.hrefs(page.read_bytes()))
        return [Unit(source.name, month, url, month=month) for month, url in sorted(found.items())]

    def fetch(self, unit: Unit, source: Source, ctx: FetchContext) -> Fetched:
        opts: Options = crawl.typed_options(Options, source)
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
