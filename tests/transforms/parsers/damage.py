"""Mail damage, fuzz input and row helpers the parser tests share.

Posts reach the parsers quoted with "> ", with CRLF line ends, with runs of blanks collapsed
and with long lines re-wrapped by the mailer; a parser must read the damaged post as it reads
the clean one, and no text at all may make it raise. The damage functions differ a little
from one test module to the next on purpose (what a blank quoted line looks like, whether
tabs collapse too): those choices are keyword parameters here, each module keeps its own.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from tests.transforms.parsers.fixtures_io import canonical, rows_of
from tests.transforms.parsers.fixtures_io import parser_runs as golden_parser_runs
from transforms.extract import extract_runs
from transforms.model import Parser, Run
from transforms.quotes import segments
from transforms.rows import result_rows
from transforms.units import KNOWN_UNITS

# --- mail damage -----------------------------------------------------------------------------------

DAMAGES = ("quote", "crlf", "collapse")


def quote(text: str, *, bare_blank: bool = False, keep_ends: bool = False) -> str:
    """A reply quotes every line with "> " (`bare_blank`: a blank line as a bare ">")."""
    if keep_ends:  # split at every line boundary, keep each ending, quote nothing after the last
        return "".join("> " + line for line in text.splitlines(keepends=True))
    return "\n".join(">" if bare_blank and not line else "> " + line for line in text.split("\n"))


def crlf(text: str) -> str:
    """Mail in transit gets CRLF line ends."""
    return text.replace("\n", "\r\n")


def collapse(text: str, *, tabs: bool = True, strip: bool = False) -> str:
    """Mailers and HTML archives squeeze runs of blanks to one space (`strip`: line edges too)."""
    text = re.sub(r"[ \t]+" if tabs else r" {2,}", " ", text)
    return "\n".join(line.strip() for line in text.split("\n")) if strip else text


def wrap(text: str, width: int = 72, *, rstrip: bool = False) -> str:
    """Mail clients break long lines at the last space before `width` (`rstrip`: blanks dropped first)."""
    out = []
    for line in text.split("\n"):
        if rstrip:
            line = line.rstrip()
        while len(line) > width and " " in line[1:width]:
            cut = line.rfind(" ", 1, width)
            out.append(line[:cut].rstrip())
            line = line[cut:].lstrip()
        out.append(line)
    return "\n".join(out)


def damaged(text: str, how: str, *, keep_ends: bool = False, tabs: bool = True) -> str:
    """One damage of DAMAGES by name, so that hypothesis and parametrize ids can name it."""
    if how == "quote":
        return quote(text, keep_ends=keep_ends)
    if how == "crlf":
        return crlf(text)
    return collapse(text, tabs=tabs)


def pad_bare_quotes(text: str) -> str:
    """transforms.quotes does not see a bare ">" before "\\r" as a quote (reported): give it its space."""
    return re.sub(r"^>[ \t]*$", "> ", text, flags=re.M)


def without_quoted(found: list[dict]) -> list[str]:
    """Quoting a post flips `quoted` and nothing else: rows compared without it."""
    return canonical([{k: v for k, v in r.items() if k != "quoted"} for r in found])


def assert_damage_keeps_rows(text: str, how: str) -> None:
    """Quoting, CRLF or doubled spaces collapsed must not change a row (the quoted flag aside)."""
    assert without_quoted(rows_of(damaged(text, how, tabs=False))) == without_quoted(rows_of(text))


def damage_cases(directory: Path) -> list:
    """Every fixture of `directory` under every damage."""
    return [pytest.param(path, how, id=f"{path.stem}-{how}")
            for path in sorted(directory.glob("*.txt")) for how in DAMAGES]


# --- robustness: random and mutated text -----------------------------------------------------------

# settings of the "never raises" properties that run the whole driver per example
ROBUST = settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow], deadline=None)


def fuzz_text(fragments: Sequence[str], piece: int = 12, pieces: int = 60) -> st.SearchStrategy[str]:
    """Junk mixed with a parser's own fragments, so that near misses of its grammar get tried."""
    return st.lists(st.one_of(st.sampled_from(fragments), st.text(max_size=piece)), max_size=pieces).map("".join)


MUTATION = st.tuples(st.sampled_from(["drop", "dup", "cut", "digit", "insert", "join"]), st.integers(0, 10**6), st.text(max_size=30))


