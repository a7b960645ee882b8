"""Extraction quality: parser recall and precision on the golden fixtures, under mail damage,
and on a synthetic mailing-list corpus.

Command (from the repo root):

    .venv/bin/python -m bench.extraction                  # fixtures + transforms + 20000-message corpus
    .venv/bin/python -m bench.extraction --corpus 50000   # a bigger synthetic corpus
    .venv/bin/python -m bench.extraction --corpus 0       # fixtures and transforms only
    .venv/bin/python -m bench.extraction --real           # the real-posts corpus (tests/fixtures/real)
    .venv/bin/python -m bench.extraction --real --split dev --show-misses   # what the reader misses

What it measures
----------------
1. Golden fixtures (tests/fixtures/parsers/<benchmark>/<case>.txt beside
   <case>.expected.jsonl). A fact is (benchmark, system, metric, sorted params,
   statistic, value, unit). Facts are compared as multisets (a fact expected twice
   must be extracted twice). recall = expected facts found / expected facts;
   precision = extracted rows matching an expected fact / extracted rows. The
   golden files are the contract: both must be 1.000.
2. Robustness: every fixture is damaged the way mail damages text and parsed again:
     quote    every line prefixed with "> "           (the `quoted` flag is ignored)
     crlf     CRLF line endings
     wrap     lines longer than 76 columns re-wrapped at 72, like a mailer
              (break at the last blank <= 72, the rest on the next line)
     collapse runs of spaces collapsed to one          (the `alignment` flag is ignored)
   A row is found only when all its columns match (benchmark, system, metric,
   params, statistic, value, unit, quoted, alignment) except the ignored one.
   Extracted rows that match nothing are classified:
     WRONG    same (benchmark, system, metric, params, statistic) as an expected
              fact but another value or unit: a wrong number. This is the headline.
     relabel  the value and unit are right for (benchmark, metric, statistic) but the
              system or params differ (a label was damaged, the number was not).
     flags    value right, only `quoted`/`alignment` differ (or a surplus copy).
     other    no expected counterpart at all.
   "missing" = expected facts not found.
3. Synthetic corpus (--corpus N): /work/shared/tools/gen_corpus.py -n N -f 0.05
   --seed 7 --truth writes an mbox and a truth TSV; every message goes through
   transforms.mbox.split_mbox, transforms.mail.decode_message and
   transforms.extract.extract_runs. Per benchmark kind of the truth file (and per
   placement): share of truth messages with an ok run of that benchmark, share with
   only an unparsed run, share missed; runs found in messages the truth file does
   not list are false positives.

4. Real posts (--real, bench/real_corpus.py): hand-checked facts of real mailing-list posts,
   dev half (odd years) and test half (even years); attributed recall, value recall,
   precision, rows on negative posts, posts with zero rows, per benchmark and per layout.
   --show-misses prints what is missed on the dev half only: nobody tunes on the test half.

Timings are reported against baselines measured in the same run: fixture extraction
against one regex number-token scan of the same bodies; corpus extraction against
mbox splitting + MIME decoding of the same messages.
"""

from __future__ import annotations

import argparse
import csv
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench._common import ROOT, header, median_time, ratio, table, timed

GEN_CORPUS = Path("/work/shared/tools/gen_corpus.py")
if not GEN_CORPUS.exists():  # the shared tools folder sits beside the checkout
    GEN_CORPUS = ROOT.parent / "shared" / "tools" / "gen_corpus.py"

# ---------------------------------------------------------------- mail damage


def quote(text: str) -> str:
    return "\n".join("> " + line for line in text.split("\n"))


