"""Scoring extraction on real posts (tests/fixtures/real): what users meet, not what generators make.

Each post `<split>/<slug>.txt` (a `Source:` line, then the message) is read exactly as
`listbench extract` reads a file, and its rows are matched one-to-one against the hand-checked
facts in `<slug>.facts.jsonl`. Negative posts (`negative/*.txt`) must give no rows.

Matching (per post, greedy, best pairs first):
  value      equal (relative 1e-6), or within 0.5% after converting between two known scalable
             units (bytes/s with decimal or binary prefixes, bits/s, ns/us/ms/s)
  benchmark  equal (`bonnie++` is bonnie; dbench and tbench differ)
  system     a fact without system matches any row; else the normalised labels (lower case,
             only [a-z0-9.]) are equal, or one contains the other and the shorter has >= 3 chars
  metric     the normalised fact metric equals, contains or is contained in the row's normalised
             `metric_label` or `metric` (shorter >= 2 chars), or their word sets share half or more,
             or the registry maps the fact's label to the row's metric (`Bitrate` -> `throughput`)
A fact is *attributed* when its one-to-one row matches benchmark, system, metric and value;
*value-found* when any row of the post carries its value. A row is *correct* when it is paired
with a fact. A row that repeats a correct row (same benchmark, system, metric, value: a quoted
copy of a block, a summary re-stating a table) is counted apart as a repeat, not against precision;
so is a row with statistic `stddev` (a spread the reader labels as such is never a fact), and a row
with statistic `min` or `max` paired with no fact (a report's bounds of its runs; the corpus records
them only where a post gives them as its results).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench._common import ROOT, ratio, table

REAL = ROOT / "tests" / "fixtures" / "real"
SPLITS = ("dev", "test")
LAYOUTS = ("tool_output", "hand_table", "key_value", "prose", "change_table")
BENCHMARKS = frozenset({"unixbench", "lmbench", "netperf", "bonnie", "iperf", "fio", "dbench", "tbench",
                        "kernbench", "hackbench", "sysbench", "stream", "dd", "hdparm"})
FACT_KEYS = ("benchmark", "system", "metric", "params", "value", "unit", "layout")
DEFAULT_LAYOUT = "tool_output"

# ---------------------------------------------------------------- units

_K, _M, _G = 1e3, 1e6, 1e9
_KI, _MI, _GI = 1024.0, 1024.0**2, 1024.0**3
# unit -> (family, possible factors to the family's base unit); KB/MB/GB are written for both
# decimal and binary multiples in the wild, so either reading may match
_SCALES: dict[str, tuple[str, tuple[float, ...]]] = {
    "b/s": ("rate", (1.0,)),
    "kb/s": ("rate", (_K, _KI)), "k/sec": ("rate", (_K, _KI)), "kbps": ("rate", (_K, _KI)),
    "kib/s": ("rate", (_KI,)),
    "mb/s": ("rate", (_M, _MI)), "m/sec": ("rate", (_M, _MI)), "mib/s": ("rate", (_MI,)),
    "gb/s": ("rate", (_G, _GI)), "g/sec": ("rate", (_G, _GI)), "gib/s": ("rate", (_GI,)),
    "bit/s": ("rate", (1 / 8,)), "kbit/s": ("rate", (_K / 8,)), "mbit/s": ("rate", (_M / 8,)),
    "gbit/s": ("rate", (_G / 8,)),
    "ns": ("time", (1e-9,)), "us": ("time", (1e-6,)), "ms": ("time", (1e-3,)), "s": ("time", (1.0,)),
    "iops": ("ops", (1.0,)), "kiops": ("ops", (_K,)), "miops": ("ops", (_M,)),
    "trans/s": ("trans", (1.0,)), "ops/s": ("ops/s", (1.0,)), "events/s": ("events", (1.0,)),
    "pps": ("packets", (1.0,)), "kpps": ("packets", (_K,)), "mpps": ("packets", (_M,)),
}  # fmt: skip
# `56.01K transactions/sec`, `1.2M pps`: a count's thousands or millions, the scale before its unit
_COUNT_SCALE = re.compile(r"^(?P<scale>[kKM])[ ]?(?P<unit>trans(?:actions)?/s(?:ec)?|tps|ops/s(?:ec)?|events/s(?:ec)?|pps)$")
_UNIT_ALIASES = {
    "bytes/s": "b/s", "bytes/sec": "b/s", "kb/sec": "kb/s", "kbytes/s": "kb/s", "kbytes/sec": "kb/s",
    "mb/sec": "mb/s", "mbytes/s": "mb/s", "mbytes/sec": "mb/s", "mbps_bytes": "mb/s", "gb/sec": "gb/s",
    "kib/sec": "kib/s", "mib/sec": "mib/s", "gib/sec": "gib/s", "mbps": "mbit/s", "mb/s_bits": "mbit/s",
    "kbit/sec": "kbit/s", "kbits/s": "kbit/s", "kbits/sec": "kbit/s", "mbit/sec": "mbit/s",
    "mbits/s": "mbit/s", "mbits/sec": "mbit/s", "gbps": "gbit/s", "gbit/sec": "gbit/s",
    "gbits/s": "gbit/s", "gbits/sec": "gbit/s", "bits/s": "bit/s", "bits/sec": "bit/s",
    "usec": "us", "usecs": "us", "µs": "us", "μs": "us", "microseconds": "us", "nsec": "ns",
    "nsecs": "ns", "msec": "ms", "msecs": "ms", "sec": "s", "secs": "s", "seconds": "s",
    "k iops": "kiops", "k-iops": "kiops", "m iops": "miops",
    "transactions/s": "trans/s", "transactions/sec": "trans/s", "trans/sec": "trans/s", "tps": "trans/s",
    "ops/sec": "ops/s", "events/sec": "events/s", "kpps": "kpps", "mpps": "mpps",
}  # fmt: skip


def unit_scale(unit: str | None) -> tuple[str, tuple[float, ...]] | None:
    """(family, factors) of a scalable unit, None for units that do not convert (%, IOPS, index...)."""
    if not unit:
        return None
    u = unit.strip()
    if u in ("Mb/s", "Mbps", "Mb/sec"):
        return _SCALES["mbit/s"]
    if u in ("Gb/s", "Gbps", "Gb/sec"):
        return _SCALES["gbit/s"]
    if u in ("Kb/s", "Kbps", "Kb/sec"):
        return _SCALES["kbit/s"]
    if (m := _COUNT_SCALE.match(u)) is not None:
        base = unit_scale(m["unit"])
        return (base[0], tuple(f * (_M if m["scale"] == "M" else _K) for f in base[1])) if base else None
    low = u.lower()
    return _SCALES.get(_UNIT_ALIASES.get(low, low))


def value_match(fact_value: float, fact_unit: str | None, row_value: float, row_unit: str | None) -> int:
    """2: the same number; 1: the same quantity in another unit (within 0.5%); 0: no match."""
    if _close(fact_value, row_value, 1e-6):
        return 2
    fs, rs = unit_scale(fact_unit), unit_scale(row_unit)
    if fs is None or rs is None or fs[0] != rs[0]:
        return 0
    for ff in fs[1]:
        for rf in rs[1]:
            if _close(fact_value * ff, row_value * rf, 5e-3):
                return 1
    return 0


def _close(a: float, b: float, rel: float) -> bool:
    if a == b:
        return True
    return abs(a - b) <= rel * max(abs(a), abs(b))


# ---------------------------------------------------------------- labels

_NORM = re.compile(r"[^a-z0-9.]+")
_WORD = re.compile(r"[a-z0-9.]+")


def norm(text: str | None) -> str:
    return _NORM.sub("", (text or "").lower())


def _contains(a: str, b: str, shortest: int) -> bool:
    if not a or not b:
        return False
    if a == b:
        return True
    short, long_ = (a, b) if len(a) <= len(b) else (b, a)
    return len(short) >= shortest and short in long_


def benchmark_match(fact: str, row: str) -> bool:
    canon = {"bonnie++": "bonnie"}
    return canon.get(fact.lower(), fact.lower()) == canon.get(row.lower(), row.lower())


def system_match(fact: str | None, row: str | None) -> bool:
    if fact is None:
        return True
    return _contains(norm(fact), norm(row), 3)


def _words(text: str | None) -> set[str]:
    return set(_WORD.findall((text or "").lower().replace("_", " ")))


def metric_match(fact: str | None, metric_label: str | None, metric: str | None,
                 benchmark: str | None = None) -> bool:
    """Also equal when the fact's label is a synonym the registry maps to the row's metric
    (iperf3's `Bitrate` is iperf's `throughput`)."""
    if benchmark and fact and metric:
        from transforms.handmade.metrics import canonical

        if canonical(benchmark, fact) == metric:
            return True
        if _tool_named(fact, benchmark) and _headline(benchmark, metric):
            return True  # a fact labelled only with the tool's name (`tbench`) is its headline figure
    f = norm(fact)
    for cand in (metric_label, metric):
        if _contains(f, norm(cand), 2):
            return True
        fw, cw = _words(fact), _words(cand)
        if fw and cw and 2 * len(fw & cw) >= max(len(fw), len(cw)):
            return True
    return False


_RESULT_WORDS = frozenset({"result", "results", "score", "scores", "performance", "numbers"})


def _tool_named(fact: str, benchmark: str) -> bool:
    """A fact's metric that is the tool's name alone, or with a word for its result (`tbench results`)."""
    words = fact.lower().split()
    return bool(words) and norm(words[0]) == norm(benchmark) and all(w in _RESULT_WORDS for w in words[1:])


def _headline(benchmark: str, metric: str) -> bool:
    """The tool's headline figure, normalized or not, or a change of it (`transaction_rate_change_pct`
    of a netperf TCP_RR row under `compare%`): what a fact labelled only with the tool's name means. The
    headline a unit tells apart (netperf's transaction rate, fio's IOPS) counts; a latency beside it does not."""
    from transforms.handmade.metrics import BY_UNIT, DEFAULT_METRIC

    base = metric.removesuffix("_change_pct").removesuffix("_ratio").removeprefix("normalized_")
    if base == DEFAULT_METRIC.get(benchmark):
        return True
    return base in BY_UNIT.get(benchmark, {}).values() and "latency" not in base and "time" not in base


def _params_overlap(fact: dict[str, Any], row: dict[str, Any]) -> int:
    fp = {norm(str(v)) for v in (fact.get("params") or {}).values()}
    rp = {norm(str(v)) for k, v in (row.get("params") or {}).items() if k != "repeat"}
    return len(fp & rp)


# ---------------------------------------------------------------- one post


@dataclass
class PostScore:
    """The matching of one post's rows against its facts."""

    slug: str
    facts: list[dict[str, Any]]
    rows: list[dict[str, Any]]
    pair: dict[int, int] = field(default_factory=dict)  # fact index -> row index
    attributed: set[int] = field(default_factory=set)  # fact indexes
    value_found: set[int] = field(default_factory=set)
    repeats: set[int] = field(default_factory=set)  # row indexes repeating a correct row
    spreads: set[int] = field(default_factory=set)  # row indexes of stddevs, and of unpaired min/max
    why: dict[int, tuple[str, ...]] = field(default_factory=dict)  # paired, not attributed: what differs

    @property
    def correct_rows(self) -> set[int]:
        return set(self.pair.values())


