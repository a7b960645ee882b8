"""Helpers shared by the benchmarks: repo paths, timing, plain-text tables, fixture rows."""

from __future__ import annotations

import os
import platform
import shlex
import statistics
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # `tests.transforms.parsers.fixtures_io` and the project packages
    sys.path.insert(0, str(ROOT))

os.environ.setdefault("GX_ANALYTICS_ENABLED", "False")
os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")


def command_line(module: str, argv: Sequence[str] | None) -> str:
    """The exact command that reproduces this run (printed at the top of every report)."""
    args = list(sys.argv[1:] if argv is None else argv)
    return " ".join([".venv/bin/python", "-m", module, *map(shlex.quote, args)])


def header(title: str, module: str, argv: Sequence[str] | None) -> str:
    return "\n".join([
        f"== {title} ==",
        f"command: {command_line(module, argv)}",
        f"host: {platform.node()} python {platform.python_version()} cpus {os.cpu_count()} "
        f"at {time.strftime('%Y-%m-%d %H:%M:%S')}",
    ])


class Clock:
    """Accumulates wall time per label."""

    def __init__(self) -> None:
        self.t: dict[str, float] = {}

    @contextmanager
    def __call__(self, label: str) -> Iterator[None]:
        t0 = time.perf_counter()
        try:
            yield
        finally:
            self.t[label] = self.t.get(label, 0.0) + time.perf_counter() - t0


def timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    t0 = time.perf_counter()
    out = fn()
    return time.perf_counter() - t0, out


def median_time(fn: Callable[[], Any], repeat: int) -> tuple[float, list[float], Any]:
    times, out = [], None
    for _ in range(max(1, repeat)):
        dt, out = timed(fn)
        times.append(dt)
    return statistics.median(times), times, out


def table(headers: Sequence[str], rows: Sequence[Sequence[Any]], indent: str = "  ") -> str:
    """A plain-text table: numbers right-aligned, text left-aligned."""
    cells = [[_cell(v) for v in r] for r in rows]
    widths = [max([len(h)] + [len(r[i]) for r in cells]) for i, h in enumerate(headers)]
    numeric = [all(_is_num(r[i]) for r in rows) and bool(rows) for i in range(len(headers))]

    def line(vals: Sequence[str]) -> str:
        out = [v.rjust(w) if num else v.ljust(w) for v, w, num in zip(vals, widths, numeric, strict=True)]
        return (indent + "  ".join(out)).rstrip()

    return "\n".join([line(list(headers)), line(["-" * w for w in widths]), *(line(r) for r in cells)])


def _is_num(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) or v is None


def _cell(v: Any) -> str:
    if v is None:
        return "-"
    if isinstance(v, bool):
        return str(v)
    if isinstance(v, float):
        return f"{v:.3f}" if abs(v) < 100 else f"{v:,.1f}"
    if isinstance(v, int):
        return f"{v:,}"
    return str(v)


def ratio(a: float, b: float) -> float | None:
    return a / b if b > 0 else None


def human_bytes(n: float) -> str:
    for unit in ("B", "KiB", "MiB", "GiB"):
        if n < 1024 or unit == "GiB":
            return f"{n:.1f} {unit}" if unit != "B" else f"{int(n)} B"
        n /= 1024
    return f"{n:.1f} GiB"


def fixture_records(message_prefix: str = "fixture") -> list[tuple[Path, Any]]:
    """Every golden fixture extracted into `Records` the way ingest does (`add_runs`).

    Returns [(fixture path, Records with runs/results/quarantine)], message_id
    `<prefix>-<benchmark>-<case>`, batch_id `template`.
    """
    from bench.golden import all_fixtures, fixture_body
    from transforms.extract import extract_runs
    from transforms.records import Records, add_runs

    out = []
    for path in all_fixtures():
        mid = f"{message_prefix}-{path.parent.name}-{path.stem}"
        rec = Records()
        runs = extract_runs(fixture_body(path), mid)
        add_runs(rec, runs, mid, list_name="bench", batch_id="template")
        out.append((path, rec))
    return out
