"""Lines that never hold a result."""

import re
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from transforms.extract import extract_explained
from transforms.handmade.noise import _HEX_LINE, _KINDS, noise_block, noise_line
from transforms.rows import result_rows

# https://lkml.iu.edu/ (2001, OSDL STP UnixBench thread): the signature under the results
SIGNATURE = """\
UnixBench results are somewhat funny.

Open Source Development Lab Inc - A non-profit corporation
15275 SW Koll Parkway - Suite H - Beaverton OR, 97006
(503)-626-2455 x11 (office)    (503)-702-2871     (cell)
(503)-626-2436     (fax)
"""


def test_telephone_numbers_are_noise():
    assert noise_line("(503)-626-2455 x11 (office)    (503)-702-2871     (cell)")
    assert noise_line("(503) 626-2436     (fax)")
    assert not noise_line("Throughput 503.5 MB/sec 16 procs")


def test_a_signature_with_telephone_numbers_gives_no_rows():
    assert result_rows(extract_explained(SIGNATURE, "s")[0]) == []


# https://lore.kernel.org/lkml/20030211022158.GA12425@rushmore/ : a hung dbench's /proc/<pid>/status
PROC_STATUS = """\
While running dbench 64 on 2.5.60 on quad P3 xeon...

root@dev4-003:/proc/1134# cat status
Name:   dbench
State:  S (sleeping)
Tgid:   1134
Pid:    1134
PPid:   1109
TracerPid:      0
FDSize: 256
VmSize:     1468 kB
VmRSS:       400 kB
"""


def test_a_process_status_listing_gives_no_rows():
    assert result_rows(extract_explained(PROC_STATUS, "p")[0]) == []


# https://lore.kernel.org/lkml/20011228142940.B15896@earthlink.net/ : a task dump while dbench 32 hangs
REGISTERS = """\
This is while running dbench 32 on an ext2 filesystem.


SysRq : Show Regs

Pid: 0, comm:              swapper
EIP: 0010:[<c0106c03>] CPU: 0 EFLAGS: 00000246    Not tainted
EAX: 00000000 EBX: c0220000 ECX: d7d1a270 EDX: d7d1a270
ESI: c0106be0 EDI: ffffe000 EBP: 0008e000 DS: 0018 ES: 0018
CR0: 8005003b CR2: 080cc00c CR3: 17d02000 CR4: 00000090
Call Trace: [<c0106c67>] [<c0105000>] [<c0105027>]
"""


def test_an_oops_register_dump_gives_no_rows():
    assert result_rows(extract_explained(REGISTERS, "r")[0]) == []


# https://lore.kernel.org/lkml/20230622021540-mutt-send-email-mst@kernel.org/ (forwarded revert: fio hangs)
COUNTERS = Path(__file__).parents[2] / "fixtures/real/negative/h_stable_2023_neg_virtio_blk_revert_fio_hang_diskstats.txt"


def test_diskstats_and_driver_counters_under_a_fio_hang_give_no_rows():
    lines = COUNTERS.read_text().split("\n")
    start = next(k for k, ln in enumerate(lines) if ln.startswith("After a few"))
    text = "\n".join(lines[start:start + 22]) + "\n"
    assert "cat /proc/diskstats" in text and "[a]request_count" in text
    assert noise_line("252       0 vda 1843140071 0 14745120568 712568645 0 0 0 0 0 3117947 712568645 0 0 0 0 0 0")
    assert result_rows(extract_explained(text, "c")[0]) == []


def test_a_register_dump_is_no_table():
    # https://lore.kernel.org/linux-nvme/cover.1561381826.git.zhangweiping@didiglobal.com/, as posted
    dump = "cap     : 2078030fff\nversion : 10200\nintms   : 0\ncc      : 460801\naqa     : 1f001f\n"
    assert noise_block(dump) == "register dump (cap : 2078030fff)"
    assert noise_block("fio-1:  220 k  395 k\nBW  : 574.93 MiB/s\nlat : 7.038 us\n") is None


# https://lore.kernel.org/lkml/1099062582.22115.54.camel@thomas/ (2004, OOM kills while hackbench runs)
OOM = Path(__file__).parents[2] / "fixtures/real/negative/w_lkml_2004_neg_oom_log_hackbench_celeron.txt"


def test_an_oom_report_under_a_hackbench_run_gives_no_rows():
    body = OOM.read_text(encoding="utf-8").split("\n", 1)[1]
    assert "cpu 0 hot: low 2, high 6, batch 1" in body
    assert noise_block("DMA per-cpu:\ncpu 0 hot: low 2, high 6, batch 1\ncpu 0 cold: low 0, high 2, batch 1\n")
    assert result_rows(extract_explained(body, "o")[0]) == []


