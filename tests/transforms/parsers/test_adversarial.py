"""Crafted near-miss posts cost every parser linear time: at 10 KB and 100 KB, within a budget.

Each parser sees its own keywords followed by runs of separators, blanks, digits and long
lines (the shapes that made patterns backtrack), and one of its golden blocks repeated
until the post is 10 KB or 100 KB. A pattern or a scan that is quadratic takes ~100 times
longer at 100 KB than at 10 KB; a linear one ~10 times.
"""

from __future__ import annotations

import time

import pytest

from tests.transforms.parsers.fixtures_io import FIXTURES, expected_rows, fixture_body
from transforms.extract import extract
from transforms.parsers import PARSERS

SIZES = (10_000, 100_000)
BUDGET_100K = 10.0  # seconds for one 100 KB post (a linear parser takes well under one)
MAX_GROWTH = 40.0  # t(100 KB) / t(10 KB): linear is ~10, quadratic ~100
NOISE_FLOOR = 1.0  # below this many seconds at 100 KB the ratio is mostly scheduler noise


def _fill(unit: str, size: int) -> str:
    return (unit * (size // max(len(unit), 1) + 1))[:size]


def _valid_block(name: str) -> str:
    """The first golden fixture of the parser that yields rows."""
    for path in sorted((FIXTURES / name).glob("*.txt")):
        if expected_rows(path):
            return fixture_body(path)
    raise AssertionError(f"no golden fixture with rows for {name}")


def _near_misses(name: str) -> dict[str, object]:
    """Name -> a function of the size giving one crafted post."""
    words = [k for k in PARSERS[name].keywords][:3] or [name]
    shapes: dict[str, object] = {
        "blank lines": lambda n: _fill("\n", n),
        "blank-filled lines": lambda n: _fill(" \t \n", n),
        "one long blank line": lambda n: " " * n + "x",
        "one long line": lambda n: "a" * n,
        "digits": lambda n: "1" * n + "!",
        "spaced digits": lambda n: _fill("1 ", n) + "!",
        "dotted digits": lambda n: _fill("1.", n) + "!",
        "separators": lambda n: _fill("-=", n) + "\n" + _fill("| ", n),
        "quote marks": lambda n: _fill("a>", n) + "\n" + _fill(">", n),
        "parentheses": lambda n: _fill("(", n) + _fill("[", n) + _fill("<", n),
        "at signs": lambda n: _fill("@", n) + ":",
        "valid block repeated": lambda n: _fill(_valid_block(name) + "\n\n", n),
    }
    for k in words:
        shapes[f"{k!r} then blanks"] = lambda n, k=k: k + " " * n + "!"
        shapes[f"{k!r} repeated"] = lambda n, k=k: _fill(k + " ", n) + "\n!"
        shapes[f"{k!r} then digits"] = lambda n, k=k: k + ": " + _fill("1 ", n) + "("
        shapes[f"{k!r} lines then blank lines"] = lambda n, k=k: _fill(k + "\n\n\n\n", n)
    return shapes


CASES = [(name, shape) for name in sorted(PARSERS) for shape in _near_misses(name)]


def _seconds(body: str, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        extract(body, "<adversarial@example>")
        best = min(best, time.perf_counter() - t)
    return best


@pytest.mark.parametrize("name,shape", CASES, ids=[f"{n}-{s}" for n, s in CASES])
def test_crafted_posts_take_linear_time(name, shape):
    make = _near_misses(name)[shape]
    small, big = (make(n) for n in SIZES)
    t_small, t_big = _seconds(small, 3), _seconds(big, 2)
    assert t_big < BUDGET_100K, f"{name} / {shape}: {t_big:.2f} s at 100 KB"
    if t_big > NOISE_FLOOR:
        growth = t_big / max(t_small, 1e-4)
        assert growth < MAX_GROWTH, f"{name} / {shape}: x{growth:.0f} from 10 KB to 100 KB"


def test_the_valid_block_is_parsed_at_both_sizes():
    for name in sorted(PARSERS):
        body = _fill(_valid_block(name) + "\n\n", SIZES[0])
        runs, matched = extract(body, "<adversarial@example>")
        assert matched and any(r.parser.name == name for r in runs), name
