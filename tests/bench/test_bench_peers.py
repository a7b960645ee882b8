"""bench.peers: the peers' expected values are read from their files and counted honestly."""

from __future__ import annotations

import json

from bench.golden import FIXTURES
from bench.peers import expected_of, found, measure, peer_cases


def test_every_peer_file_sits_beside_a_golden_fixture_with_its_source():
    cases = peer_cases()
    assert len(cases) >= 5
    for path in cases:
        first = path.read_text(encoding="utf-8").split("\n", 1)[0]
        assert first.startswith("Source:") and path.with_suffix(".expected.jsonl").exists()
        for e in expected_of(path):
            assert e.peer in ("lkp-tests", "PerfKitBenchmarker", "VirtualClient")


def test_a_value_counts_only_in_its_metric_and_unit():
    (e,) = [x for x in expected_of(FIXTURES / "iperf" / "json_iperf316_lkp_tcp.txt") if x.key == "tcp.sender.bps"]
    row = {"metric": "throughput", "value": 2348.79024645, "unit": "Mbit/s"}
    assert found(e, [row])  # bit/s vs Mbit/s
    assert not found(e, [{**row, "metric": "cpu_host"}])
    assert not found(e, [{**row, "value": 2300.0}])


def test_measure_counts_printed_values_and_lists_what_is_missed(tmp_path):
    d = tmp_path / "iperf"
    d.mkdir()
    (d / "x.txt").write_text("Source: test\n[  3]  0.0-10.0 sec  1.10 GBytes   943 Mbits/sec\n", encoding="utf-8")
    lines = [{"peer": "p", "key": "bw", "value": 943.0, "unit": "Mbit/s", "metric": "throughput"},
             {"peer": "p", "key": "rtt", "value": 12.0, "unit": "us", "metric": "rtt"},
             {"peer": "p", "key": "avg", "value": 900.0, "printed": False}]
    (d / "x.peer.jsonl").write_text("\n".join(json.dumps(x) for x in lines), encoding="utf-8")
    by_bench, by_peer, misses = measure(tmp_path)
    t = by_bench["iperf"]
    assert (t.expected, t.found, t.computed) == (2, 1, 1)
    assert [m.key for m in misses] == ["rtt"] and by_peer["p"].found == 1


def test_a_value_our_rows_keep_as_a_parameter_is_found_in_the_params():
    path = FIXTURES / "dbench" / "lkp_tbench4_32_clients_localhost.txt"
    (e,) = [x for x in expected_of(path) if x.key == "clients"]
    assert e.param == "clients" and e.value == 32
    row = {"metric": "throughput", "value": 3789.19, "unit": "MB/s", "params": {"clients": "32", "procs": "32"}}
    assert found(e, [row])
    assert not found(e, [{**row, "value": 32.0, "params": {"clients": "16"}}])  # a value 32 is no client count
    assert not found(e, [{**row, "metric": "max_latency"}])
