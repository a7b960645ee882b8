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
