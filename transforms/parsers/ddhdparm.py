"""dd and hdparm parser: the two one-line disk "benchmarks" of mailing-list threads.

dd's summary line comes in three dialects::

    1073741824 bytes (1.1 GB) copied, 10.1234 s, 106 MB/s            GNU coreutils
    1073741824 bytes (1.1 GB, 1.0 GiB) copied, 2.34 s, 459 MB/s      coreutils >= 8.24
    41943040000 bytes (39.1GB) copied, 347.990191 seconds, 114.9MB/s busybox
    1073741824 bytes transferred in 10.12 secs (106123456 bytes/sec) BSD, macOS

GNU prints decimal units (kB = 1000 B); busybox prints binary ones without a
space ("114.9MB/s" is MiB/s: 41943040000 B / 347.99 s = 114.9 MiB/s); BSD
prints bytes/sec, stored here as MB/s.  Each line is checked against
bytes / seconds, so a line whose rate does not follow from its own byte count
and time is reported unparsed instead of stored.  Rows carry benchmark "dd":
metric ``throughput`` and ``elapsed`` (s), param ``bytes``, and the command's ``bs``, ``count``,
``iflag``/``oflag``/``conv`` when its ``dd if=... of=...`` line is printed just above; that
command's ``of=/dev/null`` or ``if=/dev/zero`` also names the rows ``copied (read rate)`` or
``copied (write rate)``. A dd reading a device (``if=/dev/md3``) has it as param ``device``, and as
its system when no caption names one (hdparm's rule).

hdparm -tT prints, under a ``/dev/sda:`` line::

     Timing cached reads:   6344 MB in  2.00 seconds = 3174.56 MB/sec
     Timing buffered disk reads:  232 MB in  3.01 seconds =  77.03 MB/sec

hdparm's "MB" is 1024*1024 bytes (``TIMING_BUF_BYTES = TIMING_BUF_MB * 1024 *
1024`` in hdparm.c, and its ``kB/sec`` is ``t / e * 1024``), so the canonical
unit is MiB/s.  Rows carry benchmark "hdparm" and param ``device``; the system is what a
caption above names (``Under 2.6.24:``, ``patched:``), else the device.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from decimal import Decimal, InvalidOperation

from transforms.model import MetricSpec, Parser, Result, Run, Segment
from transforms.numbers import parse_number
from transforms.parsers._common import (
    caption_above,
    names_system,
    naming_caption,
    number_repeated_runs,
    printout_system,
)
from transforms.shell import prompt_host

NAME = "ddhdparm"

METRICS: dict[str, MetricSpec] = {
    # dd
    "throughput": MetricSpec("MB/s", True, 0.0, 1e6, units=("KB/s", "GB/s", "KiB/s", "MiB/s", "GiB/s")),
    "elapsed": MetricSpec("s", False, 0.0, 1e6),
    "user_time": MetricSpec("s", False, 0.0, 1e6),  # the shell's `time` of a dd (user, sys)
    "sys_time": MetricSpec("s", False, 0.0, 1e6),
    # hdparm
    "cached_reads": MetricSpec("MiB/s", True, 1.0, 1e6),
    "buffered_disk_reads": MetricSpec("MiB/s", True, 0.0, 1e5),
    "direct_cached_reads": MetricSpec("MiB/s", True, 0.0, 1e6),
    "direct_disk_reads": MetricSpec("MiB/s", True, 0.0, 1e5),
}

_NUM = r"\d+(?:[.,]\d+)?"
_GNU = re.compile(
    rf"(?<!\d)(?P<bytes>\d+) bytes?(?: \((?P<human>[^()]*)\))? copied, (?P<secs>{_NUM}) (?:s|secs?|seconds?), "
    rf"(?P<rate>{_NUM})(?P<space> ?)(?P<unit>[kKMGT]?i?B)/s\b"
)
_BSD = re.compile(
    rf"(?<!\d)(?P<bytes>\d+) bytes transferred in (?P<secs>{_NUM}) secs \((?P<bps>\d+) bytes/sec\)"
)
_SI = {"b": ("KB/s", Decimal("0.001")), "kb": ("KB/s", 1), "mb": ("MB/s", 1), "gb": ("GB/s", 1),
       "kib": ("KiB/s", 1), "mib": ("MiB/s", 1), "gib": ("GiB/s", 1)}  # fmt: skip
_BUSYBOX = {
    "b": ("KiB/s", Decimal(1) / 1024),
    "kb": ("KiB/s", 1),
    "mb": ("MiB/s", 1),
    "gb": ("GiB/s", 1),
}
_FACTOR = {
    "KB/s": 10**3,
    "MB/s": 10**6,
    "GB/s": 10**9,
    "KiB/s": 2**10,
    "MiB/s": 2**20,
    "GiB/s": 2**30,
}
_TOLERANCE = 0.1  # dd rounds its rate to two or three digits

_DEVICE = re.compile(r"^\s*(?P<dev>/dev/\S+?):\s*$")
_DEVICE_TIMING = re.compile(r"^\s*(?P<dev>/dev/[^\s:]{1,60}):[^\S\n]*+(?P<timing>Timing\s[^\n]*)$")
_TIMING = re.compile(r"^\s*Timing\s+(?P<kind>O_DIRECT cached|O_DIRECT disk|buffer-cache|cached|buffered disk)"
                     r"\s+reads:(?P<rest>.*)$", re.I)  # fmt: skip
_TIMING_VALUES = re.compile(
    rf"^\s*(?P<mb>{_NUM})\s*MB in\s*(?P<secs>{_NUM})\s*seconds\s*=\s*(?P<rate>{_NUM})\s*(?P<unit>[kMG])B/s(?:ec)?\s*$"  # busybox: `kB/s`
)
_HDPARM_METRIC = {"cached": "cached_reads", "buffer-cache": "cached_reads", "buffered disk": "buffered_disk_reads",
                  "o_direct cached": "direct_cached_reads", "o_direct disk": "direct_disk_reads"}  # fmt: skip
_HDPARM_UNIT = {"k": "KiB/s", "m": "MiB/s", "g": "GiB/s"}
_HDPARM_SETTING = re.compile(r"^\s*(?:setting\s+\S.*|[\w/ .-]{1,30}=\s*\S.*)$")
_SUSPICIOUS = re.compile(r"suspicious results", re.I)
# `HDIO_DRIVE_CMD(null) (wait for flush complete) failed: Inappropriate` (+ `ioctl for device` when a
# mailer wrapped it): hdparm's complaint between two timings of one device, not the end of its block
_DIAGNOSTIC = re.compile(r"^\s*HDIO_\w{1,30}(?:\(\w{1,30}\))?[^\n]{0,80}?\bfailed:")
_WRAPPED_TAIL = re.compile(r"^\s*[a-z][a-z ]{0,40}$")

# command lines and tool chatter between a caption and the output it labels
# `dd ... if=`: the word, then an operand after it, as two searches (one pattern with `.*` between
# rescans the line from every `dd`)
_DD_WORD = re.compile(r"\bdd\b")
_DD_OPERAND = re.compile(r"\b(?:if|of|bs|count)=")
_DD_IO_OPERAND = re.compile(r"\b(?:if|of)=")
_PROMPT = r"[\w@.~:/-]*[$#]"  # a shell prompt's tail: `user@host:~$`, `#`
_DD_OTHER_CHATTER = re.compile(r"^\d+\+\d+ records (?:in|out)$|^" + _PROMPT + r"\s*$")
# `count=1048576` alone: the tail of a dd command a mailer wrapped
_OPERANDS_ONLY = re.compile(r"^(?:(?:if|of|bs|ibs|obs|count|skip|seek|conv|iflag|oflag|status)=[^\s=]{1,80}+\s*+){1,6}$")
_RECORDS_OUT = re.compile(r"^\s*\d+\+\d+ records out\s*$")
# the shell's `time` after a dd that printed no summary of its own (before coreutils 5.3):
# `real    0m32.339s` (bash), `real 32.33` (`time -p`)
_SHELL_TIME = re.compile(r"^\s*(?P<what>real|user|sys)[ \t]++(?:(?P<min>\d{1,6})m)?(?P<sec>\d{1,6}(?:[.,]\d{1,6})?)s?\s*$")


def _dd_command(s: str, operand: re.Pattern[str] = _DD_OPERAND) -> bool:
    m = _DD_WORD.search(s)
    return m is not None and operand.search(s, m.end()) is not None


# `dd /mnt/lol/cmpr 128k`: a run named by the poster's own shorthand for the command, no operands
_DD_SHORTHAND = re.compile(r"^(?:" + _PROMPT + r"\s*)?dd\s++[\w./~-]{1,80}+(?:\s++[\w./~-]{1,40}+){0,3}$")


# `mmc0: new UHS-I speed SDR50 SDHC card at address 0001`, `mmcblk0: p1`: the kernel's log of the
# device a dd then reads, between the caption naming the run and the command
_DEVICE_LOG = re.compile(r"^(?:\[[ \d.]{1,20}+\][ \t]*+)?+[a-z][a-z_]{1,12}+\d{1,3}+(?:n\d{1,2}+)?+:[ \t]")


def _dd_chatter(s: str) -> bool:
    return _dd_command(s) or _DD_OTHER_CHATTER.search(s) is not None or _DD_SHORTHAND.match(s) is not None \
        or _OPERANDS_ONLY.match(s) is not None or _DEVICE_LOG.match(s) is not None
_HDPARM_CHATTER = re.compile(r"\bhdparm\b|^" + _PROMPT + r"\s*$")


def _decimal(token: str) -> Decimal | None:
    """dd never groups thousands, so a comma here is a locale's decimal point."""
    try:
        return Decimal(token.replace(",", "."))
    except InvalidOperation:
        return None


