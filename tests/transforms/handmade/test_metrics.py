"""The metric registry's synonyms: labels people print mean the parsers' metrics."""

from __future__ import annotations

import pytest

from transforms.handmade.metrics import canonical, metric_in


# https://lore.kernel.org/netdev/20230214213003.2117125-4-anthony.l.nguyen@intel.com/ prints the heads
# of `netperf -t TCP_RR ... -O MIN_LATENCY,P90_LATENCY,P99_LATENCY,TRANSACTION_RATE`
@pytest.mark.parametrize(("label", "metric"), [
    ("Minimum Latency", "latency_min"), ("90th Percentile Latency", "latency_p90"),
    ("99th Percentile Latency", "latency_p99"), ("P90_LATENCY", "latency_p90"), ("Transaction Rate", "transaction_rate"),
    ("MEAN_LATENCY", "latency_mean"), ("Round Trip Latency", "rt_latency"),
])
def test_netperf_omni_selectors_and_their_printed_heads_are_one_metric(label, metric):
    assert canonical("netperf", label) == metric


def test_a_latency_of_another_tool_is_not_netperfs():
    assert canonical("iperf", "90th Percentile Latency") is None


def test_a_rate_per_so_many_seconds_is_no_unit_of_seconds():
    from transforms.handmade.metrics import unit_in

    assert unit_in("Here results are throughput (compilations per 1000 sec)") is None
    assert unit_in("ops per sec") is None
    assert unit_in("time in sec") == "s" and unit_in("latency (usec)") == "us"


def test_a_count_of_times_after_the_tool_is_no_argument_of_it():
    # https://lore.kernel.org/linux-pm/20230710093100.918337-1-dedekind1@gmail.com/
    assert metric_in("hackbench", 'I ran hackbench 5 times for every configuration and compared hackbench "score"') \
        == "hackbench"
    # https://lore.kernel.org/lkml/01012410034100.03192@spc.esa.lanl.gov/ : runs of `dbench 48`, 48 its clients
    assert metric_in("dbench", "Here are two sets of dbench 48 runs with that mod.") == "dbench 48"
