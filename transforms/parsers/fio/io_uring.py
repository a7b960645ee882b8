"""fio's `t/io_uring` peak-IOPS tool: a line per second, then `Maximum IOPS=` after Ctrl-C.

    # taskset -c 0 t/io_uring -b512 -d128 -c32 -s32 -p0 -F1 -B1 -P0 -O0 -u1 -n1 /dev/ng0n1
    submitter=0, tid=13207, file=/dev/ng0n1, node=-1
    polled=0, fixedbufs=1/0, register_files=1, buffered=1, QD=128
    Engine=io_uring, sq_ring=128, cq_ring=128
    IOPS=3.05M, BW=1488MiB/s, IOS/call=32/31
    IOPS=3.04M, BW=1483MiB/s, IOS/call=32/31
    ^CExiting on signal
    Maximum IOPS=3.05M

Block and NVMe developers post it more than any other fio output (peak IOPS of a patch series).
Each `IOPS=` line gives `iops` and, when printed, `bandwidth` (KiB/s), with its place in the
series as `sample`; the `Maximum IOPS=` line gives `iops` with statistic `max`. Older builds print
`IOPS=5806400, IOS/call=32/32, inflight=(77 32)` (no bandwidth). The command line above the
banner gives the block size, queue depth, batch sizes and the devices; a caption above that names
the system (one rule for every parser, `printout_system`), else the device stands in.
"""

from __future__ import annotations

import re
from decimal import Decimal

from transforms.model import Result, Run, Segment
from transforms.parsers._common import caption_system, naming_caption, printout_system, scaled

from .text import BW3 as _BW  # KiB/s per unit fio 3 prints, `MiB` and `MB` alike
from .text import SUFFIX  # fio's num2str suffixes (`3.05M`)

NAME = "fio"

_NUM = r"\d{1,12}+(?:\.\d{1,6}+)?+"
# `IOPS=3.05M, BW=1488MiB/s, IOS/call=32/31`: IOPS first on its line, then BW or IOS/call
LINE = re.compile(
    rf"^[ \t]*+IOPS=(?P<iops>{_NUM})(?P<s>[kKMG]?+),[ \t]*+"
    rf"(?:BW=(?P<bw>{_NUM})(?P<bu>[KMGTP]iB|[kMGTP]B|B)/s(?:,[ \t]*+IOS/call=\d++/\d++)?+|IOS/call=\d++/\d++)"
)
MAXIMUM = re.compile(rf"^[ \t]*+(?:\^C)?+Maximum IOPS=(?P<iops>{_NUM})(?P<s>[kKMG]?+)[ \t]*+$")
SIGNATURE = re.compile(rf"^(?:[ \t]{{0,2}}[A-Za-z]{{0,3}}>)*[ \t]*+IOPS={_NUM}[kKMG]?+,[ \t]*+(?:BW|IOS/call)=", re.M)
# the banner t/io_uring prints before its first line, and what may stand between its lines
_BANNER = re.compile(r"^[ \t]*+(?:submitter=|polled=|Engine=|Added file|ring setup|(?:\^C)?+Exiting on \w++"
                     r"|fixedbufs=|(?:[ \t]*+\w++=[^,\n]{0,40}+,){2})")
_COMMAND = re.compile(r"(?:^|[\s/])io_uring[ \t]++(?P<args>-[^\n]{0,300}+)$")
_OPTION = re.compile(r"^-(?P<key>[A-Za-z])(?P<value>\S*+)$")
_OPTION_NAMES = {"b": "bs", "d": "depth", "s": "submit_batch", "c": "complete_batch", "p": "polled",
                 "n": "threads", "F": "register_files", "B": "fixedbufs", "u": "uring_cmd", "O": "o_direct",
                 "N": "nop", "r": "runtime", "P": "numa_placement", "R": "random", "X": "registered_ring"}
_QD = re.compile(r"\bQD=(?P<qd>\d{1,6}+)")
_FILE = re.compile(r"\bfile=(?P<file>/[^\s,]{1,80}+),")

_GAP = 2  # lines (the banner's, `^CExiting`) that may stand between two lines of one series
_BANNER_REACH = 8  # lines above the first `IOPS=` searched for the banner and the command