def _dd_reading(line: str) -> tuple[int, Decimal, Decimal, str, str] | None:
    """(bytes, seconds, rate, unit, label) of a dd summary line."""
    if m := _BSD.search(line):
        secs = _decimal(m.group("secs"))
        if secs is None:
            return None
        rate = Decimal(m.group("bps")) / Decimal(10**6)
        return int(m.group("bytes")), secs, rate, "MB/s", m.group(0)
    if m := _GNU.search(line):
        secs, rate = _decimal(m.group("secs")), _decimal(m.group("rate"))
        unit_key = m.group("unit").lower()
        binary = (
            not m.group("space") and m.group("human") is not None and " " not in m.group("human")
        )
        table = _BUSYBOX if binary else _SI
        if secs is None or rate is None or unit_key not in table:
            return None
        unit, scale = table[unit_key]
        return int(m.group("bytes")), secs, rate * Decimal(scale), unit, m.group(0)
    return None


def _consistent(nbytes: int, secs: Decimal, rate: Decimal, unit: str) -> bool:
    """Whether the printed rate follows from the printed byte count and time."""
    if secs == 0 or nbytes == 0:
        return True
    expected = Decimal(nbytes) / secs / _FACTOR[unit]
    return abs(rate - expected) <= Decimal(str(_TOLERANCE)) * expected + Decimal("0.05")