def _row_layout(row: dict[str, Any]) -> str:
    return row.get("layout") or DEFAULT_LAYOUT


_ROW_SCALE = {"k": _K, "M": _M, "G": _G}


def score_post(slug: str, facts: list[dict[str, Any]], rows: list[dict[str, Any]]) -> PostScore:
    """Pair facts and rows one-to-one, fully attributed pairs first (see module doc)."""
    ps = PostScore(slug, facts, rows)
    ps.spreads = {j for j, r in enumerate(rows) if r.get("statistic") == "stddev"}
    cands: list[tuple[tuple, int, int]] = []
    for i, f in enumerate(facts):
        for j, r in enumerate(rows):
            if j in ps.spreads:
                continue
            v = value_match(float(f["value"]), f.get("unit"), float(r["value"]), r.get("unit"))
            scale = _ROW_SCALE.get((r.get("params") or {}).get("scale", ""))
            if not v and scale:  # `84k` kept as printed: 84 at scale k, which is 84000
                v = value_match(float(f["value"]), f.get("unit"), float(r["value"]) * scale, r.get("unit") or f.get("unit"))
            if not v:
                continue
            ps.value_found.add(i)
            b = benchmark_match(f["benchmark"], r["benchmark"])
            s = system_match(f.get("system"), r.get("system"))
            m = metric_match(f.get("metric"), r.get("metric_label"), r.get("metric"), r["benchmark"])
            full = b and s and m
            rank = (full, b, m, s, v, _params_overlap(f, r), -abs(i - j))
            cands.append((rank, i, j))
    cands.sort(key=lambda c: c[0], reverse=True)
    used: set[int] = set()
    for rank, i, j in cands:
        if i in ps.pair or j in used:
            continue
        ps.pair[i] = j
        used.add(j)
        if rank[0]:
            ps.attributed.add(i)
        else:
            ps.why[i] = _differs(facts, rows[j], rank)
    # a bound of the runs (`Min`, `Max` rows of a report) is a spread unless it is a fact's value
    ps.spreads |= {j for j, r in enumerate(rows) if j not in used and r.get("statistic") in ("min", "max")}
    seen = {_repeat_key(rows[j]) for j in used}
    ps.repeats = {j for j, r in enumerate(rows) if j not in used and j not in ps.spreads and _repeat_key(r) in seen}
    return ps


