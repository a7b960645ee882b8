"""The lead-in sentence names the system of the printout below it (transforms/leadin.py)."""

from hypothesis import given, settings
from hypothesis import strategies as st

from transforms import leadin
from transforms.extract import extract_explained
from transforms.leadin import lead_in, order_legend, releases
from transforms.rows import result_rows

# https://lore.kernel.org/linux-mm/ (2009, Wu Fengguang, "a single dd on my laptop"), the lines as posted
DD = """\
Here is a single dd on my laptop with 4G memory, kernel 2.6.30.

        root /home/wfg# echo 10 > /proc/sys/vm/dirty_ratio
        root /home/wfg# echo 20 > /proc/sys/vm/dirty_background_ratio

        wfg ~% dd if=/dev/zero of=/opt/vm/10G bs=1M count=1000
        1000+0 records in
        1000+0 records out
        1048576000 bytes (1.0 GB) copied, 12.7143 s, 82.5 MB/s
"""


def test_releases_as_posters_write_them():
    assert releases("kernel 2.6.30, then 2.6.31-rc1 and linux-2.4.10 and v5.15") == [
        "2.6.30", "2.6.31-rc1", "2.4.10", "5.15"]
    assert releases("fio-3.19 and iperf 3.1.3 and LuaJIT 2.1.0, version 1.03") == ["2.1.0"]
    assert releases("LuaJIT 2.1.0 and 4.7.2", strong=True) == []
    assert releases("192.168.1.10 and 10.0.0.1 at 3.5 GHz") == []


def test_lead_in_is_the_paragraph_above():
    lines = ["Intro.", "", "Run on kernel 2.6.30", "with ext4.", "", "output"]
    assert lead_in(lines, 5) == "Run on kernel 2.6.30 with ext4."


# https://lore.kernel.org/linux-raid/CAMGffEkfs0KsuWX8vGY==1dym78d6wsao_otSjzBAPzwGtoQcw@mail.gmail.com/
# (excerpt): the command run right under the sentence is no part of what the sentence names
def test_the_command_under_a_lead_in_sentence_is_no_part_of_it():
    lines = ["Only commented out set_in_sync get a better improvement",
             "root@ib2:/home/jwang# cat md_lat_ib2_5.3.0-rc3-1-storage+_2019_0806_093340.log",
             "write-test: (g=0): rw=write, bs=4K-4K/4K-4K/4K-4K, ioengine=libaio, iodepth=32"]
    assert lead_in(lines, 2) == "Only commented out set_in_sync get a better improvement"
    assert lead_in(["Intro.", "", "# echo 3 > /proc/sys/vm/drop_caches", "out"], 3) == "Intro."


def test_a_printout_gets_the_release_its_lead_in_sentence_names():
    rows = result_rows(extract_explained(DD, "d")[0])
    assert {r["system"] for r in rows} == {"2.6.30"}
    assert 82.5 in {r["value"] for r in rows}


def test_two_releases_named_guess_nothing():
    text = DD.replace("kernel 2.6.30.", "kernel 2.6.30 and 2.6.31.")
    assert {r["system"] for r in result_rows(extract_explained(text, "d")[0])} == {None}


# https://lore.kernel.org/lkml/20011010003636Z271005-760+23005@vger.kernel.org/ (lines as posted)
PREEMPT = """\
I'm very pleased so far with ac10 with the preempt patch.  Much better than
2.4.9-ac18-preempt, which is what i was using.  I'm just going to put up some
output from lmbench to see if anyone who is running the non-preempt version
is seeing better or worse timings and scores.

ftp://ftp.bitmover.com/lmbench/LMbench2.tgz
(top of README says lmbench 2alpha8)
compiled without any changes to the Makefile (gcc 2.95.4)

Simple syscall: 0.3226 microseconds
Simple read: 0.8185 microseconds
Process fork+exit: 249.6818 microseconds
"""


def test_the_release_the_subject_names_is_what_the_post_measured():
    rows = result_rows(extract_explained(PREEMPT, "p", subject="2.4.10-ac10-preempt lmbench output.")[0])
    assert {(r["metric_label"], r["value"], r["system"]) for r in rows} >= {
        ("Simple syscall", 0.3226, "2.4.10-ac10-preempt"), ("Process fork+exit", 249.6818, "2.4.10-ac10-preempt")}
    # a subject comparing two releases names neither
    rows = result_rows(extract_explained(PREEMPT, "p", subject="2.4.10-ac10 vs 2.4.9-ac18 lmbench")[0])
    assert {r["system"] for r in rows} == {None}


# https://lore.kernel.org/linux-btrfs/20210203231649.F5D8.409509F4@e16-tech.com/ (its lines, shortened):
# the opening names what was measured, far above the printout; the post quotes other releases too
DBENCH_OF = """\
There is the dbench(sync open) test result of misc-next(5.11-rc6 +81patches)

1, the MaxLat is changed from 1900ms level to 1000ms level.
    that is a good improvement.

2, It is OK that NTCreateX/Rename/Unlink/WriteX have the same level of
    MaxLat because all of them will write something to disk.

3, I'm not sure whether MaxLat of Flush is OK.

Operation      Count    AvgLat    MaxLat
 ----------------------------------------
 NTCreateX     924298     0.035   745.523
 Close         678499     0.002     0.093

Throughput 481.002 MB/sec (sync open)  32 clients  32 procs  max_latency=957.929 ms

> it was 1900ms on 4.14.200 and 5.4.91 here.
"""


