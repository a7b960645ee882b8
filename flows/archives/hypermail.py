"""`hypermail`: Hypermail-style archives (LKML at lkml.iu.edu/hypermail/linux/kernel/ since 1996).

What the real pages look like. Seen in saved copies of lkml.iu.edu pages (a 2001 Hypermail
2b29 page and a 2015 MHonArc 2.6.16 page), a scraper's reading of the root and folder
indexes, and live links with 4- and 5-digit page names. Assumed: the markup of `date.html`
beyond "a list of relative links to the folder's pages" (only its name was seen).

* The list root links one folder per week bucket, `YYMM.W/` (W = 0..5, the week of the
  month; the first years are plain `YYMM/`). Each folder holds `index.html` (thread),
  `date.html`, `subject.html`, `author.html` and the messages `NNNN.html` / `NNNNN.html`.
  A unit is one folder; its date index is re-read conditionally.
* Two page generations share one look. Up to 2003 Hypermail itself wrote the pages: the
  headers live in comments (`<!-- name="..." -->`, `email`, `sent`, `isosent`, `subject`,
  `id`, `inreplyto`), the page shows `From: Name (address)` and
  `Date: Mon Jun 25 2001 - 11:52:59 EST`, and the body sits between
  `<!-- body="start" -->` and `<!-- body="end" -->`. Later pages are MHonArc output in a
  Hypermail template: `<!--X-Subject: -->`, `<!--X-From-R13: -->`, `<!--X-Date: -->`,
  `<!--X-Message-Id: -->` comments, a visible `From: name` without the address and the
  `Date: ... EST` line, the body between `<!--X-Body-of-Message-->` markers.
* Neither generation uses `<pre>`: every source line ends in `<br>` (`<P>` for a blank
  line, `<EM>` around quoted lines), runs of blanks and TABs stay in the source and old
  pages write leading blanks as `&nbsp;`. Read from the source, a table keeps its columns;
  read as rendered text it would not, so the body is rebuilt from the markup here.
* Addresses in bodies are shortened to `user@xxxxxxxx` on the later pages.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from urllib.parse import urljoin, urlsplit

import flows.http as fhttp
from flows.archives import crawl
from flows.archives.base import FetchContext, Fetched, RawItem, Unit, UnitError
from flows.archives.options import typed_options
from flows.source import Source
from transforms.html import decode_html, links
from transforms.pages.hypermail import parse_page

_FOLDER = re.compile(r"^(\d{2})(0[1-9]|1[0-2])(?:\.([0-5]))?/(?:(?:index|date)\.html)?$")
_MSG = re.compile(r"^\d{4,6}\.html$")


@dataclass(frozen=True, slots=True)
class Options:
    max_page_bytes: int = fhttp.DEFAULT_MAX_PAGE_BYTES
    index_page: str = "date.html"  # the folder's index that lists every message once
    max_index_pages: int = 20


def folders(root: str, markup_hrefs: list[str]) -> dict[str, tuple[str, str]]:
    """Folder name -> (YYYY-MM, folder URL) for every same-origin week-bucket link of the root."""
    out: dict[str, tuple[str, str]] = {}
    for href in markup_hrefs:
        url = fhttp.resolve_link(root, href)
        if url is None or urlsplit(url).query:
            continue
        m = _FOLDER.match(url[len(root):]) if url.startswith(root) else None
        if m is None:
            continue
        yy, mm, week = m.groups()
        year = (1900 if int(yy) >= 90 else 2000) + int(yy)
        name = f"{yy}{mm}" + (f".{week}" if week is not None else "")
        out[name] = (f"{year}-{mm}", f"{root}{name}/")
    return out


def classify(folder: str) -> crawl.Classify:
    def kind(base: str, href: str) -> tuple[str | None, str]:
        if not href or href.startswith(("mailto:", "javascript:", "#")):
            return None, ""
        url = urljoin(base, href.strip()).split("#", 1)[0]
        name = urlsplit(url).path.rsplit("/", 1)[-1]
        inside = fhttp.same_origin(folder, url) and url.startswith(folder) and "/" not in url[len(folder):]
        if not _MSG.match(name) or urlsplit(url).query:
            return None, url
        return ("msg" if inside else "refused"), url
    return kind


# ---------------------------------------------------------------- the kind


class HypermailKind:
    name = "hypermail"
    Options = Options

    def units(self, source: Source, ctx: FetchContext) -> list[Unit]:
        crawl.remote_only(source)
        opts: Options = typed_options(Options, source)
        root = fhttp.archive_root(source.url)
        page = ctx.http.cached_page(root, fhttp.cache_path(ctx.raw_dir, source.name, "index.html"),
                                opts.max_page_bytes)
        found = folders(root, links(decode_html(page.read_bytes())))
        return [Unit(source.name, name, url, month=month) for name, (month, url) in sorted(found.items())]

    def fetch(self, unit: Unit, source: Source, ctx: FetchContext) -> Fetched:
        opts: Options = typed_options(Options, source)
        folder = fhttp.cache_path(ctx.raw_dir, source.name, unit.key)
        try:
            found = crawl.crawl_indexes(ctx.http, unit.url + opts.index_page, folder, opts.max_page_bytes,
                                        classify(unit.url), lambda u: u.rsplit("/", 1)[-1],
                                        opts.max_index_pages)
            sha, size = crawl.digest(found.paths, found.refused)
            if (ctx.last(unit) or {}).get("sha256") == sha:
                return Fetched(unit, "unchanged", path=found.paths[0], sha256=sha, bytes=size)
            wanted = [(u, u, fhttp.cache_path(folder, u.rsplit("/", 1)[-1])) for u in found.messages]
            got = crawl.download(ctx.http, wanted, opts.max_page_bytes)
        except (fhttp.FetchError, OSError) as exc:
            return Fetched(unit, "failed", error=str(exc))
        return crawl.result(unit, found.paths[0], sha, size, got, found)

    def messages(self, fetched: Fetched, source: Source) -> Iterator[RawItem]:
        if fetched.path is None:
            raise UnitError("nothing fetched")
        yield from crawl.read_pages(fetched, lambda p: parse_page(p.read_bytes()), "Hypermail message page")


KIND = HypermailKind()
