"""What stands above a netperf block: its banner, the netperf command line (test, `-f` unit,
`-c/-C`, test-specific options) and a caption; and the run a block makes with them."""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass

from transforms.model import Run, Segment
from transforms.parsers._common import lone_caption, names_system, naming_caption, system_label
from transforms.shell import is_prompted

from .common import (
    _ASK_VERSION,
    _CONTEXT_WINDOW,
    _FMT_LABELS,
    BENCH,
    _Block,
    _family,
    _int_token,
    _is_numeric,
    _test_from_phrase,
    _tokens,
)

# --------------------------------------------------------------------------- caption

def _no_caption(line: str) -> bool:
    """A command (prompted, or a netperf command line), a quoted or a dashed line: never a caption."""
    return line.startswith(("$", "#", ">", "-")) or is_prompted(line) or bool(_COMMAND.search(line))


def _caption(lines: list[str], start: int) -> str | None:
    """A short `Something:` line just above the block (commands skipped); informational only."""
    seen = 0
    for k in range(start - 1, max(-1, start - 12), -1):
        s = lines[k].strip()
        if not s:
            continue
        seen += 1
        if seen > 4:
            break
        if _no_caption(s):
            continue
        if s.endswith(":") and len(s) <= 100 and not _is_numeric(_tokens(s)):
            return s.rstrip(":").lstrip("*-#= ").strip() or None
        return None
    return None


# --------------------------------------------------------------------------- banner and command


@dataclass(slots=True)
class _Banner:
    test: str
    text: str
    line: int
    end: int  # first line after the banner and its wrapped continuation


_BANNER = re.compile(
    # the name is words up to the first ` TEST`, never a blank run tried from each of its characters
    r"^\s*+(?:MIGRATED\s++)?(?P<name>(?:TCP|UDP|SCTP|OMNI|DLPI|XTI|SDP|UNIX|DG|STREAM)\b"
    r"[\w/.-]*+(?: ++(?!TEST\b)[\w/.-]++)*+)\s+TEST\b(?P<rest>.*)(?m:$)"
)
# the banner's tail as a mailer wraps it: `to host (addr) port 0 AF_INET : +/-0.500% @ 99%`, then
# `conf.  : histogram : first burst 0` (the confidence, histogram and burst notes of omni tests)
_BANNER_CONT = re.compile(r"AF_INET|AF_UNSPEC|^[^\s(]*+\s*+\([^)]*+\)\s+port\s+\d|^port\s+\d|^:\s"
                          r"|^conf\.\s*+:|: histogram\b|\bfirst burst \d")


def _banner_at(norm: list[str], i: int) -> _Banner | None:
    m = _BANNER.match(norm[i])
    if not m:
        return None
    rest = m.group("rest")
    if rest and not re.match(r"\s+(?:from|to)\b|\s*:", rest):
        return None
    end = i + 1
    while end < len(norm) and end <= i + 2 and norm[end] and _BANNER_CONT.search(norm[end]):
        end += 1
    return _Banner(_test_from_phrase(m.group("name")), norm[i], i, end)


_COMMAND = re.compile(r"(?:^|[\s/=\"'`(;])netperf(?:\.exe)?\s++(?P<args>-.*)(?m:$)")  # one line
_GLOBAL_VALUE_OPTS = set("tfPvBHlpTLnabFiIDOoWyYsZA")
_OPTIONAL_VALUE_OPTS = set("DiI")


@dataclass(slots=True)
class _Command:
    text: str
    line: int
    end: int
    test: str | None = None
    fmt: str | None = None
    headers: bool = True
    cpu_local: bool = False
    cpu_remote: bool = False
    verbosity: int = 1
    brand: str | None = None
    size: int | None = None
    resp_size: int | None = None
    omni_csv: list[str] | None = None  # `-o [list]` selectors ([] = netperf's default set)
    keyval: list[str] | None = None  # `-k [list]`


def _command_at(norm: list[str], i: int) -> _Command | None:
    m = _COMMAND.search(norm[i])
    if not m:
        return None
    args = m.group("args")
    end = i + 1
    while end < len(norm) and end <= i + 3:
        nxt = norm[end]
        if args.endswith("\\"):
            args = args[:-1] + " " + nxt
        elif nxt.startswith("-") and not nxt.startswith("--- ") and not _is_numeric(_tokens(nxt)):
            args += " " + nxt
        else:
            break
        end += 1
    cmd = _Command(text=norm[i], line=i, end=end)
    _apply_args(cmd, _split_args(args))
    return cmd