def test_the_results_the_post_says_it_gives_name_its_printout():
    rows = result_rows(extract_explained(DBENCH_OF, "b")[0])
    assert {r["system"] for r in rows} == {"misc-next(5.11-rc6 +81patches)"}
    assert 481.002 in {r["value"] for r in rows}
    # results said to be of two releases name neither
    two = DBENCH_OF.replace("> it was", "and the results for 5.10-rc2 were")
    assert {r["system"] for r in result_rows(extract_explained(two, "b")[0])} == {None}


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("0123456789.-kernlux vrcm\n")), max_size=400))
def test_releases_never_raise_and_are_named_in_the_text(text):
    for name in releases(text):
        assert name.split("-")[0] in text


# https://lore.kernel.org/lkml/20010808063914Z270354-28344+2861@vger.kernel.org/ (2001, dbench on
# 2.4.7-ac3 and -ac9), the first two groups as posted
ORDER = """\
first lines for 2.4.7-ac3, then 2.4.7-ac9

dbench 48
Throughput 27.3983 MB/sec (NB=34.2479 MB/sec  273.983 MBit/sec)
37.580u 115.730s 3:51.30 66.2%  0+0k 0+0io 1310pf+0w

Throughput 18.4711 MB/sec (NB=23.0889 MB/sec  184.711 MBit/sec)
37.710u 121.900s 5:43.05 46.5%  0+0k 0+0io 1311pf+0w


dbench 32
Throughput 34.7552 MB/sec (NB=43.444 MB/sec  347.552 MBit/sec)
24.620u 73.980s 2:02.55 80.4%   0+0k 0+0io 911pf+0w

Throughput 21.8827 MB/sec (NB=27.3533 MB/sec  218.827 MBit/sec)
25.410u 76.610s 3:14.04 52.5%   0+0k 0+0io 912pf+0w
"""


def test_printouts_named_by_their_order_take_the_names_in_turn():
    rows = result_rows(extract_explained(ORDER, "o")[0])
    got = {(r["system"], r["value"]) for r in rows if r["metric"] == "throughput"}
    assert got == {("2.4.7-ac3", 27.3983), ("2.4.7-ac9", 18.4711), ("2.4.7-ac3", 34.7552), ("2.4.7-ac9", 21.8827)}


def test_order_legends_as_posters_write_them():
    assert order_legend(["top: base, bottom: patched"]) == (0, ["base", "patched"])
    assert order_legend(["x", "The first run is vanilla, the second is patched."]) == (1, ["vanilla", "patched"])
    assert order_legend(["At first I thought it was the disk, then the controller."]) is None
    # an odd number of unnamed printouts below cannot be taken in turn: nothing is guessed
    odd = ORDER + "\ndbench 16\nThroughput 37.7379 MB/sec (NB=47.1724 MB/sec  377.379 MBit/sec)\n"
    assert {r["system"] for r in result_rows(extract_explained(odd, "o")[0])} == {None}


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("firstopbmhenlw ,;:.2-acx\n")), max_size=300))
def test_order_legend_never_raises_and_names_words_of_the_line(text):
    found = order_legend(text.split("\n"))
    if found is not None:
        line, names = found
        assert all(n in text.split("\n")[line] for n in names)


def _systems(text: str) -> list[tuple[str | None, str | None, float]]:
    rows = result_rows(extract_explained(text, "l")[0])
    return [(r["system"], r["params"].get("machine") or r["params"].get("host"), r["value"]) for r in rows]


# https://lore.kernel.org/lkml/20190916125022.10754-1-narmstrong@baylibre.com/ (2019), the lines as
# posted: two bonnie++ printouts told apart only by the line above each
VIM3 = """\
For indication, here is a bonnie++ run as ext4 formatted on the VIM3:
     ------Sequential Output------ --Sequential Input- --Random-
     -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--
Size K/sec %CP K/sec %CP K/sec %CP K/sec %CP K/sec %CP /sec %CP
  4G 93865  99 312837  96 194487  23 102808  97 415501 21 +++++ +++

and the S905D3 VIM3L version:
     ------Sequential Output------ --Sequential Input- --Random-
     -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--
Size K/sec %CP K/sec %CP K/sec %CP K/sec %CP K/sec %CP  /sec %CP
  4G 52144  95 71766  21 47302  10 57078  98 415469  44 +++++ +++
"""


def test_printouts_nothing_else_tells_apart_take_the_lead_in_above_each():
    got = {(s, v) for s, _, v in _systems(VIM3) if v in (93865.0, 52144.0)}
    assert got == {("For indication, here is a bonnie++ run as ext4 formatted on the VIM3", 93865.0),
                   ("the S905D3 VIM3L version", 52144.0)}
    assert all("repeat" not in r["params"] for r in result_rows(extract_explained(VIM3, "l")[0]))