def _differs(facts: list[dict[str, Any]], row: dict[str, Any], rank: tuple) -> tuple[str, ...]:
    """What keeps a value-matched pair from being attributed (a fact's own benchmark, system, metric).

    A wrong system is told apart by whether the post gives it as a system elsewhere (columns or
    sections mixed up) or never does (a device, host or caption taken for the system).
    """
    _, b, m, s = rank[:4]
    out = [] if b else ["benchmark"]
    if not s:
        if not row.get("system"):
            out.append("no system")
        elif any(f.get("system") and system_match(f["system"], row["system"]) for f in facts):
            out.append("other system")
        else:
            out.append("system not in the post")
    return (*out, *([] if m else ["metric"]))


def _repeat_key(row: dict[str, Any]) -> tuple:
    return (row["benchmark"], norm(row.get("system")), row.get("metric"), float(row["value"]))


# ---------------------------------------------------------------- tallies


@dataclass
class Tally:
    facts: int = 0
    attributed: int = 0
    value_found: int = 0
    rows: int = 0
    correct: int = 0
    repeats: int = 0
    spreads: int = 0

    def add(self, other: Tally) -> None:
        for k in ("facts", "attributed", "value_found", "rows", "correct", "repeats", "spreads"):
            setattr(self, k, getattr(self, k) + getattr(other, k))

    @property
    def attributed_recall(self) -> float | None:
        return ratio(self.attributed, self.facts)

    @property
    def value_recall(self) -> float | None:
        return ratio(self.value_found, self.facts)

    @property
    def precision(self) -> float | None:
        return ratio(self.correct, self.rows - self.repeats - self.spreads)

    def as_dict(self) -> dict[str, Any]:
        return {"facts": self.facts, "attributed": self.attributed, "value_found": self.value_found,
                "rows": self.rows, "correct": self.correct, "repeats": self.repeats, "spreads": self.spreads,
                "attributed_recall": self.attributed_recall, "value_recall": self.value_recall,
                "precision": self.precision}


