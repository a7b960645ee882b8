"""netperf 2.x parser: classic reports, omni output (machine and human), `-P 0` lines and hand-made tables.

What it reads (see research/extraction/netperf.md for the variants), a module each:

- `classic`: classic reports (`TCP STREAM TEST from ...` / `MIGRATED ...` banner, column headers,
  one or two data lines): TCP_STREAM-like, UDP_STREAM (send and receive line), RR-like,
  each with or without the `-c/-C` CPU columns. Headers are matched on their whitespace
  tokens, so collapsed spacing and mailer-wrapped header lines read the same.
- `omni`: omni output after a banner: `-k` key=value lines and `-o` CSV (header wrapped or not).
- `human`: omni output for people (`-O` selectors): each column's name stacked over a few lines,
  then the values; read wherever it stands, the command above giving the test and sizes.
- `bare`: `-P 0` data lines, only when a netperf command line with `-P 0` sits right above them
  (the command says which test, `-f` unit and `-c/-C` columns they have).
- `handtable`: hand-made tables posted to lists: a title `TCP STREAM (Throughput 10^6bits/sec)`, a
  header `size <config> <config> ...` and one row per message size.

`context` reads what stands above a block (the banner, the netperf command line, a caption)
and makes its run; `common` holds the metric registry, units and the helpers all of them use.

Stable choices (documented contract of this parser):

- metrics: `throughput` (bulk tests, and RR tests run with `-f`; unit from the `-f` label),
  `transaction_rate` (RR/CRR, trans/s), `cpu_util_local`/`cpu_util_remote` (%CPU),
  `service_demand_local`/`_remote` (us/KB), `service_demand_per_tran_local`/`_remote`
  (us/Tr), `rt_latency` and `latency_{min,max,mean,p50,p90,p99,stddev}` (us, omni),
  `transport_retrans_local`/`_remote` (count, omni).
- params: `test` (TCP_STREAM, TCP_RR, ...), `size` (send message size, or request size
  for RR, bytes), `resp_size` (RR response size), `side` (UDP_STREAM only: send|recv).
- run attributes (not params, so runs with different socket buffers still compare):
  socket sizes, `elapsed_s`, CPU method letters, the unit label, UDP message counts,
  the banner and command line.
- system: the hand-made table column, a `--- label` line between data rows, or the
  `-B` brand of a `-P 0` line; else a caption naming a kernel, patch or VM (`guest:`,
  `2.6.24-rc3:`; see `_common.naming_caption`); otherwise None (the caption goes to `Run.caption`).
"""

from __future__ import annotations

import re

from transforms.model import Parser, Run, Segment

from .bare import _parse_bare
from .classic import _HEADER_START, _parse_classic
from .common import _ASK_VERSION, BENCH, METRICS, _Found, _Versions
from .context import _Banner, _banner_at, _command_at, _State
from .handtable import _table_at
from .human import human_at
from .omni import _after_banner

SIGNATURE = re.compile(
    r"(?i:netperf)"
    r"|\bTEST\s+(?:from|to)\b"
    # blanks within the line only: `\s*` from every line start would rescan each run of blank lines
    r"|^[^\S\n]*+(?:MIGRATED|OMNI)\b"
    r"|^[^\S\n]*+(?i:Recv\s+Send\s+Send\b)"
    r"|^[^\S\n]*+(?i:Socket\s+Message\s+Elapsed\b)"
    r"|^[^\S\n]*+(?i:Local\s*/Remote\b)"
    r"|^[^\S\n]*+(?i:Socket\s+Size\s+Request\b)"
    r"|^[^\S\n]*+(?i:(?:TCP|UDP|SCTP)[ _][\w/ -]+\()",
    re.M,
)


# --------------------------------------------------------------------------- the scan


def parse(seg: Segment) -> list[Run]:
    """Every netperf block of one segment, in line order."""
    norm = [" ".join(line.split()) for line in seg.lines]
    st = _State()
    runs: list[Run] = []
    last_cmd = None  # the command line the stacked omni output further down was printed by
    i = 0
    while i < len(norm):
        got: _Found | None = None
        if not norm[i]:
            i += 1
            continue
        if banner := _banner_at(norm, i):
            st.banner = banner
            got, i = _after_banner(seg, norm, banner, st), banner.end
        elif cmd := _command_at(norm, i):
            st.command, st.banner, last_cmd = cmd, None, cmd
            if not cmd.headers:
                got = _parse_bare(seg, norm, cmd)
            elif cmd.keyval is not None:
                got = _after_banner(
                    seg, norm, _Banner(cmd.test or "OMNI", cmd.text, i, cmd.end), st
                )
            i = cmd.end
        elif human := human_at(seg, norm, i, st.command or last_cmd):
            got = human
        elif table := _table_at(seg, norm, i):
            got = table
        elif _HEADER_START.match(norm[i]):
            got = _parse_classic(seg, norm, i, st)
        else:
            i += 1
        if got is not None:
            runs.extend(got[0])
            st = _State()
            i = max(i, got[1])
    versions = _Versions(seg)
    for run in runs:
        if run.tool_version == _ASK_VERSION:
            run.tool_version = versions(run.line_start)
    return runs


# distinctive literals, one of which every block the parser reads contains (see Parser.keywords)
KEYWORDS = ("netperf", "TEST from", "TEST to", "migrated tcp", "migrated udp", "migrated sctp", "omni ",
            "/remote", "secs.", "10^")


PARSER = Parser(name=BENCH, version="1", signature=SIGNATURE, parse=parse, metrics=METRICS, keywords=KEYWORDS)