# https://lore.kernel.org/linux-mm/51E998E0.10207@itwm.fraunhofer.de/ (2013, hash directories): one machine
# (`fslab3`, printed in each table) measured under conditions the lines above the quotes name
FSLAB = """\
Entirely cached hash directories (16384), which are populated with about
16 million files, so 1000 files per hash-dir.

> Version  1.96       ------Sequential Create------ --------Random Create--------
> fslab3              -Create-- --Read--- -Delete-- -Create-- --Read--- -Delete--
> files:max:min        /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP
>            60:32:32  1702  14  2025  12  1332   4  1873  16  2047  13  1266   3
> Latency              3874ms    6645ms    8659ms     505ms    7257ms    9627ms


Now after clients did some streaming IO:

> Version  1.96       ------Sequential Create------ --------Random Create--------
> fslab3              -Create-- --Read--- -Delete-- -Create-- --Read--- -Delete--
> files:max:min        /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP
>            60:32:32   541   4  2343  16  2103   6   586   5  1947  13  1603   4
> Latency               190ms     166ms    3459ms    6762ms    6518ms    9185ms
"""


def test_a_machine_name_each_printout_repeats_becomes_a_parameter_under_named_lead_ins():
    got = {(s, m, v) for s, m, v in _systems(FSLAB) if v in (1702.0, 541.0)}
    assert got == {("Entirely cached hash directories (16384), which are populated with about 16 million files, "
                    "so 1000 files per hash-dir", "fslab3", 1702.0),
                   ("after clients did some streaming IO", "fslab3", 541.0)}


def test_machines_a_printout_compares_and_runs_of_other_sizes_keep_their_names():
    # https://lore.kernel.org/lkml/20031104221904.GE30612@ti19.telemetry-investments.com/ (2003): the rows
    # name the systems (the second table is the same one under another lead-in)
    nptl = ("On Fedora 0.95, Pentium M 1.6GHz, 2.4.22-1.2115.nptl:\n\n"
            "Version  1.03       ------Sequential Output------ --Sequential Input- --Random-\n"
            "                    -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--\n"
            "Machine        Size K/sec %CP K/sec %CP K/sec %CP K/sec %CP K/sec %CP  /sec %CP\n"
            "NPTL           100M 13070 100 +++++ +++ 14141   4 13099 100 +++++ +++ +++++ +++\n"
            "LinuxThreads   100M 25957 100 +++++ +++ 20037   5 26777  99 +++++ +++ +++++ +++\n")
    text = nptl + "\nAnd again on my laptop:\n\n" + nptl.split("\n\n", 1)[1]
    assert {s for s, _, _ in _systems(text)} == {"NPTL", "LinuxThreads"}
    # two runs of different sizes are different measurements, not the same one under two names
    sizes = VIM3.replace("  4G 52144", " 8G 52144")
    assert {s for s, _, v in _systems(sizes) if v in (93865.0, 52144.0)} == {None}


def _section(caption: str, cached: str, disk: str, io: str) -> str:
    return (f"----------\n{caption}\n\n/dev/hde:\n Timing buffer-cache reads:   128 MB in  0.28 seconds ={cached} MB/sec\n"
            f" Timing buffered disk reads:  64 MB in  1.37 seconds = {disk} MB/sec\n\n"
            "Version 1.02c       ------Sequential Output------ --Sequential Input- --Random-\n"
            "                    -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--\n"
            "Machine        Size K/sec %CP K/sec %CP K/sec %CP K/sec %CP K/sec %CP  /sec %CP\n"
            f"storage.a2000.nu 1G {io}\n")


def test_a_printout_right_under_another_shares_its_lead_in():
    # https://lore.kernel.org/lkml/Pine.LNX.4.53.0304061251190.8636@ddx.a2000.nu/ (2003; the rows unwrapped):
    # hdparm, then bonnie++, under each `on <controller> :` line
    text = (_section("on intel u100/promise U100 :", "457.14", "46.72",
                     "22364  96 42206  13 15897   6 22634  91 44019  10 252.1   0")
            + _section("on 3ware (7850) :", "457.14", "37.65",
                       "22151  94 67312  18 20152   8 22315  90 38488   9 260.4   0"))
    got = {(s, m, v) for s, m, v in _systems(text) if v in (22364.0, 22151.0)}
    assert got == {("on intel u100/promise U100", "storage.a2000.nu", 22364.0),
                   ("on 3ware (7850)", "storage.a2000.nu", 22151.0)}


def test_a_condition_heading_names_its_section_across_a_reply_that_cuts_the_quote():
    # https://lore.kernel.org/linux-mmc/CAPDyKFrtBKHHRgeF-JO27ANsbSmt8rdnhn-WNr5Je9okEgA29Q@mail.gmail.com/
    # (its lines): `Before the patch:` over a command, the reply's comment, then the quoted fio output
    text = ("> Filled random I/O data\n> Before the patch:\n> CMD (Randread):\n"
            "> sudo fio -filename=/dev/mmcblk0 -direct=1 -numjobs=1 -ioengine=psync -iodepth=1 -name=mytest -bs=1M\n\n"
            "Thanks for running the tests! Overall, I would not expect an impact on\n"
            "the throughput when using a big blocksize like 1M.\n\n"
            ">\n> mytest: (groupid=0, jobs=1): err= 0: pid=2663: Fri Dec 24 14:28:33 2021\n"
            ">   read: IOPS=85, BW=85.1MiB/s (89.3MB/s)(1024MiB/12026msec)\n\n"
            "I haven't yet been able to provide you with comments on the code.\n\n"
            "> After the patch:\n>\n> CMD (Randread):\n"
            "> sudo fio -filename=/dev/mmcblk0 -direct=1 -numjobs=1 -ioengine=psync -iodepth=1 -name=mytest -bs=1M\n>\n"
            "> mytest: (groupid=0, jobs=1): err= 0: pid=11614: Fri Dec 24 14:07:06 2021\n"
            ">   read: IOPS=86, BW=86.6MiB/s (90.8MB/s)(1024MiB/11828msec)\n")
    got = {(r["system"], r["value"]) for r in result_rows(extract_explained(text, "m")[0]) if r["metric"] == "iops"}
    assert got == {("Before the patch", 85.0), ("After the patch", 86.0)}
    # a printout named otherwise in between ends the section
    named = text.replace("> After the patch:\n", "> 5.16-rc6:\n")
    got = {(r["system"], r["value"]) for r in result_rows(extract_explained(named, "m")[0]) if r["metric"] == "iops"}
    assert ("5.16-rc6", 86.0) in got


