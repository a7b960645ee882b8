"""`mhonarc`: MHonArc month folders (lists.xenproject.org, lists.gnu.org, nongnu qemu-devel).

The source url is the list root holding `YYYY-MM/` folders (http(s) or a local
mirror). A unit is one month: its date index (`index.html`, paged on as
`mail2.html`, ...) lists `msgNNNNN.html` pages, each one message. The index is
fetched conditionally (validators kept next to the cached copy), so an unchanged
month costs one request; message pages never change their message once
written, so a page already in the raw cache is not requested again and a grown
month downloads only its new pages.

With the option `mbox_url` (lists.gnu.org: `.../archive/mbox/<list>/`, or a
template holding `{month}`) the month is the raw monthly mbox instead: no HTML
at all, whitespace and headers exact.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

import flows.http as fhttp
from flows.archives.base import FetchContext, Fetched, RawItem, Unit, UnitError, sha256_file
from flows.archives.base import download as download_file
from flows.archives.mbox import KIND as MBOX
from flows.archives.options import typed_options
from flows.source import Source
from transforms.html import decode_html, links
from transforms.mbox import Skipped
from transforms.pages.mhonarc import parse_page

if TYPE_CHECKING:
    from flows.http import PoliteClient

_MONTH_DIR = re.compile(r"^(\d{4})-(0[1-9]|1[0-2])$")
_MONTH_LINK = re.compile(r"^(\d{4}-(?:0[1-9]|1[0-2]))/(?:([A-Za-z]+\d*)\.html?)?$")
_MSG_PAGE = re.compile(r"^msg\d{4,6}\.html$")
_INDEX_PAGE = re.compile(r"^(?:index|maillist|mail\d+)\.html$")  # date index, then its pages
MAX_INDEX_PAGES = 500


@dataclass(frozen=True, slots=True)
class Options:
    max_page_bytes: int = fhttp.DEFAULT_MAX_PAGE_BYTES
    max_unit_bytes: int = fhttp.DEFAULT_MAX_UNIT_BYTES  # a monthly mbox (with mbox_url)
    mbox_url: str | None = None  # `.../archive/mbox/<list>/` or a template holding `{month}`


# ---------------------------------------------------------------- discovery


def month_indexes(root: str, markup: str) -> dict[str, str]:
    """Month -> date-index URL for every same-origin `YYYY-MM/...` link of the root page."""
    found: dict[str, str] = {}
    root_path = urlsplit(root).path
    for href in links(markup):
        url = fhttp.resolve_link(root, href)
        if url is None or urlsplit(url).query or not urlsplit(url).path.startswith(root_path):
            continue
        m = _MONTH_LINK.match(urlsplit(url).path[len(root_path):])
        if m is None:
            continue
        month, page = m.group(1), m.group(2)
        if page and page != "threads" and not page.startswith("thrd"):
            found[month] = f"{root}{month}/{page}.html"  # the archive's own name for the date index
        else:
            found.setdefault(month, f"{root}{month}/index.html")
    return found


def page_links(base: str, markup: str) -> tuple[list[str], list[str]]:
    """(message page names, further date-index page names) a month index links, in page order."""
    msgs: list[str] = []
    pages: list[str] = []
    folder = base.rsplit("/", 1)[0] + "/"
    for href in links(markup):
        url = fhttp.resolve_link(base, href)
        if url is None or urlsplit(url).query or not url.startswith(folder):
            continue
        name = url[len(folder):]
        if _MSG_PAGE.match(name) and name not in msgs:
            msgs.append(name)
        elif _INDEX_PAGE.match(name) and name not in pages:
            pages.append(name)
    return msgs, pages


# ---------------------------------------------------------------- fetching


@dataclass
class _MonthFetch:
    pages: list[Path] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (page, reason): over the cap
    failed: list[str] = field(default_factory=list)  # transient: retried next run


def _digest(paths: list[Path]) -> tuple[str, int]:
    """One hash over the index pages (their own hash when there is only one)."""
    parts = [sha256_file(p) for p in paths]
    if len(parts) == 1:
        return parts[0]
    h = hashlib.sha256("\n".join(d for d, _ in parts).encode())
    return h.hexdigest(), sum(n for _, n in parts)


def _read(path: Path) -> str:
    return decode_html(path.read_bytes())


class MhonarcKind:
    name = "mhonarc"
    Options = Options

    def units(self, source: Source, ctx: FetchContext) -> list[Unit]:
        if source.is_remote:
            root = fhttp.archive_root(source.url)
            page = ctx.http.cached_page(root, fhttp.cache_path(ctx.raw_dir, source.name, "index.html"), _page_cap(source))
            months = month_indexes(root, _read(page))
        else:
            months = _local_months(Path(source.url))
        return [Unit(source.name, m, _mbox_url(source, m) or url, month=m) for m, url in sorted(months.items())]

    def fetch(self, unit: Unit, source: Source, ctx: FetchContext) -> Fetched:
        if typed_options(Options, source).mbox_url:
            return _fetch_mbox(unit, source, ctx)
        try:
            if source.is_remote:
                return _fetch_remote(unit, source, ctx)
            return _fetch_local(unit, source, ctx)
        except (fhttp.FetchError, OSError) as exc:
            return Fetched(unit, "failed", error=str(exc))

    def messages(self, fetched: Fetched, source: Source) -> Iterator[RawItem]:
        if fetched.extra.get("mode") == "mbox":
            yield from MBOX.messages(fetched, source)
            return
        if fetched.path is None:
            raise UnitError("nothing fetched")
        index = 0
        for page, reason in fetched.extra.get("skipped", []):
            yield Skipped(index, f"{page}: {reason}", 0)
            index += 1
        pages = fetched.extra.get("pages")
        if pages is None:  # a Fetched built elsewhere: every cached page of the month
            pages = sorted(p for p in Path(fetched.path).parent.glob("msg*.html"))
        remote = fetched.unit.url.startswith(("http://", "https://"))
        folder = fetched.unit.url.rsplit("/", 1)[0] + "/" if remote else None
        for path in pages:
            mail = parse_page(Path(path).read_bytes())
            if mail is not None and folder is not None:
                mail.url = folder + Path(path).name  # the page it was read from is its permalink
            if mail is None:
                yield Skipped(index, f"{Path(path).name}: not a MHonArc message page", Path(path).stat().st_size)
            else:
                yield mail
            index += 1


def _page_cap(source: Source) -> int:
    return typed_options(Options, source).max_page_bytes


def _mbox_url(source: Source, month: str) -> str | None:
    base = typed_options(Options, source).mbox_url
    if not base:
        return None
    return base.format(month=month) if "{month}" in base else fhttp.archive_root(base) + month


def _fetch_mbox(unit: Unit, source: Source, ctx: FetchContext) -> Fetched:
    """The raw monthly mbox, cached as `<month>.mbox` (the HTML pages live in `<month>/`)."""
    if not unit.url.startswith(("http://", "https://")):
        f = MBOX.fetch(unit, source, ctx)
    else:
        alias = replace(unit, key=f"{unit.key}.mbox")
        sub = FetchContext(ctx.raw_dir, ctx.http, {(unit.source, alias.key): ctx.last(unit) or {}})
        f = download_file(alias, source, sub, max_bytes=typed_options(Options, source).max_unit_bytes)
        f.unit = unit
    f.extra["mode"] = "mbox"
    return f


def _fetch_remote(unit: Unit, source: Source, ctx: FetchContext) -> Fetched:
    month_dir = fhttp.cache_path(ctx.raw_dir, source.name, unit.key)
    cap = _page_cap(source)
    index_paths, names = _fetch_indexes(ctx.http, unit.url, month_dir, cap)
    digest, size = _digest(index_paths)
    last = ctx.last(unit) or {}
    if last.get("sha256") == digest:
        return Fetched(unit, "unchanged", path=index_paths[0], sha256=digest, bytes=size)
    got = _MonthFetch()
    folder = unit.url.rsplit("/", 1)[0] + "/"
    for name in names:
        dest = fhttp.cache_path(ctx.raw_dir, source.name, unit.key, name)
        if not dest.exists():
            try:
                ctx.http.get_once(folder + name, dest, cap)
            except fhttp.FetchError as exc:
                if "-byte cap" in str(exc):  # permanent: reported, not retried until the month grows
                    got.skipped.append((name, str(exc)))
                else:
                    got.failed.append(f"{name}: {exc}")
                continue
        got.pages.append(dest)
    return _month_result(unit, index_paths[0], digest, size, got)


def _fetch_indexes(http: PoliteClient, first_url: str, month_dir: Path, cap: int) -> tuple[list[Path], list[str]]:
    """Every date-index page of the month (conditional GETs) and the message pages they list."""
    folder, first = first_url.rsplit("/", 1)
    queue, seen = [first or "index.html"], {first or "index.html"}
    paths: list[Path] = []
    names: list[str] = []
    while queue and len(paths) < MAX_INDEX_PAGES:
        name = queue.pop(0)
        dest = http.cached_page(f"{folder}/{name}", fhttp.cache_path(month_dir.parent, month_dir.name, name), cap)
        paths.append(dest)
        msgs, more = page_links(f"{folder}/{name}", _read(dest))
        names.extend(n for n in msgs if n not in names)
        queue.extend(n for n in more if n not in seen)
        seen.update(more)
    return paths, names


def _month_result(unit: Unit, index: Path, digest: str, size: int, got: _MonthFetch) -> Fetched:
    if got.failed and not got.pages:
        return Fetched(unit, "failed", error=f"{len(got.failed)} pages failed, e.g. {got.failed[0]}")
    error = f"{len(got.failed)} pages failed (retried next run), e.g. {got.failed[0]}" if got.failed else None
    # A partial month must not look unchanged next run, or its missing pages would never come.
    sha = digest + "+partial" if got.failed else digest
    size += sum(p.stat().st_size for p in got.pages)
    return Fetched(unit, "ok", path=index, sha256=sha, bytes=size, error=error,
                   extra={"pages": got.pages, "skipped": got.skipped})


def _local_months(root: Path) -> dict[str, str]:
    if not root.is_dir():
        raise UnitError(f"no such folder: {root}")
    return {p.name: str(p / "index.html") for p in root.iterdir() if p.is_dir() and _MONTH_DIR.match(p.name)}


def _fetch_local(unit: Unit, source: Source, ctx: FetchContext) -> Fetched:
    """A local mirror: the index pages when present, else every `msgNNNNN.html` of the folder."""
    folder = Path(unit.url).parent
    queue, seen = [Path(unit.url).name], {Path(unit.url).name}
    index_paths: list[Path] = []
    names: list[str] = []
    while queue and len(index_paths) < MAX_INDEX_PAGES:
        page = folder / queue.pop(0)
        if not page.is_file():
            continue
        index_paths.append(page)
        msgs, more = page_links(page.as_uri(), _read(page))
        names.extend(n for n in msgs if n not in names)
        queue.extend(n for n in more if n not in seen)
        seen.update(more)
    if not index_paths:
        names = sorted(p.name for p in folder.glob("msg*.html") if _MSG_PAGE.match(p.name))
        index_paths = [folder / n for n in names]
    if not index_paths:
        return Fetched(unit, "failed", error=f"no index.html and no msgNNNNN.html in {folder}")
    digest, size = _digest(index_paths)
    last = ctx.last(unit) or {}
    if last.get("sha256") == digest:
        return Fetched(unit, "unchanged", path=index_paths[0], sha256=digest, bytes=size)
    got, cap = _MonthFetch(), _page_cap(source)
    for name in names:
        page = folder / name
        if not page.is_file():
            got.skipped.append((name, "listed in the index but missing"))
        elif page.stat().st_size > cap:
            got.skipped.append((name, f"{page.stat().st_size} bytes is over the {cap}-byte cap (max_page_bytes)"))
        else:
            got.pages.append(page)
    return _month_result(unit, index_paths[0], digest, size, got)


KIND = MhonarcKind()