# https://lore.kernel.org/lkml/200108250930.f7P9UZH10871@maile.telia.com/ : a drive's datasheet quoted beside
# an hdparm figure; seek times and transfer rates the vendor prints are no measurement
DATASHEET = """\
I get 35 MB/s with hdparm -t on this disk.

* Data from a Seagate Cheetah X15 ST336732LC (Better than most
disks out there - way better than mine)
Formatted Int Transfer Rate (min)\t51 MBytes/sec
Formatted Int Transfer Rate (max)\t69 MBytes/sec
Average Seek Time, Read\t\t3.7 msec typical
Track-to-Track Seek, Read\t0.5 msec typical
Average Latency\t\t\t2 msec
"""


def test_a_drives_datasheet_gives_no_rows():
    rows = result_rows(extract_explained(DATASHEET, "d")[0])
    assert [(r["benchmark"], r["value"]) for r in rows] == [("hdparm", 35.0)]


# https://lore.kernel.org/linuxppc-dev/2a71b853-f461-4327-8d44-ef97564b2b91@linux.ibm.com/ : a powerpc oops
# of a hackbench task; its registers are no hackbench figures
OOPS = """\
Ran hackbench with bcc tools. Panic log:
  BUG: Kernel NULL pointer dereference on read at 0x000006b8
  Faulting instruction address: 0xc00000000013cf10
  Oops: Kernel access of bad area, sig: 11 [#1]
  CPU: 38 UID: 0 PID: 2938 Comm: hackbench Kdump: loaded Not tainted 6.19.0-rc4+ #326 PREEMPT(full)
  NIP:  c00000000013cf10 LR: c00000000013ced0 CTR: c0000000004a7f08
  REGS: c0000000a7f96b60 TRAP: 0300   Not tainted  (6.19.0-rc4+)
  MSR:  8000000000001033 <SF,ME,IR,DR,RI,LE>  CR: 88022828  XER: 20040000
  CFAR: c00000000050490c DAR: 00000000000006b8 DSISR: 40000000 IRQMASK: 3
"""

# https://lore.kernel.org/linux-mm/alpine.LFD.2.02.1205181223460.3899@tux.localdomain/ : `slabinfo -r`
# after a hackbench run
SLABINFO_R = """\
> when './perf stat -r 30 hackbench 50 process 4000 > /dev/null' is done.
>
> ***Vanilla***
> Sizes (bytes)     Slabs              Debug                Memory
> ------------------------------------------------------------------------
> Object :     256  Total  :     468   Sanity Checks : Off  Total: 3833856
> SlabObj:     256  Full   :     111   Redzoning     : Off  Used : 2004992
> SlabSiz:    8192  Partial:     302   Poisoning     : Off  Loss : 1828864
> Loss   :       0  CpuSlab:      55   Tracking      : Off  Lalig:       0
> Align  :       8  Objects:      32   Tracing       : Off  Lpadd:       0
"""


def test_an_oops_and_slabinfo_beside_hackbench_give_no_rows():
    assert result_rows(extract_explained(OOPS, "o", subject="BUG: Kernel NULL pointer, hackbench")[0]) == []
    assert result_rows(extract_explained(SLABINFO_R, "s")[0]) == []
    assert noise_block(OOPS) == "BUG: Kernel"
    assert noise_block(SLABINFO_R.split("***Vanilla***")[1]) == "Sizes (bytes)     Slabs"


# https://lore.kernel.org/lkml/20010302094803.A5170@cone.kiwa.co.nz/ : the IDE chipset's
# timings (/proc/ide/via) quoted beside hdparm runs, the lines as posted; its nanoseconds are no hdparm figures
IDE_TIMINGS = """\
--------------------drive0----drive1----drive2----drive3-----
Transfer Mode:       UDMA       PIO       PIO       PIO
Address Setup:       29ns     116ns     116ns     116ns
Cmd Active:          87ns      87ns     464ns     464ns
Cmd Recovery:        58ns      58ns     464ns     464ns
Data Active:         87ns     319ns     319ns     319ns
Data Recovery:       58ns     261ns     261ns     261ns
Cycle Time:          20ns     580ns     580ns     580ns
Transfer Rate:  100.0MB/s   3.4MB/s   3.4MB/s   3.4MB/s
"""


def test_an_ide_chipsets_timings_beside_hdparm_give_no_rows():
    body = "hdparm -tT /dev/hda\n\n" + IDE_TIMINGS
    assert noise_block(IDE_TIMINGS)
    assert result_rows(extract_explained(body, "v")[0]) == []


def test_an_old_vmstat_with_its_w_column_is_noise():
    # https://lore.kernel.org/lkml/200108100502.f7A52Ve23324@thor.mesatop.com/ (its lines): vmstat of 2.4
    block = ("   procs                      memory    swap          io     system         cpu\n"
             " r  b  w   swpd   free   buff  cache  si  so    bi    bo   in    cs  us  sy  id\n"
             " 2  0  0      0 267028   4180  61008   0   0   176    52  572   209  10   8  82\n")
    assert noise_block(block) is not None


