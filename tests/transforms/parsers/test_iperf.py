"""iperf parser: the tricky cells of the real fixtures, then properties.

Properties: reports printed from iperf's own row formats round-trip exactly; the parser
never raises on random or mutated text (`helpers.fuzz_tests`) and keeps its rows when the
report is quoted, CRLF-ended or has its blanks collapsed (`helpers.damage_tests`).
"""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from tests.transforms.parsers.fixtures_io import rows_of
from tests.transforms.parsers.helpers import (
    Golden,
    damage_tests,
    fuzz_tests,
    metric_rows,
    negatives_test,
    property_settings,
)
from transforms.extract import extract_explained, extract_runs
from transforms.parsers.iperf import PARSER
from transforms.rows import result_rows

GOLDEN = Golden("iperf", ("iperf",))
DIR = GOLDEN.dir
SETTINGS = property_settings(80)
all_rows = GOLDEN.fixture_rows


def rows(name: str) -> list[dict]:
    """The summary rows (the interval series has tests of its own)."""
    return [r for r in all_rows(name) if r["statistic"] != "interval"]


def series(name: str) -> list[dict]:
    return [r for r in all_rows(name) if r["statistic"] == "interval"]


def pick(found: list[dict], metric: str = "throughput", **params: str) -> list[dict]:
    return metric_rows(found, metric, **params)


# --- real fixtures: the cells that are easy to get wrong ----------------------------------------


def test_plain_iperf2_row_inside_patch_mail():
    found = rows("netdev_forcedeth_iperf2")
    assert len(found) == 1  # the pktgen `984Mb/sec` line is not iperf
    (row,) = found
    assert row["value"] == 942.0 and row["unit"] == "Mbit/s"
    assert row["params"] == {"protocol": "tcp", "stream": "3", "streams": "1"}
    assert row["system"] is None  # "Test command:" is a label, not a system


def test_interval_rows_are_not_results_only_the_final_row():
    found = rows("ceph_blog_iperf2_server_and_interval")
    assert sorted(r["value"] for r in found) == [941.0, 943.0]
    assert pick(found, stream="3")[0]["value"] == 943.0  # `0.0-10.0`, not the `0.0- 1.0` 970
    assert not any(r["value"] in (970.0, 944.0, 946.0) for r in found)


def test_interval_rows_are_the_series_beside_the_summary():
    found = series("ceph_blog_iperf2_server_and_interval")
    spans = [(r["params"]["interval_start"], r["params"]["interval_end"], r["value"]) for r in found]
    assert spans[:3] == [("0.0", "1.0", 970.0), ("1.0", "2.0", 944.0), ("2.0", "3.0", 933.0)]
    assert spans[-1] == ("9.0", "10.0", 946.0) and len(spans) == 10
    assert {r["metric"] for r in found} == {"throughput"}
    assert all(r["params"]["stream"] == "3" for r in found)


def test_iperf3_parallel_interval_groups_between_separators():
    found = series("pkb_iperf3_udp_and_parallel_tcp")
    tcp = [r for r in found if r["params"]["protocol"] == "tcp"]
    assert len(tcp) == 3 * 6  # three reports of five streams and [SUM]
    total = pick(tcp, stream="SUM", interval_start="1.01")
    assert [(r["value"], r["params"]["interval_end"]) for r in total] == [(4480.0, "2.00")]
    udp = [r["value"] for r in found if r["params"]["protocol"] == "udp"]
    assert udp == [1340.0, 1400.0, 1400.0]


def test_interval_rows_only_give_their_series_and_no_summary():
    found = all_rows("interval_rows_only")
    assert {r["statistic"] for r in found} == {"interval"}  # no summary row made up from them
    assert [(r["params"]["interval_start"], r["value"]) for r in found] == [
        ("0.00", 9.72), ("1.00", 8.42), ("2.00", 77.7), ("3.00", 90.1), ("4.00", 86.8), ("5.00", 87.0), ("6.00", 87.4)]


def test_udp_lost_and_total_datagrams_are_counts():
    found = rows("pkb_iperf3_udp_and_parallel_tcp")
    assert pick(found, "datagrams_lost")[0]["value"] == 35148.0
    assert pick(found, "datagrams_total")[0]["value"] == 62949.0
    assert pick(found, "datagram_loss")[0]["value"] == 56.0