def _dd_runs(lines: Sequence[str], before: Sequence[str]) -> list[Run]:
    runs: list[Run] = []
    floor = 0
    for i, line in enumerate(lines):
        if "byte" not in line:
            continue
        reading = _dd_reading(line)
        if reading is None:
            if _GNU.search(line) or _BSD.search(line):
                runs.append(
                    Run(
                        "dd",
                        [],
                        line_start=i,
                        line_end=i + 1,
                        status="unparsed",
                        reason="dd summary with an unknown unit",
                    )
                )
            continue
        nbytes, secs, rate, unit, _printed = reading
        params = {"bytes": str(nbytes)}
        run, ops = _named_run(lines, i, floor, before, _command_above(lines, i, floor), params)
        floor = i + 1
        if not _consistent(nbytes, secs, rate, unit):
            run.status, run.reason = (
                "unparsed",
                f"dd rate {rate} {unit} does not follow from {nbytes} B / {secs} s",
            )
            runs.append(run)
            continue
        # the summary line holds no label: each value is named by its place after `copied`, and by
        # the way the command above moved the bytes (`of=/dev/null` read them, `if=/dev/zero` wrote)
        way = _direction(ops)
        way = f"{way} " if way else ""
        run.results = [
            Result("throughput", f"copied ({way}rate)", float(rate), unit, dict(params), line=i),
            Result("elapsed", f"copied ({way}time)", float(secs), "s", dict(params), line=i),
        ]
        runs.append(run)
    return runs


