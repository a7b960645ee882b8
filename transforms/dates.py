"""Real-world Date headers into aware UTC datetimes, or None; never raises."""

from __future__ import annotations

from datetime import UTC, datetime
from email.utils import parsedate_to_datetime

from dateutil import parser as du_parser
from dateutil import tz

# Abbreviations seen in archives (pipermail ctime dates, hypermail) that dateutil does not know.
_TZINFOS = {
    "PST": -8 * 3600, "PDT": -7 * 3600, "MST": -7 * 3600, "MDT": -6 * 3600,
    "CST": -6 * 3600, "CDT": -5 * 3600, "EST": -5 * 3600, "EDT": -4 * 3600,
    "CET": 3600, "CEST": 7200, "MET": 3600, "MEST": 7200, "BST": 3600, "IST": 19800,
    "JST": 9 * 3600, "KST": 9 * 3600, "HKT": 8 * 3600, "SGT": 8 * 3600, "AEST": 10 * 3600,
    "AEDT": 11 * 3600, "UT": 0, "UTC": 0, "GMT": 0, "Z": 0,
}  # fmt: skip
_LO = datetime(1970, 1, 2, tzinfo=UTC)


def _drop_comments(value: str) -> str:
    """Each `(...)` up to its first `)` becomes a blank, as `re.sub(r"\\([^)]*\\)", " ", value)` does,
    without rescanning the rest of the value from every unclosed `(`."""
    out: list[str] = []
    i = 0
    while (a := value.find("(", i)) >= 0 and (b := value.find(")", a + 1)) >= 0:
        out += (value[i:a], " ")
        i = b + 1
    out.append(value[i:])
    return "".join(out)


def parse_date(value: str | None) -> datetime | None:
    if not value:
        return None
    text = _drop_comments(value).strip()
    if not text:
        return None
    dt: datetime | None = None
    try:
        dt = parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError, OverflowError):
        dt = None
    if dt is None:
        try:
            dt = du_parser.parse(text, tzinfos=_TZINFOS, fuzzy=True)
        except (ValueError, OverflowError, TypeError, du_parser.ParserError):
            return None
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=tz.UTC)
    try:
        dt = dt.astimezone(UTC)
    except (ValueError, OverflowError):
        return None
    if dt < _LO or dt.year > 2100:
        return None
    return dt
