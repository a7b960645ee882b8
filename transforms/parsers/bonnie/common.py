"""What the Bonnie readers share: the metric registry, the cells and drafts they fill, caption
and command-line helpers, and the bonnie++ cell and size tokens its text tables and CSV read alike."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from transforms.model import EXACT, MetricSpec, Result, Run

# --------------------------------------------------------------------------- metric registry

_IO_TESTS: tuple[str, ...] = (
    "seq_output_char",
    "seq_output_block",
    "seq_rewrite",
    "seq_input_char",
    "seq_input_block",
    "random_seeks",
)
_FILE_TESTS: tuple[str, ...] = (
    "seq_create",
    "seq_stat",
    "seq_delete",
    "random_create",
    "random_stat",
    "random_delete",
)
_IO_LABELS_B1 = (
    "Sequential Output Per Char",
    "Sequential Output Block",
    "Sequential Output Rewrite",
    "Sequential Input Per Char",
    "Sequential Input Block",
    "Random Seeks",
)
_IO_LABELS_PP = (
    "Sequential Output Per Chr",
    "Sequential Output Block",
    "Sequential Output Rewrite",
    "Sequential Input Per Chr",
    "Sequential Input Block",
    "Random Seeks",
)
_FILE_LABELS = (
    "Sequential Create Create",
    "Sequential Create Read",
    "Sequential Create Delete",
    "Random Create Create",
    "Random Create Read",
    "Random Create Delete",
)
_FILE_METRICS = frozenset(_FILE_TESTS) | {f"{t}_{s}" for t in _FILE_TESTS for s in ("cpu", "latency")}


def _metric_specs() -> dict[str, MetricSpec]:
    specs: dict[str, MetricSpec] = {t: MetricSpec("K/sec", True, 0.0, 1e8) for t in _IO_TESTS[:5]}
    specs["random_seeks"] = MetricSpec("/sec", True, 0.0, 1e7)
    specs.update({t: MetricSpec("/sec", True, 0.0, 1e8) for t in _FILE_TESTS})
    for test in _IO_TESTS + _FILE_TESTS:
        specs[f"{test}_cpu"] = MetricSpec("%CPU", False, 0.0, 10000.0)
        specs[f"{test}_latency"] = MetricSpec("us", False, 0.0, 1e10)
    return specs


METRICS: dict[str, MetricSpec] = _metric_specs()


# --------------------------------------------------------------------------- cells and drafts

OK, TOO_FAST, NOT_RUN, UNREADABLE = "ok", "too_fast", "not_run", "unreadable"
CUT = "cut"  # the last field of a CSV line the mailer may have cut: two readings, no value

_RATE_SUFFIX = {"": 1.0, "k": 1.0, "m": 1024.0, "g": 1024.0 * 1024.0}  # K/sec scaled by 1024
_LATENCY_UNIT = {"us": 1.0, "ms": 1e3, "s": 1e6}
_NUM_SUFFIX = re.compile(r"(\d+(?:\.(\d+))?)([kmg]?)")
_LATENCY = re.compile(r"(?<!\d)(\d+(?:\.\d+)?)(us|ms|s)")  # not from inside a number


@dataclass(slots=True)
class _Cell:
    """One printed cell: a value, or why there is none (`+++++`, blank, unreadable)."""

    metric: str
    label: str
    unit: str
    value: float | None = None
    status: str = OK
    raw: str = ""
    tol: float = 0.0  # half the printed resolution, for cross-checks (0: exact)
    alignment: str = EXACT
    line: int | None = None


def _cell(metric: str, label: str, tok: str | None, kind: str, line: int | None,
          *, plain_ok: bool = True) -> _Cell:
    """Read one token. kind: rate (K/sec, k/m/g allowed), count (/sec), cpu, latency (to us).

    plain_ok=False: a number without a k/m/g suffix has no known scale (bonnie++ 2.0x text).
    """
    unit = {"rate": "K/sec", "count": "/sec", "cpu": "%CPU", "latency": "us"}[kind]
    c = _Cell(metric, label, unit, raw=tok or "", line=line)
    if tok is None or tok == "":
        c.status = NOT_RUN
    elif set(tok) == {"+"}:
        c.status = TOO_FAST
    elif kind == "latency":
        m = _LATENCY.fullmatch(tok)
        if m:
            c.value = float(m.group(1)) * _LATENCY_UNIT[m.group(2)]
        else:
            c.status = UNREADABLE
    else:
        m = _NUM_SUFFIX.fullmatch(tok)
        suffix = m.group(3) if m else ""
        if m is None or (suffix and kind != "rate") or (not suffix and not plain_ok):
            c.status = UNREADABLE
        else:
            mult = _RATE_SUFFIX[suffix]
            c.value = float(m.group(1)) * mult
            if suffix and mult != 1.0:  # 2.0x prints 728m / 1.1g: rounded, compare with tolerance
                decimals = len(m.group(2) or "")
                c.tol = 0.5 * 10.0**-decimals * mult
            elif metric == "random_seeks" and m.group(2) is None:
                c.tol = 0.5  # text prints seeks >= 1000 with %5.0f, the CSV with %.1f
    return c


@dataclass(slots=True, eq=False)
class _Draft:
    """A run being assembled from one or more printed forms."""

    line_start: int
    line_end: int
    system: str | None = None
    tool_version: str | None = None
    io_params: dict[str, str] = field(default_factory=dict)
    file_params: dict[str, str] = field(default_factory=dict)
    cells: list[_Cell] = field(default_factory=list)
    attributes: dict[str, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    caption: str | None = None
    reason: str | None = None  # set: recognised but not readable (unparsed run)
    repeat: str | None = None
    merged: bool = False
    listed: bool = False  # already in the parser's output list
    fragment: bool = False  # the rest of a row that starts in another quote segment

    def cell(self, metric: str) -> _Cell | None:
        return next((c for c in self.cells if c.metric == metric), None)


def _to_run(d: _Draft) -> Run:
    if d.reason:
        return Run(benchmark="bonnie", results=[], tool_version=d.tool_version, system=d.system,
                   caption=d.caption, line_start=d.line_start, line_end=d.line_end,
                   attributes=dict(d.attributes), notes=list(d.notes), status="unparsed",
                   reason=d.reason)
    results: list[Result] = []
    notes = list(d.notes)
    for c in d.cells:
        if c.status == OK and c.value is not None:
            params = dict(d.file_params if c.metric in _FILE_METRICS else d.io_params)
            if d.repeat:
                params["repeat"] = d.repeat
            results.append(Result(metric=c.metric, metric_label=c.label, value=c.value, unit=c.unit,
                                  params=params, alignment=c.alignment, line=c.line))
        elif c.status == TOO_FAST:
            notes.append(f"{c.metric}: '{c.raw}' (too fast to measure; no value)")
        elif c.status == NOT_RUN:
            notes.append(f"{c.metric}: blank (test not run)")
        elif c.status == CUT:
            notes.append(f"{c.metric}: {c.raw} (the mailer wrapped the CSV line there; no value)")
        else:
            notes.append(f"{c.metric}: unreadable cell {c.raw!r}")
    return Run(benchmark="bonnie", results=results, tool_version=d.tool_version, system=d.system,
               caption=d.caption, line_start=d.line_start, line_end=d.line_end,
               attributes=dict(d.attributes), notes=notes)


# --------------------------------------------------------------------------- shared helpers

_DECORATION = re.compile(r"```.*|[-=_~#*]{3,}")
_SPACES = str.maketrans({"\xa0": " ", "\u2007": " ", "\u2009": " ", "\u202f": " "})


def _clean(line: str) -> str:
    """Undo mail/forum damage that keeps columns: non-breaking spaces, Markdown bold."""
    return line.translate(_SPACES).replace("**", "").rstrip()


def _caption_above(lines: list[str], start: int) -> str | None:
    """A one-line paragraph right above a block (e.g. `2.4.6.pre3 before`), if there is one."""
    k = start - 1
    while k >= 0 and (not lines[k].strip() or _DECORATION.fullmatch(lines[k].strip())):
        k -= 1  # blank lines, code fences, underlines
    if k < 0:
        return None
    text = lines[k].strip()
    if k > 0 and lines[k - 1].strip() and not _DECORATION.fullmatch(lines[k - 1].strip()):
        return None  # last line of a longer paragraph, not a caption
    if len(text) > 80 or text.endswith("?") or re.search(r"[Bb]onnie|^[#$%>]|\.\.\.|(?<!\S)[^\s@]*+@\S+[:\s]", text):
        return None
    return text


_COMMAND = re.compile(r"(?<![\w.+-])[Bb]onnie(?:\+\+)?(?![\w+])(?P<args>(?:\s+-[A-Za-z]\S*(?:\s+[^\s-]\S*)?)+)")
_OPTION_ATTRIBUTE = {"d": "dir", "s": "size_arg", "m": "machine_arg", "n": "files_arg"}


def _command_attributes(line: str) -> dict[str, str] | None:
    """`./Bonnie -d /tmp -s 1500 -m Pardus` (any prompt before it) as run attributes."""
    best: dict[str, str] | None = None
    if "onnie" not in line:
        return None
    for m in _COMMAND.finditer(line):
        start = max(line.rfind(" ", 0, m.start()), line.rfind("\t", 0, m.start())) + 1
        attrs = {"command": line[start : m.end()].strip()}
        toks = m.group("args").split()
        for k, tok in enumerate(toks):
            if re.fullmatch(r"-[A-Za-z]\S*", tok):
                value = tok[2:] or (toks[k + 1] if k + 1 < len(toks) and not toks[k + 1].startswith("-")
                                    else "")
                key = _OPTION_ATTRIBUTE.get(tok[1])
                if key and value:
                    attrs[key] = value
        if len(attrs) > 1 and (best is None or len(attrs) > len(best)):
            best = attrs
    return best


# a table header that closes its segment: in a quoted post the mailer's wrap moves every long
# line's rest out of the quote, so the rows often end up in segments of their own
_SPLIT_OFF = ("Bonnie table header without rows in its quote segment "
              "(rows split off by quoting or wrapping?)")
_PP_SPLIT_OFF = _SPLIT_OFF.replace("Bonnie", "bonnie++")

# ----------------------------------------------------------------------- bonnie++ cells and sizes
# (its text tables and its CSV lines print them alike)

_RATE_TOK = re.compile(r"\+{5}|\d+(?:\.\d+)?[kmg]?")
_CPU_TOK = re.compile(r"\+{3}|\d+")
_SIZE_TOK = re.compile(r"(?<!\d)(?P<n>\d+)(?P<u>[MG])(?::(?P<chunk>\d+)(?P<cu>[kKmM]?))?")
_FILES_TOK = re.compile(r"(?P<n>\d+)(?::(?P<max>\d+|link|symlink)(?::(?P<min>\d+))?)?(?:/(?P<dirs>\d+))?")


def _version_at_least(version: str, major: int, minor: int) -> bool:
    m = re.match(r"(\d+)\.(\d+)", version)
    return bool(m) and (int(m.group(1)), int(m.group(2))) >= (major, minor)


def _size_params(spec: str | None) -> dict[str, str]:
    """`4G` -> 4096 MB, `4018M`, `1G:32k` (non-default chunk) -> file size and chunk size."""
    m = _SIZE_TOK.fullmatch(spec or "")
    if not m:
        return {}
    params = {"file_size_mb": str(int(m.group("n")) * (1024 if m.group("u") == "G" else 1))}
    if m.group("chunk"):
        mult = {"": 1, "k": 1024, "K": 1024, "m": 1024 * 1024, "M": 1024 * 1024}[m.group("cu")]
        params["chunk_size_bytes"] = str(int(m.group("chunk")) * mult)
    return params


def _files_params(num: str, max_size: str = "", min_size: str = "", dirs: str = "") -> dict[str, str]:
    """The files column counts in units of 1024 files; `16:100:10/5` adds max:min size and dirs."""
    if m := _FILES_TOK.fullmatch(num):
        num, max_size = m.group("n"), m.group("max") or max_size
        min_size, dirs = m.group("min") or min_size, m.group("dirs") or dirs
    elif not num.isdigit():
        return {}
    params = {"num_files": str(int(num) * 1024)}
    if max_size in ("link", "symlink"):
        params["file_kind"] = max_size
    elif max_size.isdigit():
        params["file_max_size_bytes"] = max_size
        if min_size.isdigit():
            params["file_min_size_bytes"] = min_size
    if dirs.isdigit() and int(dirs) > 1:
        params["num_dirs"] = dirs
    return params


def _cells_fit(cells: list[str | None]) -> bool:
    return all(t is None or (_RATE_TOK if k % 2 == 0 else _CPU_TOK).fullmatch(t) for k, t in enumerate(cells))
