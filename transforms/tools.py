"""The benchmark tools by the names posters type, and the benchmark each name stands for.

One table for every reader that looks for a tool's name: captions, lead-ins, evidence and
prose. Each reader takes the names it needs (`dd` alone is an everyday word to most of them,
`stream` to prose), so the spellings are written once.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

TOOLS: dict[str, str] = {
    "netperf": "netperf", "iperf": "iperf", "iperf3": "iperf", "fio": "fio", "dbench": "dbench",
    "tbench": "tbench", "bonnie": "bonnie", "bonnie++": "bonnie", "lmbench": "lmbench", "lmbench3": "lmbench",
    "unixbench": "unixbench", "hackbench": "hackbench", "kernbench": "kernbench", "sysbench": "sysbench",
    "stream": "stream", "dd": "dd", "hdparm": "hdparm",
}  # fmt: skip


def names_pattern(without: Iterable[str] = ()) -> str:
    """A regex alternation of the tool names but `without` (`bonnie++` tried before `bonnie`)."""
    skip = set(without)
    unknown = skip - set(TOOLS)
    if unknown:
        raise ValueError(f"not tool names: {sorted(unknown)}")
    names = sorted((n for n in TOOLS if n not in skip), key=lambda n: (-len(n), n))
    return "(?:" + "|".join(re.escape(n) for n in names) + ")"