@dataclass
class SplitScore:
    posts: list[PostScore] = field(default_factory=list)

    def tally(self, facts_of: Any = None, rows_of: Any = None) -> Tally:
        """Totals, optionally over the facts/rows a predicate accepts (per benchmark, per layout)."""
        t = Tally()
        for ps in self.posts:
            correct = ps.correct_rows
            for i, f in enumerate(ps.facts):
                if facts_of is None or facts_of(f):
                    t.facts += 1
                    t.attributed += i in ps.attributed
                    t.value_found += i in ps.value_found
            for j, r in enumerate(ps.rows):
                if rows_of is None or rows_of(r):
                    t.rows += 1
                    t.correct += j in correct
                    t.repeats += j in ps.repeats
                    t.spreads += j in ps.spreads
        return t

    def per_benchmark(self) -> dict[str, Tally]:
        names = sorted({f["benchmark"] for ps in self.posts for f in ps.facts}
                       | {r["benchmark"] for ps in self.posts for r in ps.rows})
        return {b: self.tally(lambda f, b=b: benchmark_match(f["benchmark"], b),
                              lambda r, b=b: r["benchmark"] == b) for b in names}

    def per_layout(self) -> dict[str, Tally]:
        names = [x for x in LAYOUTS if any(f.get("layout") == x for ps in self.posts for f in ps.facts)
                 or any(_row_layout(r) == x for ps in self.posts for r in ps.rows)]
        return {x: self.tally(lambda f, x=x: f.get("layout") == x, lambda r, x=x: _row_layout(r) == x)
                for x in names}

    def why(self) -> dict[str, int]:
        """Facts whose value was found but not attributed, by what differs in the paired row."""
        out: dict[str, int] = {}
        for ps in self.posts:
            for reasons in ps.why.values():
                for r in reasons:
                    out[r] = out.get(r, 0) + 1
        return dict(sorted(out.items()))

    def zero_row_posts(self) -> list[str]:
        return [ps.slug for ps in self.posts if not ps.rows]


