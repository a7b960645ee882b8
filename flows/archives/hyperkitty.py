"""`hyperkitty` (Mailman 3): one mbox export per month, `export/<list>-YYYY-MM.mbox.gz?start=..&end=..`.

The export is a real mbox with full headers (the HTML views lose `>` quoting
and blanks). HyperKitty sends no ETag for it, but writes the gzip with mtime 0,
so an unchanged month has the same sha256 and is not parsed again. Every month
would still be downloaded each run, so a month that had ended `settled_after_days` (default 7)
before its last good fetch is settled: not requested again (a 20-year list would otherwise
re-download every month every night). `settled_after_days = false` asks for every month each
run; `listbench ingest --recheck` does so once.
"""

from __future__ import annotations

import datetime as dt
import logging
import re
from collections.abc import Iterator
from dataclasses import dataclass
from urllib.parse import unquote, urlsplit

from flows.archives.base import FetchContext, Fetched, RawItem, Unit, UnitError, download
from flows.archives.mbox import KIND as MBOX
from flows.archives.options import typed_options
from flows.http import DEFAULT_MAX_UNIT_BYTES, FetchError, archive_root, resolve_link
from flows.source import ConfigError, Source
from transforms.html import links

_FQDN = re.compile(r"^([^/@]+)@([^/@]+)$")
_MONTH = re.compile(r"^(\d{4})-(0[1-9]|1[0-2])$")
_MONTH_LINK = re.compile(r"^(\d{4})/(\d{1,2})/$")
DEFAULT_MONTHS = 12
DEFAULT_SETTLED_DAYS = 7


@dataclass(frozen=True, slots=True)
class Options:
    max_unit_bytes: int = DEFAULT_MAX_UNIT_BYTES
    settled_after_days: object = DEFAULT_SETTLED_DAYS  # days >= 0, or false (checked by settled_days)
    since: object = None  # YYYY-MM as text or a TOML date (checked by parse_month)
    until: object = None
log = logging.getLogger("listbench.fetch")


def list_name(root: str) -> str:
    """`kvm` from `.../archives/list/kvm@lists.example.org/`."""
    last = unquote(urlsplit(root).path.rstrip("/").rsplit("/", 1)[-1])
    m = _FQDN.match(last)
    if not m:
        raise UnitError(f"not a HyperKitty list root (want .../archives/list/<list>@<host>/): {root}")
    return m.group(1)


def parse_month(value: object, what: str, source: str) -> str | None:
    """A `since`/`until` option as `YYYY-MM`; a TOML date (`2016-04-01`) is accepted too."""
    if value is None:
        return None
    if isinstance(value, dt.date):
        return f"{value.year:04d}-{value.month:02d}"
    text = str(value).strip()
    if not _MONTH.match(text):
        raise ConfigError(f"source {source!r}: {what} must be YYYY-MM (got {value!r})")
    return text


def next_month(month: str) -> str:
    y, m = int(month[:4]), int(month[5:7])
    return f"{y + m // 12:04d}-{m % 12 + 1:02d}"


def months_back(month: str, n: int) -> str:
    """The month `n` months before `month`."""
    y, m = int(month[:4]), int(month[5:7])
    k = y * 12 + (m - 1) - n
    return f"{k // 12:04d}-{k % 12 + 1:02d}"


def month_range(first: str, last: str) -> list[str]:
    out: list[str] = []
    m = first
    while m <= last:
        out.append(m)
        m = next_month(m)
    return out


def current_month(today: dt.date | None = None) -> str:
    d = today or dt.datetime.now(dt.UTC).date()
    return f"{d.year:04d}-{d.month:02d}"


def listed_months(root: str, markup: str) -> set[str]:
    """The `<YYYY>/<M>/` month links of the list's overview page (the archive sidebar lists
    the months that have messages)."""
    found: set[str] = set()
    root_path = urlsplit(root).path
    for href in links(markup):
        url = resolve_link(root, href)
        if url is None or urlsplit(url).query:
            continue
        m = _MONTH_LINK.match(urlsplit(url).path[len(root_path):])
        if m and 1 <= int(m.group(2)) <= 12:
            found.add(f"{m.group(1)}-{int(m.group(2)):02d}")
    return found


