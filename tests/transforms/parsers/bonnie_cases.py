"""Bonnie test helpers shared by the Bonnie parser tests."""

from __future__ import annotations

import re

from tests.transforms.parsers.fixtures_io import FIXTURES, fixture_body
from transforms.extract import extract_runs
from transforms.rows import result_rows

HERE = FIXTURES / "bonnie"


IO = ("seq_output_char", "seq_output_block", "seq_rewrite", "seq_input_char", "seq_input_block",
      "random_seeks")  # fmt: skip


FILES = ("seq_create", "seq_stat", "seq_delete", "random_create", "random_stat", "random_delete")


def _fixture(name: str) -> str:
    return fixture_body(HERE / f"{name}.txt")


def _extracted(body: str) -> list:
    return [er for er in extract_runs(body, "t") if er.parser.name == "bonnie"]


def _rows(body: str) -> list[dict]:
    return [r for r in result_rows(_extracted(body)) if r["benchmark"] == "bonnie"]


def _by_run(body: str) -> list[tuple[str | None, str | None, bool, dict[str, float]]]:
    """(system, repeat, quoted, {metric: value}) per ok run, in message order."""
    out = []
    for er in _extracted(body):
        if er.run.status != "ok" or not er.run.results:
            continue
        repeats = {r.params.get("repeat") for r in er.run.results}
        assert len(repeats) == 1
        values = {r.metric: r.value for r in er.run.results}
        assert len(values) == len(er.run.results), "a metric emitted twice in one run"
        out.append((er.run.system, repeats.pop(), er.quoted, values))
    return out


def _cells(tests: tuple[str, ...], printed: str) -> dict[str, float]:
    """`16092 36 9563 1 ...` as printed (rate, CPU pairs; `+++++`/`+++`/`_` = no value)."""
    toks = printed.split()
    assert len(toks) == 2 * len(tests)
    out: dict[str, float] = {}
    for k, test in enumerate(tests):
        rate, cpu = toks[2 * k], toks[2 * k + 1]
        if rate not in ("+++++", "_"):
            out[test] = float(rate)
        if cpu not in ("+++", "_"):
            out[f"{test}_cpu"] = float(cpu)
    return out


def _latency(tests: tuple[str, ...], printed: str) -> dict[str, float]:
    mult = {"us": 1.0, "ms": 1e3, "s": 1e6}
    out = {}
    for test, tok in zip(tests, printed.split(), strict=True):
        if tok != "_":
            n, unit = re.fullmatch(r"(\d+)(us|ms|s)", tok).groups()
            out[f"{test}_latency"] = float(n) * mult[unit]
    return out


def _bench_wrap(text: str) -> str:
    """The wrap transform of bench.extraction: lines over 76 columns broken at 72."""
    from bench.extraction import wrap as bench_wrap

    return bench_wrap(text)


def _pp_table(rows: str) -> str:
    return (
        "Version  1.03       ------Sequential Output------ --Sequential Input- --Random-\n"
        "                    -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--\n"
        "Machine        Size K/sec %CP K/sec %CP K/sec %CP K/sec %CP K/sec %CP  /sec %CP\n"
        + rows
    )
