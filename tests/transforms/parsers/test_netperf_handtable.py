"""Hand-made netperf tables: a test title, a `size <config> ...` header and a row per size."""

from __future__ import annotations

import pytest

from tests.transforms.parsers.damage import collapse, crlf, quote
from tests.transforms.parsers.fixtures_io import fixture_body
from tests.transforms.parsers.netperf_cases import (
    NETPERF,
    assert_rows,
    fixture_rows,
    got,
    np_rows,
    np_runs,
    ordered,
    parse_text,
    quoted,
    row,
    wrap,
)

SEED_RR = """
size kvm.rtl kvm.pv xen.pv xen.um kvm.lo
1 2191.47 9533.74 18052.37 13593.58 42400.73
64 2184.30 9518.13 17979.93 13557.98 42260.53
128 2177.52 9482.45 17940.08 13588.54 40983.90
256 2160.49 9465.97 17788.21 13492.42 41170.45
512 2130.99 9403.33 17655.11 13489.64 40765.26
1024 2074.85 9204.90 17293.06 13572.01 39437.78
2048 416.18 4750.41 12907.57 11571.07 37252.42
4096 265.22 3691.90 10990.67 9943.64 31905.03
8192 116.80 1892.25 8439.83 6604.64 24397.95
16384 92.06 1004.58 4535.86 3924.68 17460.30
"""

SEED_STREAM = """
size kvm.rtl kvm.pv xen.pv xen.um kvm.lo
2048 33.06 507.21 555.94 1442.38 5409.73
4096 33.16 526.75 848.26 2359.42 6152.48
8192 33.13 527.99 997.69 2418.87 7267.73
16384 33.08 525.95 1107.64 2379.50 8434.29
32768 33.13 525.38 1199.08 2375.81 8857.09
65536 33.20 523.39 1255.33 2473.92 9248.35
131072 33.11 520.87 1292.54 2605.49 8559.21
"""

def table_rows(table: str, metric: str, unit: str, test: str, quoted: bool = False) -> list[tuple]:
    lines = table.split("\n")[1:-1]
    systems = lines[0].split()[1:]
    out = []
    for line in lines[1:]:
        size, *cells = line.split()
        out += [
            row(metric, float(v), unit, s, quoted, test=test, size=size)
            for s, v in zip(systems, cells, strict=True)
        ]
    return out

SEED_EXPECTED = table_rows(SEED_RR, "transaction_rate", "trans/s", "TCP_RR") + table_rows(
    SEED_STREAM, "throughput", "Mbit/s", "TCP_STREAM"
)

def test_seed_every_cell():
    rows = fixture_rows("seed_002")
    assert len(SEED_EXPECTED) == 85 and len(rows) == 85
    assert_rows(rows, SEED_EXPECTED)
    assert {r["system"] for r in rows} == {"kvm.rtl", "kvm.pv", "xen.pv", "xen.um", "kvm.lo"}
    cell = [
        r
        for r in rows
        if r["system"] == "xen.um" and r["params"] == {"test": "TCP_STREAM", "size": "131072"}
    ]
    assert [c["value"] for c in cell] == [2605.49]

def test_seed_runs_carry_version_and_caption():
    runs = np_runs(fixture_body(NETPERF / "seed_002.txt"))
    assert [er.run.tool_version for er in runs] == ["2.4.3", "2.4.3"]
    assert [er.run.caption for er in runs] == [
        "TCP REQUEST/RESPONSE (Trans. Rate per sec)",
        "TCP STREAM (Throughput 10^6bits/sec)",
    ]
    assert [len(er.run.results) for er in runs] == [50, 35]

@pytest.mark.parametrize("damage", [quote, collapse, lambda t: crlf(t), wrap])  # names are the ids
def test_seed_tables_survive_mail_damage(damage):
    text = damage(fixture_body(NETPERF / "seed_002.txt"))
    expected = quoted(SEED_EXPECTED) if damage is quote else ordered(SEED_EXPECTED)
    assert got(np_rows(text)) == expected


def test_hand_table_with_wrapped_row():
    text = "UDP REQUEST/RESPONSE (Trans. Rate per sec)\nsize guest-a guest-b guest-c\n1 2191.47 9533.74\n18052.37\n64 2184.30 9518.13 17979.93\n"
    (run,) = parse_text(text)
    assert [(r.system, r.params["size"], r.value) for r in run.results] == [
        ("guest-a", "1", 2191.47),
        ("guest-b", "1", 9533.74),
        ("guest-c", "1", 18052.37),
        ("guest-a", "64", 2184.30),
        ("guest-b", "64", 9518.13),
        ("guest-c", "64", 17979.93),
    ]
    assert {r.params["test"] for r in run.results} == {"UDP_RR"}
