"""What the page-crawling kinds share: index pages fetched conditionally, message pages once.

An archive without a bulk export is read as HTML: index pages list message pages. Index
pages change as a list grows, so each is re-fetched with its validators (an unchanged one
costs a 304); a message page never changes its message once written, so a page already in
the raw cache is not requested again. Links are classified by the kind; a link that would
leave the archive (another host, another list, `../`) is refused and reported, never fetched.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import flows.http as fhttp
from flows.archives.base import Fetched, RawItem, Unit, UnitError, sha256_file
from flows.source import Source
from transforms.html import decode_html, links
from transforms.mail import Mail
from transforms.mbox import Skipped

if TYPE_CHECKING:
    from flows.http import PoliteClient

# (kind of link, absolute URL): "msg", "index", "refused" or None (not ours, ignored)
Classify = Callable[[str, str], tuple[str | None, str]]
MAX_REFUSED = 200  # refused links reported per unit


@dataclass
class IndexCrawl:
    paths: list[Path] = field(default_factory=list)  # index pages read, in order
    messages: list[str] = field(default_factory=list)  # message page URLs, first seen first
    refused: list[str] = field(default_factory=list)  # links that would leave the archive
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (index page, why): over the cap


def crawl_indexes(http: PoliteClient, first: str, folder: Path, cap: int, classify: Classify,
                  name_of: Callable[[str], str], max_pages: int) -> IndexCrawl:
    """Every index page reachable from `first` (conditional GETs), and the message pages they list."""
    out = IndexCrawl()
    queue, seen, msgs = [first], {first}, set()
    while queue and len(out.paths) < max_pages:
        url = queue.pop(0)
        dest = fhttp.cache_path(folder, name_of(url))
        try:
            http.cached_page(url, dest, cap)
        except fhttp.FetchError as exc:
            if url == first:
                raise
            out.skipped.append((name_of(url), str(exc)))  # a later page: report it, read the rest
            continue
        out.paths.append(dest)
        for href in links(decode_html(dest.read_bytes())):
            kind, link = classify(url, href)
            if kind == "msg" and link not in msgs:
                msgs.add(link)
                out.messages.append(link)
            elif kind == "index" and link not in seen:
                seen.add(link)
                queue.append(link)
            elif kind == "refused" and link not in out.refused and len(out.refused) < MAX_REFUSED:
                out.refused.append(link)
    return out


def digest(paths: list[Path], extra: list[str] = ()) -> tuple[str, int]:
    """One hash over the index pages (and anything else that decides what the unit holds)."""
    parts = [sha256_file(p) for p in paths]
    h = hashlib.sha256("\n".join([d for d, _ in parts] + list(extra)).encode())
    return h.hexdigest(), sum(n for _, n in parts)


@dataclass
class Pages:
    paths: list[Path] = field(default_factory=list)
    urls: list[str] = field(default_factory=list)  # the page each message is linked by
    skipped: list[tuple[str, str]] = field(default_factory=list)  # permanent: over the cap
    failed: list[str] = field(default_factory=list)  # transient: retried next run


def download(http: PoliteClient, wanted: list[tuple[str, str, Path]], cap: int) -> Pages:
    """(fetch URL, permalink, cache path) each; pages already cached are not requested again."""
    got = Pages()
    for url, link, dest in wanted:
        if not dest.exists():
            try:
                http.get_once(url, dest, cap)
            except fhttp.FetchError as exc:
                if "-byte cap" in str(exc):  # permanent: reported, not retried until the unit changes
                    got.skipped.append((dest.name, str(exc)))
                else:
                    got.failed.append(f"{dest.name}: {exc}")
                continue
        got.paths.append(dest)
        got.urls.append(link)
    return got


def result(unit: Unit, path: Path, sha: str, size: int, got: Pages, crawl: IndexCrawl) -> Fetched:
    if got.failed and not got.paths:
        return Fetched(unit, "failed", error=f"{len(got.failed)} pages failed, e.g. {got.failed[0]}")
    error = f"{len(got.failed)} pages failed (retried next run), e.g. {got.failed[0]}" if got.failed else None
    # A partial unit must not look unchanged next run, or its missing pages would never come.
    sha = sha + "+partial" if got.failed else sha
    size += sum(p.stat().st_size for p in got.paths)
    return Fetched(unit, "ok", path=path, sha256=sha, bytes=size, error=error,
                   extra={"pages": [str(p) for p in got.paths], "urls": got.urls,
                          "skipped": got.skipped + crawl.skipped, "refused": crawl.refused})


def read_pages(fetched: Fetched, parse: Callable[[Path], Mail | None], what: str) -> Iterator[RawItem]:
    """Reported problems first, then one `Mail` per cached page with its permalink set."""
    index = 0
    for link in fetched.extra.get("refused", []):
        yield Skipped(index, f"link leaves the archive, not followed: {link}", 0)
        index += 1
    for page, reason in fetched.extra.get("skipped", []):
        yield Skipped(index, f"{page}: {reason}", 0)
        index += 1
    for path, url in zip(fetched.extra.get("pages", []), fetched.extra.get("urls", []), strict=True):
        mail = parse(Path(path))
        if mail is None:
            yield Skipped(index, f"{Path(path).name}: not a {what}", Path(path).stat().st_size)
        else:
            mail.url = url
            yield mail
        index += 1


def save_json(path: Path, value: object) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".part")
    tmp.write_text(json.dumps(value, sort_keys=True))
    tmp.replace(path)


def remote_only(source: Source) -> None:
    if not source.is_remote:
        raise UnitError(f"{source.name}: kind {source.kind} reads a web archive; give an http(s) URL")
