"""lmbench: `make summary` tables (lmbench 1.x, 2.0, 3.0) and raw result lines.

* `summary`: the tables of ``scripts/getsummary`` (one run per Host/OS row), read with
  `columns` (titles, headers, cells), `table` (one table row by row) and `gaps` (values of
  collapsed rows placed in their columns);
* `raw`: raw result lines (lmbench result files, single tools run by hand);
* `metrics`: the metric registry both fill.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from transforms.model import Parser, Result, Run, Segment
from transforms.parsers._common import names_system

from .metrics import METRICS
from .raw import _raw_runs
from .summary import _block_runs, _summary_blocks


def parse(seg: Segment) -> list[Run]:
    """Summary blocks (one run per host row) and raw result lines of one segment."""
    lines = seg.lines
    blocks, unparsed = _summary_blocks(lines)
    runs: list[Run] = []
    for block in blocks:
        block_runs = _block_runs(block)
        _caption_system(lines, block.start if block.version else -1, block_runs)
        runs.extend(block_runs)
    runs.extend(unparsed)
    runs.extend(_raw_runs(lines))
    return runs


_DECORATION = re.compile(r"^[\s*=~#_-]*$")
_CAPTION_REACH = 6  # lines of text above a summary's banner searched for its caption
_FIGURES = re.compile(r"(?<![\w.])\d++(?:\.\d++)?(?![\w.])")


def _caption_system(lines: list[str], banner: int, runs: list[Run]) -> None:
    """A summary under a caption naming what ran (`Lmbench result` / `kernel 2.5.54-mm2` between
    rules of stars): the caption is the system of its one host, and the host and OS lmbench
    printed (`benchtest Linux 2.5.54`, the release cut at 13 characters) become a parameter.
    One rule for every parser (parsers._common.printout_system)."""
    if banner < 0 or not runs or len({r.system for r in runs}) != 1:
        return
    seen = 0
    for k in range(banner - 1, max(-1, banner - 4 * _CAPTION_REACH), -1):
        text = lines[k].strip()
        if _DECORATION.match(text):
            continue
        seen += 1
        if seen > _CAPTION_REACH or len(_FIGURES.findall(text)) >= 2:
            return  # (`8p/16k ctxsw   9.04   15`: a row of the table above, no caption)
        if (name := names_system(text)) is not None:
            if _release_printed(name, runs):
                return
            for run in runs:
                for r in run.results if run.system else ():
                    r.params.setdefault("host", run.system)
                run.system = name
            return


# `Kernel 2.5.62`: a caption that is a release and nothing more
_BARE_RELEASE = re.compile(r"(?i)^(?:(?:linux|kernel)[ \t]++){0,2}+(?:version[ \t]++)?+v?(?P<rel>\d[\w.+-]{0,40}+)$")


def _release_printed(caption: str, runs: list[Run]) -> bool:
    """A caption that is only a release, and tells nothing the banner does not: the release lmbench
    printed for every run (`kernel 2.5.54` over `Linux 2.5.54`) or another one (`Kernel 2.5.62` over
    `Linux 2.5.63`: the printout says what ran, not the caption). Not so when it is the whole of a
    release the banner cut at 13 characters (`kernel 2.5.54-mm2` over `Linux 2.5.54-mm`)."""
    from transforms.leadin import releases

    m = _BARE_RELEASE.match(caption.strip())
    if m is None:
        return False
    printed = [releases(run.system or "") for run in runs]
    return all(len(p) == 1 and not (p[0] != m["rel"] and m["rel"].startswith(p[0])) for p in printed)


_NAMED_CTX = re.compile(r"^ctxsw_(\d{1,3})p_(\d{1,4})k$")


def one_ctxsw_metric(r: Result) -> None:
    """Context switches are one metric, `ctxsw`, with `procs` and `size_kb` params, whatever the
    layout printed (`2p/16K ctxsw` columns, lmbench 1.x `2-proc ctxsw`, lat_ctx series, a hand
    table). The column names stay inside the readers, where gap placement compares columns."""
    if m := _NAMED_CTX.match(r.metric):
        r.metric = "ctxsw"
        r.params = {"procs": m.group(1), "size_kb": m.group(2), **r.params}


# Start of a line, allowing the quote prefixes the driver's whole-body prefilter still sees.
_LINE = r"^(?:[ \t]*[A-Za-z]{0,3}>)*[ \t]*"


def _signature() -> re.Pattern[str]:
    parts: Iterable[str] = (
        r"L\s?M\s?B\s?E\s?N\s?C\s?H",
        _LINE
        + r"(?:Processor, Processes -|Context switching -|\*Local\* Communication|\*Remote\* Communication"
        r"|File & VM system latencies|Memory latencies in nano|Basic (?:system parameters|integer|int64|uint64"
        r"|float|double))",
        _LINE
        + r"(?:Simple (?:syscall|read|write|stat|fstat|open/close)|Select on \d+ (?:tcp )?fd's"
        r"|Signal handler (?:installation|overhead)|Protection fault|Pipe (?:latency|bandwidth)"
        r"|AF_UNIX sock stream|Process fork\+(?:exit|execve|/bin/sh -c)|Pagefaults on|(?:UDP|TCP|RPC/udp|RPC/tcp) latency using"
        r"|TCP/IP connection cost to|(?:integer|int64|uint64|float|double) (?:bit|add|mul|div|mod|bogomflops)):",
        _LINE
        + r'"(?:size=\d|stride=\d|mappings|read bandwidth|Mmap read|libc bcopy|unrolled|File system latency)',
        _LINE
        + r'"?(?:Memory (?:partial )?(?:read|write|read/write|bzero) bandwidth|Socket bandwidth using)\s*$',
        r"\bbw_mem\b",
        _LINE + r"\[lmbench\d",
    )
    return re.compile("|".join(f"(?:{p})" for p in parts), re.M)


# distinctive literals, one of which every block the parser reads contains (see Parser.keywords)
KEYWORDS = (
    *dict.fromkeys("".join(c + " " * (s >> i & 1) for i, c in enumerate("lmbench")).strip() for s in range(64)),
    "processor, processes -", "context switching -", "*local* communication", "*remote* communication",
    "file & vm system", "memory latencies in nano", "basic system parameters", "basic integer", "basic int64",
    "basic uint64", "basic float", "basic double", "simple syscall:", "simple read:", "simple write:",
    "simple stat:", "simple fstat:", "simple open/close:", "fd's:", "signal handler installation:",
    "signal handler overhead:", "protection fault:", "pipe latency:", "pipe bandwidth:", "af_unix sock stream",
    "process fork+", "pagefaults on", "udp latency using", "tcp latency using", "connection cost to",
    *(f"{t} {o}:" for t in ("integer", "int64", "uint64", "float", "double")
      for o in ("bit", "add", "mul", "div", "mod", "bogomflops")),
    '"size=', '"stride=', '"mappings', '"read bandwidth', '"mmap read', '"libc bcopy', '"unrolled',
    '"file system latency', "memory read bandwidth", "memory write bandwidth", "memory read/write bandwidth",
    "memory bzero bandwidth", "memory partial ", "socket bandwidth using", "bw_mem", "[lmbench",
)


PARSER = Parser(name="lmbench", version="2", signature=_signature(), parse=parse, metrics=METRICS, keywords=KEYWORDS,
                canonical=one_ctxsw_metric)
