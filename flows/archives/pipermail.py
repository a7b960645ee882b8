"""`pipermail` (Mailman 2): the list index links one mbox per volume, `YYYY-Month.txt(.gz)`.

The monthly text files keep pasted tables intact (no HTML), so messages are read
from them; of the per-month HTML views only `date.html` is read, to link each
message to its article page.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from urllib.parse import urlsplit

from flows.archives.base import FetchContext, Fetched, RawItem, Unit, UnitError, download
from flows.archives.mbox import KIND as MBOX
from flows.archives.options import FileOptions, typed_options
from flows.http import FetchError, archive_root, resolve_link
from flows.source import Source
from transforms.html import links
from transforms.permalinks import ArticleLinks, pipermail_articles

MONTHS = {name: i for i, name in enumerate(
    ("January", "February", "March", "April", "May", "June", "July", "August",
     "September", "October", "November", "December"), start=1)}

# Mailman 2 volume names: monthly is the default; the others are archive_volume_frequency 0/2/3/4.
_MONTHLY = re.compile(r"^(\d{4})-([A-Z][a-z]+)\.txt(\.gz)?$")
_QUARTERLY = re.compile(r"^(\d{4})q([1-4])\.txt(\.gz)?$")
_WEEKLY = re.compile(r"^Week-of-Mon-(\d{4})(\d\d)\d\d\.txt(\.gz)?$")
_DAILY = re.compile(r"^(\d{4})(\d\d)\d\d\.txt(\.gz)?$")
_YEARLY = re.compile(r"^(\d{4})\.txt(\.gz)?$")
log = logging.getLogger("listbench.fetch")


def volume_folder(volume_url: str) -> str:
    """`.../2009-April.txt.gz` -> `.../2009-April/`: where the volume's HTML pages live."""
    return volume_url.removesuffix(".gz").removesuffix(".txt") + "/"


def volume_month(name: str) -> str | None:
    """`2009-April.txt.gz` -> `2009-04` (first month of a quarter or year); None when not a volume."""
    if m := _MONTHLY.match(name):
        month = MONTHS.get(m.group(2))
        return f"{m.group(1)}-{month:02d}" if month else None
    if m := _QUARTERLY.match(name):
        return f"{m.group(1)}-{3 * int(m.group(2)) - 2:02d}"
    if (m := _WEEKLY.match(name)) or (m := _DAILY.match(name)):
        return f"{m.group(1)}-{m.group(2)}" if 1 <= int(m.group(2)) <= 12 else None
    if m := _YEARLY.match(name):
        return f"{m.group(1)}-01"
    return None


def volume_name(root: str, href: str) -> str | None:
    """The volume file a link names, when it is a same-origin file directly in the archive root."""
    url = resolve_link(root, href)
    if url is None:
        return None
    parts = urlsplit(url)
    root_path = urlsplit(root).path
    if parts.query or not parts.path.startswith(root_path):
        return None
    name = parts.path[len(root_path):]
    return name if "/" not in name and volume_month(name) else None


def month_units(source: str, root: str, markup: str) -> list[Unit]:
    """One unit per volume linked from the index; `.txt.gz` wins over `.txt` for the same volume."""
    chosen: dict[str, str] = {}
    for href in links(markup):
        name = volume_name(root, href)
        if name is None:
            continue
        stem = name.removesuffix(".gz")
        if stem not in chosen or name.endswith(".gz"):
            chosen[stem] = name
    units = [Unit(source=source, key=name, url=root + name, month=volume_month(name))
             for name in chosen.values()]
    return sorted(units, key=lambda u: (u.month or "", u.key))


class PipermailKind:
    name = "pipermail"
    Options = FileOptions

    def units(self, source: Source, ctx: FetchContext) -> list[Unit]:
        if not source.is_remote:
            raise UnitError(f"source {source.name!r}: pipermail needs an http(s) archive root, got {source.url}")
        root = archive_root(source.url)
        units = month_units(source.name, root, ctx.http.get_text(root))
        if not units:  # a new list has none; a login or error page has none either
            log.warning("%s: no YYYY-Month.txt(.gz) links on %s", source.name, root)
        return units

    def fetch(self, unit: Unit, source: Source, ctx: FetchContext) -> Fetched:
        """The volume, and when it changed its `date.html` index, whose article pages are the permalinks."""
        fetched = download(unit, source, ctx, max_bytes=typed_options(FileOptions, source).max_unit_bytes)
        if fetched.status == "ok":
            folder = volume_folder(unit.url)
            try:
                articles = pipermail_articles(ctx.http.get_text(folder + "date.html"))
            except FetchError as exc:  # no index, no links; the messages still load
                log.info("%s: no article index for %s (%s)", source.name, unit.key, exc)
            else:
                fetched.extra["links"] = ArticleLinks(folder, articles)
        return fetched

    def messages(self, fetched: Fetched, source: Source) -> Iterator[RawItem]:
        """The volume is an mbox (`From user at host  Thu Apr 14 ...` envelopes); an HTML page fails the unit."""
        return MBOX.messages(fetched, source)


KIND = PipermailKind()