def _timed_dd_runs(lines: Sequence[str], before: Sequence[str], summaries: Sequence[Run]) -> list[Run]:
    """`time dd ...`, dd's `records in` / `records out`, then the shell's `real` / `user` / `sys`:
    a dd too old to print its own summary, timed by the shell; those times are its results."""
    runs: list[Run] = []
    taken = {r.line_start for r in summaries}
    for i, line in enumerate(lines):
        if "records out" not in line or not _RECORDS_OUT.match(line) or i + 1 in taken or i + 2 in taken:
            continue
        command = _command_above(lines, i, max(0, i - 5))
        if command is None or not _TIMED.search(command):
            continue
        params: dict[str, str] = {}
        run, _ = _named_run(lines, i, 0, before, command, params)
        k = i + 1
        while k < len(lines) and k <= i + 3 and not lines[k].strip():
            k += 1
        while k < len(lines) and (m := _SHELL_TIME.match(lines[k])) and len(run.results) < 3:
            secs = float(int(m.group("min") or 0) * 60 + Decimal(m.group("sec").replace(",", ".")))
            what = m.group("what")
            run.results.append(Result(_TIME_METRIC[what], what, secs, "s", dict(params), line=k))
            k += 1
        if any(r.metric == "elapsed" for r in run.results):
            run.line_end = k
            runs.append(run)
    return runs


def _named_run(lines: Sequence[str], i: int, floor: int, before: Sequence[str], command: str | None,
               params: dict[str, str]) -> tuple[Run, dict[str, str]]:
    """A dd run at line `i` and its command's operands: a caption above (or a line naming what was
    measured) is its system; the command's operands go into `params`, and a device it reads is a
    param too, standing in as the system when nothing names one (hdparm's rule)."""
    run = Run("dd", [], line_start=i, line_end=i + 1)
    _, run.caption = caption_above(lines, i, floor, skip=_dd_chatter, before=before)
    run.system = run.caption or naming_caption(lines, i, 0, before)
    ops: dict[str, str] = {}
    if command:
        run.attributes["command"] = command
        ops = _operands(command)
        params.update(_command_params(ops))
        if device := _read_device(ops):
            run.system = printout_system(run.system, {"device": device}, params)
            run.attributes["device"] = device
        elif file := _moved_file(ops):
            run.attributes["file"] = file
    return run, ops


def _moved_file(ops: dict[str, str]) -> str | None:
    """The file a dd read (`if=compressible of=/dev/null`) or wrote (`if=/dev/zero of=testfile`)."""
    way = _direction(ops)
    name = ops.get("if" if way == "read" else "of", "").rstrip(";&|") if way else ""
    return name if name and _OPERAND_FILE.match(name) and not name.startswith("/dev/") else None


_OPERAND_FILE = re.compile(r"^[\w./+-]{1,80}$")


def _files_apart(runs: Sequence[Run]) -> None:
    """dd runs alike but for the file each read or wrote (`if=compressible`, `if=incompressible`):
    the file tells them apart (param `file`), and names what was measured when nothing else does
    (a device's rule)."""
    groups: dict[tuple, list[Run]] = {}
    for r in runs:
        if r.status == "ok" and r.results and r.attributes.get("file"):
            key = (r.system, r.results[0].metric_label, tuple(sorted(r.results[0].params.items())))
            groups.setdefault(key, []).append(r)
    for same in groups.values():
        if len(same) < 2 or len({r.attributes["file"] for r in same}) != len(same):
            continue
        for r in same:
            for res in r.results:
                res.params["file"] = r.attributes["file"]
            r.system = r.system or r.attributes["file"]


