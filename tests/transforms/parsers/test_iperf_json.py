"""iperf3 -J output: the real fixtures' cells, shapes derived from them, then properties.

Properties: random JSON and documents cut short never make the parser or the driver raise; a
document re-serialised with other whitespace or key order gives the same rows.
"""

from __future__ import annotations

import copy
import json

from hypothesis import given
from hypothesis import strategies as st

from tests.transforms.parsers.damage import assert_sane
from tests.transforms.parsers.fixtures_io import FIXTURES, canonical, fixture_body, rows_of
from tests.transforms.parsers.helpers import json_document_tests, json_values, property_settings
from transforms.extract import extract_runs
from transforms.parsers.iperf import PARSER

DIR = FIXTURES / "iperf"
TCP = fixture_body(DIR / "json_iperf39_cloudpilot_tcp.txt")
POST = fixture_body(DIR / "json_iperf313_selfhealing_udp_text_and_json.txt")
UDP = POST[POST.index("{") : POST.rindex("}") + 1]
DOCS = [TCP, UDP]
SETTINGS = property_settings(40)


def iperf_runs(text: str) -> list:
    return [er.run for er in extract_runs(text, "t") if er.parser.name == "iperf"]


def keyed(found: list[dict]) -> dict[tuple, float]:
    """The summary rows by (metric, stream, side); the interval series is tested on its own."""
    return {
        (r["metric"], r["params"].get("stream"), r["params"].get("side")): r["value"]
        for r in found
        if r["statistic"] != "interval"
    }


# --- real fixtures ---------------------------------------------------------------------------------


def test_tcp_sender_and_receiver_of_one_stream():
    found = rows_of(TCP)
    assert keyed(found) == {
        ("throughput", "5", "sender"): 34.60279692293877,
        ("retransmits", "5", "sender"): 1597.0,
        ("throughput", "5", "receiver"): 35.2688889409304,
        ("cpu_host", None, None): 4.17469646782558,
        ("cpu_remote", None, None): 1.3163147939253925,
    }
    assert {r["params"]["protocol"] for r in found} == {"tcp"}
    (run,) = iperf_runs(TCP)
    assert run.tool_version == "3.9"
    assert run.attributes == {
        "variant": "iperf3",
        "format": "json",
        "blksize": "131072",
        "duration": "10",
        "intervals": "13",
    }


def test_old_udp_json_after_text_runs_in_one_post():
    runs = iperf_runs(POST)
    assert [r.attributes.get("format") for r in runs] == [None, None, "json"]
    # the JSON run is the third test of the post: rows it shares with the text runs are repeat 3
    json_rows = [r for r in rows_of(POST) if r["params"].get("repeat") in ("3", None)]
    assert keyed(json_rows) == {
        ("cpu_host", None, None): 17.76954,
        ("cpu_remote", None, None): 0.136453,
        ("throughput", "4", None): 834.711189017002,
        ("jitter", "4", None): 0.092,
        ("datagram_loss", "4", None): 0.690276,
        ("datagrams_lost", "4", None): 69.0,
        ("datagrams_total", "4", None): 9996.0,
    }


# --- shapes derived from the real documents ---------------------------------------------------------


def test_sum_rows_only_with_several_streams():
    doc = json.loads(TCP)
    doc["start"]["test_start"]["num_streams"] = 2
    second = copy.deepcopy(doc["end"]["streams"][0])
    second["sender"]["socket"] = second["receiver"]["socket"] = 7
    doc["end"]["streams"].append(second)
    got = keyed(rows_of(json.dumps(doc, indent=1)))
    assert got[("throughput", "SUM", "sender")] == 34.60279692293877
    assert got[("throughput", "7", "receiver")] == 35.2688889409304
    assert {k[1] for k in got if k[0] == "throughput"} == {"5", "7", "SUM"}


def test_server_side_idle_sender_is_skipped():
    doc = json.loads(TCP)
    doc["end"]["streams"][0]["sender"]["bits_per_second"] = 0
    doc["end"]["sum_sent"]["bits_per_second"] = 0
    got = keyed(rows_of(json.dumps(doc)))
    assert ("throughput", "5", "sender") not in got and got[
        ("throughput", "5", "receiver")
    ] == 35.2688889409304


def test_newer_udp_reports_jitter_on_the_receiver_side_only():
    doc = json.loads(TCP)
    doc["start"]["test_start"]["protocol"] = "UDP"
    for side, jitter in (("sender", 0), ("receiver", 0.05)):
        doc["end"]["streams"][0][side].update(
            jitter_ms=jitter, lost_packets=3, packets=1000, lost_percent=0.3
        )
    got = keyed(rows_of(json.dumps(doc)))
    assert (
        got[("jitter", "5", "receiver")] == 0.05 and got[("datagram_loss", "5", "receiver")] == 0.3
    )
    assert ("jitter", "5", "sender") not in got and ("retransmits", "5", "sender") not in got


