"""The prefilter's recall and pass rate (transforms.prefilter), and what it saves.

    python -m bench.prefilter                          # golden, damaged golden, real posts, 50,000 generated
    python -m bench.prefilter --messages 5000          # a smaller generated corpus
    python -m bench.prefilter --full                   # also compare rows without the prefilter on every
                                                       # generated message (slow: every signature, every message)

A message *carries blocks* when: golden fixture: its expected rows are not empty; damaged fixture
(quote, crlf, wrap, collapse, as bench.extraction damages them): extraction without the prefilter
gives rows; real post: its facts file is not empty; generated message: the truth file lists it.
A message *passes* when a parser keyword or a tool name (the hand-made reader's gate) lets it
through. Figures per corpus: recall = carrying messages that pass / carrying messages (must be
1.000); recall readable = the same over carrying messages that give rows without the prefilter (a
real post that names no tool and whose facts the reader cannot find either is carrying but not
readable: it is listed, and must be readable-recalled once the reader finds it); pass ratio =
passing messages / carrying messages (at most 3); and *row changes*: messages whose rows differ
with and without the prefilter (must be 0).
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from bench._common import header, table

ROOT = Path(__file__).resolve().parents[1]
REAL = ROOT / "tests" / "fixtures" / "real"
RECALL_FLOOR = 1.0
MAX_PASS_RATIO = 3.0


@dataclass(slots=True)
class Message:
    mid: str
    subject: str | None
    body: str
    carries: bool | None  # None: decide by extracting without the prefilter


@dataclass(slots=True)
class Tally:
    name: str
    messages: int = 0
    carrying: int = 0
    passed: int = 0
    recalled: int = 0
    row_changes: int = 0
    checked: int = 0
    readable: int = 0  # carrying messages that give rows without the prefilter
    readable_passed: int = 0
    missed: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)

    @property
    def recall(self) -> float | None:
        return self.recalled / self.carrying if self.carrying else None

    @property
    def readable_recall(self) -> float | None:
        return self.readable_passed / self.readable if self.readable else None

    @property
    def pass_ratio(self) -> float | None:
        return self.passed / self.carrying if self.carrying else None

    def row(self) -> list:
        return [self.name, self.messages, self.carrying, self.passed, self.recall, self.readable_recall,
                self.pass_ratio, self.checked, self.row_changes]


def rows_of(m: Message, prefiltered: bool) -> list[str]:
    from transforms.extract import extract_explained
    from transforms.rows import result_rows

    runs, _, _ = extract_explained(m.body, m.mid, subject=m.subject, prefiltered=prefiltered)
    keys = ("benchmark", "system", "metric", "params", "value", "unit", "layout", "quoted", "statistic")
    return sorted(json.dumps({k: r.get(k) for k in keys}, sort_keys=True, default=str) for r in result_rows(runs))


def tally(name: str, messages: Iterable[Message], compare: str = "all") -> Tally:
    """compare: `all` rows of every message with and without the prefilter, `carrying` only those."""
    from transforms.prefilter import prefilter

    t = Tally(name)
    for m in messages:
        t.messages += 1
        passed = prefilter(m.body, m.subject).passed
        t.passed += passed
        ungated = None
        if m.carries is None or compare == "all" or (compare == "carrying" and m.carries):
            ungated = rows_of(m, prefiltered=False)
            t.checked += 1
            if (rows_of(m, prefiltered=True) if passed else []) != ungated:
                t.row_changes += 1
                t.changed.append(m.mid)
        carries = m.carries if m.carries is not None else bool(ungated)
        if carries and ungated:
            t.readable += 1
            t.readable_passed += passed
        if carries:
            t.carrying += 1
            t.recalled += passed
            if not passed:
                t.missed.append(m.mid)
    return t


def golden(damage: str | None = None) -> Iterator[Message]:
    from bench.extraction import TRANSFORMS
    from bench.golden import all_fixtures, expected_rows, fixture_body

    for p in all_fixtures():
        body = fixture_body(p)
        mid = f"{p.parent.name}/{p.stem}"
        if damage is None:
            yield Message(mid, None, body, bool(expected_rows(p)))
        else:
            yield Message(f"{mid}:{damage}", None, TRANSFORMS[damage][0](body), None)


def real(split: str) -> Iterator[Message]:
    from bench.real_corpus import posts, read_facts
    from flows.extract_cmd import iter_mails, read_input
    from transforms.mbox import normalise_chunks

    for post in posts(REAL, split):
        if split != "negative" and not post.facts_path.exists():
            continue
        facts = bool(read_facts(post.facts_path)) if split != "negative" else False
        data, name = read_input(str(post.path))
        for mail in iter_mails(b"".join(normalise_chunks([data])), name, []):
            yield Message(post.slug, mail.subject, mail.body, facts)


def generated(path: Path, truth: Path) -> Iterator[Message]:
    from transforms.mail import decode_message
    from transforms.mbox import split_mbox

    with open(truth, newline="") as f:
        carrying = {r["message_id"].strip("<>") for r in csv.DictReader(f, delimiter="\t")}
    with open(path, "rb") as f:
        for raw in split_mbox(iter(lambda: f.read(1 << 20), b"")):
            if isinstance(raw, bytes):
                mail = decode_message(raw)
                yield Message(mail.message_id, mail.subject, mail.body, mail.message_id in carrying)


def gate_speed(messages: Sequence[Message]) -> tuple[float, float]:
    """(messages/s, MB/s) of the prefilter alone, best of three."""
    from transforms.prefilter import prefilter

    best = float("inf")
    for _ in range(3):
        t = time.perf_counter()
        for m in messages:
            prefilter(m.body, m.subject)
        best = min(best, time.perf_counter() - t)
    size = sum(len(m.body) for m in messages)
    return len(messages) / best, size / best / 1e6


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--messages", type=int, default=50000, help="generated corpus size (0: none)")
    ap.add_argument("--fraction", type=float, default=0.015)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--full", action="store_true", help="rows with and without the prefilter on every generated message")
    args = ap.parse_args(argv)
    print(header("bench.prefilter: recall and pass rate of the keyword prefilter", "bench.prefilter", argv))
    t0 = time.perf_counter()
    tallies = [tally("golden", golden())]
    for damage in ("quote", "crlf", "wrap", "collapse"):
        tallies.append(tally(f"golden {damage}", golden(damage)))
    for split in ("dev", "test", "negative"):
        tallies.append(tally(f"real {split}", real(split)))
    speed = None
    if args.messages:
        from bench.ingest import corpus

        mbox = corpus(args.messages, args.fraction, args.seed)
        msgs = list(generated(mbox, mbox.with_suffix(".truth.tsv")))
        tallies.append(tally(f"generated {args.messages}", msgs, "all" if args.full else "carrying"))
        speed = gate_speed(msgs)
    print()
    print(table(["corpus", "messages", "carrying", "passed", "recall", "recall readable", "pass/carrying",
                 "rows compared", "row changes"], [t.row() for t in tallies]))
    ok = True
    for t in tallies:
        if t.missed:
            print(f"  {t.name}: carrying messages the prefilter drops: {', '.join(t.missed[:10])}")
        if t.changed:
            print(f"  {t.name}: rows differ with the prefilter: {', '.join(t.changed[:10])}")
        if t.row_changes or (t.readable_recall or 1.0) < RECALL_FLOOR:
            ok = False
        if not t.name.startswith("real") and (t.recall or 1.0) < RECALL_FLOOR:
            ok = False
    gen = tallies[-1] if args.messages else None
    if gen is not None and gen.pass_ratio is not None and gen.pass_ratio > MAX_PASS_RATIO:
        ok = False
    if speed:
        print(f"\nprefilter alone on the generated corpus: {speed[0]:,.0f} messages/s, {speed[1]:,.0f} MB/s")
    print(f"\nprefilter {'OK' if ok else 'FAILS'}: needs recall {RECALL_FLOOR:.3f} on golden and generated, "
          f"recall {RECALL_FLOOR:.3f} of the real posts the reader finds rows in (readable), no row changes, "
          f"generated pass/carrying at most {MAX_PASS_RATIO:g}")
    print(f"total time {time.perf_counter() - t0:.1f} s")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