def crlf(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\n", "\r\n")


def wrap_line(line: str, width: int = 72, limit: int = 76) -> list[str]:
    """A mailer's hard wrap: a line over `limit` columns is broken at the last blank at or
    before `width` (hard break at `width` when there is none); the rest goes on the next line."""
    if len(line) <= limit:
        return [line]
    out: list[str] = []
    rest = line
    while len(rest) > limit:
        cut = rest.rfind(" ", 0, width + 1)
        if cut <= 0 or not rest[:cut].strip():
            head, rest = rest[:width], rest[width:]
        else:
            head, rest = rest[:cut], rest[cut + 1:]
        out.append(head.rstrip())
    out.append(rest)
    return out


def wrap(text: str) -> str:
    return "\n".join(piece for line in text.split("\n") for piece in wrap_line(line))


_SPACES = re.compile(r" {2,}")


def collapse(text: str) -> str:
    return _SPACES.sub(" ", text)


# name -> (transform, flags not compared)
TRANSFORMS: dict[str, tuple[Callable[[str], str], tuple[str, ...]]] = {
    "quote": (quote, ("quoted",)),
    "crlf": (crlf, ()),
    "wrap": (wrap, ()),
    "collapse": (collapse, ("alignment",)),
}
FLAGS = ("quoted", "alignment")

# ---------------------------------------------------------------- comparing rows


def _params(p: Any) -> tuple:
    return tuple(sorted((str(k), str(v)) for k, v in (p or {}).items()))


def key_of(r: dict[str, Any]) -> tuple:
    """What a value is measured at: (benchmark, system, metric, sorted params, statistic)."""
    return (r["benchmark"], r["system"], r["metric"], _params(r["params"]), r["statistic"])


def fact_of(r: dict[str, Any], flags: Sequence[str] = ()) -> tuple:
    """(benchmark, system, metric, sorted params, statistic, value, unit) + the given flags."""
    return (*key_of(r), float(r["value"]), r["unit"], *(r[f] for f in flags))


@dataclass
class Score:
    fixtures: int = 0
    expected: int = 0
    found: int = 0
    extracted: int = 0
    wrong: int = 0
    misread: int = 0
    misplaced: int = 0
    wrong_inferred: int = 0
    relabel: int = 0
    flags: int = 0
    other: int = 0
    wrong_examples: list[tuple] = field(default_factory=list)
    other_examples: list[tuple] = field(default_factory=list)
    missing_by_case: Counter = field(default_factory=Counter)

    @property
    def matched(self) -> int:  # multiset matching: a found fact is a matched row
        return self.found

    @property
    def wrong_numbers(self) -> int:
        """Rows asserting a number the post does not: WRONG (same key) + misplaced (other metric)."""
        return self.wrong + self.misplaced

    @property
    def missing(self) -> int:
        return self.expected - self.found

    @property
    def recall(self) -> float | None:
        return ratio(self.found, self.expected) if self.expected else None

    @property
    def precision(self) -> float | None:
        return ratio(self.matched, self.extracted) if self.extracted else None

    def add(self, other: Score) -> None:
        for f in ("fixtures", "expected", "found", "extracted", "wrong", "misread", "misplaced", "wrong_inferred",
                  "relabel", "flags", "other"):
            setattr(self, f, getattr(self, f) + getattr(other, f))
        self.wrong_examples += other.wrong_examples
        self.other_examples += other.other_examples
        self.missing_by_case.update(other.missing_by_case)


def compare(expected: list[dict[str, Any]], got: list[dict[str, Any]], flags: Sequence[str],
            where: str = "") -> Score:
    """Score one fixture's extracted rows against its expected rows (see module doc)."""
    exp_c = Counter(fact_of(r, flags) for r in expected)
    got_c = Counter(fact_of(r, flags) for r in got)
    s = Score(fixtures=1, expected=len(expected), extracted=len(got))
    s.found = sum((exp_c & got_c).values())
    if s.found < s.expected:
        s.missing_by_case[where] = s.expected - s.found
    by_key: dict[tuple, list[dict[str, Any]]] = defaultdict(list)
    loose: set[tuple] = set()  # (benchmark, metric, statistic, value, unit): the number is in the post
    cells: dict[tuple, set[str]] = defaultdict(set)  # (benchmark, system, params, statistic, value, unit) -> metrics
    for r in expected:
        by_key[key_of(r)].append(r)
        loose.add((r["benchmark"], r["metric"], r["statistic"], float(r["value"]), r["unit"]))
        cells[(r["benchmark"], r["system"], _params(r["params"]), r["statistic"], float(r["value"]), r["unit"])].add(
            r["metric"])
    inferred = Counter(fact_of(r, flags) for r in got if r.get("alignment") == "inferred")
    for fact, n in (got_c - exp_c).items():
        key, value, unit = fact[:5], fact[5], fact[6]
        bench, system, metric, params, stat = key
        if key in by_key:
            if any(float(e["value"]) == value and e["unit"] == unit for e in by_key[key]):
                s.flags += n
                continue
            s.wrong += n
            misread = (bench, metric, stat, value, unit) not in loose
            s.misread += n if misread else 0
            want = sorted({(float(e["value"]), e["unit"]) for e in by_key[key]})
            s.wrong_examples.append((where, key, want, (value, unit), n, "misread" if misread else "shifted"))
        elif cells.get((bench, system, params, stat, value, unit)):
            s.misplaced += n
            want = [(m, value, unit) for m in sorted(cells[(bench, system, params, stat, value, unit)])]
            s.wrong_examples.append((where, key, want, (value, unit), n, "misplaced"))
        elif (bench, metric, stat, value, unit) in loose:
            s.relabel += n
            continue
        else:
            s.other += n
            s.other_examples.append((where, key, (value, unit), n))
            continue
        s.wrong_inferred += min(n, inferred[fact])
    return s


# ---------------------------------------------------------------- fixtures


@dataclass
class Case:
    bench: str
    name: str
    body: str
    expected: list[dict[str, Any]]


def load_cases() -> list[Case]:
    from bench.golden import all_fixtures, expected_rows, fixture_body

    return [Case(p.parent.name, p.stem, fixture_body(p), expected_rows(p)) for p in all_fixtures()]


def score_cases(cases: list[Case], fn: Callable[[str], str] | None, flags: Sequence[str],
                label: str) -> dict[str, Score]:
    from bench.golden import rows_of

    per: dict[str, Score] = defaultdict(Score)
    for c in cases:
        body = fn(c.body) if fn else c.body
        per[c.bench].add(compare(c.expected, rows_of(body), flags, f"{label}:{c.bench}/{c.name}"))
    return dict(sorted(per.items()))


def _total(per: dict[str, Score]) -> Score:
    t = Score()
    for s in per.values():
        t.add(s)
    return t


def golden_report(cases: list[Case], repeat: int) -> tuple[list[str], Score]:
    from bench.golden import rows_of

    out: list[str] = []
    per = score_cases(cases, None, (), "golden")
    tot = _total(per)
    exact = _total(score_cases(cases, None, FLAGS, "golden-exact"))
    rows = [[b, s.fixtures, s.expected, s.found, s.recall, s.extracted, s.matched, s.precision,
             s.wrong_numbers] for b, s in per.items()]
    rows.append(["TOTAL", tot.fixtures, tot.expected, tot.found, tot.recall, tot.extracted, tot.matched,
                 tot.precision, tot.wrong_numbers])
    size = sum(len(c.body.encode()) for c in cases)
    out += ["", "-- 1. golden fixtures (the contract: recall and precision must be 1.000) --",
            f"fixture corpus: {len(cases)} fixtures in {len({c.bench for c in cases})} benchmark folders, "
            f"{size:,} bytes, {sum(len(c.body.splitlines()) for c in cases):,} lines, "
            f"{tot.expected:,} expected facts",
            table(["benchmark", "fixtures", "expected", "found", "recall", "extracted", "matched",
                   "precision", "wrong numbers"], rows)]
    out.append(f"golden recall {tot.recall:.3f}  precision {tot.precision:.3f}  wrong numbers {tot.wrong_numbers}  "
               f"(all 9 columns incl. quoted+alignment: recall {exact.recall:.3f}, "
               f"precision {exact.precision:.3f})")
    bodies = [c.body for c in cases]
    num = re.compile(r"[-+]?\d+(?:\.\d+)?")
    t_extract, _, _ = median_time(lambda: [rows_of(b) for b in bodies], repeat)
    t_base, _, _ = median_time(lambda: [num.findall(b) for b in bodies], repeat)
    out.append(f"time: extraction of all fixtures {t_extract * 1000:.1f} ms (median of {repeat}); "
               f"baseline regex number scan {t_base * 1000:.2f} ms; ratio extraction/baseline "
               f"{t_extract / t_base:.1f}x; {size / t_extract / 1e6:.2f} MB/s")
    return out, tot


def _fmt_key(key: tuple) -> tuple[str, str, str, str]:
    _bench, system, metric, params, stat = key
    return system or "-", metric, ",".join(f"{a}={b}" for a, b in params) or "-", stat


def transforms_report(cases: list[Case], names: list[str], details: int) -> tuple[list[str], dict[str, Score]]:
    out = ["", "-- 2. robustness: fixtures damaged like mail, parsed again --",
           "Extracted rows that match no expected row are classified:",
           "  WRONG     same (benchmark, system, metric, params, statistic) as an expected fact, other value/unit",
           "            (misread: that number is not a value of that metric anywhere in the post; else shifted)",
           "  misplaced no expected fact for its key, but its number is the post's value of another metric",
           "            of the same system/params (a value put in the wrong column)",
           "  relabel   right number for (benchmark, metric, statistic), damaged system/params label",
           "  flags     right number, only quoted/alignment differ (or a surplus copy)",
           "  other     no counterpart at all",
           "wrong numbers = WRONG + misplaced (inferred: how many of them carry alignment='inferred');",
           "missing = expected facts not found."]
    cols = ["benchmark", "fixtures", "expected", "found", "recall", "extracted", "matched", "precision",
            "WRONG", "misread", "misplaced", "inferred", "relabel", "flags", "other", "missing"]

    def cells(label: str, s: Score) -> list[Any]:
        return [label, s.fixtures, s.expected, s.found, s.recall, s.extracted, s.matched, s.precision,
                s.wrong, s.misread, s.misplaced, s.wrong_inferred, s.relabel, s.flags, s.other, s.missing]

    totals: dict[str, Score] = {}
    summary = []
    for name in names:
        fn, ignored = TRANSFORMS[name]
        flags = tuple(f for f in FLAGS if f not in ignored)
        dt, per = timed(lambda fn=fn, flags=flags, name=name: score_cases(cases, fn, flags, name))
        tot = _total(per)
        totals[name] = tot
        ign = f" (ignoring {', '.join(ignored)})" if ignored else ""
        worst = ", ".join(f"{w.split(':', 1)[1]} ({n})" for w, n in tot.missing_by_case.most_common(8))
        out += ["", f"transform {name}{ign}: {dt:.2f} s",
                table(cols, [cells(b, s) for b, s in per.items()] + [cells("TOTAL", tot)]),
                f"  most facts missing: {worst or '-'}"]
        summary.append([name, tot.wrong_numbers, tot.wrong, tot.misplaced, tot.wrong_inferred, tot.missing,
                        tot.recall, tot.precision,
                        ", ".join(f"{b}:{s.wrong_numbers}" for b, s in per.items() if s.wrong_numbers) or "-"])
    out += ["", "HEADLINE -- rows with WRONG NUMBERS vs rows missing, per transform:",
            table(["transform", "wrong numbers", "WRONG", "misplaced", "inferred", "missing", "recall",
                   "precision", "wrong numbers by benchmark"], summary)]
    wrong = [e for t in totals.values() for e in t.wrong_examples]
    if wrong:
        by_case: dict[str, Counter] = defaultdict(Counter)
        for where, *_rest, k, kind in wrong:
            by_case[where][kind] += k
        rows = [[w, sum(c.values()), c["misread"], c["shifted"], c["misplaced"]]
                for w, c in sorted(by_case.items(), key=lambda kv: -sum(kv[1].values()))]
        out += ["", f"wrong numbers by transform:fixture ({sum(r[1] for r in rows)} rows):",
                table(["transform:fixture", "rows", "misread", "shifted", "misplaced"], rows)]
        rows = []
        for where, key, want, got, k, kind in wrong[:details]:
            exp = " | ".join(f"{w[0]}={w[1]:g} {w[2]}" if kind == "misplaced" else f"{w[0]:g} {w[1]}" for w in want)
            rows.append([where, *_fmt_key(key), exp, f"{got[0]:g} {got[1]}" + (f" x{k}" if k > 1 else ""), kind])
        out += ["", f"first {len(rows)} of {len(wrong)} wrong facts (--details N for more):",
                table(["transform:fixture", "system", "metric", "params", "statistic", "expected", "got", "kind"],
                      rows)]
    other = [e for t in totals.values() for e in t.other_examples]
    if other:
        rows = [[where, *_fmt_key(key), f"{got[0]:g} {got[1]}" + (f" x{k}" if k > 1 else "")]
                for where, key, got, k in other[:details]]
        out += ["", f"rows with no expected counterpart (first {len(rows)} of {len(other)}):",
                table(["transform:fixture", "system", "metric", "params", "statistic", "got"], rows)]
    return out, totals


# ---------------------------------------------------------------- synthetic corpus

CORPUS_KIND = {"bonnie++": "bonnie"}


def corpus_report(n: int, fraction: float, seed: int, keep: Path | None) -> list[str]:
    from transforms.extract import extract_runs
    from transforms.mail import decode_message
    from transforms.mbox import Skipped, split_mbox

    out = ["", f"-- 3. synthetic corpus: gen_corpus -n {n} -f {fraction} --seed {seed} --truth --"]
    with tempfile.TemporaryDirectory(prefix="bench-extraction-") as tmp:
        d = keep or Path(tmp)
        d.mkdir(parents=True, exist_ok=True)
        mbox, truth_tsv = d / "corpus.mbox", d / "corpus.truth.tsv"
        cmd = [sys.executable, str(GEN_CORPUS), "-n", str(n), "-f", str(fraction), "--seed", str(seed),
               "-o", str(mbox), "--truth", str(truth_tsv)]
        t_gen, proc = timed(lambda: subprocess.run(cmd, capture_output=True, text=True, check=True))
        out.append(f"generated: {proc.stderr.strip()} ({t_gen:.1f} s wall)")
        truth: dict[str, dict[str, Any]] = {}
        with open(truth_tsv, newline="") as f:
            for row in csv.DictReader(f, delimiter="\t"):
                mid = row["message_id"].strip().strip("<>")
                kinds = {CORPUS_KIND.get(k.strip(), k.strip()) for k in row["kinds"].split(",") if k.strip()}
                truth[mid] = {**row, "kinds": kinds}
        t_decode = t_extract = 0.0
        messages = skipped = 0
        found: dict[str, list[tuple[str, str, int]]] = {}  # message_id -> [(benchmark, status, rows)]
        with open(mbox, "rb") as f:
            it = split_mbox(f)
            while True:
                t0 = time.perf_counter()
                raw = next(it, None)
                if raw is None:
                    t_decode += time.perf_counter() - t0
                    break
                if isinstance(raw, Skipped):
                    skipped += 1
                    continue
                mail = decode_message(raw)
                t1 = time.perf_counter()
                runs = extract_runs(mail.body, mail.message_id)
                t2 = time.perf_counter()
                t_decode += t1 - t0
                t_extract += t2 - t1
                messages += 1
                if runs:
                    found.setdefault(mail.message_id, []).extend(
                        (er.run.benchmark, er.run.status, len(er.run.results)) for er in runs)
    size = mbox.stat().st_size if keep else None
    out.append(f"read: {messages:,} messages ({skipped} skipped), {len(truth)} in the truth file, "
               f"{len(found)} with runs" + (f", kept in {d} ({size:,} bytes)" if keep else ""))
    out.append(f"time: split+decode {t_decode:.2f} s (baseline), extract_runs {t_extract:.2f} s; "
               f"ratio extract/decode {t_extract / t_decode:.2f}x; "
               f"{messages / (t_decode + t_extract):,.0f} messages/s end to end")

    def outcome(mid: str, kind: str) -> str:
        runs = [r for r in found.get(mid, []) if r[0] == kind]
        if any(st == "ok" and rows > 0 for _, st, rows in runs):
            return "ok"
        return "unparsed" if runs else "missed"

    by_kind: dict[str, Counter] = defaultdict(Counter)
    by_kp: dict[tuple[str, str], Counter] = defaultdict(Counter)
    by_place: dict[str, Counter] = defaultdict(Counter)
    misses: list[tuple[str, str, str]] = []
    for mid, t in truth.items():
        for kind in sorted(t["kinds"]):
            o = outcome(mid, kind)
            by_kind[kind][o] += 1
            by_kp[(kind, t["placement"])][o] += 1
            by_place[t["placement"]][o] += 1
            if o != "ok":
                misses.append((mid, kind, f"{t['placement']} {t['charset']} {t['cte']} visible_raw={t['visible_raw']}"))

    def row(label: list[str], c: Counter) -> list[Any]:
        n = sum(c.values())
        return [*label, n, c["ok"], c["ok"] / n, c["unparsed"], c["unparsed"] / n, c["missed"], c["missed"] / n]

    cols = ["truth msgs", "ok", "ok share", "unparsed", "unparsed share", "missed", "missed share"]
    tot = Counter()
    for c in by_kind.values():
        tot.update(c)
    out += ["", "recall per benchmark kind (truth message has >= 1 ok run with rows / only unparsed runs / none):",
            table(["kind", *cols], [row([k], c) for k, c in sorted(by_kind.items())] + [row(["TOTAL"], tot)]),
            "", "per placement (all kinds):",
            table(["placement", *cols], [row([p], c) for p, c in sorted(by_place.items())]),
            "", "per kind and placement:",
            table(["kind", "placement", *cols], [row([k, p], c) for (k, p), c in sorted(by_kp.items())])]
    if misses:
        out += ["", f"truth messages not read ok ({len(misses)}; first 15):"]
        out += [f"  {k:10s} {mid}  {what}" for mid, k, what in misses[:15]]
    # false positives: runs in messages the truth file does not list, or of a kind it does not list
    fp_msgs: Counter = Counter()
    fp_runs: Counter = Counter()
    cross: Counter = Counter()
    for mid, runs in found.items():
        t = truth.get(mid)
        for bench, st, _ in runs:
            if t is None:
                fp_runs[(bench, st)] += 1
            elif bench not in t["kinds"]:
                cross[(bench, st)] += 1
        if t is None:
            fp_msgs[len(runs) > 0] += 1
    out += ["", f"false positives: {fp_msgs[True]} messages outside the truth file with runs "
                f"({sum(fp_runs.values())} runs); {sum(cross.values())} runs of a kind the truth line does not list"]
    if fp_runs or cross:
        rows = [["not in truth", b, st, n] for (b, st), n in sorted(fp_runs.items())]
        rows += [["other kind", b, st, n] for (b, st), n in sorted(cross.items())]
        out.append(table(["where", "benchmark", "status", "runs"], rows))
    return out


# ---------------------------------------------------------------- real posts


def _damage(ap: argparse.ArgumentParser, names: str) -> Callable[[str], str]:
    """The damages named (`quote,wrap`), applied in that order."""
    steps = [n.strip() for n in names.split(",") if n.strip()]
    for n in steps:
        if n not in TRANSFORMS:
            ap.error(f"unknown damage {n!r} (one of {', '.join(TRANSFORMS)})")

    def damaged(text: str) -> str:
        for n in steps:
            text = TRANSFORMS[n][0](text)
        return text
    return damaged


def real_main(ap: argparse.ArgumentParser, args: argparse.Namespace, argv: Sequence[str] | None) -> int:
    """`--real`: the figures of SCORING on the real-posts corpus (and, for tuning, the dev misses)."""
    import json

    from bench import real_corpus

    if args.show_misses and args.split != "dev" and not args.i_know:
        ap.error("--show-misses prints posts' facts: only on --split dev (the test half is not for tuning; "
                 "--i-know overrides)")
    root = args.real_root or real_corpus.REAL
    damage = _damage(ap, args.damage) if args.damage else None
    t0 = time.perf_counter()
    data = real_corpus.summary(root, args.split, damage)
    data["damage"] = args.damage
    data["seconds"] = round(time.perf_counter() - t0, 3)
    if args.json:
        print(json.dumps(data, indent=1, sort_keys=True))
        return 0
    print(header("bench.extraction --real: real posts", "bench.extraction", argv))
    print("\n".join(real_corpus.report(data)))
    if args.show_misses:
        print("\n".join(real_corpus.misses(root, args.split, damage)))
    print(f"\ntotal time {time.perf_counter() - t0:.1f} s")
    return 0


# ---------------------------------------------------------------- main


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.extraction", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", type=int, default=20000, metavar="N",
                    help="messages in the synthetic gen_corpus mbox (0: skip; default 20000)")
    ap.add_argument("--fraction", type=float, default=0.05, help="gen_corpus -f (default 0.05)")
    ap.add_argument("--seed", type=int, default=7, help="gen_corpus --seed (default 7)")
    ap.add_argument("--transforms", default=",".join(TRANSFORMS),
                    help=f"comma-separated subset of {','.join(TRANSFORMS)} ('' for none)")
    ap.add_argument("--repeat", type=int, default=3, help="timing repetitions of the fixture extraction")
    ap.add_argument("--details", type=int, default=40, help="wrong-number rows to list")
    ap.add_argument("--keep", type=Path, help="write the corpus here and keep it")
    real = ap.add_argument_group("real posts (tests/fixtures/real; see bench/real_corpus.py)")
    real.add_argument("--real", action="store_true",
                      help="score the real-posts corpus instead of the fixtures and the synthetic corpus")
    real.add_argument("--split", choices=("dev", "test", "all"), default="all", help="which half (default all)")
    real.add_argument("--json", action="store_true", help="machine-readable figures on stdout")
    real.add_argument("--show-misses", action="store_true",
                      help="per post: facts not attributed and rows matched to no fact (dev only)")
    real.add_argument("--i-know", action="store_true", help="allow --show-misses on the test half")
    real.add_argument("--real-root", type=Path, default=None, help="corpus root (default tests/fixtures/real)")
    real.add_argument("--damage", default=None, metavar="NAME[,NAME]",
                      help=f"damage each post's decoded body first, as mail does, in the order given "
                           f"({', '.join(TRANSFORMS)}; wrap: a mailer's re-wrap at 72; quote,wrap: a reply "
                           f"re-wrapped by its mailer)")
    args = ap.parse_args(argv)
    if args.real:
        return real_main(ap, args, argv)
    names = [t.strip() for t in args.transforms.split(",") if t.strip()]
    for t in names:
        if t not in TRANSFORMS:
            ap.error(f"unknown transform {t!r}")
    t0 = time.perf_counter()
    print(header("bench.extraction: parser recall / precision", "bench.extraction", argv))
    cases = load_cases()
    lines, _ = golden_report(cases, args.repeat)
    print("\n".join(lines), flush=True)
    if names:
        lines, _ = transforms_report(cases, names, args.details)
        print("\n".join(lines), flush=True)
    if args.corpus > 0:
        print("\n".join(corpus_report(args.corpus, args.fraction, args.seed, args.keep)), flush=True)
    print(f"\ntotal time {time.perf_counter() - t0:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
