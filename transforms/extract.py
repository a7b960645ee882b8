"""From a decoded message body to runs and tidy result rows (pure; no I/O)."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field

from transforms.columns import columns
from transforms.handmade import HANDMADE, Explained
from transforms.handmade import read as read_handmade
from transforms.handmade.evidence import benchmarks_in, has_evidence
from transforms.labelled import has_labels, unlabel, unlabel_text
from transforms.leadin import fill_systems
from transforms.logprefix import has_log_prefix
from transforms.logprefix import strip_text as strip_log_text
from transforms.model import Parser, Result, Run, Segment
from transforms.parsers import PARSERS, owner
from transforms.parsers._common import (
    DEVICE_CAPTION,
    generic_label,
    names_system,
    underlined_heading,
)
from transforms.parsers.dbench import retell_as_tbench
from transforms.platform import classify, legend
from transforms.prefilter import has_figures, prefilter
from transforms.quotes import segments, strip_quotes
from transforms.sidebyside import halves


def candidate_parsers(body: str) -> list[Parser]:
    """Parsers whose signature matches somewhere in the body."""
    return _scan(body)[0]


def _scan(body: str, subject: str | None = None, prefiltered: bool = True) -> tuple[list[Parser], bool]:
    """(parsers whose signature matches, whether the hand-made reader runs).

    The prefilter (transforms.prefilter) names the parsers worth a signature search; with
    `prefiltered=False` every signature runs (what the prefilter is measured against).
    """
    if prefiltered:
        gate = prefilter(body, subject)
        maybe, evident = list(gate.parsers), gate.hand
    else:
        maybe, evident = list(PARSERS.values()), has_evidence(body, subject)
    if not maybe:
        return [], evident
    found = [p for p in maybe if p.signature.search(body)]
    if len(found) < len(maybe) and ">" in body:
        # signatures anchored at line start miss blocks whose every line is quoted
        unquoted = strip_quotes(body)
        found += [p for p in maybe if p not in found and p.signature.search(unquoted)]
    if len(found) < len(maybe) and has_labels(body):
        # nor lines behind a label (`Before: [  5] 0.00-10.00 sec ...`)
        plain = unlabel_text(strip_quotes(body) if ">" in body else body)
        found += [p for p in maybe if p not in found and p.signature.search(plain)]
    if len(found) < len(maybe) and has_log_prefix(body):
        # nor do they see a printout copied from a log, every line behind a timestamp or tag
        unlogged = strip_log_text(strip_quotes(body) if ">" in body else body)
        found += [p for p in maybe if p not in found and p.signature.search(unlogged)]
    return found, evident


def has_signature(body: str) -> bool:
    return bool(candidate_parsers(body))


@dataclass(slots=True)
class ExtractedRun:
    """A parser's run placed in its message: absolute line span, stable id, content hash."""

    run_id: str
    block_index: int
    parser: Parser
    run: Run
    quoted: bool
    line_start: int
    line_end: int
    snippet: str
    content_hash: str
    segment: int = 0  # line offset of the segment it came from
    notes: list[str] = field(default_factory=list)


def _run_hash(run: Run) -> str:
    h = hashlib.sha1(run.benchmark.encode())
    for r in run.results:
        h.update(f"|{r.system or run.system}|{r.metric}|{sorted(r.params.items())}|{r.value!r}".encode())
    return h.hexdigest()[:16]


def run_id_for(message_id: str, block_index: int) -> str:
    return hashlib.sha1(f"{message_id}#{block_index}".encode()).hexdigest()[:16]


def _parse_segment(parser: Parser, seg: Segment) -> list[Run]:
    try:
        return parser.parse(seg)
    except Exception as exc:  # a parser bug must not lose the message: record it
        return [
            Run(
                benchmark=parser.name,
                results=[],
                line_start=0,
                line_end=len(seg.lines),
                status="unparsed",
                reason=f"parser error: {type(exc).__name__}: {exc}",
            )
        ]