_TIME_METRIC = {"real": "elapsed", "user": "user_time", "sys": "sys_time"}
_TIMED = re.compile(r"(?:^|[\s$#;])time\s++dd\b")  # `# time dd if=...`: the shell times the dd
_DD_OPERANDS = frozenset({"bs", "ibs", "obs", "count", "oflag", "iflag", "conv"})
_OPERAND_VALUE = re.compile(r"^[\w.,]{1,40}$")


def _operands(command: str) -> dict[str, str]:
    """The `key=value` operands of a printed dd command (`if=/dev/md3 bs=1M count=1024;`), each
    value without the shell's trailing `;`, `&` or `|`."""
    out: dict[str, str] = {}
    for tok in command.split()[:40]:
        key, sep, value = tok.partition("=")
        if sep:
            out[key] = value
    return out


def _command_params(ops: dict[str, str]) -> dict[str, str]:
    """What the printed `dd ... bs=1M count=1024 oflag=direct` measured at (not the file names)."""
    out: dict[str, str] = {}
    for key, value in ops.items():
        value = value.rstrip(";&")
        if key in _DD_OPERANDS and _OPERAND_VALUE.match(value):
            out[key] = value  # a literal; `count=$((256*1024))` is the shell's, not a value
    return out


_SINKS = frozenset({"/dev/null"})
_SOURCES = frozenset({"/dev/zero", "/dev/urandom", "/dev/random"})


def _direction(ops: dict[str, str]) -> str | None:
    """`read` for a dd that throws what it reads away (`of=/dev/null`), `write` for one that writes
    made-up bytes (`if=/dev/zero`): posters name a dd's figure after the way it went (`87MB/s
    read`); both or neither (`if=/dev/zero of=/dev/null`, a file copy) is no direction."""
    read = ops.get("of", "").rstrip(";&|") in _SINKS
    write = ops.get("if", "").rstrip(";&|") in _SOURCES
    if read == write:
        return None
    return "read" if read else "write"


_DEVICE_NODE = re.compile(r"^/dev/(?!(?:zero|u?random|null|stdin|fd/)\b)[\w/-]{1,40}$")


def _read_device(ops: dict[str, str]) -> str | None:
    """The device a dd reads (`if=/dev/md3`): like hdparm's `/dev/sda:`, what it measured when no
    caption names a system (`/dev/zero` and friends are no device)."""
    source = ops.get("if", "").rstrip(";&|")
    return source if _DEVICE_NODE.match(source) else None


def _command_above(lines: Sequence[str], index: int, floor: int) -> str | None:
    """The ``dd if=... of=...`` command printed just above a summary, if any (with its operands a
    mailer wrapped onto the next line: `... bs=512` / `count=1048576`)."""
    for k in range(index - 1, max(floor, index - 5) - 1, -1):
        s = lines[k].strip()
        if _dd_command(s, _DD_IO_OPERAND):
            if k + 1 < index and _OPERANDS_ONLY.match(tail := lines[k + 1].strip()):
                s = f"{s} {tail}"
            return s
    return None


def _prompted_host(lines: Sequence[str], top: int, floor: int) -> str | None:
    """`beetle:~ # hdparm -it /dev/hda` some lines above the timings: the machine they ran on."""
    for k in range(top - 1, max(floor, top - 40) - 1, -1):
        if "hdparm" in lines[k] and (host := prompt_host(lines[k])):
            return host
    return None


