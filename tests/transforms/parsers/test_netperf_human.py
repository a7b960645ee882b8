"""netperf's omni output for people (`-O` selectors): stacked column names, then the values."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from transforms.extract import extract_runs
from transforms.model import Segment
from transforms.numbers import parse_number
from transforms.parsers.netperf.human import human_at
from transforms.rows import result_rows

# https://lore.kernel.org/netdev/20230214213003.2117125-4-anthony.l.nguyen@intel.com/ (its lines)
ICE = """\
Tested:
netperf -t TCP_RR -H 2001:db8:0:f101::1  -- -r80000,80000 -O MIN_LATENCY,P90_LATENCY,P99_LATENCY,TRANSACTION_RATE

Tested on two different setups. In both cases, the following settings were
applied after loading the changed driver:

ip link set dev enp175s0f1np1 gso_max_size 130000
ip link set dev enp175s0f1np1 gro_max_size 130000
ip link set dev enp175s0f1np1 mtu 9000

First setup:
Before:
Minimum      90th         99th         Transaction
Latency      Percentile   Percentile   Rate
Microseconds Latency      Latency      Tran/s
             Microseconds Microseconds
134          279          410          3961.584

After:
Minimum      90th         99th         Transaction
Latency      Percentile   Percentile   Rate
Microseconds Latency      Latency      Tran/s
             Microseconds Microseconds
135          178          216          6093.404
"""


def test_stacked_column_names_over_the_values_are_read_with_the_commands_test():
    rows = result_rows(extract_runs(ICE, "n"))
    got = [(r["system"], r["metric"], r["value"], r["unit"], r["params"]) for r in rows]
    params = {"test": "TCP_RR", "size": "80000", "resp_size": "80000"}
    assert got == [
        ("Before", "latency_min", 134.0, "us", params), ("Before", "latency_p90", 279.0, "us", params),
        ("Before", "latency_p99", 410.0, "us", params), ("Before", "transaction_rate", 3961.584, "trans/s", params),
        ("After", "latency_min", 135.0, "us", params), ("After", "latency_p90", 178.0, "us", params),
        ("After", "latency_p99", 216.0, "us", params), ("After", "transaction_rate", 6093.404, "trans/s", params)]


def test_a_table_whose_columns_are_no_netperf_names_is_not_read_as_one():
    lines = ["Minimum      Maximum", "Latency      Speed", "134          279"]
    assert human_at(Segment(lines=lines), lines, 0, None) is None
    lines = ["Minimum      Maximum", "Latency      Latency", "Microseconds Microseconds", "134          279"]
    found = human_at(Segment(lines=lines), lines, 0, None)
    assert found is not None and [r.value for r in found[0][0].results] == [134.0, 279.0]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(alphabet=st.sampled_from(list("MinmuLatecyRrT90th 1234.")), max_size=40), max_size=8))
def test_never_raises_and_reads_only_numbers_under_names(lines):
    norm = [" ".join(x.split()) for x in lines]
    for i in range(len(lines)):
        found = human_at(Segment(lines=lines), norm, i, None)
        if found is not None:
            printed = {parse_number(tok) for line in lines for tok in line.split()}
            for run in found[0]:
                assert all(r.value in printed for r in run.results)
