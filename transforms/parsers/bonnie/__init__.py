"""Bonnie 1.x and bonnie++ (1.0x, 1.9x, 2.0x) output: text tables, progress lines, CSV lines.

One `Run` per measured configuration, each format read by a module of its own:

* `bonnie1`: Bonnie 1.x tables and progress lines, one run per table row;
* `bonniepp`: bonnie++ text tables, one run per machine row with its file-creation and
  Latency rows attached;
* `csv`: bonnie++ CSV lines, merged into the text row they are the twin of;
* `common`: the metric registry, the cells and drafts every reader fills, and the helpers
  they share (captions, command lines, bonnie++ cell and size tokens).

Mail re-wrapped by a mailer (lines over ~72 columns broken at the last blank, the rest on a new
line without the quote prefix) is read as the tool printed it: a line made only of the cells a
row lost is joined back to that row (by column when the row's head keeps its columns, else only
when no cell can have been blank), never read as a row of its own; a CSV line is joined piece by
piece, and a last field the break may have cut is not read. A quoted row whose rest fell into the
unquoted text below keeps its seeks (the rest opens the next segment; see `_b1_tail_of_quote`).
What cannot be put together again is an `unparsed` run or a note, never a guess.

Units: rates K/sec (Bonnie's kB/s and 2.0x's k/m/g suffixes, which scale K/sec by 1024),
seeks and file operations /sec, CPU %CPU, latencies us (printed us/ms/s).

`params.repeat` numbers runs of this segment that would otherwise give identical rows (same
system and parameters): "1", "2", ... in order; a configuration measured once gets no
`repeat`. Numbering across segments of a message (a run quoted, then repeated) needs the
driver, which alone sees the whole message.
"""

from __future__ import annotations

import re
from collections import Counter

from transforms.model import Parser, Run, Segment
from transforms.parsers._common import lone_caption, names_system, naming_caption

from .bonnie1 import _B1_SEEKERS, _b1_tail_of_quote, _parse_bonnie1
from .bonniepp import _parse_pp_text
from .common import _PP_SPLIT_OFF, _SPLIT_OFF, METRICS, _clean, _Draft, _to_run
from .csv import _WRAPPED_PIECE, _csv_piece, _merge, _parse_pp_csv

# --------------------------------------------------------------------------- entry point


def _number_repeats(drafts: list[_Draft]) -> None:
    """repeat = 1, 2, ... for runs that would otherwise give identical rows."""

    def key(d: _Draft) -> tuple[object, ...]:
        return d.system, tuple(sorted(d.io_params.items())), tuple(sorted(d.file_params.items()))

    # unparsed runs count too: numbers stay stable. A fragment stands for a run of another
    # segment: the driver numbers it with that segment's runs.
    counts = Counter(key(d) for d in drafts if not d.fragment)
    seen: Counter[tuple[object, ...]] = Counter()
    for d in drafts:
        if counts[key(d)] > 1 and not d.fragment:
            seen[key(d)] += 1
            d.repeat = str(seen[key(d)])


def parse(seg: Segment) -> list[Run]:
    lines = [_clean(line) for line in seg.lines]
    drafts = _parse_bonnie1(lines)
    # progress lines right above this segment (the seeker chatter is their last line) made a run
    # of the same invocation there, which notes that its seeks are missing: a header opening this
    # segment is that run's table, not a run lost
    progress_above = any(_B1_SEEKERS.match(b) for b in seg.before)
    if progress_above:
        drafts = [d for d in drafts
                  if d.reason != _SPLIT_OFF or any(x.strip() for x in lines[: d.line_start])]
    if (tail := _b1_tail_of_quote(lines, seg.before)) is not None:
        # A run of this segment with the same machine and size shares the fragment's keys: the
        # driver tells them apart only if the quote above gave its run too; otherwise the
        # fragment is left out.
        same = any((d.system, d.io_params) == (tail.system, tail.io_params) for d in drafts)
        if not same or progress_above:
            drafts.append(tail)
    before = seg.before[-1].strip() if seg.before else ""
    continued = len(before) >= _WRAPPED_PIECE and "," in before and _csv_piece(before)
    text, csv = _parse_pp_text(lines), _parse_pp_csv(lines, continued)
    if csv:  # a header above a CSV record is not a table whose rows went elsewhere
        text = [d for d in text if d.reason != _PP_SPLIT_OFF]
    drafts += _merge(text, csv)
    drafts.sort(key=lambda d: d.line_start)
    _captions_over_hosts(drafts, lines, seg.before)
    _number_repeats(drafts)
    return [_to_run(d) for d in drafts]


