"""netperf parser: every value of the classic fixtures, the traps, properties (the seed's hand-made
tables, omni output and `-P 0` lines: test_netperf_handtable, test_netperf_omni, test_netperf_bare).

Expected values below are typed from the posts (not read back from the .expected.jsonl
files), so these tests and the golden fixtures check each other.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

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
    rate,
    row,
    rr_cpu,
    udp,
    wrap,
)
from transforms.extract import extract_runs
from transforms.model import Segment
from transforms.parsers import netperf
from transforms.quotes import segments

# --------------------------------------------------------------------------- helpers


def stream_cpu(
    test: str,
    size: str,
    tput: float,
    unit: str,
    cpu_l: float,
    cpu_r: float,
    sd_l: float,
    sd_r: float,
    quoted: bool = False,
) -> list[tuple]:
    p = {"test": test, "size": size}
    return [
        row("throughput", tput, unit, quoted=quoted, **p),
        row("cpu_util_local", cpu_l, "%CPU", quoted=quoted, **p),
        row("cpu_util_remote", cpu_r, "%CPU", quoted=quoted, **p),
        row("service_demand_local", sd_l, "us/KB", quoted=quoted, **p),
        row("service_demand_remote", sd_r, "us/KB", quoted=quoted, **p),
    ]


def rr(test: str, req: str, resp: str, rate: float, quoted: bool = False, system: str | None = None) -> tuple:
    return row(
        "transaction_rate", rate, "trans/s", system, quoted=quoted, test=test, size=req, resp_size=resp
    )


def udp_cpu(
    size: str,
    send: float,
    recv: float,
    cpu_l: float,
    sd_l: float,
    cpu_r: float,
    sd_r: float,
    system: str | None = None,
) -> list[tuple]:
    p = {"test": "UDP_STREAM", "size": size}
    return [
        *udp(size, send, recv, system=system),
        row("cpu_util_local", cpu_l, "%CPU", system, **p),
        row("service_demand_local", sd_l, "us/KB", system, **p),
        row("cpu_util_remote", cpu_r, "%CPU", system, **p),
        row("service_demand_remote", sd_r, "us/KB", system, **p),
    ]


# --------------------------------------------------------------------------- classic fixtures, every value


def test_lkml_2003_stream_cpu_old_banner():
    rows = fixture_rows("lkml_2003_tso_cpu")
    assert_rows(  # each printout under its label line (`TSO disabled:`, its commands between)
        rows,
        [("TSO disabled", *t[1:]) for t in stream_cpu("TCP_STREAM", "131072", 897.16, "Mbit/s", 34.07, 35.00, 3.111, 3.196)]
        + [("TSO enabled", *t[1:]) for t in stream_cpu("TCP_STREAM", "131072", 894.09, "Mbit/s", 11.65, 34.48, 1.068, 3.159)],
    )
    runs = np_runs(fixture_body(NETPERF / "lkml_2003_tso_cpu.txt"))
    assert [er.run.caption for er in runs] == ["TSO disabled", "TSO enabled"]
    assert runs[0].run.attributes["recv_socket"] == "131070"
    assert runs[0].run.attributes["send_socket"] == "131072"
    assert runs[0].run.attributes["elapsed_s"] == "30.00"


def test_lkml_2006_mbytes_split_unit_and_wrapped_banner():
    rows = fixture_rows("lkml_2006_mst_mbytes")
    assert_rows(
        rows,
        stream_cpu("TCP_STREAM", "16384", 286.45, "MB/s", 40.20, 25.28, 5.482, 3.448)
        + [row("throughput", 782.55, "MB/s", test="TCP_STREAM", size="16384")],
    )
    runs = np_runs(fixture_body(NETPERF / "lkml_2006_mst_mbytes.txt"))
    assert [er.run.attributes["unit_label"] for er in runs] == ["MBytes /s", "MBytes/sec"]
    assert [er.run.tool_version for er in runs] == ["2.4.2", "2.4.2"]  # from the netperf-2.4.2 path


def test_netdev_2019_quoted_rr_and_super_netperf_numbers_ignored():
    rows = fixture_rows("netdev_2019_rr_quoted")
    assert_rows(
        rows,
        [rr("TCP_RR", "1", "1", 17665.59, True, "Before patch"), rr("TCP_RR", "1", "1", 18829.31, True, "After patch")],
    )  # the captions `Before patch:` / `After patch:` name the systems compared
    assert 26797.0 not in {
        r["value"] for r in rows
    }  # super_netperf sums: no -P 0 command above them
    assert 655360.0 not in {r["value"] for r in rows}  # the remote socket line is not a result


def test_netdev_2022_rr_cpu():
    assert_rows(
        fixture_rows("netdev_2022_rr_cpu"),
        rr_cpu("TCP_RR", "70000", "70000", 6591.45, 0.86, 1.34, 62.490, 97.446, system="Before")
        + rr_cpu("TCP_RR", "70000", "70000", 8383.95, 0.95, 1.01, 54.432, 57.584, system="After"),
    )


def test_lkml_2022_udp_rr_wrapped_command_and_banner():
    assert_rows(
        fixture_rows("lkml_2022_udp_rr_wrapped"),
        # three printouts told apart only by the bullet above each: those name the systems
        [rr("UDP_RR", "1", "1", v, system=s) for v, s in (
            (95965.18, "netperf in gVisor with the syscall fast path"),
            (58709.17, "netperf in gVisor without syscall fast path"),
            (146460.80, "netperf executed on the host without gVisor"))],
    )


def test_netdev_2019_udp_stream_cpu_with_labels():
    assert_rows(
        fixture_rows("netdev_2019_udp_stream_cpu_labels"),
        udp_cpu("1400", 2351.7, 2351.6, 36.69, 5.112, 26.18, 3.648, "XGMAC@2.5G: Before")
        + udp_cpu("1400", 2361.5, 2348.1, 21.73, 3.015, 19.21, 2.666, "XGMAC@2.5G: After")
        + udp_cpu("1400", 880.2, 880.2, 34.71, 12.923, 23.42, 8.719, "GMAC5@1G: Before")
        + udp_cpu("1400", 943.7, 943.7, 14.12, 4.903, 12.73, 4.418, "GMAC5@1G: After"),
    )
    runs = np_runs(fixture_body(NETPERF / "netdev_2019_udp_stream_cpu_labels.txt"))
    first = runs[0].run.attributes
    assert (first["send_messages"], first["send_errors"], first["recv_messages"]) == (
        "2100620",
        "0",
        "2100539",
    )
    assert (first["cpu_method_local"], first["cpu_method_remote"]) == ("S", "S")


def test_blog_2010_stream_udp_rr_crr():
    rows = fixture_rows("blog_2010_cn_stream_udp_rr")
    assert_rows(
        rows,
        [
            row("throughput", 6.52, "Mbit/s", test="TCP_STREAM", size="163840"),
            row("throughput", 17.60, "Mbit/s", test="TCP_STREAM", size="8192"),
            *udp("8192", 7615.92, 429.93),
            rr("TCP_RR", "32", "1024", 18.49),
            rr("TCP_CRR", "32", "1024", 9.30),
        ],
    )
    assert {
        er.run.tool_version
        for er in np_runs(fixture_body(NETPERF / "blog_2010_cn_stream_udp_rr.txt"))
    } == {"2.4.5"}


def test_openeuler_back_to_back_blocks():
    tcp = [
        (1, 0.31),
        (64, 19.29),
        (128, 34.05),
        (256, 55.68),
        (512, 87.81),
        (1024, 143.09),
        (1500, 172.20),
        (2048, 231.84),
        (4096, 503.50),
        (9000, 682.53),
        (16384, 802.42),
        (32768, 711.28),
        (65536, 738.58),
    ]
    udps = [
        (1, 0.12, 0.05),
        (64, 7.38, 3.98),
        (128, 15.20, 6.38),
        (256, 30.13, 12.55),
        (512, 59.97, 25.51),
        (1024, 119.00, 47.40),
        (1500, 132.26, 31.28),
        (2048, 179.85, 45.79),
        (4096, 299.44, 100.32),
        (9000, 389.76, 147.83),
        (16384, 479.16, 121.58),
        (32768, 566.07, 171.47),
    ]
    expected = [row("throughput", v, "Mbit/s", test="TCP_STREAM", size=str(s)) for s, v in tcp]
    for s, send, recv in udps:
        expected += udp(str(s), send, recv)
    expected += [
        rr("TCP_RR", "1", "1", 2041.68),
        rr("TCP_CRR", "1", "1", 726.03),
        rr("UDP_RR", "1", "1", 1890.80),
    ]
    assert_rows(fixture_rows("openeuler_riscv_multi"), expected)


def test_xdp_interim_results_and_trailing_spaces():
    assert_rows(
        fixture_rows("xdp_interim"),
        [rr("TCP_RR", "1", "1", v) for v in (111310.51, 110075.34, 110371.09)],
    )


def test_lkp_sctp_many_and_udp_cpu():
    assert_rows(
        fixture_rows("lkp_sctp_udp_cpu"),
        stream_cpu("SCTP_STREAM_MANY", "10240", 7572.02, "Mbit/s", 32.07, 32.07, 44.406, 44.406)
        + udp_cpu("65507", 63577.2, 61689.4, 24.11, 3.977, 24.11, 3.977),
    )


def test_collapsed_rr_header_without_blank_line():
    assert_rows(
        fixture_rows("blog_collapsed_rr"),
        [rr("TCP_RR", "1", "1", 9502.73), rr("TCP_RR", "32", "1024", 4945.97)],
    )


def test_mail_damaged_quoted_collapsed_wrapped():
    assert_rows(
        fixture_rows("damaged_quoted_collapsed_wrapped"),
        rr_cpu("TCP_RR", "70000", "70000", 6591.45, 0.86, 1.34, 62.490, 97.446, quoted=True, system="Before")
        + stream_cpu(
            "TCP_STREAM", "131072", 897.16, "Mbit/s", 34.07, 35.00, 3.111, 3.196, quoted=True
        ),
    )


@pytest.mark.parametrize("name", ["negative_ping", "negative_prose"])
def test_negative_fixtures(name):
    assert fixture_rows(name) == []


IPERF = """\
netperf was not installed on B, so only iperf numbers here:
$ iperf -c 10.0.11.5 -i 2
------------------------------------------------------------
Client connecting to 10.0.11.5, TCP port 5001
TCP window size: 85.0 KByte (default)
------------------------------------------------------------
[  3] local 10.0.12.13 port 33912 connected with 10.0.11.5 port 5001
[ ID] Interval       Transfer     Bandwidth
[  3]  0.0- 2.0 sec   741 MBytes  3.11 Gbits/sec
[  3]  0.0-10.0 sec  3.70 GBytes  3.18 Gbits/sec
[  4]   0.00-3.01   sec   335 MBytes   935 Mbits/sec                  sender
"""


def test_iperf_like_lines_give_no_netperf_rows():
    assert [run for seg in segments(IPERF) for run in netperf.parse(seg)] == []


# --------------------------------------------------------------------------- traps and edge cases


RR_BAND = """\
MIGRATED TCP REQUEST/RESPONSE TEST from 0.0.0.0 (0.0.0.0) port 0 AF_INET to h () port 0 AF_INET : first burst 0
Local /Remote
Socket Size   Request  Resp.   Elapsed
Send   Recv   Size     Size    Time     Throughput
bytes  Bytes  bytes    bytes   secs.    10^9bits/sec

