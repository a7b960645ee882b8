"""netperf `-P 0` lines: read only under the netperf command line that says what they hold."""

from __future__ import annotations

from tests.transforms.parsers.netperf_cases import (
    assert_rows,
    fixture_rows,
    np_runs,
    parse_text,
    row,
    rr_cpu,
    udp,
)


def test_bare_omni_csv_with_a_trailing_extra_value():
    text = "$ netperf -P 0 -t UDP_RR -H h -- -o THROUGHPUT,THROUGHPUT_UNITS,P99_LATENCY\n4086.70,Trans/s,406,-1\n"
    (run,) = [er.run for er in np_runs(text)]
    assert run.status == "ok"
    assert sorted((r.metric, r.value) for r in run.results) == [("latency_p99", 406.0), ("transaction_rate", 4086.7)]
    assert any("beyond the 3 selectors" in n for n in run.notes)

def test_p0_lines_read_from_the_command_line():
    assert_rows(
        fixture_rows("pzero_printf"),
        [
            row("throughput", 9387.54, "Mbit/s", test="TCP_STREAM", size="16384"),
            *rr_cpu("TCP_RR", "1", "1", 16941.71, 0.19, 0.19, 7.881, 8.053),
            *udp("1400", 2351702.00, 2351611.42, unit="Kbit/s"),
            row("transaction_rate", 9502.73, "trans/s", test="TCP_RR"),
            row("throughput", 1.09, "GB/s", "kvm-virtio", test="TCP_STREAM", size="16384"),
            row("latency_p50", 34.0, "us", test="TCP_RR", size="1", resp_size="1"),
            row("latency_p90", 41.0, "us", test="TCP_RR", size="1", resp_size="1"),
            row("latency_p99", 57.0, "us", test="TCP_RR", size="1", resp_size="1"),
        ],
    )

def test_v0_with_cpu_flag_is_service_demand():
    (run,) = parse_text("$ netperf -P 0 -v 0 -c -H h -- -m 1024\n 3.102 S\n")
    (r,) = run.results
    assert (r.metric, r.value, r.unit, r.params) == (
        "service_demand_local",
        3.102,
        "us/KB",
        {"test": "TCP_STREAM", "size": "1024"},
    )

def test_bare_numbers_without_p0_command_are_not_read():
    assert parse_text("$ netperf -H h -l 10\n 87380 16384 16384 10.00 941.10\n") == []
    assert parse_text(" 87380  16384  16384    10.00    9401.11\n") == []