def test_iperf2_enhanced_columns():
    found = rows("pkb_iperf2_enhanced_udp_tcp")
    one = dict(protocol="tcp", stream="3", streams="1")
    got = {r["metric"]: (r["value"], r["unit"]) for r in found if all(r["params"].get(k) == v for k, v in one.items())}
    assert got == {"throughput": (1966.0, "Mbit/s"), "writes": (112505.0, "count"), "write_errors": (0.0, "count"),
                   "retransmits": (0.0, "count"), "rtt": (1346.0, "us"), "netpwr": (182579.69, "")}
    assert not pick(found, "cwnd")  # `-1K`: the window was not known
    pps = pick(found, "packet_rate", stream="SUM")
    assert [(r["value"], r["unit"]) for r in pps] == [(178.0, "/sec")]
    lost = pick(found, "datagrams_lost", stream="3", streams="2")
    assert [(r["value"], r["params"]["side"]) for r in lost] == [(1.0, "receiver")]
    ooo = pick(found, "datagrams_out_of_order")  # `[  4] 0.00-60.00 sec  1 datagrams received out-of-order`
    assert [(r["value"], r["params"]["stream"], r["params"]["side"]) for r in ooo] == [(1.0, "4", "receiver")]


def test_server_paste_with_one_row_per_connection_numbers_repeats():
    found = pick(rows("fabfi_iperf2_server_connections"), stream="4")
    assert [r["params"]["repeat"] for r in found] == [str(i) for i in range(1, 9)]
    by_repeat = {r["params"]["repeat"]: r["value"] for r in found}
    assert by_repeat["1"] == 52.5 and by_repeat["5"] == 52.7 and by_repeat["8"] == 44.1


def test_quoted_iperf3_with_wrapped_udp_rows():
    found = rows("netdev_nat_iperf3_quoted_wrapped")
    assert all(r["quoted"] for r in found)
    tso = [r for r in found if r["system"] == "It's a bit hard since it works like this, turned tso off"]
    assert {r["params"]["side"]: r["value"] for r in pick(tso)} == {"sender": 923.0, "receiver": 920.0}
    assert [(r["value"], r["params"]["side"]) for r in pick(tso, "retransmits")] == [(214.0, "sender")]
    # `... 0.014 ms` / `> 4756/824530 (0.58%)  receiver` was wrapped by the mailer
    loss = pick(found, "datagram_loss", side="receiver", repeat="2")
    assert [r["value"] for r in loss] == [0.58]
    assert [r["value"] for r in pick(found, "jitter", repeat="2")] == [0.014]
    assert not pick(found, "jitter", side="sender")  # the sender's 0.000 ms is not measured
    assert [r["value"] for r in pick(found, protocol="udp", side="receiver")] == [37.7, 949.0]


def test_iperf3_scales_and_sum_rows():
    found = rows("pkb_iperf3_udp_and_parallel_tcp")
    udp = pick(found, protocol="udp")
    assert [r["value"] for r in udp] == [1380.0]  # 1.38 Gbits/sec
    assert pick(found, "datagram_loss")[0]["value"] == 56.0
    assert pick(found, "jitter")[0]["value"] == 0.072
    total = pick(found, stream="SUM")
    assert {(r["params"]["side"], r["value"]) for r in total} == {("sender", 4670.0), ("receiver", 4670.0)}
    assert all(r["params"]["streams"] == "5" for r in pick(found, protocol="tcp"))
    assert not any(r["value"] in (4270.0, 4480.0, 5270.0) for r in found)  # interval [SUM] rows


def test_iperf2_udp_server_report_is_the_receiver_side():
    found = rows("pkb_iperf2_enhanced_udp_tcp")
    rep = pick(found, "datagram_loss", stream="3", streams="2")
    assert [r["value"] for r in rep] == [0.019]
    assert pick(found, "jitter", stream="4")[0]["value"] == 0.039
    sides = {r["params"].get("side") for r in pick(found, protocol="udp", stream="3")}
    assert sides == {"sender", "receiver"}
    assert [r["value"] for r in pick(found, protocol="udp", stream="SUM")] == [2.1]
    assert [r["value"] for r in pick(found, protocol="tcp", stream="SUM")] == [1970.0]
    assert [r["value"] for r in pick(found, protocol="tcp", streams="1")] == [1966.0]