# ---------------------------------------------------------------- corpus files


@dataclass(frozen=True)
class Post:
    split: str
    slug: str
    path: Path

    @property
    def facts_path(self) -> Path:
        return self.path.with_name(self.slug + ".facts.jsonl")


def posts(root: Path = REAL, split: str = "all") -> list[Post]:
    """The corpus posts of a split (`dev`, `test`, `negative`, or `all` = dev + test), by slug."""
    names = SPLITS if split == "all" else (split,)
    out: list[Post] = []
    for s in names:
        d = root / s
        if d.is_dir():
            out += [Post(s, p.stem, p) for p in sorted(d.glob("*.txt"))]
    return out


def read_facts(path: Path) -> list[dict[str, Any]]:
    facts = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            facts.append(json.loads(line))
    return facts


Damage = Callable[[str], str]


def post_rows(path: Path, damage: Damage | None = None) -> list[dict[str, Any]]:
    """Rows of one post file, read the way `listbench extract <file>` reads it; with `damage`, each
    message's decoded body is first damaged the way mail damages text (re-wrapped, quoted, ...)."""
    from flows.extract_cmd import extract_rows, file_mails, mail_rows

    if damage is None:
        return extract_rows(str(path))
    return [row for mail in file_mails(str(path), []) for row in mail_rows(mail, damage(mail.body))[0]]


def score_split(root: Path, split: str, damage: Damage | None = None) -> SplitScore:
    sc = SplitScore()
    for post in posts(root, split):
        if not post.facts_path.exists():
            continue  # a post still being collected
        sc.posts.append(score_post(post.slug, read_facts(post.facts_path), post_rows(post.path, damage)))
    return sc


def negative_rows(root: Path) -> dict[str, int]:
    return {p.slug: len(post_rows(p.path)) for p in posts(root, "negative")}


# ---------------------------------------------------------------- reports


def _tally_cells(label: str, t: Tally) -> list[Any]:
    return [label, t.facts, t.attributed, t.attributed_recall, t.value_found, t.value_recall, t.rows,
            t.correct, t.repeats, t.spreads, t.precision]


_COLS = ["", "facts", "attributed", "attr recall", "value found", "value recall", "rows", "correct",
         "repeats", "stddev", "precision"]


def summary(root: Path, split: str, damage: Damage | None = None) -> dict[str, Any]:
    """Every figure of the real-corpus score, as plain data (the --json output)."""
    out: dict[str, Any] = {"root": str(root), "splits": {}}
    for s in (SPLITS if split == "all" else (split,)):
        sc = score_split(root, s, damage)
        out["splits"][s] = {
            "posts": len(sc.posts),
            "total": sc.tally().as_dict(),
            "per_benchmark": {b: t.as_dict() for b, t in sc.per_benchmark().items()},
            "per_layout": {x: t.as_dict() for x, t in sc.per_layout().items()},
            "zero_row_posts": sc.zero_row_posts(),
            "unattributed_because": sc.why(),
        }
    neg = negative_rows(root)
    out["negative"] = {"posts": len(neg), "rows": sum(neg.values()),
                       "posts_with_rows": {k: v for k, v in neg.items() if v}}
    return out


