"""Numbers as tools print them (transforms/numbers.py)."""

import math
import re

from hypothesis import given
from hypothesis import strategies as st

from transforms.numbers import parse_number

# the full reading, without the fast path for plain `123.45` tokens: what every token must agree with
_FULL = re.compile(r"^[-+]?(?:\d{1,3}(?:,\d{3})+|\d+)?(?:\.\d*)?(?:[eE][-+]?\d+)?$")


def _full(token: str) -> float | None:
    t = token.strip()
    if not t or not _FULL.match(t) or not any(c.isdigit() for c in t):
        return None
    try:
        v = float(t.replace(",", ""))
    except ValueError:  # `E0`
        return None
    return v if math.isfinite(v) else None


def test_numbers_as_printed():
    assert parse_number("150.") == 150.0
    assert parse_number("137,214") == 137214.0
    assert parse_number("1e+05") == 1e5
    assert parse_number("16.K", suffixes=True) == 16000.0
    assert parse_number("12.3.4") is None
    assert parse_number("²") is None  # a superscript is a digit to Python, not to a tool
    assert parse_number(".") is None


@given(st.text(alphabet=st.sampled_from(list("0123456789.,eE+- ²١")), max_size=10))
def test_the_fast_path_reads_what_the_full_reading_reads(token: str) -> None:
    assert parse_number(token) == _full(token)