def test_iperf3_udp_sender_row_has_no_jitter():
    found = rows("e1000_readme_iperf3_tcp_udp")
    assert [r["value"] for r in pick(found, "jitter")] == [0.002]
    assert [r["params"]["side"] for r in pick(found, "jitter")] == ["receiver"]
    assert pick(found, protocol="udp", side="receiver")[0]["value"] == 99.1


def test_bidir_roles_and_udp_named_by_the_caption():
    found = rows("lkml_lan743x_iperf3_bidir_roles")
    assert len(found) == 16 and {r["params"]["role"] for r in found} == {"TX-C", "RX-C"}
    assert {r["params"]["protocol"] for r in found} == {"udp"}  # "iperf3 UDP bidirectional ...:"
    # the caption names the tool and what ran, then the condition: the condition is the system,
    # with or without the caption's colon
    l1 = [r for r in found if r["system"] == "with DSPACE set to L1 CACHE Size"]
    rx = pick(l1, role="RX-C", side="receiver")
    assert [(r["params"]["repeat"], r["value"]) for r in rx] == [("1", 870.0), ("2", 946.0)]
    b16 = [r for r in found if r["system"] == "with DSPACE set to 16 Bytes"]
    tx = pick(b16, role="TX-C", side="sender")
    assert [(r["params"]["repeat"], r["value"]) for r in tx] == [("1", 956.0), ("2", 810.0)]


test_negative_fixtures_give_no_rows = negatives_test(DIR, rows)


def test_interval_only_paste_says_it_has_no_summary():
    runs = extract_runs(GOLDEN.body("interval_rows_only"), "m")
    assert [er.run.status for er in runs] == ["ok"]
    assert any("no summary" in note for note in runs[0].run.notes)


# --- (a) robustness ------------------------------------------------------------------------------


FRAGMENTS = [
    "[  3]", "[SUM]", "[ ID] Interval  Transfer  Bitrate", "[  5][TX-C]", " 0.0-10.0 sec", " 0.00-1.00 sec",
    " 1.10 GBytes", " 942 Mbits/sec", " 4.27 Gbits/sec", " 0.00 bits/sec", " 12 KBytes/sec", "  sender",
    "  receiver", " 0.072 ms  35148/62949 (56%)", " (nan%)", " -nan", "- - - - - - - - - - - -",
    "iperf Done.", "Server Report:", "Client connecting to x", "\n", "\n", "> ", "  ", "0", ".", "-",
]  # fmt: skip


test_random_text_never_raises, test_mutated_fixtures_never_raise = fuzz_tests(
    PARSER, FRAGMENTS, GOLDEN.bodies(), SETTINGS
)


# --- (b) round trip from iperf's printf formats ----------------------------------------------------

_BITS = {"bits/sec": "0.000001", "Kbits/sec": "0.001", "Mbits/sec": "1", "Gbits/sec": "1000"}


@st.composite
def bitrate(draw) -> tuple[str, float]:
    """A printed rate (`%.3g`-ish, as iperf's unit_snprintf) and its exact Mbit/s value."""
    unit = draw(st.sampled_from(sorted(_BITS)))
    value = draw(st.decimals(min_value=Decimal("0.01"), max_value=Decimal("999"), places=2))
    text = f"{value.normalize():f}"
    return f"{text} {unit}", float(Decimal(text) * Decimal(_BITS[unit]))