def _order_legend_line_by_line(lines):
    """The legend search as it was, one line after another (what the one-scan search must equal)."""
    import re

    for k, line in enumerate(lines[:2000]):
        if len(line) > 300 or not re.search(r"(?i)first|top|upper", line):
            continue
        m = leadin._ORDER.search(line)
        if m and m.group("a").lower() != m.group("b").lower():
            return k, [m.group("a").rstrip("."), m.group("b").rstrip(".")]
    return None


_LEGEND_WORDS = ["first", "First", "top", "upper", "then", "second", "bottom", "next", "lines", "is", "for",
                 "vanilla", "patched", "2.6.24", "vanilla.", ",", ":", "and", "the", "run", "TOP", "x" * 150]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(st.sampled_from(_LEGEND_WORDS), max_size=12).map(" ".join), max_size=12))
def test_the_one_scan_legend_search_finds_what_the_line_by_line_one_found(lines):
    assert order_legend(lines) == _order_legend_line_by_line(lines)


# https://lore.kernel.org/lkml/ (2007, `hdparm -t` under 2.6.20-rc; tests/fixtures/real/dev/
# ba_lkml_2007_hdparm_bonnie_2620rc3_regression.txt), the lines as posted: a label line of the
# reply over each quoted bonnie++ printout, the machine (`stein`) printed in both
STEIN = """\
bonnie++ on the SATA disk with a single 47% filled reiserfs partition:
========================================================================
2.6.19.1, SATA:
> Version 1.93c       ------Sequential Output------ --Sequential Input- --Random-
> Concurrency   1     -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--
> Machine        Size K/sec %CP K/sec %CP K/sec %CP K/sec %CP K/sec %CP  /sec %CP
> stein            2G   203  99 57389  18 26943   9   856  93 66032  17 190.8   6
> Latency             48553us     295ms    1130ms     196ms   18075us     500ms
That is,
56.0 MB/s write and 64.5 MB/s read performance of sequential block I/O.
========================================================================
2.6.20-rc3, SATA:
> Version 1.93c       ------Sequential Output------ --Sequential Input- --Random-
> Concurrency   1     -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--
> Machine        Size K/sec %CP K/sec %CP K/sec %CP K/sec %CP K/sec %CP  /sec %CP
> stein            2G   210  99 57340  18 26920  10  1166  89 66805  17 195.3   5
> Latency             47794us     284ms     869ms     249ms   36229us     533ms
That is,
56.0 MB/s write and 65.2 MB/s read performance of sequential block I/O.
"""


def test_a_label_line_of_the_reply_names_the_quoted_printout_below_it():
    got = {(s, m, v) for s, m, v in _systems(STEIN) if v in (57389.0, 57340.0)}
    assert got == {("2.6.19.1, SATA", "stein", 57389.0), ("2.6.20-rc3, SATA", "stein", 57340.0)}


def test_a_release_named_right_above_outranks_the_device_standing_in_for_a_caption():
    # https://lore.kernel.org/lkml/005801c2fa25$f97d0810$2e77c23e@pentium4/ (2003, software RAID 5), as quoted
    text = ("> > raid 5 system. I've installed Red Hat 9.0 with kernel 2.4.20 compiled\n"
            "> > myself to match my harware (had the same problem with the default\n"
            "> > kernel). When I test the raid device's speed using 'hdparm -Tt /dev/hdx'\n"
            "> > I get this:\n"
            "> > /dev/md0:\n"
            "> > Timing buffer-cache reads:   128 MB in  1.14 seconds =112.28 MB/sec\n"
            "> > Timing buffered disk reads:  64 MB in  2.39 seconds = 26.78 MB/sec\n")
    rows = result_rows(extract_explained(text, "x", subject="Re: RAID 5 performance problems")[0])
    assert {(r["system"], r["params"]["device"], r["value"]) for r in rows} == {
        ("2.4.20", "/dev/md0", 112.28), ("2.4.20", "/dev/md0", 26.78)}
    # with no release above, the device still tells the printouts apart
    bare = text.replace("with kernel 2.4.20 compiled", "compiled")
    assert {r["system"] for r in result_rows(extract_explained(bare, "x")[0])} == {"/dev/md0"}