def test_boot_messages_are_noise():
    # https://lore.kernel.org/lkml/20011228124905.A15601@earthlink.net/ (its lines): the boot log beside
    # a dbench run
    block = ("Partition check:\n hda: hda1 hda2 hda3 < hda5 hda6 hda7 >\n hdc: hdc1 hdc2 hdc3 < hdc5 >\n"
             "Floppy drive(s): fd0 is 1.44M\nFDC 0 is a post-1991 82077\n8139too Fast Ethernet driver 0.9.22\n")
    assert noise_block(block) is not None


def test_mdadm_details_and_a_drives_identity_are_noise():
    # https://lore.kernel.org/lkml/4ad99e050511211231o97d5d7fw59b44527dc25dcea@mail.gmail.com/ (its lines)
    assert noise_block("    Update Time : Mon Nov 21 19:38:30 2005\n          State : active\n"
                       " Active Devices : 2\nWorking Devices : 2\n Failed Devices : 0\n  Spare Devices : 0\n")
    # https://lore.kernel.org/lkml/20011220184117.46cde456.sebastian.droege@gmx.de/ (its lines): hdparm -I
    assert noise_block("             Cycle time: min=120ns recommended=120ns\n"
                       "             Cycle time: no flow control=240ns  IORDY flow control=120ns\n")


def test_settings_made_before_a_run_are_noise():
    # https://lore.kernel.org/netdev/20230214213003.2117125-4-anthony.l.nguyen@intel.com/ (its lines)
    for line in ("ip link set dev enp175s0f1np1 gso_max_size 130000", "ethtool -K eth0 gro off",
                 "sudo sysctl -w net.core.rmem_max=16777216", "tc qdisc add dev eth0 root fq maxrate 100mbit"):
        assert noise_line(line)
    assert not noise_line("iperf3 -c 10.0.0.1 -t 30") and not noise_line("ip forwarding   9.2 Gbit/s")


# The kinds are searched one by one, each only when one of its words is in the block: the answer must
# be what one case-blind alternation of them all finds (the earliest match, the first kind on a tie).
_ONE_PASS = re.compile("|".join(f"(?:{rx})" for _, rx in _KINDS), re.I | re.M)
_PIECES = st.sampled_from([
    "procs -----------memory", "r  b   swpd   free", "Device: tps", "PID USER PR", "total used free",
    "EAX: 0012abcd", "eip: c0123456", "x12 : deadbeef", "NIP [c0000000]", "Oops: 0002", "Tgid:\t42",
    "Bug 1234", "| Status |", "Name |", "Signed-off-by: A <a@b>", "raid5: using", "CPU %usr", "%user %nice",
    "cpu 0 hot: low 2", "Vendor: ATA  Model: X", "Throughput 503.5 MB/sec", "Time: 2.741", "IOPS=84.2k",
    "K", "ſ", "İ", "ı", "é", "\n", " ", ":", "a", "0123abcd",
])


@given(st.lists(_PIECES, max_size=12).map("".join))
def test_the_gated_kinds_find_what_one_alternation_finds(text: str) -> None:
    m = _ONE_PASS.search(text)
    assert noise_block(text) == (m.group(0).strip() if m else _hex_dump(text))


def _hex_dump(text: str) -> str | None:
    hexes = _HEX_LINE.findall(text)
    return f"register dump ({' '.join(hexes[0].split())})" if len(hexes) >= 2 else None


# https://lore.kernel.org/linux-bcache/CAJhEC07JauBGfqmEaYbV9XuLUkCdbart-gnbuMWYE7JwzG4CsA@mail.gmail.com/
# (its lines): fio's latency log quoted under a job file (`ioengine=libaio`)
FIO_LOG = """\
ioengine=libaio
iodepth=128

Before:

time-ms,latency-ns,,,

12170, 285016, 1, 0, 0
12183, 296581, 1, 0, 0
12207, 6542725, 1, 0, 0
12242, 24483604, 1, 0, 0
"""


def test_a_fio_latency_log_gives_no_rows():
    assert noise_line("12170, 285016, 1, 0, 0") and noise_line("4000, 512, 0, 4096")
    assert not noise_line("4k, 1234, 5678, 9012")  # a row a person typed: a label, then figures
    assert result_rows(extract_explained(FIO_LOG, "m")[0]) == []


# https://lore.kernel.org/netdev/20191223202754.127546-6-edumazet@google.com/ (its lines)
def test_nstat_counters_are_noise():
    assert noise_line("TcpExtTCPHystartTrainDetect     10                 0.0")
    assert noise_line("TcpExtTCPHystartTrainCwnd       1230               0.0")
    assert not noise_line("TCP_STREAM       9400.5   9380.1")


# https://lore.kernel.org/lkml/bfbfbf041854e2cd1a8ed14e64081062e5d632d3.camel@gmx.de/: `perf sched latency`
def test_perf_sched_latency_is_no_benchmark_table():
    from transforms.handmade.noise import noise_block

    block = ("  Task                  |   Runtime ms  | Switches | Avg delay ms    |\n"
             "  Isolated Web Co:5457  |  10982.274 ms |     5768 | avg:   0.295 ms |\n"
             "  TOTAL:                |2370376.486 ms |  1189527 |                 |\n")
    assert noise_block(block) is not None
