"""Reading numbers as benchmark tools print them and mail archives mangle them."""

from __future__ import annotations

import math
import re

_NUM = re.compile(r"^[-+]?(?:\d{1,3}(?:,\d{3})+|\d+)?(?:\.\d*)?(?:[eE][-+]?\d+)?$")
_SUFFIX = {"K": 1e3, "k": 1e3, "M": 1e6, "m": 1e6, "G": 1e9, "g": 1e9}


def parse_number(token: str, *, suffixes: bool = False) -> float | None:
    """Parse `150.`, `0.1234`, `137,214`, `1e+05`; with `suffixes`, also `16.K` / `2.5M`.

    Returns None for anything that is not a complete number (never guesses).
    """
    t = token.strip()
    if not t:
        return None
    mult = 1.0
    if suffixes and t[-1] in _SUFFIX:
        mult = _SUFFIX[t[-1]]
        t = t[:-1]
    if t.isascii() and t.replace(".", "", 1).isdigit():
        return float(t) * mult  # `123.45`, `150.`: most tokens, no pattern needed
    if not t or not _NUM.match(t) or not any(c.isdigit() for c in t):
        return None
    try:
        v = float(t.replace(",", "")) * mult
    except ValueError:
        return None
    return v if math.isfinite(v) else None


def is_number(token: str) -> bool:
    return parse_number(token) is not None