_OWN_CAPTION_REACH = 14  # lines between a machine's own caption and its rows (a bonnie++ printout and its CSV line)


def _captions_over_hosts(drafts: list[_Draft], lines: list[str], before: tuple[str, ...]) -> None:
    """One machine name under captions naming different kernels (or patches, VMs), or each machine
    under a caption of its own (`2.4.22 + Promise ft3xx` over `silo4`, `2.4.22-bk48 + libata` over
    `silo5`): the post compares what the captions name, so each caption is the system and the
    machine a param `host`."""
    named: dict[int, str | None] = {}
    by_machine: dict[str, set[str | None]] = {}
    for k, d in enumerate(drafts):
        if d.reason or not d.system or names_system(d.system):
            continue
        named[k] = naming_caption(lines, d.line_start, 0, before) or lone_caption(lines, d.line_start)
        by_machine.setdefault(d.system, set()).add(named[k])
    by_host: dict[str, set[str | None]] = {}  # `silo4.rz.informa` in the table, `silo4` in its CSV line
    for machine, captions in by_machine.items():
        by_host.setdefault(machine.split(".")[0], set()).update(captions)
    own = [next(iter(c)) for c in by_host.values() if len(c) == 1]  # one machine, one caption
    each_its_own = len(by_host) >= 2 and len(own) == len(by_host) and None not in own \
        and len(set(own)) == len(own) and all(
            naming_caption(lines, d.line_start, d.line_start - _OWN_CAPTION_REACH) == named[k] for k, d in
            ((k, drafts[k]) for k in named))  # each right over its printout, not one far above
    for k, caption in named.items():
        d = drafts[k]
        captions = by_machine[d.system]
        if caption is None or not (each_its_own or None not in captions and len(captions) >= 2):
            continue
        d.io_params["host"] = d.file_params["host"] = d.system
        d.system = caption


# Every alternative contains one of KEYWORDS (lower-cased), so the driver's substring test can skip
# mail without Bonnie output. A 1.0x CSV line (no version field) is read only in a segment that
# matched otherwise (its table) or right under a line naming the tool (`bonnie++`, then the line);
# versioned CSV (format 1.9x, also bonnie++ 2.0x) stands alone.
SIGNATURE = re.compile(
    r"K/sec\s+%CPU|kB/s\s+[\d.]+\s*%CPU|/sec\s+%CP\b|Sequential (?:Output|Create)"
    r"|^[^\S\n]*+1\.9\d[a-z]?,\d++\.\d++[\w.]*+,"
    r"|(?i:bonnie)[^\n]{0,80}+\n(?:[^\S\n]*+\n){0,3}+[^\S\n]*+[^,\s]{1,60}+,\d{1,6}+[MG](?::\d++k?)?+,\d",
    re.M,
)
KEYWORDS = ("%cp", "sequential output", "sequential create", "bonnie",
            *(f"1.9{d}{s}," for d in "0123456789" for s in ["", *"abcdefghijklmnopqrstuvwxyz"]))

PARSER = Parser(name="bonnie", version="1", signature=SIGNATURE, parse=parse, metrics=METRICS,
                keywords=KEYWORDS)
