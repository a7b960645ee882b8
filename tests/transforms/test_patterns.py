"""Every regular expression under transforms/ and flows/archives/ runs in linear time.

A static check (tests/redos.py) proves each pattern free of the ambiguity that makes Python's
backtracking engine slow; a timing check runs each pattern on long strings made of its own
characters as a second witness.
"""

from __future__ import annotations

import re
import time

import pytest

from tests.pattern_inventory import inline_patterns, module_patterns
from tests.redos import _Automaton, check

# Places that build a pattern at run time, each with why it is linear; any new one fails the test.
DYNAMIC: dict[str, str] = {
    "transforms/parsers/kernbench.py:_cells": (
        "a row's own label: the literal words of one of `_LABELS`, escaped, joined by `\\s+`;"
        " between literals no two loops can match the same text"
    ),
    "transforms/parsers/lmbench/__init__.py:_signature": "builds the lmbench signature, checked as PARSERS['lmbench']",
    "transforms/parsers/netperf/classic.py:_layout": "builds the `_LAYOUTS` patterns, checked as _LAYOUTS[i].pattern",
    "transforms/handmade/slashes.py:_row_pattern": (
        "a row of n slash-separated numbers in g groups, each field bounded and every blank run possessive;"
        " checked for n, g up to its caps in tests/transforms/handmade/test_slashes.py"
    ),
}

# Patterns the static check flags although they are linear, each with the reason.
EXCEPTIONS: dict[str, str] = {
    "transforms.parsers.sysbench._CMD_TEST_WORD": (
        "once `sysbench\\s+` is followed by a word character the search succeeds (the last option"
        " serves as the test word), so no start fails after a long scan; the check cannot credit a"
        " success that backtracking into the option loop finds"
    ),
}


def _all():
    found, _dynamic = inline_patterns()
    return module_patterns() + found


PATTERNS = _all()


def test_inventory_finds_the_parsers_patterns():
    names = {f.where for f in PATTERNS}
    assert len(PATTERNS) > 300
    assert "transforms.pages.mhonarc._X_COMMENT" in names
    assert "transforms.parsers.lmbench.raw._RAW_ATTR" in names
    assert any(w.startswith("transforms.extract.PARSERS['dbench'].signature") for w in names)


def test_no_pattern_is_built_at_run_time_unchecked():
    _found, dynamic = inline_patterns()
    assert sorted(dynamic) == sorted(DYNAMIC)


def test_every_pattern_is_linear():
    bad = []
    for f in PATTERNS:
        if f.where in EXCEPTIONS:
            continue
        findings = check(f.pattern, f.mode)
        if findings:
            bad.append(f"{f.where} ({f.mode}): {findings[0].kind}: {f.pattern.pattern[:120]!r}")
    assert not bad, "\n".join(bad)


def test_exceptions_are_still_needed():
    where = {f.where: f for f in PATTERNS}
    for name in EXCEPTIONS:
        assert name in where, f"stale exception {name}"
        assert check(where[name].pattern, where[name].mode), f"{name} is linear now: drop it"


@pytest.mark.parametrize(
    "pattern,mode",
    [
        (r"(a+)+b", "match"),
        (r"\s*\s*x", "match"),
        (r"\d+x", "search"),
        (r"(?m)^\s*x", "search"),
        (r"<!--X-(\w+): ?(.*?) ?-->", "search"),
        (r"a.*b.*c", "match"),
        (r"(?:\s*)*x", "match"),
        (r"^(?:a|a)*$", "match"),
        (r"[\d.]*\s*(?:s|secs?)?\s*,?\s*\d*\s*samples?\)$", "match"),
    ],
)
def test_checker_flags_slow_patterns(pattern, mode):
    assert check(re.compile(pattern), mode)


@pytest.mark.parametrize(
    "pattern,mode",
    [
        (r"\d+", "search"),
        (r"\d+x", "match"),
        (r"(?m)^[ \t]*x", "search"),
        (r"\s*+\s*x", "match"),
        (r"(?<!\s)\s*x", "search"),
        (r"^(\d+)\s+(\d+)$", "match"),
        (r"<!--X-(\w+): ?((?:[^-\n]|-(?!-))*?) ?-->", "search"),
    ],
)
def test_checker_passes_linear_patterns(pattern, mode):
    assert not check(re.compile(pattern), mode)


def _run(pattern: re.Pattern, mode: str, text):
    if mode == "fullmatch":
        return pattern.fullmatch(text)
    if mode == "match":
        return pattern.match(text)
    return list(pattern.finditer(text))


def _worst_time(pattern: re.Pattern, mode: str, size: int) -> tuple[float, str]:
    """Slowest run over strings made of one of the pattern's own characters, then a stray one."""
    reps = _Automaton(pattern).reps
    worst, which = 0.0, ""
    tails = ("\x01", "\n\x01")
    for c in reps:
        for tail in tails:
            text = chr(c) * size + tail
            if isinstance(pattern.pattern, bytes):
                if c > 255:
                    continue
                text = text.encode("latin-1")
            t = time.perf_counter()
            _run(pattern, mode, text)
            dt = time.perf_counter() - t
            if dt > worst:
                worst, which = dt, repr(chr(c))
    return worst, which


def test_every_pattern_runs_fast_on_long_runs_of_its_own_characters():
    slow = []
    for f in PATTERNS:
        if f.where in EXCEPTIONS:
            continue
        dt, c = _worst_time(f.pattern, f.mode, 20_000)
        if dt > 0.25:  # linear is ~1 ms; a quadratic pattern takes seconds
            # one slow sample may be a busy machine or a collector pause: measure again, best of
            # three, and tell linear from quadratic by growth from 5,000 to 20,000 characters
            big = min(_worst_time(f.pattern, f.mode, 20_000)[0] for _ in range(3))
            small = min(_worst_time(f.pattern, f.mode, 5_000)[0] for _ in range(3))
            if big > 0.25 and big > 8 * max(small, 1e-3):
                slow.append(f"{f.where}: {big:.2f} s on {c} x 20000 ({small:.3f} s on x 5000)")
    assert not slow, "\n".join(slow)