def first_month(root: str, markup: str) -> str | None:
    """The earliest month of the overview's sidebar."""
    return min(listed_months(root, markup), default=None)


def settled(month: str, fetched_at: object, days: float) -> bool:
    """True when the month had ended `days` before its last good fetch (then no request at all)."""
    if not isinstance(fetched_at, dt.datetime):
        return False
    end = dt.datetime.fromisoformat(f"{next_month(month)}-01T00:00:00+00:00")
    when = fetched_at if fetched_at.tzinfo else fetched_at.replace(tzinfo=dt.UTC)
    return when >= end + dt.timedelta(days=days)


def settled_days(source: Source) -> float | None:
    """`settled_after_days`: a number of days (default 7), or false to ask for every month each run."""
    value = typed_options(Options, source).settled_after_days
    if value is False:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
        raise ConfigError(f"source {source.name!r}: settled_after_days must be a number of days >= 0 or false, "
                          f"got {value!r}")
    return float(value)


def export_unit(source: str, root: str, name: str, month: str) -> Unit:
    """The export URL of one month; `end` is exclusive. The key has no `?` (it names the cache file)."""
    filename = f"{name}-{month}.mbox.gz"
    url = f"{root}export/{filename}?start={month}-01&end={next_month(month)}-01"
    return Unit(source=source, key=filename, url=url, month=month)


class HyperkittyKind:
    name = "hyperkitty"
    Options = Options
    permalink_style = "hyperkitty"  # `<list root>message/<hash>/`
    archive_root = staticmethod(archive_root)

    def units(self, source: Source, ctx: FetchContext) -> list[Unit]:
        """One export per month from `since` (or the sidebar's first month) to `until`; a month
        the sidebar does not list has no messages and is not requested."""
        if not source.is_remote:
            raise UnitError(f"source {source.name!r}: hyperkitty needs an http(s) list root, got {source.url}")
        root = archive_root(source.url)
        name = list_name(root)
        opts = typed_options(Options, source)
        since = parse_month(opts.since, "since", source.name)
        until = parse_month(opts.until, "until", source.name) or current_month()
        if since is not None and since > until:
            raise ConfigError(f"source {source.name!r}: since {since} is after until {until}")
        listed = self._sidebar(root, ctx)
        if since is None:
            since = min(listed, default=None)
        if since is None:
            since = months_back(until, DEFAULT_MONTHS - 1)
            log.warning("%s: no month links on %s; fetching %s..%s (set `since` for more)",
                        source.name, root, since, until)
        months = month_range(since, until)
        if listed:  # the sidebar is read: months it leaves out are empty
            months = [m for m in months if m in listed]
        return [export_unit(source.name, root, name, m) for m in months]

    @staticmethod
    def _sidebar(root: str, ctx: FetchContext) -> set[str]:
        if ctx.http is None:  # no client, no overview: every month of the range
            return set()
        try:
            return listed_months(root, ctx.http.get_text(root))
        except FetchError:
            return set()

    def fetch(self, unit: Unit, source: Source, ctx: FetchContext) -> Fetched:
        last = ctx.last(unit)
        days = settled_days(source)
        if (days is not None and not ctx.recheck and unit.month and last
                and settled(unit.month, last.get("fetched_at"), days)):
            return Fetched(unit, "unchanged", etag=last.get("etag"), last_modified=last.get("last_modified"),
                           sha256=last.get("sha256"), bytes=int(last.get("bytes") or 0))
        return download(unit, source, ctx, max_bytes=typed_options(Options, source).max_unit_bytes)

    def messages(self, fetched: Fetched, source: Source) -> Iterator[RawItem]:
        """The export is gzip'd mbox; an empty month is an empty gzip (no messages, no error)."""
        return MBOX.messages(fetched, source)


KIND = HyperkittyKind()