def _side_by_side(parser: Parser, runs: list[Run], split: tuple[Segment, Segment, range]) -> list[Run]:
    """Two printouts pasted side by side (transforms.sidebyside): each half read on its own, in
    place of what the parser made of the lines holding both."""
    left, right, cut = split

    def inside(run: Run) -> bool:
        return run.line_start < cut.stop and max(run.line_end, run.line_start + 1) > cut.start

    if any(inside(r) and r.status == "ok" and r.results for r in runs):
        return runs  # the parser reads the pair itself (kernbench's side-by-side outputs)
    halves_runs = [r for half in (left, right) for r in _parse_segment(parser, half)
                   if inside(r) and r.status == "ok" and r.results]
    if not halves_runs:
        return runs
    for r in halves_runs:
        r.notes.append("one of two printouts pasted side by side")
    return [r for r in runs if not inside(r)] + halves_runs


def _in_columns(parser: Parser, runs: list[Run], split: tuple[list[tuple[str, Segment]], range]) -> list[Run]:
    """Printouts merged into columns under a line naming their systems (transforms.columns): each
    column read on its own, in place of what the parser made of the lines holding them all, when
    that reads more."""
    copies, cut = split

    def inside(run: Run) -> bool:
        return run.line_start < cut.stop and max(run.line_end, run.line_start + 1) > cut.start

    mine: list[Run] = []
    for name, copy in copies:
        for r in _parse_segment(parser, copy):
            if inside(r) and r.status == "ok" and r.results:
                r.system = name
                for res in r.results:
                    res.system = name  # the column's head, whatever caption stands above them all
                r.notes.append("one of the printouts merged into columns")
                mine.append(r)
    if sum(len(r.results) for r in mine) <= sum(len(r.results) for r in runs if inside(r) and r.status == "ok"):
        return runs
    return [r for r in runs if not inside(r)] + mine


def _continued_systems(runs: list[Run]) -> None:
    """A run of one data line right below another of the same printout (netperf's next line of
    figures, no blank line between) and named by nothing of its own belongs to the same system."""
    prev: Run | None = None
    for run in sorted(runs, key=lambda r: r.line_start):
        named = run.system or any(r.system for r in run.results)
        if not named and prev is not None and prev.status == "ok" and run.status == "ok" \
                and run.line_end - run.line_start <= 1 and run.line_start <= prev.line_end \
                and prev.system and run.benchmark == prev.benchmark:  # one data line, nothing else
            run.system = prev.system
        prev = run


# a label alone on its line (a blank line above): one word and a colon, no path, no parenthesis
# or `=` (a printout's own `Disk stats (read/write):`, `/dev/sda:`, sysbench's `General statistics:`)
_BARE_LABEL = re.compile(r"(?![/$#>\[])[^\s():=/]{1,30}+:")
_JOINING = frozenset({"to", "from", "and", "or", "then", "vs", "vs.", "versus", "into", "also", "note", "see", "so"})


def _inner_captions(run: Run, seg: Segment) -> None:
    """`Before:` above the header, then `After (+netif_receive_skb_list):` above the later rows of
    the same printout: each caption inside a run names the system of the rows below it."""
    if run.status != "ok" or any(r.system for r in run.results) or not run.results:
        return  # (a run's own caption, above it, names the rows above the first inner one)
    rows = {r.line for r in run.results if r.line is not None}
    if not rows:
        return
    first, last = min(rows), max(rows)
    caps: list[tuple[int, str]] = []
    bare: list[tuple[int, str]] = []
    for k in range(run.line_start, last):
        text = seg.lines[k].strip()
        if k in rows or not text or len(text) > 60:
            continue
        alone = (k == 0 or not seg.lines[k - 1].strip()) and len(text.split()) <= 4  # not a wrapped banner
        if (text.strip("*_ ").endswith(":") or alone) and (name := names_system(text)):  # (`** With X: **`)
            caps.append((k, name))
        elif alone and text.endswith(":") and (name := underlined_heading(seg.lines, k, last)):
            caps.append((k, name))  # `ti + skb recycling:` over a `-----` rule
        elif alone and _BARE_LABEL.fullmatch(text) and text[:-1].lower() not in _JOINING \
                and not generic_label(text[:-1]):
            bare.append((k, text[:-1].strip()))
    if len({name for _, name in bare}) >= 2 and not caps:
        caps = bare  # `zsmalloc:` ... `z3fold:`: two labels of its own lines, each over its rows
    if any(not DEVICE_CAPTION.match(name) for _, name in caps):
        caps = [(k, name) for k, name in caps if not DEVICE_CAPTION.match(name)]  # `vda` under `Guest with X:`
    if not caps or first < run.line_start:
        return
    for r in run.results:
        above = [name for k, name in caps if r.line is not None and k < r.line]
        if above:
            r.system = above[-1]


