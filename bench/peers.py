"""Peers' fixtures: how many of the values other harnesses' own parsers expect `extract` reads.

Command (from the repo root):

    .venv/bin/python -m bench.peers                  # found / expected per benchmark and per peer
    .venv/bin/python -m bench.peers --show-misses    # and every expected value not read, with why

Corpus: the golden fixtures (tests/fixtures/parsers/<benchmark>/<case>.txt) that carry a
`<case>.peer.jsonl` beside them: the values the peer's own parser expects from that same output,
transcribed from the peer's test files (lkp-tests `spec/fixtures/stats/*.yaml`, `spec/stats/*.yaml`,
PerfKitBenchmarker `tests/*_test.py`, VirtualClient `*.UnitTests`), one object a line:

    {"peer": "lkp-tests", "key": "tcp.sender.bps", "value": 2348790246.45, "unit": "bit/s",
     "printed": true, "metric": "throughput"}

`printed` is false for a value the peer computes and no tool prints (a mean or sum over
instances or documents, a 0 filler for a protocol that was not run): such values are listed
apart, never counted. An expected value is *found* when a row extracted from the fixture
carries it: the same number, or the same quantity in another unit within 0.5%
(`bench.real_corpus.value_match`: bit/s vs Mbit/s, ns vs us, MB/s vs KiB/s), in the metric
`metric` names (our name for the peer's quantity; any metric when absent). A value the peer
reports that our rows keep as a parameter (`"param": "clients"`: dbench's `128 clients`) is
found when a row carries that parameter with that number. Whether the row also has the right
params is the golden files' job (tests/transforms/parsers/test_fixtures.py).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench._common import header, table
from bench.golden import FIXTURES, fixture_body
from bench.real_corpus import value_match
from transforms.extract import extract_runs
from transforms.rows import result_rows


@dataclass(frozen=True, slots=True)
class Expected:
    case: str  # <benchmark>/<case>
    benchmark: str
    peer: str
    key: str
    value: float
    unit: str | None
    printed: bool
    metric: str | None = None  # our metric for the peer's quantity (None: any)
    param: str | None = None  # the value is a run parameter our rows keep in `params` under this key


def peer_cases(root: Path = FIXTURES) -> list[Path]:
    """Golden fixtures with a peer's expected values beside them."""
    return sorted(p.with_name(p.name.removesuffix(".peer.jsonl") + ".txt") for p in root.glob("*/*.peer.jsonl"))


def expected_of(path: Path) -> list[Expected]:
    case = f"{path.parent.name}/{path.stem}"
    out = []
    for line in path.with_suffix(".peer.jsonl").read_text(encoding="utf-8").splitlines():
        if line.strip():
            d = json.loads(line)
            out.append(Expected(case, path.parent.name, d["peer"], d["key"], float(d["value"]),
                                d.get("unit"), bool(d.get("printed", True)), d.get("metric"),
                                d.get("param")))
    return out


def all_rows(body: str) -> list[dict[str, Any]]:
    """Every row `extract` gives for the text (all layouts and statistics)."""
    return result_rows(extract_runs(body, "peer-fixture"))


def found(e: Expected, rows: Sequence[dict[str, Any]]) -> bool:
    rows = [r for r in rows if e.metric is None or r["metric"] == e.metric]
    if e.param is not None:
        return any(_number(r.get("params", {}).get(e.param)) == e.value for r in rows)
    return any(value_match(e.value, e.unit, float(r["value"]), r.get("unit")) for r in rows)


def _number(text: str | None) -> float | None:
    try:
        return float(text) if text is not None else None
    except ValueError:
        return None


@dataclass(slots=True)
class Tally:
    files: set[str]
    expected: int = 0
    found: int = 0
    computed: int = 0  # values the peer computes (not printed): listed, not counted

    def row(self, name: str) -> list[Any]:
        share = f"{self.found / self.expected:.3f}" if self.expected else "-"
        return [name, len(self.files), self.expected, self.found, share, self.computed]


def measure(root: Path = FIXTURES) -> tuple[dict[str, Tally], dict[str, Tally], list[Expected]]:
    """(per benchmark, per peer, the printed values not found)."""
    by_bench: dict[str, Tally] = defaultdict(lambda: Tally(set()))
    by_peer: dict[str, Tally] = defaultdict(lambda: Tally(set()))
    misses: list[Expected] = []
    for path in peer_cases(root):
        rows = all_rows(fixture_body(path))
        for e in expected_of(path):
            for t in (by_bench[e.benchmark], by_peer[e.peer]):
                t.files.add(e.case)
                if not e.printed:
                    t.computed += 1
                    continue
                t.expected += 1
            if not e.printed:
                continue
            if found(e, rows):
                by_bench[e.benchmark].found += 1
                by_peer[e.peer].found += 1
            else:
                misses.append(e)
    return dict(by_bench), dict(by_peer), misses


def _total(tallies: dict[str, Tally]) -> Tally:
    t = Tally(set())
    for x in tallies.values():
        t.files |= x.files
        t.expected += x.expected
        t.found += x.found
        t.computed += x.computed
    return t


_COLS = ["", "fixtures", "expected", "found", "found/expected", "computed by the peer (not counted)"]


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.peers", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--show-misses", action="store_true", help="list every expected value not read")
    ap.add_argument("--json", action="store_true", help="machine-readable figures on stdout")
    args = ap.parse_args(argv)
    by_bench, by_peer, misses = measure()
    if args.json:
        out = {k: {"fixtures": len(t.files), "expected": t.expected, "found": t.found, "computed": t.computed}
               for k, t in {**{f"benchmark:{b}": t for b, t in by_bench.items()},
                            **{f"peer:{p}": t for p, t in by_peer.items()}}.items()}
        json.dump(out, sys.stdout, indent=1, sort_keys=True)
        print()
        return 0
    print(header("bench.peers: values the peers' own parsers expect, read by extract", "bench.peers", argv))
    total = _total(by_bench)
    print("per benchmark:")
    print(table(_COLS, [by_bench[b].row(b) for b in sorted(by_bench)] + [total.row("TOTAL")]))
    print("per peer:")
    print(table(_COLS, [by_peer[p].row(p) for p in sorted(by_peer)] + [_total(by_peer).row("TOTAL")]))
    if args.show_misses:
        print(f"not read ({len(misses)}):")
        for e in misses:
            print(f"  {e.case}  {e.peer}  {e.key} = {e.value:g} {e.unit or ''} (as {e.metric or 'any metric'})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
