"""The parser registry: one line per benchmark parser.

A new parser is one module under this package exposing `PARSER` (a
`transforms.model.Parser`) plus one line below.
"""

from __future__ import annotations

from transforms.model import Parser

from . import (
    bonnie,
    dbench,
    ddhdparm,
    fio,
    hackbench,
    iperf,
    kernbench,
    lmbench,
    netperf,
    stream,
    sysbench,
    unixbench,
)

PARSERS: dict[str, Parser] = {
    p.name: p
    for p in (
        unixbench.PARSER,
        lmbench.PARSER,
        netperf.PARSER,
        bonnie.PARSER,
        iperf.PARSER,
        fio.PARSER,
        dbench.PARSER,
        kernbench.PARSER,
        hackbench.PARSER,
        sysbench.PARSER,
        stream.PARSER,
        ddhdparm.PARSER,
    )
}


def known_benchmarks() -> frozenset[str]:
    """Every benchmark name a run may carry (validation rejects others)."""
    return frozenset(b for p in PARSERS.values() for b in p.benchmarks)


def owner(benchmark: str) -> Parser | None:
    """The parser whose runs carry `benchmark`: its registry names that benchmark's metrics."""
    return next((p for p in PARSERS.values() if benchmark in p.benchmarks), None)


def metric_spec(benchmark: str, metric: str):
    """The registry entry for (benchmark, metric), or None when the metric is unknown."""
    for p in PARSERS.values():
        if benchmark in p.benchmarks and metric in p.metrics:
            return p.metrics[metric]
    return None