def _row_key(run: Run, r: Result) -> tuple:
    """What tells two rows apart, `repeat` aside."""
    return (r.system or run.system, r.metric, r.statistic,
            tuple(sorted((k, v) for k, v in r.params.items() if k != "repeat")))


def _labelled_runs(parser: Parser, seg: Segment) -> list[Run]:
    """A parser's runs from lines behind labels (transforms.labelled), each label the system of
    the rows read from its line."""
    if not has_labels(seg.text):
        return []
    lines, labels = unlabel(seg.lines)
    plain = Segment(lines, seg.offset, seg.depth, seg.before)
    if not labels or not parser.signature.search(plain.text):
        return []
    runs = _parse_segment(parser, plain)
    seen: dict[tuple, int] = {}
    for run in runs:
        for r in run.results:
            if r.system is None and r.line in labels:
                r.system = labels[r.line]
            seen[_row_key(run, r)] = seen.get(_row_key(run, r), 0) + 1
    counted: dict[tuple, int] = {}
    for run in runs:  # the parser numbered repeats before the labels told the lines apart
        for r in run.results:
            key = _row_key(run, r)
            if seen[key] == 1:
                r.params.pop("repeat", None)
            elif "repeat" in r.params:
                counted[key] = counted.get(key, 0) + 1
                r.params["repeat"] = str(counted[key])  # 1, 2 within each label
    return runs


def extract_runs(body: str, message_id: str, subject: str | None = None) -> list[ExtractedRun]:
    """Every benchmark block of one decoded body, quoted ones included."""
    return extract(body, message_id, subject=subject)[0]


# Text past this many characters of one body is not parsed. Real result posts are well under
# 1 MB; a 50 MB post of tables made ~3 million result objects (2.7 GB) and took minutes, and one
# such message must not cost the others their memory.
MAX_EXTRACT_CHARS = 4_000_000


def _capped(body: str) -> tuple[str, str | None]:
    """The body cut at the last line end before the cap, and the note saying so (or None)."""
    if len(body) <= MAX_EXTRACT_CHARS:
        return body, None
    cut = body.rfind("\n", 0, MAX_EXTRACT_CHARS)
    cut = cut if cut > 0 else MAX_EXTRACT_CHARS
    return body[:cut], f"body of {len(body)} characters: only the first {cut} were parsed"


def extract(body: str, message_id: str, subject: str | None = None) -> tuple[list[ExtractedRun], bool]:
    """(runs, whether any parser's signature matched): one pass serves both questions."""
    runs, hit, _ = extract_explained(body, message_id, subject=subject)
    return runs, hit