def _hdparm_runs(lines: Sequence[str], before: Sequence[str]) -> list[Run]:
    runs: list[Run] = []
    lines, between = _unflowed_timings(_join_wrapped_timings(lines))
    device: str | None = None
    device_line = -1
    run: Run | None = None
    named_of: dict[int, str] = {}  # runs whose system a caption named
    floor = 0
    diagnostic = -2
    for i, line in enumerate(lines):
        if device is not None and (_DIAGNOSTIC.match(line) or i == diagnostic + 1 and _WRAPPED_TAIL.match(line)):
            diagnostic = i if _DIAGNOSTIC.match(line) else -2
            if run is not None:
                run.line_end = i + 1
            continue
        if m := _DEVICE.match(line):
            device, device_line, run = m.group("dev"), i, None
            continue
        if m := _DEVICE_TIMING.match(line):  # `/dev/hda1: Timing buffered disk reads: ...` on one line
            device, device_line, run = m.group("dev"), i, None
            line = m.group("timing")
        if _SUSPICIOUS.search(line) and run is not None:
            run.notes.append(line.strip())
            continue
        t = _TIMING.match(line)
        if t is None and device is not None and i == device_line + 1 and _HDPARM_SETTING.match(line):
            device_line = i  # `hdparm -m16 -tT` prints its settings between the device and the timings
            continue
        if t is None:
            if line.strip():
                run = None
                if i > device_line + 1:
                    device = None
            continue
        if run is None:
            top = device_line if device is not None else i
            run = Run("hdparm", [], line_start=top, line_end=i + 1)
            _, run.caption = caption_above(
                lines, top, floor, skip=_HDPARM_CHATTER.search, before=before
            )
            if run.caption is None and top - 1 in between:
                run.caption = between[top - 1].rstrip(":").strip()  # `on 2.6:` reflowed after the last timing
            params: dict[str, str] = {}
            if device is None:
                # no device line: the caption, else the machine the command's prompt names
                run.system = run.caption or _prompted_host(lines, top, floor)
            else:
                # the device is a parameter; a caption naming a kernel or a patch is the system
                named = names_system(run.caption) if run.caption else None
                if named is None and runs and not any(x.strip() for x in lines[runs[-1].line_end:top]):
                    named = named_of.get(id(runs[-1]))  # the next device of one listing
                named = named or naming_caption(lines, top, 0, before)
                if named:
                    named_of[id(run)] = named
                run.system = printout_system(named, {"device": device}, params)
                run.attributes["device"] = device
            runs.append(run)
        run.line_end = floor = i + 1
        result = _hdparm_result(t, i)
        if result is None:
            run.status, run.reason = "unparsed", f"unreadable hdparm timing: {line.strip()!r}"
        else:
            result.params.update(params)
            run.results.append(result)
    return runs


_UNIT_ONLY = re.compile(r"^\s*[kMG]B/sec\s*$")


def _join_wrapped_timings(lines: Sequence[str]) -> list[str]:
    """`Timing buffered disk reads:  64 MB in  3.05 seconds = 20.98` + `MB/sec`: a mailer's wrap
    is undone (the unit line is left blank, so line numbers stay)."""
    out = list(lines)
    for i in range(len(out) - 1):
        if "/sec" not in out[i] and _UNIT_ONLY.match(out[i + 1]) and _TIMING.match(out[i]):
            out[i], out[i + 1] = f"{out[i].rstrip()} {out[i + 1].strip()}", ""
    return out


_FLOWED_TIMING = re.compile(
    rf"Timing[ \t]++(?:O_DIRECT cached|O_DIRECT disk|buffer-cache|cached|buffered disk)[ \t]++reads:[ \t]*+{_NUM}[ \t]*+MB in"
    rf"[ \t]*+{_NUM}[ \t]*+seconds[ \t]*+=[ \t]*+{_NUM}[ \t]*+[kMG]B/s(?:ec)?+", re.I)
_TIMING_WORD = re.compile(r"\bTiming[ \t]")