16384  87380  1        1       10.00       0.97
16384  87380
"""


def test_rr_with_f_prints_throughput():
    (run,) = parse_text(RR_BAND)
    (r,) = run.results
    assert (r.metric, r.value, r.unit, r.params) == (
        "throughput",
        0.97,
        "Gbit/s",
        {"test": "TCP_RR", "size": "1", "resp_size": "1"},
    )


def test_header_without_banner_has_no_test_but_udp_layout_proves_udp_stream():
    stream = "Recv   Send    Send\nSocket Socket  Message  Elapsed\nSize   Size    Size     Time     Throughput\nbytes  bytes   bytes    secs.    10^6bits/sec\n\n 87380  16384  16384    10.00    9401.11\n"
    (run,) = parse_text(stream)
    assert run.results[0].params == {"size": "16384"}
    (udp_run,) = parse_text(
        fixture_body(NETPERF / "openeuler_riscv_multi.txt")
        .split("MIGRATED UDP")[1]
        .split("\n", 1)[1][:400]
    )
    assert udp_run.results[0].params["test"] == "UDP_STREAM"


def test_command_without_t_means_tcp_stream():
    text = "$ netperf -H host -l 10\nRecv Send Send\nSocket Socket Message Elapsed\nSize Size Size Time Throughput\nbytes bytes bytes secs. 10^6bits/sec\n\n87380 16384 16384 10.00 941.10\n"
    (run,) = parse_text(text)
    assert run.results[0].params == {"test": "TCP_STREAM", "size": "16384"}


def test_banner_test_that_contradicts_the_columns_is_not_used():
    text = "MIGRATED TCP REQUEST/RESPONSE TEST from a (a) port 0 AF_INET\nRecv Send Send\nSocket Socket Message Elapsed\nSize Size Size Time Throughput\nbytes bytes bytes secs. 10^6bits/sec\n\n87380 16384 16384 10.00 941.10\n"
    (run,) = parse_text(text)
    assert "test" not in run.results[0].params
    assert any("does not match" in n for n in run.notes)


def test_minus_one_cpu_means_not_measured():
    text = "TCP STREAM TEST to h\nRecv Send Send Utilization Service Demand\nSocket Socket Message Elapsed Send Recv Send Recv\nSize Size Size Time Throughput local remote local remote\nbytes bytes bytes secs. 10^6bits/s % S % U us/KB us/KB\n\n87380 16384 16384 10.00 941.10 12.50 -1.00 2.176 -1.000\n"
    (run,) = parse_text(text)
    assert sorted(r.metric for r in run.results) == [
        "cpu_util_local",
        "service_demand_local",
        "throughput",
    ]
    assert run.attributes["cpu_method_remote"] == "U"
    assert len(run.notes) == 2


def test_old_rr_cpu_header_without_method_letters_ms_per_tran():
    text = "TCP REQUEST/RESPONSE TEST to h\nLocal /Remote\nSocket Size   Request Resp.  Elapsed Trans.   CPU    CPU    S.dem   S.dem\nSend   Recv   Size    Size   Time    Rate     local  remote local   remote\nbytes  bytes  bytes   bytes  secs.   per sec  %      %      ms/Tr   ms/Tr\n\n16384  87380  1       1      10.00   9502.73  21.20  20.10  89.211  84.590\n16384  87380\n"
    (run,) = parse_text(text)
    sd = {r.metric: (r.value, r.unit) for r in run.results if r.metric.startswith("service")}
    assert sd == {
        "service_demand_per_tran_local": (89.211, "ms/Tr"),
        "service_demand_per_tran_remote": (84.590, "ms/Tr"),
    }


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        (
            "Recv Send Send\nSocket Socket Message Elapsed\nSize Size Size Time Throughput\nbytes bytes bytes secs. 10^6bits/sec\n\nsee above\n",
            "header without a data line",
        ),
        (
            "Recv Send Send\nSocket Socket Message Elapsed\nSize Size Size Time Throughput\nbytes bytes bytes secs. 10^6bits/sec\n\n87380 16384 10.00 941.10\n",
            "does not fit",
        ),
        (
            "Recv Send Send\nSocket Socket Message Elapsed\nSize Size Size Time Throughput\nbytes bytes bytes secs. furlongs/sec\n\n87380 16384 16384 10.00 941.10\n",
            "unknown throughput unit",
        ),
        ("Recv Send Send Socket\nSocket Message Elapsed\n", "not understood"),
        (
            "TCP STREAM (Throughput 10^6bits/sec)\nsize a b c\n2048 1.0 2.0\n",
            "does not have 3 values",
        ),
        ("$ netperf -P 0 -t TCP_RR -H h -- -o\n12,13,14\n", "without a selector list"),
        ("$ netperf -P 0 -t OMNI -H h\n12 13 14\n", "cannot tell"),
    ],
)
def test_recognised_but_unreadable_blocks_are_unparsed(text, reason):
    runs = parse_text(text)
    assert runs and all(run.status == "unparsed" and not run.results for run in runs)
    assert reason in runs[0].reason


def test_metrics_registry_covers_every_metric_and_unit_strings():
    units = {spec.unit for spec in netperf.METRICS.values()}
    assert {"Mbit/s", "trans/s", "%CPU", "us/KB", "us/Tr", "us", "count"} == units


# --------------------------------------------------------------------------- properties

FIXTURE_TEXTS = [fixture_body(p) for p in sorted(NETPERF.glob("*.txt"))]
VOCAB = [
    "Recv   Send    Send",
    "Socket Socket  Message  Elapsed",
    "Size   Size    Size     Time     Throughput",
    "bytes  bytes   bytes    secs.    10^6bits/sec",
    "Local /Remote",
    "Socket Size   Request  Resp.   Elapsed  Trans.",
    "Send   Recv   Size     Size    Time     Rate",
    "bytes  Bytes  bytes    bytes   secs.    per sec",
    "MIGRATED TCP STREAM TEST from 0.0.0.0 (0.0.0.0) port 0 AF_INET",
    "$ netperf -P 0 -t TCP_RR -c -- -o A,B",
    "THROUGHPUT=12.5",
    "Throughput,Throughput Units",
    "1,2",
    "TCP STREAM (Throughput 10^6bits/sec)",
    "size a b",
    "--- label",
    "16384  87380",
    " 87380  16384  16384    10.00    9401.11",
    "-1.00",
    "",
    ">",
    "1e308",
    "nan",
]


@st.composite
def mutated_text(draw) -> str:
    lines = draw(st.sampled_from(FIXTURE_TEXTS)).split("\n")
    for _ in range(draw(st.integers(0, 8))):
        op = draw(st.sampled_from(["del", "dup", "vocab", "chars", "cut"]))
        k = draw(st.integers(0, max(len(lines) - 1, 0)))
        if op == "del" and lines:
            del lines[k]
        elif op == "dup" and lines:
            lines.insert(k, lines[k])
        elif op == "vocab":
            lines.insert(k, draw(st.sampled_from(VOCAB)))
        elif op == "chars" and lines:
            line = lines[k]
            p = draw(st.integers(0, len(line)))
            lines[k] = line[:p] + draw(st.text(max_size=6)) + line[p + 1 :]
        elif op == "cut":
            lines = lines[: k + 1]
    return "\n".join(lines)


random_text = st.lists(st.one_of(st.sampled_from(VOCAB), st.text(max_size=40)), max_size=30).map(
    "\n".join
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(mutated_text(), random_text))
def test_parser_never_raises_and_never_emits_junk(text):
    for seg in segments(text):
        for run in netperf.parse(seg):
            assert run.status in ("ok", "unparsed")
            assert 0 <= run.line_start < max(run.line_end, run.line_start + 1) <= len(seg.lines) + 1
            for r in run.results:
                assert math.isfinite(r.value) and r.metric in netperf.METRICS and r.unit
    extract_runs(text, "m")


# Printf formats from nettest_omni.c / nettest_bsd.c (`%c` method letters, `%-8.8s` unit).
STREAM_TITLE = "Recv   Send    Send                          \nSocket Socket  Message  Elapsed              \nSize   Size    Size     Time     Throughput  \nbytes  bytes   bytes    secs.    %s/sec  \n\n"
STREAM_FMT = "%6d %6d %6d    %-6.2f   %7.2f   \n"
STREAM_CPU_TITLE = "Recv   Send    Send                          Utilization       Service Demand\nSocket Socket  Message  Elapsed              Send     Recv     Send    Recv\nSize   Size    Size     Time     Throughput  local    remote   local   remote\nbytes  bytes   bytes    secs.    %-8.8s/s  %% %c      %% %c      us/KB   us/KB\n\n"
STREAM_CPU_FMT = "%6d %6d %6d    %-6.2f     %7.2f   %-6.2f   %-6.2f   %-6.3f  %-6.3f \n"
UDP_TITLE = "Socket  Message  Elapsed      Messages                \nSize    Size     Time         Okay Errors   Throughput\nbytes   bytes    secs            #      #   %s/sec\n\n"
UDP_FMT = "%6d  %6d   %-7.2f   %7d %6d    %7.2f\n%6d           %-7.2f   %7d           %7.2f\n\n"
UDP_CPU_TITLE = "Socket  Message  Elapsed      Messages                   CPU      Service\nSize    Size     Time         Okay Errors   Throughput   Util     Demand\nbytes   bytes    secs            #      #   %s/sec %% %c%c     us/KB\n\n"
UDP_CPU_FMT = "%6d  %6d   %-7.2f   %7d %6d    %7.1f     %-6.2f   %-6.3f\n%6d           %-7.2f   %7d           %7.1f     %-6.2f   %-6.3f\n\n"
RR_TITLE = "Local /Remote\nSocket Size   Request  Resp.   Elapsed  Trans.\nSend   Recv   Size     Size    Time     Rate         \nbytes  Bytes  bytes    bytes   secs.    per sec   \n\n"
RR_FMT = "%-6d %-6d %-6d   %-6d  %-6.2f   %7.2f   \n%-6d %-6d\n"
RR_CPU_TITLE = "Local /Remote\nSocket Size   Request Resp.  Elapsed Trans.   CPU    CPU    S.dem   S.dem\nSend   Recv   Size    Size   Time    Rate     local  remote local   remote\nbytes  bytes  bytes   bytes  secs.   per sec  %% %c    %% %c    us/Tr   us/Tr\n\n"
RR_CPU_FMT = "%-6d %-6d %-6d  %-6d %-6.2f  %-6.2f  %-6.2f %-6.2f %-6.3f  %-6.3f \n%-6d %-6d\n"

UNIT_OF = {
    "10^0bits": "bit/s",
    "10^3bits": "Kbit/s",
    "10^6bits": "Mbit/s",
    "10^9bits": "Gbit/s",
    "Bytes": "B/s",
    "KBytes": "KB/s",
    "MBytes": "MB/s",
    "GBytes": "GB/s",
}
RR_TESTS = {
    "TCP REQUEST/RESPONSE": "TCP_RR",
    "UDP REQUEST/RESPONSE": "UDP_RR",
    "TCP Connect/Request/Response": "TCP_CRR",
}

sock = st.integers(1, 9_999_999)
msg = st.integers(1, 999_999)
pct = st.floats(0, 100, allow_nan=False)
sdv = st.floats(0, 9_999, allow_nan=False)
secs = st.floats(0.01, 9_999, allow_nan=False)
method = st.sampled_from("SUCPIK")


def fmt(spec: str, v: float) -> float:
    return float(spec % v)


@st.composite
def report(draw) -> tuple[str, list[tuple]]:
    """A netperf report printed from its printf formats, and the rows it must give."""
    kind = draw(st.sampled_from(["stream", "stream_cpu", "udp", "udp_cpu", "rr", "rr_cpu"]))
    label = draw(st.sampled_from(sorted(UNIT_OF)))
    unit = UNIT_OF[label]
    s1, s2, m, e = draw(sock), draw(sock), draw(msg), draw(secs)
    if kind.startswith("stream"):
        test, banner = "TCP_STREAM", "TCP STREAM"
    elif kind.startswith("udp"):
        test, banner = "UDP_STREAM", "UDP STREAM"
    else:
        banner = draw(st.sampled_from(sorted(RR_TESTS)))
        test = RR_TESTS[banner]
    head = f"MIGRATED {banner} TEST from 0.0.0.0 (0.0.0.0) port 0 AF_INET to 10.0.0.2 () port 0 AF_INET : demo\n"
    t, c1, c2, d1, d2 = draw(rate), draw(pct), draw(pct), draw(sdv), draw(sdv)
    p = {"test": test, "size": str(m)}
    if kind == "stream":
        body = STREAM_TITLE % label + STREAM_FMT % (s1, s2, m, e, t)
        rows = [row("throughput", fmt("%7.2f", t), unit, **p)]
    elif kind == "stream_cpu":
        body = STREAM_CPU_TITLE % (label, draw(method), draw(method)) + STREAM_CPU_FMT % (
            s1,
            s2,
            m,
            e,
            t,
            c1,
            c2,
            d1,
            d2,
        )
        rows = stream_cpu(
            test,
            str(m),
            fmt("%7.2f", t),
            unit,
            fmt("%-6.2f", c1),
            fmt("%-6.2f", c2),
            fmt("%-6.3f", d1),
            fmt("%-6.3f", d2),
        )
    elif kind in ("udp", "udp_cpu"):
        t2, n1, n2, err = draw(rate), draw(sock), draw(sock), draw(st.integers(0, 99_999))
        if kind == "udp":
            body = UDP_TITLE % label + UDP_FMT % (s1, m, e, n1, err, t, s2, e, n2, t2)
            rows = udp(str(m), fmt("%7.2f", t), fmt("%7.2f", t2), unit)
        else:
            body = UDP_CPU_TITLE % (label, draw(method), draw(method)) + UDP_CPU_FMT % (
                s1,
                m,
                e,
                n1,
                err,
                t,
                c1,
                d1,
                s2,
                e,
                n2,
                t2,
                c2,
                d2,
            )
            rows = [
                *udp(str(m), fmt("%7.1f", t), fmt("%7.1f", t2), unit),
                row("cpu_util_local", fmt("%-6.2f", c1), "%CPU", **p),
                row("service_demand_local", fmt("%-6.3f", d1), "us/KB", **p),
                row("cpu_util_remote", fmt("%-6.2f", c2), "%CPU", **p),
                row("service_demand_remote", fmt("%-6.3f", d2), "us/KB", **p),
            ]
    else:
        resp = draw(msg)
        if kind == "rr":
            body = RR_TITLE + RR_FMT % (s1, s2, m, resp, e, t, s2, s1)
            rows = [rr(test, str(m), str(resp), fmt("%7.2f", t))]
        else:
            body = RR_CPU_TITLE % (draw(method), draw(method)) + RR_CPU_FMT % (
                s1,
                s2,
                m,
                resp,
                e,
                t,
                c1,
                c2,
                d1,
                d2,
                s2,
                s1,
            )
            rows = rr_cpu(
                test,
                str(m),
                str(resp),
                fmt("%-6.2f", t),
                fmt("%-6.2f", c1),
                fmt("%-6.2f", c2),
                fmt("%-6.3f", d1),
                fmt("%-6.3f", d2),
            )
    return "Results below.\n\n" + head + body + "\nThat is all.\n", rows


@settings(max_examples=150, deadline=None)
@given(report())
def test_printf_report_round_trips_exactly(case):
    text, expected = case
    assert got(np_rows(text)) == ordered(expected)


@settings(max_examples=120, deadline=None)
@given(report(), st.sampled_from(["quote", "crlf", "collapse", "wrap", "quote+collapse+wrap"]))
def test_mail_damage_gives_the_same_rows(case, damage):
    text, expected = case
    if damage == "quote":
        text, expected = quote(text), quoted(expected)
    elif damage == "crlf":
        text = crlf(text)
    elif damage == "collapse":
        text = collapse(text)
    elif damage == "wrap":
        text = wrap(text)
    else:
        text, expected = quote(wrap(collapse(text))), quoted(expected)
    assert got(np_rows(text)) == ordered(expected)


def test_segment_direct_parse_reports_line_numbers():
    seg = Segment(fixture_body(NETPERF / "netdev_2022_rr_cpu.txt").split("\n"))
    runs = netperf.parse(seg)
    assert [seg.lines[r.results[0].line].split()[5] for r in runs] == ["6591.45", "8383.95"]


def test_classic_rows_each_named_by_the_poster():
    # https://lore.kernel.org/lkml/Pine.LNX.4.30.0105260239260.1953-100000@cola.teststation.com/, quoted as posted
    from transforms.extract import extract_explained
    from transforms.rows import result_rows

    text = ("> Netperf is a pretty good idea.\n> \n>              Recv   Send    Send\n"
            ">              Socket Socket  Message  Elapsed\n>              Size   Size    Size     Time     Throughput\n"
            ">              bytes  bytes   bytes    secs.    10^6bits/sec\n> \n"
            "> To alpha     87380  16384  16384    10.02      39.25   \n> x86 local    87380  16384  16384    9.99      559.46\n")
    got = {(r["system"], r["metric"], r["value"], r["unit"]) for r in result_rows(extract_explained(text, "n")[0])}
    assert got == {("To alpha", "throughput", 39.25, "Mbit/s"), ("x86 local", "throughput", 559.46, "Mbit/s")}


# https://lore.kernel.org/lkml/16147.37268.946613.965075@napali.hpl.hp.com/ (2003, e1000 TSO)
CPU_COLUMNS = """\
TSO disabled:

 $ netperf -l 30 -c -C -H foobar -- -s64K -S64K
 TCP STREAM TEST to foobar
 Recv   Send    Send                          Utilization       Service Demand
 Socket Socket  Message  Elapsed              Send     Recv     Send    Recv
 Size   Size    Size     Time     Throughput  local    remote   local   remote
 bytes  bytes   bytes    secs.    10^6bits/s  % S      % S      us/KB   us/KB

 131070 131072 131072    30.00       897.16   34.07    35.00    3.111   3.196