def extract_explained(body: str, message_id: str, subject: str | None = None, prefiltered: bool = True,
                      ) -> tuple[list[ExtractedRun], bool, list[Explained]]:
    """Runs, whether anything matched, and what each block was taken for (`--explain`).

    The benchmark parsers read first; the hand-made reader then reads the lines none of them
    claimed, and only when the post (or its subject) names a benchmark.
    """
    body, cut_note = _capped(body)
    parsers, evident = _scan(body, subject, prefiltered)
    if not parsers and not evident:
        return [], False, []
    found: list[tuple[int, str, int, Run, Segment]] = []
    segs = segments(body)
    if parsers:
        for seg in segs:
            text = seg.text
            split = halves(seg)
            merged: tuple | None | bool = False  # (looked for once, when a parser reads the segment)
            for parser in parsers:
                if not parser.signature.search(text):
                    runs = _labelled_runs(parser, seg)
                else:
                    runs = _parse_segment(parser, seg)
                    if split is not None:
                        runs = _side_by_side(parser, runs, split)
                    if merged is False:
                        merged = columns(seg)
                    if merged:
                        runs = _in_columns(parser, runs, merged)
                _continued_systems(runs)
                for k, run in enumerate(runs):
                    if run.status == "ok" and not run.results:
                        continue
                    _inner_captions(run, seg)
                    found.append((seg.offset + run.line_start, parser.name, k, run, seg))
    found += _continued_tables(segs, found)
    explained = [
        Explained(seg.offset + run.line_start, seg.offset + max(run.line_end, run.line_start + 1),
                  f"tool_output ({name} parser)", benchmark=run.benchmark, evidence="the tool's own printout",
                  systems=sorted({s for s in (run.system, *(r.system for r in run.results)) if s}),
                  outcome=(f"{len(run.results)} rows" if run.status == "ok" else f"quarantine: {run.reason}"),
                  rows=len(run.results) if run.status == "ok" else 0, quoted=seg.quoted)
        for _, name, _, run, seg in found
    ]
    claimed = {seg.offset + i: run.benchmark for _, _, _, run, seg in found if not _unreadable(run)
               for i in _claimed_lines(run)}
    hand, hand_explained = read_handmade(segs, subject, claimed) if evident and _figures_left(segs, claimed) \
        else ([], [])
    explained += hand_explained
    for k, hr in enumerate(hand):
        found.append((hr.segment.offset + hr.run.line_start, HANDMADE.name, k, hr.run, hr.segment))
    if not found:
        if not explained:
            explained.append(_nothing_read(body, subject, parsers, evident))
        return [], bool(parsers), explained
    found.sort(key=lambda t: (t[0], t[1], t[2]))
    explained.sort(key=lambda e: (e.line_start, e.line_end))
    retell_as_tbench([f[3] for f in found if f[1] == "dbench"], body, subject)
    fill_systems([(f[3], f[4]) for f in found], body, subject)
    _describe_platforms(body, [f[3] for f in found])
    out: list[ExtractedRun] = []
    for idx, (_, name, _, run, seg) in enumerate(found):
        parser = PARSERS.get(name, HANDMADE)
        _fill_defaults(run, parser)
        lo, hi = run.line_start, max(run.line_end, run.line_start + 1)
        out.append(
            ExtractedRun(
                run_id=run_id_for(message_id, idx),
                block_index=idx,
                parser=parser,
                run=run,
                quoted=seg.quoted,
                line_start=seg.offset + lo,
                line_end=seg.offset + hi,
                snippet="\n".join(seg.lines[lo:hi])[:20000],
                content_hash=_run_hash(run),
                segment=seg.offset,
            )
        )
    _number_repeats(out)
    if cut_note:
        for r in out:
            r.run.notes.append(cut_note)  # kept with the run record
    return out, True, explained


def _figures_left(segs: list[Segment], claimed: dict[int, str]) -> bool:
    """Whether a line no parser read holds a figure: else the hand-made reader has nothing to read
    (on generated list mail, a seventh of the extraction of messages naming a tool)."""
    return has_figures("\n".join(line for seg in segs for i, line in enumerate(seg.lines) if seg.offset + i not in claimed))


def _nothing_read(body: str, subject: str | None, parsers: list[Parser], evident: bool) -> Explained:
    """Why a post that got past the gate gave nothing, when no block was even looked at."""
    end = body.count("\n") + 1
    if parsers:
        names = ", ".join(p.name for p in parsers)
        return Explained(0, end, f"tool output ({names} signature)", benchmark=parsers[0].name,
                         evidence="a line the tool prints", outcome="nothing: the parser found no printout it reads")
    named = benchmarks_in(subject or "") if subject else []
    where = "the subject" if named else "the body"
    named = named or benchmarks_in(body)
    return Explained(0, end, "whole post", benchmark=named[0] if named else None, evidence=f"named in {where}",
                     outcome="nothing: no table, summary, command output or sentence with a measured figure")


# parsers whose tables a reply may continue after a comment: rows quoted again further down,
# without the header (`> Raid5 (8 disk) 15744M 55881 98 ...` after a paragraph of reply)
CONTINUED = frozenset({"bonnie"})
_CONTINUE_REACH = 80  # lines after a table where its continuation may stand
_MAX_HEADER = 12