def test_a_paragraph_of_commands_typed_without_a_prompt_is_no_lead_in():
    # https://lore.kernel.org/lkml/Pine.GHP.4.43.0112161058510.11934-100000@bobcat/ (2001, PDC20265 RAID0)
    lines = ["        raid-disk 1", "", "mkraid /dev/md0", "mke2fs /dev/md0", "mount /dev/md0 /backup",
             "bonnie -d /backup -n 1 -s 1024k -u0", "", "Version  1.02  ------Sequential Output------"]
    assert lead_in(lines, 7) == "raid-disk 1"
    assert lead_in(["Numbers with the patch:", "", "then i ran it on /dev/md0", "", "x"], 4) == "then i ran it on /dev/md0"


def test_a_marked_heading_names_every_printout_of_its_section():
    # https://lore.kernel.org/xen-devel/dc5d60d7-1ada-5eb1-ff91-495d663ca89e@vates.fr/ (2021, XSA-332):
    # three iperf3 printouts under each heading; the first ones are named near it, the last far below
    run = ("root@samtest:~# iperf3 -c 10.0.90.1\n"
           "[ ID] Interval           Transfer     Bitrate         Retr\n"
           + "".join(f"[  5]   {i}.00-{i + 1}.00   sec   100 MBytes   842 Mbits/sec    0\n" for i in range(10))
           + "- - - - - - - - - - - - - - - - - - - - - - - - -\n"
           "[ ID] Interval           Transfer     Bitrate         Retr\n"
           "[  5]   0.00-10.00  sec  1.35 GBytes  {rate} Gbits/sec    0             sender\n"
           "[  5]   0.00-10.00  sec  1.35 GBytes  {rate} Gbits/sec                  receiver\n\n")
    text = ("*** Test results, without reverting patch 12 ***\n\n"
            + "".join(run.replace("{rate}", r) for r in ("1.16", "1.17", "8.54"))
            + "*** Test results, after reverting patch 12 (only) ***\n\n"
            + "".join(run.replace("{rate}", r) for r in ("1.60", "2.16", "8.53")))
    rows = [r for r in result_rows(extract_explained(text, "x")[0])
            if r["params"].get("side") == "sender" and r["metric"] == "throughput"]
    assert {(r["value"], r["system"]) for r in rows} == {
        (1160.0, "without reverting patch 12"), (1170.0, "without reverting patch 12"),
        (8540.0, "without reverting patch 12"), (1600.0, "after reverting patch 12 (only)"),
        (2160.0, "after reverting patch 12 (only)"), (8530.0, "after reverting patch 12 (only)")}


def test_one_device_measured_yields_to_the_release_the_post_names():
    # https://lore.kernel.org/lkml/20010301140158.A402@hylke.fakenet/ (2001, AMD7409 DMA), its lines
    text = ("/dev/hda: setting using_dma to 1 (on)\n HDIO_SET_DMA failed: Operation not permitted\n"
            " using_dma    =  0 (off)\nhylke:/home/hylke# hdparm -tT /dev/hda\n\n/dev/hda:\n"
            " Timing buffer-cache reads:   128 MB in  0.90 seconds =142.22 MB/sec\n"
            " Timing buffered disk reads:  64 MB in 12.60 seconds =  5.08 MB/sec\n")
    subject = "DMA on a AMD7409 controller with kernel 2.4.2"
    rows = result_rows(extract_explained(text, "h", subject=subject)[0])
    assert {(r["system"], r["params"]["device"]) for r in rows} == {("2.4.2", "/dev/hda")}
    # two devices measured: each device tells its printout apart, and stays its system
    two = text + text.replace("/dev/hda", "/dev/hdc")
    assert {r["system"] for r in result_rows(extract_explained(two, "h", subject=subject)[0])} == {
        "/dev/hda", "/dev/hdc"}


def test_a_printout_unnamed_beside_named_ones_takes_its_own_short_caption():
    # https://lore.kernel.org/linux-xfs/CAAiJnjor+=Zn62n09f-aJw2amX2wxQOb-2TB3rea9wDCU7ONoA@mail.gmail.com/
    # (2025, NVMe/XFS read on Fedora 42 and Rocky 9.5): `Rocky 9.5` reads as a release, `Fedora 42` not
    run = ("[root@localhost ~]# fio --name=test --rw=read --bs=256k --filename=/mnt/testfile --direct=1 "
           "--numjobs=1 --iodepth=64 --group_reporting --ioengine=libaio --runtime=30 --time_based\n"
           "test: (g=0): rw=read, bs=(R) 256KiB-256KiB, (W) 256KiB-256KiB, (T) 256KiB-256KiB, "
           "ioengine=libaio, iodepth=64\nfio-3.39-44-g19d9\nStarting 1 process\n"
           "test: (groupid=0, jobs=1): err= 0: pid=2465: Sat May  3 17:51:24 2025\n"
           "  read: IOPS={iops}, BW={bw}GiB/s (53.2GB/s)(1487GiB/30001msec)\n")
    text = ("Fedora 42\n\n" + run.replace("{iops}", "203k").replace("{bw}", "49.6")
            + "\nRocky 9.5\n\n" + run.replace("{iops}", "393k").replace("{bw}", "96.0"))
    rows = result_rows(extract_explained(text, "x")[0])
    assert {(r["system"], r["value"]) for r in rows if r["metric"] == "iops"} == {
        ("Fedora 42", 203000.0), ("Rocky 9.5", 393000.0)}
    # alone, with nothing named beside it, a printout keeps no caption that is no release
    alone = result_rows(extract_explained("Fedora 42\n\n" + run.replace("{iops}", "203k").replace("{bw}", "49.6"),
                                          "x")[0])
    assert {r["system"] for r in alone} == {None}