def mutate(body: str, ops: list[tuple[str, int, str]]) -> str:
    """A real post with lines dropped, doubled, cut, joined or a digit replaced: half-broken input."""
    lines = body.split("\n")
    for op, n, junk in ops:
        if not lines:
            break
        k = n % len(lines)
        if op == "drop":
            del lines[k]
        elif op == "dup":
            lines.insert(k, lines[k])
        elif op == "cut":
            lines[k] = lines[k][: n % (len(lines[k]) + 1)]
        elif op == "digit":
            digit = re.search(r"\d", lines[k])
            if digit:
                lines[k] = lines[k][: digit.start()] + (junk[:1] or "x") + lines[k][digit.end() :]
        elif op == "insert":
            lines.insert(k, junk)
        elif op == "join" and k + 1 < len(lines):
            lines[k : k + 2] = [lines[k] + lines[k + 1]]
    return "\n".join(lines)


def spliced(texts: Sequence[str], inserts: Sequence[str]) -> st.SearchStrategy[str]:
    """A real post with up to 40 characters at a random place replaced by one of `inserts`."""

    def splice(text: str, at: int, cut: int, insert: str) -> str:
        at = at % (len(text) + 1)
        return text[:at] + insert + text[at + cut :]

    return st.builds(splice, st.sampled_from(texts), st.integers(0, 10**6), st.integers(0, 40), st.sampled_from(inserts))


def assert_sane(parser: Parser, text: str) -> None:
    """Parser called directly (no driver safety net) and through the driver: no exception, no junk."""
    for seg in segments(text):
        if not parser.signature.search(seg.text):
            continue
        for run in parser.parse(seg):
            assert isinstance(run, Run) and run.status in ("ok", "unparsed")
            for r in run.results:
                assert math.isfinite(r.value)
                assert r.metric in parser.metrics and r.unit == parser.metrics[r.metric].unit and r.unit in KNOWN_UNITS
    extract_runs(text, "m")


def assert_ok_or_unparsed(runs: Iterable[Run]) -> None:
    """A parser either reads a block or hands it to quarantine; no third status exists."""
    for run in runs:
        assert run.status in ("ok", "unparsed")


def assert_no_parser_error(text: str, only: str | None = None) -> None:
    """The driver turns a parser exception into an unparsed run: there must be none (of parser `only`)."""
    for er in extract_runs(text, "t"):
        if only is None or er.parser.name == only:
            assert not (er.run.reason or "").startswith("parser error"), er.run.reason


# --- rows of one benchmark -------------------------------------------------------------------------

CANON_KEYS = ("system", "metric", "statistic", "unit", "value")


def bench_rows(body: str, *benchmarks: str) -> list[dict[str, Any]]:
    """The parsers' rows of `benchmarks` only: other parsers (and the reader of hand-made
    layouts, tested on its own under tests/transforms/handmade/) may read the same post."""
    return [r for r in result_rows(golden_parser_runs(extract_runs(body, "t"))) if r["benchmark"] in benchmarks]


def parser_runs(body: str, name: str) -> list[Run]:
    """The runs parser `name` gave for a post, unparsed ones included."""
    return [er.run for er in extract_runs(body, "t") if er.parser.name == name]


def pick(rows: list[dict[str, Any]], *, params_subset: bool = False, **where: Any) -> list[dict[str, Any]]:
    """Rows with these column values; `params` exactly these, or at least these with `params_subset`."""
    params = where.pop("params", None)
    found = [r for r in rows if all(r[k] == v for k, v in where.items())]
    if params is not None and params_subset:
        found = [r for r in found if all(r["params"].get(k) == v for k, v in params.items())]
    elif params is not None:
        found = [r for r in found if r["params"] == params]
    return found


def one(rows: list[dict[str, Any]], *, params_subset: bool = False, **where: Any) -> dict[str, Any]:
    """A test about one cell must fail loudly when its filter matches none or several rows."""
    found = pick(rows, params_subset=params_subset, **where)
    assert len(found) == 1, (where, found)
    return found[0]


def canon(rows: list[dict[str, Any]], keys: Sequence[str] = CANON_KEYS) -> list[tuple]:
    """Rows as sorted tuples of `keys` and params, to compare two readings of a post."""
    return sorted(((tuple(r[k] for k in keys), tuple(sorted(r["params"].items()))) for r in rows), key=repr)
