"""The records every parser returns: pure data, no I/O.

A parser turns one `Segment` (a run of same-quote-depth lines of one message)
into `Run`s; a run holds `Result`s, one per measured value. The extraction
driver (`transforms.extract`) adds message identity, stable ids and defaults
from the metric registry, so parsers only say what they read.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

EXACT = "exact"
INFERRED = "inferred"

# How a value was read: a tool's own printout, or one of the hand-made layouts of issue posts.
LAYOUTS = ("tool_output", "hand_table", "key_value", "prose", "change_table")


@dataclass(frozen=True, slots=True)
class MetricSpec:
    """What a canonical metric means; the single source for direction and sanity range."""

    unit: str
    higher_is_better: bool
    low: float | None = None  # plausible range, used by the data-quality suite
    high: float | None = None
    nonnegative: bool = True
    units: tuple[str, ...] = ()  # other units the same metric may be reported in

    def allows(self, unit: str, statistic: str = "value") -> bool:
        """Whether a row of this metric may carry `unit` (indexes and scores are unit `index`)."""
        if unit == self.unit or unit in self.units:
            return True
        return unit == "index" and statistic in ("index", "score")


@dataclass(slots=True)
class Result:
    metric: str  # canonical snake_case, stable across posts
    metric_label: str  # exactly as printed
    value: float
    unit: str  # canonical unit (see transforms.units)
    params: dict[str, str] = field(default_factory=dict)
    system: str | None = None  # None: the run's system
    higher_is_better: bool | None = None  # None: taken from the parser's metric registry
    alignment: str = EXACT
    statistic: str = "value"  # value | index | mean | stddev | min | max | derived | score
    line: int | None = None  # index into Segment.lines
    layout: str = "tool_output"  # one of LAYOUTS: users may trust only tool output


@dataclass(slots=True)
class Run:
    benchmark: str
    results: list[Result]
    tool_version: str | None = None
    system: str | None = None
    caption: str | None = None
    line_start: int = 0  # index into Segment.lines (inclusive)
    line_end: int = 0  # exclusive
    attributes: dict[str, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    status: str = "ok"  # ok | unparsed (recognised but not readable: goes to quarantine)
    reason: str | None = None  # why a block is unparsed


@dataclass(frozen=True, slots=True)
class Segment:
    """Contiguous lines of one quote depth, prefix removed, tabs expanded, right-stripped."""

    lines: list[str]
    offset: int = 0  # line number of lines[0] in the decoded body
    depth: int = 0  # quote depth (0 = not quoted)
    before: tuple[str, ...] = ()  # up to a few non-blank lines preceding the segment (any depth)

    @property
    def quoted(self) -> bool:
        return self.depth > 0

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


@dataclass(frozen=True, slots=True)
class Parser:
    """One benchmark's parser, as registered in `transforms.parsers`."""

    name: str
    version: str
    signature: re.Pattern[str]  # cheap scan over decoded text; a hit means "try parse"
    parse: Callable[[Segment], list[Run]]
    metrics: Mapping[str, MetricSpec]
    emits: tuple[str, ...] = ()  # benchmark names other than `name` that its runs may carry
    # Distinctive literals (tool names, phrases the tool prints, units glued to their context), one
    # of which every block the parser reads contains: the prefilter (transforms.prefilter) runs the
    # signature regex (~20 MB/s) only on bodies holding one. Lower-case ones match any case; one
    # with capitals (`TEST from`, `BASELINE`) matches as written. Empty: the signature always runs.
    keywords: tuple[str, ...] = ()
    # One name per quantity: applied to every result of this benchmark, whichever reader (the
    # parser, the hand-made reader) produced it; None when names need no folding.
    canonical: Callable[[Result], None] | None = None

    @property
    def benchmarks(self) -> tuple[str, ...]:
        return (self.name, *self.emits)