"""


def test_cpu_columns_are_labelled_by_the_header_word_utilization():
    from transforms.extract import extract_explained
    from transforms.rows import result_rows

    found = {r["metric"]: r for r in result_rows(extract_explained(CPU_COLUMNS, "j")[0])}
    assert (found["cpu_util_local"]["metric_label"], found["cpu_util_local"]["value"]) == ("Utilization local % S", 34.07)
    assert (found["cpu_util_remote"]["metric_label"], found["cpu_util_remote"]["value"]) == (
        "Utilization remote % S", 35.0)


def test_one_header_then_groups_of_lines_under_plain_captions():
    # https://lore.kernel.org/linux-mm/20070514133212.399158218@chello.nl/ (its lines, shortened):
    # the header once, then each kernel's lines under its name, the poster's mean and spread after each
    text = ("TCP STREAM TEST from 0.0.0.0 (0.0.0.0) port 0 AF_INET to 127.0.0.1 (127.0.0.1) port 0 AF_INET\n\n"
            "Recv   Send    Send\nSocket Socket  Message  Elapsed\nSize   Size    Size     Time     Throughput\n"
            "bytes  bytes   bytes    secs.    10^6bits/sec\n\nv2.6.21\n\n"
            "114688 114688   4096    60.00    5424.17\n114688 114688   4096    60.00    5486.54\n\n"
            "                                 5455.36        31.19\n\n"
            "v2.6.21-slab CONFIG_SLAB_FAIR=n\n\n"
            "114688 114688   4096    60.00    6987.93\n114688 114688   4096    60.00    6214.82\n")
    got = [(r.system, r.value) for er in np_runs(text) for r in er.run.results if r.metric == "throughput"]
    assert got == [("v2.6.21", 5424.17), ("v2.6.21", 5486.54), ("v2.6.21-slab CONFIG_SLAB_FAIR=n", 6987.93),
                   ("v2.6.21-slab CONFIG_SLAB_FAIR=n", 6214.82)]
    # a sentence after the lines is no caption: the records end there
    tail = text.replace("v2.6.21-slab CONFIG_SLAB_FAIR=n", "Then I tried it with the patch applied.")
    assert len([r for er in np_runs(tail) for r in er.run.results if r.metric == "throughput"]) == 2