def _iops(m: re.Match[str]) -> float | None:
    return scaled(m["iops"] + m["s"], Decimal(1), SUFFIX)


def _params(lines: list[str], start: int, first: int) -> tuple[dict[str, str], str | None]:
    """Options of the command line and the devices it names (or the banner's `QD=` and `file=`)."""
    params: dict[str, str] = {}
    devices: list[str] = []
    joined: list[str] = []  # a command the poster wrapped with `\` is one line
    for text in lines[start:first]:
        if joined and joined[-1].endswith("\\"):
            joined[-1] = joined[-1][:-1] + " " + text.strip()
        else:
            joined.append(text.rstrip())
    for text in joined:
        if (cmd := _COMMAND.search(text)) is not None:
            words = cmd["args"].split()
            k = 0
            while k < len(words):
                word = words[k]
                if (opt := _OPTION.match(word)) is not None:
                    value = opt["value"]
                    if not value and k + 1 < len(words) and not words[k + 1].startswith("-"):
                        k += 1
                        value = words[k]
                    if opt["key"] in _OPTION_NAMES and value:
                        params[_OPTION_NAMES[opt["key"]]] = value
                elif word.startswith("/"):
                    devices.append(word)
                k += 1
        elif (qd := _QD.search(text)) is not None:
            params.setdefault("depth", qd["qd"])
        if not devices and (f := _FILE.search(text)) is not None:
            devices.append(f["file"])
    return params, " ".join(dict.fromkeys(devices)) or None


def _start(lines: list[str], first: int) -> int:
    """The first line of the printout: its command and banner above the first `IOPS=` line."""
    start = first
    for k in range(first - 1, max(-1, first - 1 - _BANNER_REACH), -1):
        text = lines[k]
        wrapped = k > 0 and lines[k - 1].rstrip().endswith("\\")  # the tail of a command wrapped with `\`
        if _BANNER.match(text) or _COMMAND.search(text) or wrapped:
            start = k
        elif text.strip():
            break
    return start


def _system(seg: Segment, start: int) -> str | None:
    """What the lead-in names (`Tested on a box here, previously:`; `Here's a peak run with -git +
    pending 6.5` / `changes + pending 6.6 changes:`, a sentence wrapped over lines), else the
    caption rule of every parser (`IRQ, 128/32/32, cache off` alone above the command)."""
    return naming_caption(seg.lines, start, 0, seg.before) or caption_system(seg, start)


def parse(seg: Segment) -> list[Run]:
    """One run per series of `IOPS=` lines (and its `Maximum IOPS=` line)."""
    lines = seg.lines
    runs: list[Run] = []
    k = 0
    while k < len(lines):
        m = LINE.match(lines[k])
        if m is None:
            k += 1
            continue
        first = k
        series: list[tuple[int, re.Match[str]]] = [(k, m)]
        maximum: tuple[int, re.Match[str]] | None = None
        j = k + 1
        while j < len(lines) and j - series[-1][0] <= _GAP + 1:
            text = lines[j]
            if (m := LINE.match(text)) is not None:
                series.append((j, m))
            elif (mx := MAXIMUM.match(text)) is not None:
                maximum = (j, mx)
                j += 1
                break
            elif not _BANNER.match(text):
                break
            j += 1
        end = (maximum[0] if maximum else series[-1][0]) + 1
        start = _start(lines, first)
        params, device = _params(lines, start, first)
        system = printout_system(_system(seg, start), {"device": device}, params)
        results: list[Result] = []
        for n, (i, lm) in enumerate(series, 1):
            at = {**params, "sample": str(n)}
            if (iops := _iops(lm)) is not None:
                results.append(Result("iops", "IOPS", iops, "IOPS", dict(at), line=i))
            if lm["bw"] and (bw := scaled(lm["bw"], _BW[lm["bu"]])) is not None:
                results.append(Result("bandwidth", "BW", bw, "KiB/s", dict(at), line=i))
        if maximum is not None and (iops := _iops(maximum[1])) is not None:
            results.append(Result("iops", "Maximum IOPS", iops, "IOPS", dict(params), statistic="max",
                                  line=maximum[0]))
        runs.append(Run(benchmark=NAME, results=results, system=system, line_start=start, line_end=end,
                        attributes={"tool": "t/io_uring"}))
        k = end
    return runs