def _split_args(args: str) -> list[str]:
    args = re.split(r"[|;>&]", args, maxsplit=1)[0]
    try:
        return shlex.split(args)
    except ValueError:
        return args.replace('"', " ").replace("'", " ").split()


def _apply_args(cmd: _Command, argv: list[str]) -> None:
    """Read the options that decide what netperf printed (global part, then after `--`)."""
    k = 0
    test_specific = False
    while k < len(argv):
        tok = argv[k]
        k += 1
        if tok == "--":
            test_specific = True
            continue
        if len(tok) < 2 or not tok.startswith("-"):
            continue
        opt, rest = tok[1], tok[2:]
        if test_specific:
            k = _apply_test_option(cmd, opt, rest, argv, k)
            continue
        if opt in "cC":
            for flag in opt + rest:
                if flag == "c":
                    cmd.cpu_local = True
                elif flag == "C":
                    cmd.cpu_remote = True
            continue
        if opt not in _GLOBAL_VALUE_OPTS:
            continue
        value = rest
        if (
            not value
            and k < len(argv)
            and not (opt in _OPTIONAL_VALUE_OPTS and argv[k].startswith("-"))
        ):
            value = argv[k]
            k += 1
        if opt == "t":
            cmd.test = value.upper()
        elif opt == "f" and value[:1] in _FMT_LABELS:
            cmd.fmt = value[:1]
        elif opt == "P":
            cmd.headers = value.strip() != "0"
        elif opt == "v" and value.isdigit():
            cmd.verbosity = int(value)
        elif opt == "B":
            cmd.brand = value


def _apply_test_option(cmd: _Command, opt: str, rest: str, argv: list[str], k: int) -> int:
    """Test-specific options: sizes and omni output selectors."""
    value = rest
    takes_value = opt in "mMrsSoOkP"
    optional = opt in "oOk"
    if takes_value and not value and k < len(argv) and not (optional and argv[k].startswith("-")):
        value = argv[k]
        k += 1
    if opt == "m":
        cmd.size = _int_token(value)
    elif opt == "r":
        req, _, resp = value.partition(",")
        cmd.size = _int_token(req)
        cmd.resp_size = _int_token(resp) if resp else cmd.size
    elif opt == "o":
        cmd.omni_csv = [s for s in value.split(",") if s]
    elif opt == "k":
        cmd.keyval = [s for s in value.split(",") if s]
    return k


# --------------------------------------------------------------------------- the block's run


@dataclass(slots=True)
class _State:
    """The banner and command line seen above the next block."""

    banner: _Banner | None = None
    command: _Command | None = None

    def fresh(self, i: int) -> tuple[_Banner | None, _Command | None]:
        """The banner/command that belong to a block starting at line i."""
        b = self.banner if self.banner and i - self.banner.end <= _CONTEXT_WINDOW else None
        c = self.command if self.command and i - self.command.end <= _CONTEXT_WINDOW else None
        return b, c


def _test_for(
    family: str, banner: _Banner | None, cmd: _Command | None, notes: list[str]
) -> str | None:
    """Banner first, then `-t` (netperf's default test is TCP_STREAM), then what the columns prove."""
    for source, test in (("banner", banner and banner.test), ("command", cmd and cmd.test)):
        if not test:
            continue
        if _family(test) in (None, family):
            return test
        notes.append(f"{source} test {test} does not match the {family} columns; ignored")
    if cmd is not None and cmd.test is None and family == "stream":
        return "TCP_STREAM"
    return "UDP_STREAM" if family == "udp" else None


def _label_caption(caption: str | None) -> str | None:
    """`TSO disabled:` over its commands: a short label names the system even without a version
    or patch word; a line about running netperf (`And then I just run netperf:`) does not."""
    if not caption or len(caption.split()) > 5 or "netperf" in caption.lower():
        return None
    return system_label(caption + ":")


def _new_run(
    seg: Segment, start: int, end: int, block: _Block, banner: _Banner | None, cmd: _Command | None
) -> Run:
    attrs = dict(block.attributes)
    if banner:
        attrs["banner"] = banner.text
    if cmd:
        attrs["command"] = cmd.text
    caption = _caption(seg.lines, start)
    # a caption naming a kernel, patch or VM is the system of rows the table did not label
    system = (names_system(caption) if caption else None) \
        or lone_caption(seg.lines, start, _no_caption) \
        or naming_caption(seg.lines, start, 0, seg.before) or _label_caption(caption)
    return Run(benchmark=BENCH, results=block.results, tool_version=_ASK_VERSION,
               system=system, caption=caption, line_start=start, line_end=end,
               attributes=attrs, notes=list(block.notes))  # fmt: skip
