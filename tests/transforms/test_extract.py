"""transforms.extract: how parsers' runs and the hand-made reader come together in one post."""

import pytest

from transforms.extract import extract_explained
from transforms.rows import result_rows

# https://lore.kernel.org/lkml/ (2005, RAID0/RAID5 on U320 disks; the reply quotes the table in parts)
CONTINUED = """\
> Version  1.03        ------Sequential Output------ --Sequential Input- --Random-
>                       -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--
> Machine         Size K/sec %CP K/sec %CP K/sec %CP K/sec %CP K/sec %CP  /sec %CP
> Raid0 (8 disk)15744M 54406  96 247419 90 100752 25 60266  98 226651 29 830.2   1

you're obviously saturating something already with 2 disks.

> Raid5 (8 disk)15744M 55881  98 153735 51 61680  24 56229  95 207348 44 741.2   1

the block-read shows that even with 3 disks, you're hitting ~190 MB/s.
"""


def test_rows_quoted_again_after_a_comment_are_read_under_the_header_above():
    runs, _, explained = extract_explained(CONTINUED, "m")
    rows = result_rows(runs)
    raid5 = {r["metric"]: r["value"] for r in rows if r["system"].startswith("Raid5")}
    assert raid5["seq_output_char"] == 55881 and raid5["seq_output_block"] == 153735
    assert raid5["seq_input_block"] == 207348 and raid5["random_seeks"] == 741.2
    assert raid5["seq_rewrite_cpu"] == 24
    assert len([r for r in rows if r["system"].startswith("Raid0")]) == 12
    assert len(raid5) == 12
    cont = [r for r in runs if any("continuing" in n for n in r.run.notes)]
    assert [(r.line_start, r.line_end) for r in cont] == [(7, 8)]  # its own line, not the borrowed header


def test_a_segment_without_a_table_above_is_not_read_as_a_continuation():
    alone = CONTINUED.split("\n", 4)[4]  # the same rows, no header anywhere above
    assert result_rows(extract_explained(alone, "m")[0]) == []


# https://lore.kernel.org/netdev/ (2021, "net: bcm63xx_enet: alloc skb with NET_IP_ALIGN"), as posted
BCM = """\
Tested on BCM6328 320 MHz and iperf3 -M 512 to measure packet/sec
performance.

Before:
[ ID] Interval Transfer Bandwidth Retr
[ 4] 0.00-30.00 sec 120 MBytes 33.7 Mbits/sec 277 sender
[ 4] 0.00-30.00 sec 120 MBytes 33.5 Mbits/sec receiver

After (+netif_receive_skb_list):
[ 4] 0.00-30.00 sec 155 MBytes 43.3 Mbits/sec 354 sender
[ 4] 0.00-30.00 sec 154 MBytes 43.1 Mbits/sec receiver
"""


# https://lore.kernel.org/netdev/fa2ec166605fc2a60d9ed5e74bc349bd1e322b8d.1623763509.git.lorenzo@kernel.org/
UNDERLINED = """\
As already done for mvneta and mvpp2, enable skb recycling for ti
ethernet drivers

ti driver on net-next:
----------------------
[perf top]
 47.15%  [kernel]     [k] _raw_spin_unlock_irqrestore
 11.77%  [kernel]     [k] __cpdma_chan_free

[iperf3 tcp]
[  5]   0.00-10.00  sec   873 MBytes   732 Mbits/sec    0   sender
[  5]   0.00-10.01  sec   866 MBytes   726 Mbits/sec        receiver

ti + skb recycling:
-------------------
[perf top]
 40.58%  [kernel]    [k] _raw_spin_unlock_irqrestore
 16.18%  [kernel]    [k] __softirqentry_text_start

[iperf3 tcp]
[  5]   0.00-10.00  sec   884 MBytes   742 Mbits/sec    0   sender
[  5]   0.00-10.01  sec   878 MBytes   735 Mbits/sec        receiver
"""


@pytest.mark.parametrize(("text", "want"), [
    (BCM, {("Before", "sender", 33.7), ("Before", "receiver", 33.5),
           ("After (+netif_receive_skb_list)", "sender", 43.3), ("After (+netif_receive_skb_list)", "receiver", 43.1)}),
    # (a heading over a rule, inside the printout as above one)
    (UNDERLINED, {("ti driver on net-next", "sender", 732.0), ("ti driver on net-next", "receiver", 726.0),
                  ("ti + skb recycling", "sender", 742.0), ("ti + skb recycling", "receiver", 735.0)}),
])
def test_captions_inside_one_printout_name_the_rows_below_them(text, want):
    rows = result_rows(extract_explained(text, "c")[0])
    assert {(r["system"], r["params"]["side"], r["value"]) for r in rows if r["metric"] == "throughput"} == want