@st.composite
def iperf2_report(draw) -> tuple[str, dict[str, float]]:
    ids = draw(st.lists(st.integers(3, 40), min_size=1, max_size=4, unique=True))
    seconds = draw(st.integers(2, 12))
    lines = ["------------------------------------------------------------",
             "Client connecting to 10.0.0.1, TCP port 5001",
             "TCP window size: 85.0 KByte (default)",
             "------------------------------------------------------------"]  # fmt: skip
    lines += [f"[{i:3d}] local 10.0.0.2 port {40000 + i} connected with 10.0.0.1 port 5001" for i in ids]
    lines.append("[ ID] Interval       Transfer     Bandwidth")
    series: dict[tuple[str, str, str], float] = {}
    if draw(st.booleans()):  # `-i 1` interval rows: the series beside the summary
        for t in range(seconds):
            for i in ids:
                text, mbit = draw(bitrate())
                lines.append(f"[{i:3d}] {t:4.1f}-{t + 1:4.1f} sec   116 MBytes  {text}")
                series[(str(i), f"{t:.1f}", f"{t + 1:.1f}")] = mbit
    expected: dict = {}
    for i in ids:
        text, mbit = draw(bitrate())
        lines.append(f"[{i:3d}] {0:4.1f}-{seconds:4.1f} sec  1.10 GBytes  {text}")
        expected[str(i)] = mbit
    if len(ids) > 1:
        text, mbit = draw(bitrate())
        lines.append(f"[SUM] {0:4.1f}-{seconds:4.1f} sec  2.20 GBytes  {text}")
        expected["SUM"] = mbit
    expected["series"] = series
    return "\n".join(lines) + "\n", expected


@st.composite
def iperf3_report(draw) -> tuple[str, dict[tuple[str, str, str], float]]:
    ids = draw(st.lists(st.integers(4, 40), min_size=1, max_size=3, unique=True))
    udp = draw(st.booleans())
    lines = ["Connecting to host 10.0.0.1, port 5201"]
    lines += [f"[{i:3d}] local 10.0.0.2 port {50000 + i} connected to 10.0.0.1 port 5201" for i in ids]
    lines.append("[ ID] Interval           Transfer     Bitrate" + ("         Total Datagrams" if udp else ""))
    for i in ids:
        lines.append(f"[{i:3d}]   0.00-1.00   sec  11.9 MBytes  {draw(bitrate())[0]}" + ("  8556" if udp else ""))
    lines.append("- - - - - - - - - - - - - - - - - - - - - - - - -")
    lines.append("[ ID] Interval           Transfer     Bitrate" + ("         Jitter    Lost/Total Datagrams" if udp else "         Retr"))
    expected: dict[tuple[str, str, str], float] = {}
    names = [str(i) for i in ids] + (["SUM"] if len(ids) > 1 else [])
    for name in names:
        for side in ("sender", "receiver"):
            text, mbit = draw(bitrate())
            tail = ""
            if udp:
                jitter = draw(st.decimals(min_value=0, max_value=50, places=3))
                lost, total = draw(st.integers(0, 500)), draw(st.integers(500, 90000))
                pct = f"{100 * lost / total:.2g}"
                tail = f"  {jitter:.3f} ms  {lost}/{total} ({pct}%)"
                if side == "receiver":
                    expected[(name, side, "datagrams_lost")] = float(lost)
                    expected[(name, side, "datagrams_total")] = float(total)
                    expected[(name, side, "jitter")] = float(f"{jitter:.3f}")
                    expected[(name, side, "datagram_loss")] = float(pct)
            label = f"[{name:>3}]" if name != "SUM" else "[SUM]"
            lines.append(f"{label}   0.00-5.00   sec  59.6 MBytes  {text}{tail}  {side}")
            expected[(name, side, "throughput")] = mbit
    lines += ["", "iperf Done."]
    return "\n".join(lines) + "\n", expected


@SETTINGS
@given(iperf2_report())
def test_iperf2_report_round_trips(report):
    text, expected = report
    series = expected.pop("series")
    everything = rows_of(text)
    found = [r for r in everything if r["statistic"] != "interval"]
    assert {r["params"]["stream"]: r["value"] for r in found} == expected
    assert len(found) == len(expected)
    assert all(r["metric"] == "throughput" and r["params"]["protocol"] == "tcp" for r in everything)
    got = {(r["params"]["stream"], r["params"]["interval_start"], r["params"]["interval_end"]): r["value"]
           for r in everything if r["statistic"] == "interval"}
    assert got == series and len(everything) == len(found) + len(series)


