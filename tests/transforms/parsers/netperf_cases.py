"""netperf test helpers shared by the netperf parser tests."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from tests.transforms.parsers.damage import wrap as rewrap
from tests.transforms.parsers.fixtures_io import FIXTURES, fixture_body, rows_of
from transforms.extract import extract_runs
from transforms.parsers import netperf
from transforms.quotes import segments

NETPERF = FIXTURES / "netperf"


def np_rows(text: str) -> list[dict[str, Any]]:
    return [r for r in rows_of(text) if r["benchmark"] == "netperf"]


def fixture_rows(name: str) -> list[dict[str, Any]]:
    return np_rows(fixture_body(NETPERF / f"{name}.txt"))


def np_runs(text: str) -> list:
    return [er for er in extract_runs(text, "t") if er.parser.name == "netperf"]


def row(
    metric: str,
    value: float,
    unit: str,
    system: str | None = None,
    quoted: bool = False,
    **params: str,
):
    return (system, metric, tuple(sorted(params.items())), value, unit, quoted)


def ordered(items) -> list[tuple]:
    return sorted(items, key=repr)


def got(rows: list[dict[str, Any]]) -> list[tuple]:
    return ordered(
        (
            r["system"],
            r["metric"],
            tuple(sorted(r["params"].items())),
            r["value"],
            r["unit"],
            r["quoted"],
        )
        for r in rows
    )


def assert_rows(rows: list[dict[str, Any]], expected: list[tuple]) -> None:
    assert all(r["alignment"] == "exact" and r["statistic"] == "value" for r in rows)
    assert got(rows) == ordered(expected)


def rr_cpu(
    test: str,
    req: str,
    resp: str,
    rate: float,
    cpu_l: float,
    cpu_r: float,
    sd_l: float,
    sd_r: float,
    quoted: bool = False,
    system: str | None = None,
) -> list[tuple]:
    p = {"test": test, "size": req, "resp_size": resp}
    return [
        row("transaction_rate", rate, "trans/s", system, quoted=quoted, **p),
        row("cpu_util_local", cpu_l, "%CPU", system, quoted=quoted, **p),
        row("cpu_util_remote", cpu_r, "%CPU", system, quoted=quoted, **p),
        row("service_demand_per_tran_local", sd_l, "us/Tr", system, quoted=quoted, **p),
        row("service_demand_per_tran_remote", sd_r, "us/Tr", system, quoted=quoted, **p),
    ]


def udp(
    size: str,
    send: float,
    recv: float,
    unit: str = "Mbit/s",
    system: str | None = None,
    test: str = "UDP_STREAM",
) -> list[tuple]:
    return [
        row("throughput", send, unit, system, test=test, size=size, side="send"),
        row("throughput", recv, unit, system, test=test, size=size, side="recv"),
    ]


def parse_text(text: str) -> list:
    return [run for seg in segments(text) for run in netperf.parse(seg)]


rate = st.floats(0, 999_999, allow_nan=False)


def wrap(text: str) -> str:
    """netperf tables re-wrapped narrower than most mailers do, trailing blanks dropped first."""
    return rewrap(text, 50, rstrip=True)


def quoted(expected: list[tuple]) -> list[tuple]:
    return ordered((*r[:5], True) for r in expected)
