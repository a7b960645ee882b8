"""netperf omni output: `-k` key=value lines and `-o` CSV after a banner, header wrapped or not."""

from __future__ import annotations

from tests.transforms.parsers.fixtures_io import fixture_body
from tests.transforms.parsers.netperf_cases import (
    NETPERF,
    assert_rows,
    fixture_rows,
    np_rows,
    np_runs,
    row,
)


def test_pkb_omni_csv_wrapped_header():
    p = {"test": "UDP_RR"}
    assert_rows(
        fixture_rows("pkb_omni_csv"),
        [
            row("transaction_rate", 2217.06, "trans/s", **p),
            row("latency_p50", 442.0, "us", **p),
            row("latency_p90", 487.0, "us", **p),
            row("latency_p99", 589.0, "us", **p),
            row("latency_stddev", 81.26, "us", **p),
            row("latency_min", 361.0, "us", **p),
            row("latency_max", 9688.0, "us", **p),
        ],
    )
    (run,) = [er.run for er in np_runs(fixture_body(NETPERF / "pkb_omni_csv.txt"))]
    assert run.attributes["confidence_iteration"] == "1"
    assert run.attributes["throughput_confid"] == "-1.000"

def test_omni_csv_one_value_beyond_the_header_is_noted_not_fatal():
    """UDP_RR / UDP_STREAM print a trailing `-1` the header does not name."""
    body = fixture_body(NETPERF / "pkb_omni_csv.txt")
    line = "2217.06,Trans/s,442,487,589,81.26,361,9688,1,-1.000"
    assert line in body
    extra = body.replace(line, line + ",-1")
    assert np_rows(extra) == np_rows(body)
    (run,) = [er.run for er in np_runs(extra)]
    assert run.status == "ok"
    assert any("'-1' beyond the 10 named columns" in n for n in run.notes)
    (two,) = [er.run for er in np_runs(body.replace(line, line + ",-1,-1"))]
    assert two.status == "unparsed"
    assert two.reason == "omni CSV has 10 columns but 12 values"

def test_omni_keyval_rr_with_f_m_is_mbit():
    p = {"test": "TCP_RR", "size": "742", "resp_size": "1"}
    assert_rows(
        fixture_rows("omni_keyval"),
        [
            row("throughput", 3180.24, "Mbit/s", test="TCP_STREAM", size="742"),
            row("latency_min", 49.0, "us", **p),
            row("latency_p50", 77.0, "us", **p),
            row("latency_p90", 108.0, "us", **p),
            row("latency_p99", 123.0, "us", **p),
            row("latency_max", 263.0, "us", **p),
            row(
                "throughput", 75.78, "Mbit/s", **p
            ),  # -f m on TCP_RR: netperf reports Mbit/s, not Trans/s
            row("latency_mean", 78.26, "us", **p),
        ],
    )


# https://lore.kernel.org/linux-mm/4E695B3D.7060804@hp.com/ (2011, confidence intervals): the banner's
# tail wrapped twice by the mailer, `conf.  : histogram : first burst 0` on a line of its own
WRAPPED_BANNER = """\
raj@tardy:~/netperf2_trunk$ src/netperf -t TCP_RR -i 30,3 -I 99,1 -- -k
throughput,confidence_level,confidence_interval,confidence_iteration,throughput_confid
MIGRATED TCP REQUEST/RESPONSE TEST from 0.0.0.0 (0.0.0.0) port 0 AF_INET
to localhost.localdomain (127.0.0.1) port 0 AF_INET : +/-0.500% @ 99%
conf.  : histogram : first burst 0
THROUGHPUT=55555.94
CONFIDENCE_LEVEL=99
CONFIDENCE_INTERVAL=1.000000
CONFIDENCE_ITERATION=26
THROUGHPUT_CONFID=0.984
"""


def test_omni_keyval_under_a_banner_wrapped_after_its_confidence():
    found = np_rows(WRAPPED_BANNER)
    assert [(r["metric"], r["value"], r["unit"], r["params"].get("test")) for r in found
            if r["metric"] == "transaction_rate"] == [("transaction_rate", 55555.94, "trans/s", "TCP_RR")]
