"""A command line, then what it printed: the command names the benchmark and params, each bare
number after it is one run's value, a label line above names the system."""

import time

from hypothesis import given, settings
from hypothesis import strategies as st

from transforms.extract import extract_explained
from transforms.handmade.commands import command_of, read_commands
from transforms.rows import result_rows

# https://lore.kernel.org/netdev/ (2021, ice IOMMU regression report), excerpt
CAPTIONED = """\
with measured bandwidth of ~95Gbps before and ~35Gbps after:

commit 3189713a1b84 (a250c23^):
$ ./super_netperf 32 -H 172.18.0.2 -l 10
97379.8

commit a250c23f15c2:
$ ./super_netperf 32 -H 172.18.0.2 -l 10
34097.5
"""

# https://lore.kernel.org/netdev/ (2019, "Re: [Patch net-next] tcp: decouple TLP timer from RTO timer")
LOOP = """\
I ran the experiment ten times :

lpaa23:/export/hda3/google/edumazet# echo 3
>/proc/sys/net/ipv4/tcp_early_retrans
lpaa23:/export/hda3/google/edumazet# for f in {1..10}; do
./super_netperf 1 -H lpaa24 -t TCP_RR -l 20; done
  26797
  26850
  25266
"""

HACKBENCH = """\
Before:
# ./hackbench -g 100 -l 10000
Time: 91.677
"""


def _rows(text: str) -> list[dict]:
    return result_rows(extract_explained(text, "p")[0])


def test_caption_above_the_command_names_the_system():
    got = sorted((r["system"], r["benchmark"], r["metric"], r["value"], r["unit"]) for r in _rows(CAPTIONED)
                 if r["layout"] == "tool_output")
    assert got == [("commit 3189713a1b84 (a250c23^)", "netperf", "throughput", 97379.8, "Mbit/s"),
                   ("commit a250c23f15c2", "netperf", "throughput", 34097.5, "Mbit/s")]
    # the sentence above the commands gives its own two figures (`~95Gbps before and ~35Gbps after`)
    said = sorted((r["system"], r["value"], r["unit"]) for r in _rows(CAPTIONED) if r["layout"] == "prose")
    assert said == [("after", 35.0, "Gbit/s"), ("before", 95.0, "Gbit/s")]


# https://lore.kernel.org/netdev/20191223202754.127546-6-edumazet@google.com/ (its lines): the tool in a
# loop between setup and report commands on one line, the report's counters after the runs
COMPOUND = """\
Before:
nstat -n;for f in {1..10}; do ./super_netperf 1 -H lpaa24 -l -4000000; done;nstat|egrep "Hystart"
   9117
   7057
   9553
TcpExtTCPHystartTrainDetect     10                 0.0
TcpExtTCPHystartTrainCwnd       1230               0.0

After :
nstat -n;for f in {1..10}; do ./super_netperf 1 -H lpaa24 -l -4000000; done;nstat|egrep "Hystart"
   9845
  10103
TcpExtTCPHystartTrainDetect     10                 0.0
TcpExtTCPHystartTrainCwnd       6462               0.0
"""


def test_the_tool_among_the_commands_of_one_line_and_the_counters_after_its_runs_are_no_values():
    got = [(r["system"], r["params"]["run"], r["value"]) for r in _rows(COMPOUND)]
    assert got == [("Before", "1", 9117.0), ("Before", "2", 7057.0), ("Before", "3", 9553.0),
                   ("After", "1", 9845.0), ("After", "2", 10103.0)]
    assert command_of('nstat -n;for f in {1..10}; do ./hackbench 30; done') == ("hackbench", ["30"])
    assert command_of("nstat -n; nstat|egrep Hystart") is None


def test_a_loop_gives_one_value_per_run_with_the_test_of_the_command():
    got = [(r["metric_label"], r["metric"], r["params"]["run"], r["value"], r["unit"], r["system"])
           for r in _rows(LOOP)]
    assert got == [("TCP_RR", "transaction_rate", "1", 26797.0, "trans/s", None),
                   ("TCP_RR", "transaction_rate", "2", 26850.0, "trans/s", None),
                   ("TCP_RR", "transaction_rate", "3", 25266.0, "trans/s", None)]


def test_hackbench_time_line_under_its_command():
    values, used = read_commands(HACKBENCH.splitlines())
    got = [(v.benchmark, v.system, v.label, v.value, v.unit, v.params) for v in values]
    assert got == [("hackbench", "Before", "Time", 91.677, None, {"groups": "100", "loops": "10000"})]
    assert used == {1, 2}


def test_tools_with_their_own_parsers_and_plain_commands_are_not_read_here():
    assert command_of("$ fio --rw=randread --bs=4k") is None
    assert command_of("$ ls -l") is None
    assert command_of("lpaa23:/dir# ./super_netperf 1 -t TCP_RR; done") == ("netperf", ["1", "-t", "TCP_RR"])


_line = st.sampled_from(["$ ./super_netperf 4 -H h -l 10", "# hackbench -g 10", "12345", "  3.5", "Time: 2.741",
                         "Before:", "", "text line", "1 2 3", "./netperf -t UDP_RR; done", "for f in x; do"])


@settings(max_examples=200, deadline=None)
@given(st.lists(_line, max_size=20))
def test_values_come_only_from_number_lines_right_after_a_command(lines):
    values, used = read_commands(lines)
    for v in values:
        assert v.line in used
        assert str(v.value).rstrip("0").rstrip(".") in lines[v.line].replace("Time:", "").strip() + ".0"
        k = v.line - 1
        while command_of(lines[k]) is None:  # only number lines between it and its command
            assert lines[k].strip().replace("Time:", "").strip().replace(".", "", 1).isdigit()
            k -= 1


def test_read_commands_is_linear():
    for bad in (["$ ./super_netperf"] + ["1" * 10] * 5000, ["# " * 20_000], [" " * 50_000 + "1"]):
        t = time.perf_counter()
        read_commands(bad)
        assert time.perf_counter() - t < 1.0


# https://lore.kernel.org/linux-mips/YBHp4139X+p+4IZ+@hirez.programming.kicks-ass.net/ (quoted)
SYSBENCH_MUTEX = """\
On 6-core Octeon machine:
sysbench --test=mutex --num-threads=64 --memory-scope=local run

w/o patch:\t1.60s
with patch:\t1.51s
"""


def test_a_caption_running_the_tool_with_options_says_how_it_ran_not_what_was_measured():
    from transforms.extract import extract_explained
    from transforms.handmade.commands import command_params
    from transforms.rows import result_rows

    assert command_params("sysbench --test=mutex --num-threads=64 run", "sysbench") == {
        "test": "mutex", "num-threads": "64"}
    assert command_params("sysbench --test=mutex run", "fio") is None
    assert command_params("sysbench results", "sysbench") is None
    rows = result_rows(extract_explained(SYSBENCH_MUTEX, "m")[0])
    assert {(r["system"], r["metric"], r["value"], r["unit"]) for r in rows} == {
        ("w/o patch", "total_time", 1.6, "s"), ("with patch", "total_time", 1.51, "s")}
    assert all(r["params"].get("test") == "mutex" for r in rows)