def test_reverse_is_a_param_and_a_cut_test_is_unparsed():
    doc = json.loads(TCP)
    doc["start"]["test_start"]["reverse"] = 1
    assert {r["params"].get("reverse") for r in rows_of(json.dumps(doc))} == {"1"}
    del doc["end"]
    doc["error"] = "interrupt - the client has terminated"
    (run,) = iperf_runs(json.dumps(doc))
    assert run.status == "unparsed" and "without an end summary: interrupt" in (run.reason or "")


def test_several_documents_in_one_post():
    text = "$ iperf3 -c h -J; iperf3 -c h -u -J\n" + TCP + UDP + "\n"
    assert canonical(rows_of(text)) == canonical(rows_of(TCP) + rows_of(UDP))
    assert len(iperf_runs(text)) == 2


def test_truncated_document_is_unparsed():
    (run,) = iperf_runs(TCP[: len(TCP) // 3])
    assert run.status == "unparsed" and "does not decode" in (run.reason or "")


def test_string_lines_wrapped_by_a_mailer_are_rejoined():
    wrapped = TCP.replace("5.4.104+ #1 SMP", "5.4.104+\n  #1 SMP")
    assert canonical(rows_of(wrapped)) == canonical(rows_of(TCP))
    (run,) = iperf_runs(wrapped)
    assert run.notes == ["1 line breaks inside JSON strings rejoined (mail wrapping)"]


def test_text_and_json_of_one_test_give_the_same_row_keys():
    """iperf3 prints the same test as text (rounded to 3 digits) and as -J: same keys, same numbers."""
    text = (
        "Connecting to host 168.1.194.92, port 5500\n"
        "[  5] local 10.56.0.12 port 52008 connected to 168.1.194.92 port 5500\n"
        "[ ID] Interval           Transfer     Bitrate         Retr  Cwnd\n"
        "[  5]   0.00-1.00   sec   170 KBytes  1.40 Mbits/sec    0   55.0 KBytes       (omitted)\n"
        "- - - - - - - - - - - - - - - - - - - - - - - - -\n"
        "[ ID] Interval           Transfer     Bitrate         Retr\n"
        "[  5]   0.00-10.00  sec  41.2 MBytes  34.6 Mbits/sec  1597             sender\n"
        "[  5]   0.00-10.29  sec  43.3 MBytes  35.3 Mbits/sec                  receiver\n"
        "\niperf Done.\n"
    )
    as_text = {
        (r["metric"], json.dumps(r["params"], sort_keys=True)): r["value"] for r in rows_of(text)
    }
    as_json = {
        (r["metric"], json.dumps(r["params"], sort_keys=True)): r["value"]
        for r in rows_of(TCP)
        if r["metric"] in ("throughput", "retransmits") and r["statistic"] != "interval"
    }
    assert as_text.keys() == as_json.keys()
    for key, value in as_text.items():
        assert abs(value - as_json[key]) / as_json[key] < 0.005


def test_intervals_are_the_series_without_the_omitted_warmup():
    series = [r for r in rows_of(TCP) if r["statistic"] == "interval"]
    assert len(series) == 13 - 3  # `omit: 3`: the first three are warm-up
    assert {r["metric"] for r in series} == {"throughput"}
    last = series[-1]
    assert (last["params"]["interval_start"], last["params"]["interval_end"]) == ("9.00", "10.00")
    assert last["value"] == 31.46168499174867  # intervals[12].streams[0].bits_per_second / 1e6
    assert last["params"]["stream"] == "5" and "side" not in last["params"]


# --- properties ------------------------------------------------------------------------------------

_KEYS = st.sampled_from(
    ["start", "end", "intervals", "test_start", "protocol", "num_streams", "reverse", "version", "streams",
     "sender", "receiver", "udp", "socket", "bits_per_second", "jitter_ms", "lost_packets", "packets",
     "lost_percent", "retransmits", "sum_sent", "sum_received", "sum", "cpu_utilization_percent",
     "host_total", "remote_total", "error", "x"]
)  # fmt: skip
JSONISH = json_values(_KEYS)


@SETTINGS
@given(st.dictionaries(_KEYS, JSONISH, max_size=6))
def test_random_json_never_raises(doc):
    doc = {"start": {}, **doc}
    assert_sane(PARSER, json.dumps(doc, indent="\t"))
    assert_sane(PARSER, '"test_start":\n' + json.dumps(doc))


test_truncated_documents_never_raise, test_reserialised_document_gives_the_same_rows = (
    json_document_tests(PARSER, DOCS, [None, 0, 2, "\t"], SETTINGS)
)


def test_lkp_tab_indented_documents():
    tcp = keyed(rows_of(fixture_body(DIR / "json_iperf316_lkp_tcp.txt")))
    assert tcp[("throughput", "5", "sender")] == 2348.79024645  # 2348790246.45 bits/s
    assert tcp[("throughput", "5", "receiver")] == 2348.57736328
    udp = keyed(rows_of(fixture_body(DIR / "json_iperf316_lkp_udp.txt")))
    assert udp[("throughput", "5", None)] == 1.05020523
    assert (udp[("datagrams_lost", "5", None)], udp[("datagrams_total", "5", None)]) == (2.0, 903.0)
    assert udp[("jitter", "5", None)] == 0.025