def test_a_name_set_off_by_marks_heads_every_printout_of_its_section():
    # https://lore.kernel.org/linux-btrfs/CAL3q7H4JPumV5YPUdbTU=gS6wyYOpUga0H47ffxgirqrEVE=pQ@mail.gmail.com/
    # (2025, btrfs readahead expansion, as quoted): the marks glued to the branch names
    def section(name: str, runs: tuple[str, str]) -> str:
        return (f"> =========={name}==========\n"
                "> dd /mnt/lol/cmpr 4k\n> 1048576+0 records in\n> 1048576+0 records out\n"
                f"> 4294967296 bytes (4.3 GB, 4.0 GiB) copied, {runs[0]}\n"
                "> dd /mnt/lol/cmpr 128k\n> 32768+0 records in\n> 32768+0 records out\n"
                f"> 4294967296 bytes (4.3 GB, 4.0 GiB) copied, {runs[1]}\n>\n")
    text = (section("for-next", ("17.8832 s, 240 MB/s", "3.71001 s, 1.2 GB/s"))
            + section("ra-expand", ("3.79531 s, 1.1 GB/s", "3.69533 s, 1.2 GB/s")))
    rows = result_rows(extract_explained(text, "x")[0])
    assert {(r["system"], r["value"], r["unit"]) for r in rows if r["metric"] == "throughput"} == {
        ("for-next", 240.0, "MB/s"), ("for-next", 1.2, "GB/s"), ("ra-expand", 1.1, "GB/s"), ("ra-expand", 1.2, "GB/s")}
    # a generic word between marks (`=== Results ===`) names nothing
    plain = text.replace("for-next", "Results").replace("ra-expand", "Summary")
    assert {r["system"] for r in result_rows(extract_explained(plain, "x")[0])} == {None}


def test_a_setting_hdparm_reports_right_before_a_run_names_its_condition():
    # https://lore.kernel.org/lkml/20010924161518.KYHD11251.femail27.sdc1.sfba.home.com@there/ (2001,
    # write caching on an IBM DTLA), the lines as posted
    def run(flag: str, said: str, real: str) -> str:
        return (f"root@c779218-a:/home/nnkk# hdparm -{flag} /dev/hde\n\n/dev/hde:\n {said}\n"
                "root@c779218-a:/home/nnkk# time dd if=/dev/zero of=test.zero bs=1024k \ncount=128\n"
                f"128+0 records in\n128+0 records out\n\nreal    {real}\nuser    0m0.000s\nsys     0m1.740s\n"
                "root@c779218-a:/home/nnkk# rm -f test.zero\n")
    text = (run("W0", "setting drive write-caching to 0 (off)", "0m18.178s")
            + run("W1", "setting drive write-caching to 1 (on)", "0m7.809s"))
    rows = result_rows(extract_explained(text, "x")[0])
    assert {(r["system"], r["value"]) for r in rows if r["metric"] == "elapsed"} == {
        ("write-caching to 0 (off)", 18.178), ("write-caching to 1 (on)", 7.809)}
    # one setting alone tells nothing apart
    one = result_rows(extract_explained(run("W0", "setting drive write-caching to 0 (off)", "0m18.178s"), "x")[0])
    assert {r["system"] for r in one} == {None}


def test_dds_own_record_lines_are_no_lead_in():
    # https://lore.kernel.org/linux-mm/20090801045345.GA16011@localhost/ (2009), as quoted: the post's
    # subject names 2.6.31, the sentence above the run 2.6.30
    text = ("> Here is a single dd on my laptop with 4G memory, kernel 2.6.30.\n>\n"
            ">         root /home/wfg# echo 10 > /proc/sys/vm/dirty_ratio\n>\n"
            ">         wfg ~% dd if=/dev/zero of=/opt/vm/10G bs=1M count=1000\n"
            ">         1000+0 records in\n>         1000+0 records out\n"
            ">         1048576000 bytes (1.0 GB) copied, 12.7143 s, 82.5 MB/s\n")
    rows = result_rows(extract_explained(text, "x", subject="Re: Bug in kernel 2.6.31, Slow wb_kupdate writeout")[0])
    assert {r["system"] for r in rows} == {"2.6.30"}


# https://lore.kernel.org/lkml/200108100502.f7A52Ve23324@thor.mesatop.com/ (its lines, cut): each section
# opens with a rule and the kernel's name; its printouts come after other tools' output
RULED = """\
I ran dbench 32 for 2.4.8-pre8, 2.4.7-ac10, and 2.4.7.

-------------------------------------------------------------------------------
2.4.8-pre8

32 clients started
[....snipped]
Throughput 5.88569 MB/sec (NB=7.35711 MB/sec  58.8569 MBit/sec)
37.16user 398.40system 11:57.77elapsed 60%CPU (0avgtext+0avgdata 0maxresident)k
32 clients started
[....snipped]
Throughput 5.95613 MB/sec (NB=7.44517 MB/sec  59.5613 MBit/sec)


-------------------------------------------------------------------------------
2.4.7-ac10

32 clients started
[....snipped]
Throughput 7.84171 MB/sec (NB=9.80214 MB/sec  78.4171 MBit/sec)
"""


