"""JSON documents inside a message segment, found without a regex over the JSON.

Tools with a JSON output (`fio --output-format=json`, `iperf3 -J`) reach the lists pasted
into a post: several documents one after another, the command's other output before them,
prose around them. A document starts at a line whose first non-blank character is `{`;
`json.JSONDecoder.raw_decode` reads it from there and says where it ends. Numbers are read
as `Decimal` so that unit conversion adds no float error.

Mailers re-wrap long lines at a blank: a line break inside a JSON string (never valid JSON)
is taken for such a wrap and rejoined with one blank, at most `MAX_REPAIRS` times per
document; the run says so in a note.

Linear on any input: each decode is capped (`MAX_DOC` characters), a decoded object is
skipped over whole, and the characters the decoder looks at (up to where it succeeded or
failed, every retry included) are counted against a budget of a few times the segment length.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from transforms.model import Result, Run

MAX_DOC = 4_000_000  # characters: a fio json+ report of many jobs stays well below
MAX_REPAIRS = 32  # wrapped string lines rejoined per document
_BUDGET_FACTOR = 4

_DECODER = json.JSONDecoder(parse_float=Decimal, parse_int=Decimal)


@dataclass(frozen=True, slots=True)
class Document:
    """One decoded JSON object: where it lies in the segment (lines, end exclusive) and its value."""

    start: int
    end: int
    value: dict[str, Any]
    rejoined: int = 0  # line breaks inside strings taken for mail wrapping and rejoined


@dataclass(frozen=True, slots=True)
class Broken:
    """A `{` line that `looks` accepted but that does not decode (truncated, wrapped, damaged)."""

    start: int
    reason: str


def _line_starts(lines: list[str]) -> list[int]:
    starts, pos = [], 0
    for line in lines:
        starts.append(pos)
        pos += len(line) + 1
    return starts


def _line_of(starts: list[int], offset: int) -> int:
    lo, hi = 0, len(starts) - 1
    while lo < hi:  # last line starting at or before offset
        mid = (lo + hi + 1) // 2
        if starts[mid] <= offset:
            lo = mid
        else:
            hi = mid - 1
    return lo


def documents(
    lines: list[str],
    accept: Callable[[dict[str, Any]], bool],
    looks: Callable[[str], bool] | None = None,
) -> Iterator[Document | Broken]:
    """Every JSON object `accept` takes, in order; `Broken` for a start that fails to decode
    when the text after it `looks` like the wanted document (so it can be reported, not lost)."""
    text = "\n".join(lines)
    starts = _line_starts(lines)
    budget = _BUDGET_FACTOR * len(text) + 10_000
    resume = 0  # offset before which everything belongs to a decoded object
    for i, line in enumerate(lines):
        stripped = line.lstrip()
        if not stripped.startswith("{"):
            continue
        pos = starts[i] + len(line) - len(stripped)
        if pos < resume:
            continue
        if budget <= 0:
            return
        window = text[pos : pos + MAX_DOC]
        decoded = _decode(window)
        budget -= decoded.seen
        if decoded.error is not None:
            if looks is not None and looks(window[:2000]):
                yield Broken(i, f"JSON document at line {i} does not decode: {decoded.error[:80]}")
            continue
        end = decoded.end
        if isinstance(decoded.value, dict) and accept(decoded.value):
            resume = pos + end
            yield Document(i, _line_of(starts, pos + end - 1) + 1, decoded.value, decoded.rejoined)
        elif isinstance(decoded.value, dict | list):
            resume = pos + end  # another object: nothing wanted inside it


@dataclass(slots=True)
class _Decoded:
    value: Any = None
    end: int = 0  # in the window as given, before any rejoining
    seen: int = 0  # characters the decoder looked at, retries included
    rejoined: int = 0
    error: str | None = None


def _decode(window: str) -> _Decoded:
    """One JSON value from the start of `window`, rejoining string lines a mailer wrapped."""
    out = _Decoded()
    text, shift = window, 0
    while True:
        try:
            out.value, end = _DECODER.raw_decode(text)
        except json.JSONDecodeError as exc:
            out.seen += exc.pos
            at = exc.pos
            wrapped = exc.msg.startswith("Invalid control character") and text[at : at + 1] == "\n"
            if not wrapped or out.rejoined >= MAX_REPAIRS:
                out.error = str(exc)
                return out
            k = at + 1
            while k < len(text) and text[k] in " \t":
                k += 1
            text = text[:at] + " " + text[k:]
            shift += k - at - 1
            out.rejoined += 1
            continue
        except (ValueError, RecursionError) as exc:
            out.seen += len(text)
            out.error = str(exc) or type(exc).__name__
            return out
        out.seen += end
        out.end = end + shift
        return out


def number(value: Any) -> Decimal | None:
    """A JSON number as Decimal (bools, strings, NaN and infinities are not numbers here)."""
    if isinstance(value, bool) or not isinstance(value, Decimal | int):
        return None
    try:
        d = Decimal(value)
    except (InvalidOperation, ValueError):
        return None
    return d if d.is_finite() else None


def to_float(value: Decimal, factor: Decimal = Decimal(1)) -> float | None:
    """`value` x `factor` in Decimal, then float; None when it does not fit a finite float."""
    try:
        out = float(value * factor)
    except (InvalidOperation, OverflowError):
        return None
    return out if math.isfinite(out) else None


def obj(value: Any, key: str) -> dict[str, Any]:
    """`value[key]` when both are objects, else an empty object (documents come from anyone)."""
    if isinstance(value, dict):
        inner = value.get(key)
        if isinstance(inner, dict):
            return inner
    return {}


def seq(value: Any, key: str) -> list[Any]:
    """`value[key]` when it is a list, else an empty list."""
    if isinstance(value, dict):
        inner = value.get(key)
        if isinstance(inner, list):
            return inner
    return []


def text_of(value: Any) -> str | None:
    """A JSON scalar as text: strings as they are, numbers without exponent noise."""
    if isinstance(value, str):
        return value.strip() or None
    n = number(value)
    if n is None:
        return None
    return format(n.normalize(), "f") if n == n.to_integral_value() else format(n, "f")


class DocumentResults:
    """The results read out of one document, and notes on what was skipped: a value that is not a
    finite number is named in a note, never guessed at. The fio and iperf3 JSON readers both add
    their rows this way."""

    def __init__(self, doc: Document) -> None:
        self.line = doc.start
        self.results: list[Result] = []
        self.notes: list[str] = []

    def add(
        self,
        metric: str,
        label: str,
        value: Any,
        unit: str,
        params: dict[str, str],
        factor: Decimal = Decimal(1),
    ) -> None:
        n = number(value)
        out = to_float(n, factor) if n is not None else None
        if out is None:
            self.notes.append(f"{label}: not a number ({str(value)[:20]!r}), skipped")
            return
        self.results.append(Result(metric, label, out, unit, dict(params), line=self.line))


def note_rejoined(run: Run, doc: Document) -> None:
    """Say on the run when mail-wrapped lines inside the document's strings were rejoined."""
    if doc.rejoined:
        run.notes.append(f"{doc.rejoined} line breaks inside JSON strings rejoined (mail wrapping)")


def document_runs(
    lines: list[str],
    benchmark: str,
    accept: Callable[[dict[str, Any]], bool],
    looks: Callable[[str], bool],
    read: Callable[[Document], Run],
) -> list[Run]:
    """One run per accepted document (`read` turns it into rows); an undecodable one becomes an
    `unparsed` run naming why, so a broken paste is reported rather than lost."""
    runs: list[Run] = []
    for found in documents(lines, accept, looks):
        if isinstance(found, Broken):
            runs.append(Run(benchmark=benchmark, results=[], line_start=found.start, line_end=found.start + 1,
                            status="unparsed", reason=found.reason, attributes={"format": "json"}))
        else:
            runs.append(read(found))
    return runs