@SETTINGS
@given(iperf3_report())
def test_iperf3_report_round_trips(report):
    text, expected = report
    found = [r for r in rows_of(text) if r["statistic"] != "interval"]
    got = {(r["params"]["stream"], r["params"]["side"], r["metric"]): r["value"] for r in found}
    assert got == expected and len(found) == len(expected)


# --- (c) mail damage: quoting, CRLF, collapsed spaces ---------------------------------------------


test_synthetic_report_survives_mail_damage, test_fixture_survives_mail_damage = damage_tests(
    st.one_of(iperf2_report(), iperf3_report()), DIR, SETTINGS
)



def test_interval_pastes_under_before_and_after_captions_keep_their_systems():
    # https://lore.kernel.org/linux-arch/20211001112354.GA10720@duo.ucw.cz/ (the real-posts corpus
    # file): two `iperf3 -c` pastes cut after two interval rows, under `before:` and `after:`
    from flows.extract_cmd import extract_rows

    post = Path(__file__).parents[2] / "fixtures/real/dev/aa_linuxarch_2021_iperf_riscv_memcpy_beaglev.txt"
    found = [r for r in extract_rows(str(post)) if r["benchmark"] == "iperf"]
    assert [(r["system"], r["params"]["interval_start"], r["value"]) for r in found] == [
        ("before", "0.00", 641.0), ("before", "1.00", 608.0), ("after", "0.00", 912.0), ("after", "1.00", 902.0)]


# https://lore.kernel.org/netdev/20210129195240.31871-2-TheSven73@gmail.com/
SUMMARY_AFTER_PRINTOUT = """\
Before:
[ ID] Interval           Transfer     Bandwidth       Retr
[  4]   0.00-20.00  sec   550 MBytes   231 Mbits/sec    0
After:
[ ID] Interval           Transfer     Bandwidth       Retr
[  4]   0.00-20.00  sec  1.33 GBytes   570 Mbits/sec    0

Test by Anders Roenningen (anders@ronningen.priv.no) on armv8,
    rx iperf3:
Before 102 Mbits/sec
After  279 Mbits/sec
"""


def test_the_last_printout_ends_at_its_last_row_and_what_follows_is_read_too():
    (before, after) = [r for r in extract_runs(SUMMARY_AFTER_PRINTOUT, "m") if r.parser.name == "iperf"]
    assert (before.line_start, before.line_end, after.line_end) == (1, 3, 6)
    got = [(r["system"], r["value"], r["layout"]) for r in result_rows(extract_explained(SUMMARY_AFTER_PRINTOUT, "m")[0])]
    assert ("Before", 102, "hand_table") in got and ("After", 279, "hand_table") in got


# https://lore.kernel.org/netdev/f7tbjsxfl22.fsf@redhat.com/, as posted (no header line pasted)
SUM_WITHOUT_HEADER = """\
With the series:
[SUM]   0.00-300.00 sec  3.28 TBytes  96.1 Gbits/sec  9417             sender
[SUM]   0.00-300.00 sec  3.28 TBytes  96.1 Gbits/sec                  receiver

Without the series:
[SUM]   0.00-300.00 sec  3.26 TBytes  95.5 Gbits/sec  149             sender
[SUM]   0.00-300.00 sec  3.26 TBytes  95.5 Gbits/sec                  receiver
"""


def test_a_count_alone_before_sender_is_retr_with_no_header_pasted():
    rows = result_rows(extract_runs(SUM_WITHOUT_HEADER, "s"))
    got = [(r["system"], r["params"]["side"], r["metric"], r["value"]) for r in rows]
    assert got == [("With the series", "sender", "throughput", 96100.0), ("With the series", "sender", "retransmits", 9417.0),
                   ("With the series", "receiver", "throughput", 96100.0),
                   ("Without the series", "sender", "throughput", 95500.0), ("Without the series", "sender", "retransmits", 149.0),
                   ("Without the series", "receiver", "throughput", 95500.0)]
    udp = "[  5]   0.00-10.00  sec  1.25 MBytes  1.05 Mbits/sec  0.000 ms  0/906 (0%)  sender\n"
    assert "retransmits" not in {r["metric"] for r in result_rows(extract_runs(udp, "u"))}
