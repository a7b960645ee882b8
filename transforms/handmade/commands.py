"""A command line, then what it printed (issue class 6): `$ ./super_netperf 32 -H host -l 10`
followed by `97379.8`, a loop of `./hackbench ...` followed by one `Time: 2.741` per run.

The command gives the benchmark and its params (`-t TCP_RR`, `-g 100`); the lines right after it
that hold only a number give the values (one per run). A label line ending in `:` above the
command (`commit a250c23f15c2:`, `Before:`) names the system. Tools whose printout a parser
reads (fio, iperf, dbench ...) print more than a number per line, so they never come here.

Everything is read token by token (str methods); the one pattern is anchored and bounded.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from transforms.parsers._common import names_system, system_label
from transforms.shell import is_prompted, prompt_end
from transforms.tools import TOOLS

MAX_VALUES = 200  # values read after one command
# the tools that print a bare number (or `Time: N`), by the name the command line runs
_TOOLS = {"netperf": "netperf", "super_netperf": "netperf", "hackbench": "hackbench",
          "perf": "hackbench"}  # `perf bench sched messaging` prints `Total time: N [sec]`
_VALUE = re.compile(r"^\s{0,40}+(?:(?:Total\s)?[Tt]ime:\s{0,8}+)?(?P<num>\d{1,12}+(?:\.\d{1,12}+)?)"
                    r"\s{0,8}+(?P<unit>\[?sec\]?|s|secs?)?\s*+$")
_OPTIONS = {"netperf": {"-t": "test"}, "hackbench": {"-g": "groups", "-l": "loops", "-f": "fds"}}


@dataclass(slots=True)
class CommandValue:
    line: int  # index into the block's lines
    value: float
    unit: str | None
    benchmark: str
    label: str | None
    system: str | None
    params: dict[str, str] = field(default_factory=dict)


def command_of(line: str) -> tuple[str, list[str]] | None:
    """(benchmark, argument tokens) when `line` runs a tool that prints bare numbers."""
    text = line.strip()
    if (k := prompt_end(text)) is not None:  # `$ `, `# `, `host:/dir# `
        text = text[k:].strip()
    if len(text) > 400:
        return None
    # the tool among the commands of the line (`nstat -n;for f in {1..10}; do ./super_netperf 1 -H
    # host; done;nstat|egrep "Hystart"`): a loop's body, between setup and report commands
    for part in text.split(";"):
        tokens = part.split()
        if tokens[:1] == ["do"]:
            tokens = tokens[1:]
        if not tokens or len(tokens) > 40 or tokens[0] == "for":
            continue
        base = tokens[0].rsplit("/", 1)[-1]
        bench = _TOOLS.get(base)
        if bench is None or base == "perf" and tokens[1:4] != ["bench", "sched", "messaging"]:
            continue
        return bench, tokens[1:]
    return None


_POSITIONAL = {"hackbench": "groups"}  # `hackbench 30`: its first bare argument


def _params(bench: str, args: list[str]) -> dict[str, str]:
    names = _OPTIONS.get(bench, {})
    out: dict[str, str] = {}
    for k, tok in enumerate(args[:-1]):
        if tok in names and not args[k + 1].startswith("-"):
            out[names[tok]] = args[k + 1]
    if bench in _POSITIONAL and args and args[0].isdigit() and _POSITIONAL[bench] not in out:
        out[_POSITIONAL[bench]] = args[0]
    return out


def command_params(label: str | None, bench: str) -> dict[str, str] | None:
    """A label that is a command running `bench` (`./hackbench 30`, `hackbench -g 4`): its params.
    The command says how it was run, not what was measured: the value is the tool's headline."""
    if not label or len(label) > 200:
        return None
    found = command_of(label)
    if found is not None:
        return _params(bench, found[1]) if found[0] == bench else None
    return _run_of(label, bench)


def _run_of(label: str, bench: str) -> dict[str, str] | None:
    """A label running `bench`'s own tool with options (`sysbench --test=mutex --num-threads=64
    run`): its `--name=value` options; None when the label runs no tool of `bench`."""
    text = label.strip()
    if (k := prompt_end(text)) is not None:
        text = text[k:].strip()
    tokens = text.split()
    if len(tokens) < 2 or len(tokens) > 40 or TOOLS.get(tokens[0].rsplit("/", 1)[-1].lower()) != bench \
            or not any(t.startswith("-") for t in tokens[1:]):
        return None
    return {t[2:].split("=", 1)[0]: t.split("=", 1)[1] for t in tokens[1:]
            if t.startswith("--") and "=" in t and len(t) > 3 and t.split("=", 1)[1]}


def _system_above(lines: list[str], k: int) -> str | None:
    """A label line (`commit a250c23f15c2:`, `Before:`) over the command and its setup lines."""
    for j in range(k - 1, max(-1, k - 6), -1):
        text = lines[j].strip()
        if not text:
            continue
        if text.startswith((">", "$", "#")) or is_prompted(text):
            continue  # a setup command (`# echo 3`, `>/proc/...`) between the label and the run
        if not text.endswith(":"):
            return None
        return system_label(text) or names_system(text)
    return None


def read_commands(lines: list[str]) -> tuple[list[CommandValue], set[int]]:
    """Values printed under tool command lines, and the lines used (commands and values)."""
    out: list[CommandValue] = []
    used: set[int] = set()
    k = 0
    n = len(lines)
    while k < n:
        cmd = command_of(lines[k]) if len(lines[k]) <= 400 else None
        if cmd is None:
            k += 1
            continue
        bench, args = cmd
        vals: list[tuple[int, float, str | None]] = []
        j = k + 1
        while j < n and len(vals) < MAX_VALUES:
            m = _VALUE.match(lines[j]) if len(lines[j]) <= 120 else None
            if m is None:
                break
            vals.append((j, float(m.group("num")), "s" if m.group("unit") else None))
            j += 1
        if not vals:
            k += 1
            continue
        params = _params(bench, args)
        label = params.get("test") if bench == "netperf" else "Time"
        system = _system_above(lines, k)
        for run, (line, value, unit) in enumerate(vals, start=1):
            p = dict(params)
            if len(vals) > 1:
                p["run"] = str(run)
            out.append(CommandValue(line, value, unit, bench, label, system, p))
        used.update(range(k, j))
        k = j
    return out, used


# lmbench's programs, each run with the test as its first bare argument (`lat_syscall -N 1000 null`)
_LMBENCH_PROGRAM = re.compile(r"(?<![\w-])(?P<prog>(?:lat|bw)_[a-z]{2,12}+)(?![\w-])")


def lmbench_test(text: str) -> str | None:
    """`./lat_syscall -N 1000000 null` -> `lat_syscall null`: the lmbench program a command runs and
    its test (the first bare word after its options and their numbers), or the program alone."""
    m = _LMBENCH_PROGRAM.search(text)
    if m is None:
        return None
    for token in text[m.end():].split()[:8]:
        if token.startswith("-") or token[:1].isdigit():
            continue  # an option (`-N`, `-P`) or its number
        word = token.rstrip(":;,.")
        return f"{m.group('prog')} {word}" if word.isalpha() else m.group("prog")
    return m.group("prog")