def test_a_name_under_a_rule_heads_its_section():
    got = {(r["system"], r["value"]) for r in result_rows(extract_explained(RULED, "m")[0])
           if r["metric"] == "throughput"}
    assert got == {("2.4.8-pre8", 5.88569), ("2.4.8-pre8", 5.95613), ("2.4.7-ac10", 7.84171)}


# https://lore.kernel.org/lkml/20010301224018.E985@cone.kiwa.co.nz/ (its lines): the kernel the machine
# ran is what `uname -a` printed; the subject names another release, the one the thread is about
UNAME = """\
[nic@hoppa:~] uname -a
Linux hoppa 2.2.18pre21 #1 Fri Dec 22 02:27:39 NZDT 2000 i686 unknown

[nic@hoppa:~/dnetc] sudo hdparm -Tt /dev/hda

/dev/hda:
 Timing buffer-cache reads:   128 MB in  1.18 seconds =108.47 MB/sec
 Timing buffered disk reads:  64 MB in  2.29 seconds = 27.95 MB/sec
"""


def test_the_kernel_uname_printed_names_a_printout_nothing_else_names():
    rows = result_rows(extract_explained(UNAME, "u", subject="Re: Strange hdparm behaviour with Via 686b and 2.4.2")[0])
    assert {(r["system"], r["params"].get("device"), r["value"]) for r in rows} == {
        ("2.2.18pre21", "/dev/hda", 108.47), ("2.2.18pre21", "/dev/hda", 27.95)}
    assert leadin.uname_release("+ uname -r\n5.11.0-0.rc6.141.el8.x86_64\n") == ["5.11.0-0.rc6.141.el8.x86_64"]
    two = "Linux a 5.10.1 #1 SMP\nLinux b 5.11.2 #3 SMP\n"
    assert leadin.uname_release(two) == []  # two machines: no one release


# https://lore.kernel.org/lkml/20010208021447.C352@zip.com.au/ (subject) and
# https://lore.kernel.org/lkml/20030309063153.3a81980f.azarah@gentoo.org/ (subject): a bare release
# the subject says the results were taken with, and a BitKeeper snapshot (`2.5.64bk3`)
def test_the_subjects_release_after_with_or_on_names_an_unnamed_printout():
    hdparm = "/dev/hde:\n Timing buffer-cache reads:   128 MB in  3.54 seconds = 36.16 MB/sec\n"
    rows = result_rows(extract_explained(
        hdparm, "s", "suspecious ide hdparm results with 2.4.1 (and a minor capacity question)")[0])
    assert {(r["system"], r["value"]) for r in rows} == {("2.4.1", 36.16)}
    assert releases("Some oddity with hdparm and linux-2.5.64bk3") == ["2.5.64bk3"]
    assert releases("2.5.64-bk3 and 2.5.64") == ["2.5.64-bk3", "2.5.64"]
    assert leadin._post_release("hdparm results 2.4.1", "/dev/hde:\n") == []  # bare, no word before it


# https://lore.kernel.org/lkml/3ACA683A.89D24DED@chromium.com/ (excerpt): one host's four lmbench
# runs, the legend above naming them two by two
COUNTED_LEGEND = """\
LMBENCH-2BETA1
==============

First two: Linux 2.4.2-ac26 + HP Multiqueue patch

Second Two: Linux 2.4.2-ac26

Processor, Processes - times in microseconds - smaller is better
----------------------------------------------------------------
Host                 OS  Mhz null null      open selct sig  sig  fork exec sh
                             call  I/O stat clos TCP   inst hndl proc proc proc
--------- ------------- ---- ---- ---- ---- ---- ----- ---- ---- ---- ---- ----
skinny    Linux 2.4.2-a  997 0.34 0.56 3.96 5.04    27 0.89 2.72  245 1128 4044
skinny    Linux 2.4.2-a  997 0.34 0.56 4.19 5.32    26 0.89 2.71  247 1150 4067
skinny    Linux 2.4.2-a  997 0.34 0.55 4.09 5.19    26 0.89 2.72  240 1134 4110
skinny    Linux 2.4.2-a  997 0.34 0.57 4.08 5.17    25 0.89 2.71  245 1131 4080
"""


def test_a_legend_naming_groups_of_runs_by_count_names_each_run():
    rows = result_rows(extract_explained(COUNTED_LEGEND, "q")[0])
    forks = [(r["system"], r["value"]) for r in rows if r["metric"] == "fork_proc"]
    assert sorted(forks) == [("Linux 2.4.2-ac26", 240.0), ("Linux 2.4.2-ac26", 245.0),
                             ("Linux 2.4.2-ac26 + HP Multiqueue patch", 245.0),
                             ("Linux 2.4.2-ac26 + HP Multiqueue patch", 247.0)]
    three = COUNTED_LEGEND.replace("Second Two", "Second three")  # counts that do not add up: no group named
    # (the release lmbench cut, `2.4.2-a`, is still completed from the legend)
    assert {r["system"] for r in result_rows(extract_explained(three, "q")[0])} == {"skinny Linux 2.4.2-ac26"}