def _continued_tables(segs: list[Segment], found: list[tuple[int, str, int, Run, Segment]],
                      ) -> list[tuple[int, str, int, Run, Segment]]:
    """Rows of a table continued in a later segment of the same quote depth, read under the header
    of the table above (the parser alone sees a headerless segment and its signature fails)."""
    out: list[tuple[int, str, int, Run, Segment]] = []
    busy = {id(seg) for _, _, _, _, seg in found}
    last: dict[tuple[str, int], tuple[list[str], int]] = {}  # (parser, depth) -> (header, end line)
    for seg in segs:
        for _, name, _, run, s in found:
            if s is not seg or name not in CONTINUED or run.status != "ok" or not run.results:
                continue
            first = min((r.line for r in run.results if r.line is not None), default=None)
            if first is not None and 0 < first - run.line_start <= _MAX_HEADER:
                last[(name, seg.depth)] = (seg.lines[run.line_start:first], seg.offset + run.line_end)
        if id(seg) in busy:
            continue
        for (name, depth), (header, end) in list(last.items()):
            if depth != seg.depth or seg.offset - end > _CONTINUE_REACH or not any(x.strip() for x in seg.lines):
                continue
            joined = Segment([*header, *seg.lines], seg.offset - len(header), seg.depth, seg.before)
            for k, run in enumerate(_parse_segment(PARSERS[name], joined)):
                if run.status != "ok" or not run.results or any(
                        r.line is None or r.line < len(header) for r in run.results):
                    continue  # only rows of this segment, never the borrowed header's
                run.line_start = max(run.line_start, len(header))
                run.notes.append("rows continuing the table above, read under its header")
                out.append((joined.offset + run.line_start, name, k, run, joined))
                last[(name, depth)] = (header, seg.offset + len(seg.lines))
    return out


def _unreadable(run: Run) -> bool:
    """A run whose parser could not read a line of it (`unreadable Throughput line 1: '-> 455.1
    MB/sec'`): the run stays in quarantine with its reason, and its lines are left to the hand reader
    as well (a person's `Throughput 412.3 MB/sec -> 455.1 MB/sec` in the tool's words; figures a mailer
    broke). A run the parser read and refused (its progress lines disagree with its table) keeps its
    lines: no other reading of them is better."""
    return run.status != "ok" and (run.reason or "").startswith("unreadable")


def _claimed_lines(run: Run) -> range:
    """The lines a parser's run read (its whole span: what it left there is its call)."""
    return range(run.line_start, max(run.line_end, run.line_start + 1))


def _number_repeats(runs: list[ExtractedRun]) -> None:
    """Give `repeat` 1..N to values measured again in another block of the same message
    (the same system, metric and params in two segments, e.g. one quoted, one not).

    A parser numbers repeats within its segment; this closes the gap across segments
    (only keys seen in two or more segments are numbered).
    Blocks identical to an earlier one (a quoted copy) are left alone: they are duplicates,
    linked by content hash, not repeats. Hashes are taken before numbering.
    """
    seen_hash: set[str] = set()
    occurrences: dict[tuple, list[int]] = {}
    for i, er in enumerate(runs):
        if er.run.status != "ok" or er.content_hash in seen_hash:
            seen_hash.add(er.content_hash)
            continue
        seen_hash.add(er.content_hash)
        for r in er.run.results:
            if "repeat" in r.params:
                continue
            key = (er.run.benchmark, r.system or er.run.system, r.metric, r.statistic,
                   tuple(sorted(r.params.items())))
            runs_of = occurrences.setdefault(key, [])
            if not runs_of or runs_of[-1] != i:
                runs_of.append(i)
    for key, idxs in occurrences.items():
        if len({runs[i].segment for i in idxs}) < 2:
            continue  # within one segment the parser numbers repeats itself
        for n, i in enumerate(idxs, start=1):
            er = runs[i]
            for r in er.run.results:
                if "repeat" not in r.params and (er.run.benchmark, r.system or er.run.system, r.metric,
                                                 r.statistic, tuple(sorted(r.params.items()))) == key:
                    r.params["repeat"] = str(n)


def _describe_platforms(body: str, runs: list[Run]) -> None:
    """Run attributes `legend:<system>` and `platform:<system>` from labels and the post's legend."""
    labels = {lbl for run in runs for lbl in {run.system, *(r.system for r in run.results)} if lbl}
    if not labels:
        return
    desc = legend(body, labels)
    for run in runs:
        for lbl in sorted({run.system, *(r.system for r in run.results)} - {None}):
            if not lbl:
                continue
            if lbl in desc:
                run.attributes.setdefault(f"legend:{lbl}", desc[lbl])
            kind = classify(lbl, desc.get(lbl))
            if kind:
                run.attributes.setdefault(f"platform:{lbl}", kind)


def _fill_defaults(run: Run, parser: Parser) -> None:
    fold = getattr(owner(run.benchmark), "canonical", None)
    for r in run.results:
        if fold is not None:
            fold(r)
        if r.higher_is_better is None:
            spec = parser.metrics.get(r.metric)
            if spec is not None:
                r.higher_is_better = spec.higher_is_better
