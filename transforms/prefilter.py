"""The prefilter: which parsers may find a block in a body, and whether the hand-made reader runs.

About 98% of list mail carries no benchmark result. One Aho-Corasick pass (a DFA over the UTF-8
bytes, ASCII lower-cased: ~500 MB/s) finds every parser keyword and every tool name at once; a
parser's signature regex (~20 MB/s) then runs only when one of its own keywords appears, and the
hand-made reader only when the post names a benchmark (`evidence.has_evidence`, checked exactly,
and only when a tool name stands as a word in the bytes) and holds a figure (`has_figures`).

Keywords are distinctive (tool names, phrases the tool prints, units glued to their context), so
ordinary mail passes rarely; that they still reach every block is measured, not assumed:
`python -m bench.prefilter` (recall 1.000 on the golden, real and generated corpora).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import ahocorasick_rs

from transforms.handmade.evidence import LITERALS as TOOL_NAMES
from transforms.handmade.evidence import has_evidence
from transforms.model import Parser
from transforms.parsers import PARSERS

_PARSERS = list(PARSERS.values())


def _automaton() -> tuple[ahocorasick_rs.BytesAhoCorasick, list[int], list[tuple[tuple[bytes, int], ...]],
                          list[bool]]:
    """(automaton over lower-cased text, per pattern: the parsers (bit mask) it admits in any case,
    the keywords it stands for that must match as written with their parsers, whether it is a tool name).
    """
    masks: dict[str, int] = {}
    exact: dict[str, dict[bytes, int]] = {}
    for bit, p in enumerate(_PARSERS):
        for k in p.keywords:
            low = k.lower()
            masks.setdefault(low, 0)
            if k != low:  # printed in capitals by the tool: matched as written
                cased = exact.setdefault(low, {})
                cased[k.encode()] = cased.get(k.encode(), 0) | (1 << bit)
            else:
                masks[low] |= 1 << bit
    tools = _TOOL_WORDS
    for k in tools:
        masks.setdefault(k, 0)
    pats = list(masks)
    auto = ahocorasick_rs.BytesAhoCorasick([p.encode() for p in pats],
                                           implementation=ahocorasick_rs.Implementation.DFA)
    return (auto, [masks[p] for p in pats], [tuple(exact.get(p, {}).items()) for p in pats],
            [p in tools for p in pats])


# the evidence reader's names; `dd` alone counts there only after a count (`10dd`), so here it is
# looked for as `0dd` ... `9dd` (a bare `dd` would hit every `add` and `address`)
_TOOL_WORDS = frozenset(TOOL_NAMES - {"dd"}) | {f"{d}dd" for d in range(10)}


_AUTO, _MASKS, _EXACT, _IS_TOOL = _automaton()
_ALWAYS = sum(1 << bit for bit, p in enumerate(_PARSERS) if not p.keywords)  # no keywords: always tried
_WORD = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
# a looser twin of evidence._STREAM_CONTEXT (any non-ASCII byte may be Unicode white space)
_STREAM_CONTEXT = re.compile(rb"stream(?:[\s\x80-\xff]++(?:benchmark|bench\b|test\b|results?\b|scores?\b|triad|copy)"
                             rb"|\.c\b|_c\b|[\s\x80-\xff]++with[\s\x80-\xff]++\d{1,4}[\s\x80-\xff]++threads\b)")


# The hand-made reader makes rows of figures: a body whose every decimal number stands in an
# attribution line (`On Mon, 5 May 2007, X wrote:`) or a quoted header (`Sent:`, `Date:`) has
# none. Digits inside a word (`x86_64`, `s390`, `cr3`) and hex ids (`0x5dd1b14`) are no figures.
# Lines are tried from their starts only (each lookahead is bounded): linear in the body.
_FIGURE = re.compile(r"(?m)^(?![ \t>]*+(?:On .{0,200}wrote:?|(?:Sent|Date|Subject|From|To|Cc):.*+)[ \t]*+$)"
                     r"(?!.{0,200}wrote:[ \t]*+$)[^\n]*?(?<![A-Za-z0-9_.])(?!0[xX])\d")


def has_figures(body: str) -> bool:
    """Whether any line outside attributions and quoted headers holds a decimal number."""
    return _FIGURE.search(body) is not None


@dataclass(frozen=True, slots=True)
class Gate:
    """What the prefilter lets through for one body."""

    parsers: tuple[Parser, ...]  # parsers one of whose keywords appears (their signatures run)
    hand: bool  # the body or subject names a benchmark: the hand-made reader runs

    @property
    def passed(self) -> bool:
        return bool(self.parsers) or self.hand


def _tool_word(low: bytes, raw: bytes, start: int, end: int) -> bool:
    """A necessary condition for evidence's mention test at this hit (word-bounded; STREAM; `dd`
    after a count, `10dd`)."""
    if low.startswith(b"stream_array_size", start):
        return raw.startswith(b"STREAM_ARRAY_SIZE", start)  # STREAM's build flag (`-DSTREAM_ARRAY_SIZE=`)
    if end == start + 3 and low.startswith(b"dd", start + 1) and 48 <= low[start] <= 57:
        return end == len(low) or low[end] not in _WORD
    if start > 0 and low[start - 1] in _WORD and not (low[start - 1] == 95 and end - start >= 7):  # 95: "_"
        return False
    last = low[end - 1]
    if end < len(low) and last != 61 and low[end] in _WORD:  # 61: "=" (`dd if=`)
        return False
    if low.startswith(b"stream", start) and end == start + 6:
        return raw.startswith(b"STREAM", start) or _STREAM_CONTEXT.match(low, start) is not None
    return True


def prefilter(body: str, subject: str | None = None) -> Gate:
    """The parsers worth trying on `body` and whether the hand-made reader runs (one pass)."""
    raw = body.encode("utf-8", "surrogatepass")
    low = raw.lower()  # ASCII only: every keyword is ASCII
    mask = _ALWAYS
    tool = False
    for idx, start, end in _AUTO.find_matches_as_indexes(low, overlapping=True):
        mask |= _MASKS[idx]
        for k, bits in _EXACT[idx]:
            if raw.startswith(k, start):
                mask |= bits
        if not tool and _IS_TOOL[idx]:
            tool = _tool_word(low, raw, start, end)
    # the registry's current entry, not the one the automaton was built from (a parser swapped
    # in the registry, as tests and plugins do, is the one that runs)
    parsers = tuple(PARSERS.get(p.name, p) for bit, p in enumerate(_PARSERS) if mask >> bit & 1) if mask else ()
    hand = ((tool and has_evidence(body, None)) or bool(subject and has_evidence(subject, None))) \
        and has_figures(body)
    return Gate(parsers, hand)