# https://lore.kernel.org/lkml/1109753893.8422.127.camel@frecb000711.frec.bull.fr/ (excerpt): one host's
# three lmbench runs, a legend naming each line by its place
ORDINAL_LEGEND = """\
 So I ran the lmbench with three different kernels with the fork
connector patch I just sent. Results are attached at the end of the mail
and there are three different lines which are:

\to First line is  a linux-2.6.11-rc4-mm1-cnfork
\to Second line is a linux-2.6.11-rc4-mm1
\to Third line is  a linux-2.6.11-rc4-mm1-cnfork with a user space
          application.

Processor, Processes - times in microseconds - smaller is better
------------------------------------------------------------------------------
Host                 OS  Mhz null null      open slct sig  sig  fork exec sh
                             call  I/O stat clos TCP  inst hndl proc proc proc
--------- ------------- ---- ---- ---- ---- ---- ---- ---- ---- ---- ---- ----
account   Linux 2.6.11- 2765 0.17 0.26 3.57 4.19 16.9 0.51 2.31 162. 629. 2415
account   Linux 2.6.11- 2765 0.16 0.26 3.56 4.17 17.6 0.50 2.30 163. 628. 2417
account   Linux 2.6.11- 2765 0.16 0.27 3.67 4.25 17.6 0.51 2.28 176. 664. 2456
"""


def test_a_legend_naming_each_line_by_its_place_names_each_run():
    rows = result_rows(extract_explained(ORDINAL_LEGEND, "o")[0])
    forks = {(r["system"], r["value"]) for r in rows if r["metric"] == "fork_proc"}
    assert forks == {("linux-2.6.11-rc4-mm1-cnfork", 162.0), ("linux-2.6.11-rc4-mm1", 163.0),
                     ("linux-2.6.11-rc4-mm1-cnfork with a user space", 176.0)}


# https://lore.kernel.org/lkml/20031220034548.GA4809@lucent/ (excerpt; `Subject: lmbench 2.4.20-8(RH9),
# 2.4.20, 2.6.0`): lmbench cut the first release at its OS column's 13 characters
CUT_RELEASE = """\
Processor, Processes - times in microseconds - smaller is better
------------------------------------------------------------------------------
Host                 OS  Mhz null null      open slct sig  sig  fork exec sh
                             call  I/O stat clos TCP  inst hndl proc proc proc
--------- ------------- ---- ---- ---- ---- ---- ---- ---- ---- ---- ---- ----
lucent.rd Linux 2.4.20- 1595 0.99 1.09 3.25 4.54 8.41 1.57 4.25 194. 671. 3273
lucent.rd  Linux 2.4.20 1592 1.01 1.11 14.5 15.9 10.4 1.58 5.42 185. 752. 3739
lucent.rd   Linux 2.6.0 1572 0.29 0.75 17.9 25.9 10.8 1.07 16.1 336. 1223 5075
"""


def test_a_release_the_printout_cut_short_is_completed_from_the_post():
    subject = "lmbench 2.4.20-8(RH9), 2.4.20, 2.6.0"
    rows = result_rows(extract_explained(CUT_RELEASE, "r", subject)[0])
    assert {r["system"] for r in rows} == {"lucent.rd Linux 2.4.20-8(RH9)", "lucent.rd Linux 2.4.20",
                                           "lucent.rd Linux 2.6.0"}
    two = "lmbench 2.4.20-8(RH9), 2.4.20-9, 2.6.0"  # two releases the cut one starts: no guess
    assert "lucent.rd Linux 2.4.20-" in {r["system"] for r in result_rows(extract_explained(CUT_RELEASE, "r", two)[0])}


# https://lore.kernel.org/stable/E4F29FAF-D17F-48BC-9F13-05F04C0C2AF5@flyingcircus.io/ (excerpt)
def test_a_sentence_leading_into_the_command_or_a_printout_s_tail_names_no_system():
    from transforms.leadin import _wordy

    assert not _wordy("Disk stats (read/write): vda: ios=7662/7865, sectors=61856/71089, merge=0/5")
    text = ("I've done a measurement to try to emulate those accesses by running\n\n"
            "$ fio --rw=randrw --name=synctest --bs=4k --direct=1 --numjobs=1 --ioengine=libaio\n"
            "synctest: (g=0): rw=randrw, bs=(R) 4096B-4096B, (W) 4096B-4096B, (T) 4096B-4096B, ioengine=libaio\n"
            "fio-3.38\n"
            "synctest: (groupid=0, jobs=1): err= 0: pid=14227: Wed Jun 18 12:00:00 2025\n"
            "  read: IOPS=122, BW=489KiB/s (501kB/s)(29.9MiB/62557msec)\n"
            "  write: IOPS=123, BW=493KiB/s (504kB/s)(30.1MiB/62557msec); 0 zone resets\n")
    rows = result_rows(extract_explained(text, "f")[0])
    assert rows and all(r["system"] is None for r in rows)


def test_the_release_a_change_table_is_relative_to_is_its_baseline_not_its_system():
    # the real-posts issue's change-only tables (#10): the baseline is recorded, never taken for the
    # system the changes were measured on
    text = "Results relative to v6.5 (percent change):\n  TCP_STREAM:  +3.2%\n  UDP_RR:      -1.1%\n"
    got = {(r["system"], r["params"].get("baseline"), r["value"], r["unit"], r["layout"])
           for r in result_rows(extract_explained(text, "m", subject="[PATCH] net: netperf")[0])}
    assert got == {(None, "v6.5", 3.2, "%", "change_table"), (None, "v6.5", -1.1, "%", "change_table")}