def report(data: dict[str, Any]) -> list[str]:
    damaged = f"; each body damaged first: {data['damage']}" if data.get("damage") else ""
    out = ["", f"-- real posts ({data['root']}{damaged}) --",
           "attributed: the paired row has the fact's benchmark, system, metric and value; value found: some row",
           "has its value; precision: correct rows / (rows - repeats of a correct row - stddev rows - unpaired min/max rows)"]
    for s, d in data["splits"].items():
        t = d["total"]
        out += ["", f"split {s}: {d['posts']} posts, {t['facts']} facts, {t['rows']} rows; "
                    f"attributed recall {_f(t['attributed_recall'])}, value recall {_f(t['value_recall'])}, "
                    f"precision {_f(t['precision'])}; posts with zero rows {len(d['zero_row_posts'])}"]
        for title, per in (("benchmark", d["per_benchmark"]), ("layout (facts by their layout, rows by theirs)",
                                                               d["per_layout"])):
            rows = [_tally_cells(k, _tally(v)) for k, v in per.items()] + [_tally_cells("TOTAL", _tally(t))]
            out += [f"  per {title}:", table([title.split()[0], *_COLS[1:]], rows, indent="    ")]
        if d.get("unattributed_because"):
            out.append("  value paired but not attributed, by what differs: " + ", ".join(
                f"{k} {v}" for k, v in d["unattributed_because"].items()))
        if d["zero_row_posts"]:
            out.append("  posts with zero rows: " + ", ".join(d["zero_row_posts"]))
    n = data["negative"]
    out += ["", f"negative posts: {n['posts']}, rows from them: {n['rows']} (must be 0)"]
    out += [f"  {slug}: {k} rows" for slug, k in n["posts_with_rows"].items()]
    return out


def _tally(d: dict[str, Any]) -> Tally:
    return Tally(d["facts"], d["attributed"], d["value_found"], d["rows"], d["correct"], d["repeats"],
                 d["spreads"])


def _f(x: float | None) -> str:
    return "-" if x is None else f"{x:.3f}"


def _fact_text(f: dict[str, Any]) -> str:
    params = ",".join(f"{k}={v}" for k, v in (f.get("params") or {}).items())
    return (f"{f['benchmark']} | {f.get('system')} | {f.get('metric')} | {params or '-'} | "
            f"{f['value']:g} {f.get('unit') or ''} [{f.get('layout', '?')}]")


def _row_text(r: dict[str, Any]) -> str:
    params = ",".join(f"{k}={v}" for k, v in (r.get("params") or {}).items())
    return (f"{r['benchmark']} | {r.get('system')} | {r.get('metric_label')} ({r.get('metric')}) | "
            f"{params or '-'} | {float(r['value']):g} {r.get('unit') or ''} [{_row_layout(r)}]")


def misses(root: Path, split: str, damage: Damage | None = None) -> list[str]:
    """Per post: facts not attributed (with the row that took their value, if any) and unmatched rows."""
    out: list[str] = []
    for s in (SPLITS if split == "all" else (split,)):
        for ps in score_split(root, s, damage).posts:
            lost = [i for i in range(len(ps.facts)) if i not in ps.attributed]
            extra = [j for j in range(len(ps.rows))
                     if j not in ps.correct_rows and j not in ps.repeats and j not in ps.spreads]
            if not lost and not extra:
                continue
            out += ["", f"== {s}/{ps.slug}: {len(ps.facts)} facts, {len(ps.rows)} rows, "
                        f"{len(ps.attributed)} attributed"]
            for i in lost:
                j = ps.pair.get(i)
                got = f"   <- paired with row: {_row_text(ps.rows[j])}" if j is not None else (
                    "   (value in some row)" if i in ps.value_found else "")
                out.append(f"  MISS  {_fact_text(ps.facts[i])}{got}")
            for j in extra:
                out.append(f"  EXTRA {_row_text(ps.rows[j])}")
    return out