def test_an_annotated_hackbench_time_line_is_read():
    from transforms.extract import extract_explained
    from transforms.rows import result_rows

    text = ("hackbench -g 112 -f 20 --threads -l 30000 -s 100\n"
            "Running in threaded mode with 112 groups using 40 file descriptors each (== 4480 tasks)\n"
            "Each sender will pass 30000 messages of 100 bytes\nTime: 118.220  <---\n")
    assert [r["value"] for r in result_rows(extract_explained(text, "h")[0])] == [118.22]


def test_a_post_past_the_gate_that_gives_nothing_says_why():
    # https://lore.kernel.org/linux-xfs/CAPFOzZuH=Mb2D_sNTZrnbcx0SYKcQOqMydk373_eTLc19-H+cQ@mail.gmail.com/
    body = "> My test command is:\n> /fio/t/io_uring -p0 -d128 -b4096\n\nYes, similar numbers with XFS on 2 disks.\n"
    runs, hit, explained = extract_explained(body, "m", subject="Re: [PATCH] iomap: fio numbers")
    assert runs == [] and not hit
    (e,) = explained
    assert (e.line_start, e.line_end, e.benchmark, e.evidence) == (0, 5, "fio", "named in the subject")
    assert e.outcome.startswith("nothing: no table")
    # hackbench's banner with no `Time:` after it: the signature matched, its parser read nothing
    banner = "Running in process mode with 10 groups using 40 file descriptors each (== 400 tasks)\n"
    runs, hit, explained = extract_explained(banner, "m")
    assert runs == [] and hit
    assert explained[0].taken_for == "tool output (hackbench signature)"
    assert explained[0].outcome == "nothing: the parser found no printout it reads"


def test_the_hand_made_reader_runs_only_when_a_line_no_parser_read_holds_a_figure(monkeypatch):
    import transforms.extract as extract

    calls: list[int] = []
    real = extract.read_handmade

    def counting(segs, subject, claimed):
        calls.append(len(claimed))
        return real(segs, subject, claimed)

    monkeypatch.setattr(extract, "read_handmade", counting)
    printout = "bonnie results, nothing else to add:\n\n" + CONTINUED.replace("> ", "").split("\n\nyou")[0] + "\n"
    assert result_rows(extract.extract_explained(printout, "m")[0])  # the parser reads every figure
    assert calls == []
    beside = printout + "\nand dbench gave me 123.4 MB/sec on the same box.\n"
    rows = result_rows(extract.extract_explained(beside, "m")[0])
    assert len(calls) == 1 and any(r["benchmark"] == "dbench" and r["value"] == 123.4 for r in rows)


def test_a_line_its_parser_cannot_read_stays_in_quarantine_and_is_read_by_hand_too():
    # a result in running text written in the tool's own words (the real-posts issue's results one
    # line per run, #10): dbench's parser cannot read the arrow, so its run is quarantined with the
    # reason, and the hand reader reads the line's before and after
    text = "dbench 16 on ext4, before/after:\nThroughput 412.3 MB/sec -> 455.1 MB/sec\n"
    runs, _, explained = extract_explained(text, "m", subject="[PATCH] dbench")
    assert [(r.parser.name, r.run.status) for r in runs] == [("dbench", "unparsed"), ("handmade", "ok")]
    assert runs[0].run.reason.startswith("unreadable Throughput line")
    got = {(r["benchmark"], r["params"].get("when"), r["value"], r["unit"]) for r in result_rows(runs)}
    assert got == {("dbench", "before", 412.3, "MB/s"), ("dbench", "after", 455.1, "MB/s")}
    assert any(e.taken_for.startswith("prose") for e in explained)


def test_a_score_line_the_parser_cannot_place_is_left_to_the_hand_table_it_ends():
    # the real-posts issue's hand tables (#10): a header row of configuration names over rows of
    # metric names; UnixBench's own index line closes it, two scores the parser has no columns for
    text = ("UnixBench 5.1.3 index scores\n\nTest                          host      guest\n"
            "Dhrystone 2                   3012.4    2950.1\nWhetstone                      812.3     801.9\n"
            "Execl Throughput              1320.5     980.2\nSystem Benchmarks Index Score 1502.1    1280.4\n")
    runs, _, _ = extract_explained(text, "m", subject="Re: UnixBench on KVM guest")
    assert [(r.parser.name, r.run.status) for r in runs] == [("handmade", "ok"), ("unixbench", "unparsed")]
    assert runs[1].run.reason.startswith("unreadable score line")
    got = {(r["system"], r["metric"], r["value"]) for r in result_rows(runs)}
    assert {s for s, _, _ in got} == {"host", "guest"} and len(got) == 8
    assert {("host", "index_score", 1502.1), ("guest", "index_score", 1280.4), ("guest", "dhrystone", 2950.1)} <= got