def _unflowed_timings(lines: list[str]) -> tuple[list[str], dict[int, str]]:
    """Timings a mailer reflowed into a paragraph (`...seconds =  83.58` / `MB/sec Timing buffered
    disk reads: ... =` / `14.10 MB/sec on 2.6:`): each timing is put back on the line it starts on,
    and the words between two timings (`on 2.6:`, a caption) on the line they start on, when no two
    pieces start on one line. Other lines are left as they are. Also the lines that hold words
    between two timings."""
    out = list(lines)
    between: dict[int, str] = {}
    i, n = 0, len(lines)
    while i < n:
        if not _TIMING_WORD.search(lines[i]):
            i += 1
            continue
        j = i
        while j < n and lines[j].strip() and j - i < 40:
            j += 1
        last = max(k for k in range(i, j) if _TIMING_WORD.search(lines[k]))
        # a paragraph whose last timing is whole on its line ends there: the lines after it are the
        # next caption (`---` / `With max-link-speed = <1>`), not words a mailer moved
        t = _TIMING.match(lines[last])
        whole = t is not None and _TIMING_VALUES.match(t.group("rest")) is not None
        para = lines[i:last + 1] if whole else lines[i:j]
        if j - i >= 2 and not all(_TIMING.match(x) for x in para):
            starts = []  # offset of each line's start in the joined text
            pos = 0
            for x in para:
                starts.append(pos)
                pos += len(x.strip()) + 1
            text = " ".join(x.strip() for x in para)
            pieces: list[tuple[int, str]] = []  # (start offset, text)
            at = 0
            for m in _FLOWED_TIMING.finditer(text):
                if text[at:m.start()].strip():
                    pieces.append((at + len(text[at:m.start()]) - len(text[at:m.start()].lstrip()),
                                   text[at:m.start()].strip()))
                pieces.append((m.start(), m.group(0)))
                at = m.end()
            if text[at:].strip():
                pieces.append((at + len(text[at:]) - len(text[at:].lstrip()), text[at:].strip()))
            placed: dict[int, str] = {}
            for start, piece in pieces:
                k = max(x for x, off in enumerate(starts) if off <= start)
                if k in placed:
                    placed = {}
                    break
                placed[k] = piece
            if sum(1 for p in placed.values() if p.startswith("Timing")) >= 2:
                for k in range(len(para)):
                    out[i + k] = placed.get(k, "")
                    if k in placed and not placed[k].startswith("Timing") and k - 1 in placed:
                        between[i + k] = placed[k]
        i = j
    return out, between


def _hdparm_result(t: re.Match[str], i: int) -> Result | None:
    v = _TIMING_VALUES.match(t.group("rest"))
    if v is None:
        return None
    rate = parse_number(v.group("rate").replace(",", "."))
    if rate is None:
        return None
    metric = _HDPARM_METRIC[" ".join(t.group("kind").lower().split())]
    label = f"Timing {t.group('kind')} reads"
    return Result(metric, label, rate, _HDPARM_UNIT[v.group("unit").lower()], {}, line=i)


def parse(seg: Segment) -> list[Run]:
    """dd summary lines (one run each) and hdparm device blocks (one run per device block)."""
    dd = _dd_runs(seg.lines, seg.before)
    runs = dd + _timed_dd_runs(seg.lines, seg.before, dd) + _hdparm_runs(seg.lines, seg.before)
    runs.sort(key=lambda r: r.line_start)
    _files_apart(dd)
    number_repeated_runs([r for r in runs if r.benchmark == "dd"])
    number_repeated_runs([r for r in runs if r.benchmark == "hdparm"])
    return runs


# distinctive literals, one of which every block the parser reads contains (see Parser.keywords)
KEYWORDS = ("copied,", "transferred in", "records out", "timing buffered", "timing cached", "timing o_direct",
            "disk reads:", "cached reads:", "buffer-cache reads")  # (hdparm before 5.x: `buffer-cache`)


PARSER = Parser(
    name=NAME,
    version="1",
    signature=re.compile(
        r"(?m)bytes? (?:\([^()\n]*\) )?copied, |bytes transferred in |Timing [\w -]{1,60} reads:"
        r"|^[ \t>]*+\d+\+\d+ records out[ \t]*+$"
    ),
    parse=parse,
    metrics=METRICS,
    emits=("dd", "hdparm"),
    keywords=KEYWORDS,
)
