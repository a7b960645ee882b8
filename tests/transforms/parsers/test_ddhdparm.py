"""dd and hdparm parser: the tricky cells of real posts, mail damage, and property tests."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.transforms.parsers.damage import (
    CANON_KEYS,
    DAMAGES,
    canon,
    damaged,
    one,
    pad_bare_quotes,
)
from tests.transforms.parsers.helpers import Golden, robust_tests
from transforms.parsers import ddhdparm
from transforms.units import KNOWN_UNITS

GOLDEN = Golden("ddhdparm", ("dd", "hdparm"))
_runs, _fixture = GOLDEN.runs, GOLDEN.body


def _rows(body: str, benchmark: str | None = None) -> list[dict]:
    rows = GOLDEN.rows(body)
    return [r for r in rows if benchmark is None or r["benchmark"] == benchmark]


_KEYS = ("benchmark", *CANON_KEYS)  # dd and hdparm rows of one post are told apart


# --- dd ---------------------------------------------------------------------------------------


def test_gnu_dd_rate_as_printed_and_elapsed_seconds():
    rows = _rows(_fixture("dd_gnu_memcg_lkml"), "dd")
    t = one(rows, metric="throughput", params={"bytes": "4294967296", "bs": "4k", "count": "1M"})
    assert (t["value"], t["unit"], t["higher_is_better"], t["statistic"]) == (
        96.4,
        "MB/s",
        True,
        "value",
    )
    e = one(rows, metric="elapsed", params={"bytes": "4294967296", "bs": "4k", "count": "1M"})
    assert (e["value"], e["unit"], e["higher_is_better"]) == (44.5759, "s", False)
    # two identical runs of the same size: told apart by repeat, in post order
    assert (
        one(rows, params_subset=True, metric="throughput", params={"bytes": "1073741824", "repeat": "2"})["value"]
        == 47.8
    )
    # iostat's wkB/s column is not dd
    assert not [r for r in rows if r["value"] in (90694.67, 98816.0)]
    runs = [r for r in _runs(_fixture("dd_gnu_memcg_lkml")) if r.benchmark == "dd"]
    assert runs[0].attributes["command"] == "dd if=/dev/zero of=/fs/f$i bs=4k count=1M"


def test_coreutils_gib_form_gb_per_second_and_decimal_commas():
    rows = _rows(_fixture("dd_coreutils_gib_and_locale"), "dd")
    g = one(rows, params_subset=True, metric="throughput", params={"bytes": "10737418240", "repeat": "2"})
    assert (g["value"], g["unit"]) == (8.2, "GB/s")
    de = one(rows, params_subset=True, metric="elapsed", params={"bytes": "3353227264"})
    assert de["value"] == 365.951  # "365,951 s" with a German decimal comma, not 365951
    assert one(rows, params_subset=True, metric="throughput", params={"bytes": "3353227264"})["value"] == 9.2


def test_busybox_units_are_binary():
    rows = _rows(_fixture("dd_busybox_binary_units_quoted"), "dd")
    gnu = one(rows, params_subset=True, metric="throughput", params={"bytes": "41943040000", "repeat": "1"})
    bb = one(rows, params_subset=True, metric="throughput", params={"bytes": "41943040000", "repeat": "2"})
    assert (gnu["value"], gnu["unit"]) == (111.0, "MB/s")
    assert (bb["value"], bb["unit"], bb["quoted"]) == (114.9, "MiB/s", True)
    # the markdown table that summarises the same numbers is not read
    assert len(rows) == 6


def test_bsd_bytes_per_second_become_mb_per_second():
    rows = _rows(_fixture("dd_bsd_bytes_per_sec"), "dd")
    t = one(rows, params_subset=True, metric="throughput", params={"bytes": "20971520"})
    assert (t["value"], t["unit"]) == (10.656444, "MB/s")
    assert one(rows, params_subset=True, metric="elapsed", params={"bytes": "10485760"})["value"] == 0.001912


def test_dd_line_inside_other_text_and_one_byte():
    text = (
        "write, 1073741824 bytes (1.1 GB) copied, 243.751 s, 4.4 MB/s, bs=1m\n"
        "1 byte copied, 0.000123 s, 8.1 kB/s\n"
    )
    rows = _rows(text, "dd")
    assert one(rows, metric="throughput", params={"bytes": "1073741824"})["value"] == 4.4
    one_byte = one(rows, metric="throughput", params={"bytes": "1"})
    assert (one_byte["value"], one_byte["unit"]) == (8.1, "KB/s")


def test_dd_values_are_labelled_by_their_place_after_copied():
    rows = _rows("1048576000 bytes (1.0 GB) copied, 12.7143 s, 82.5 MB/s\n", "dd")
    assert sorted((r["metric"], r["metric_label"], r["value"], r["unit"]) for r in rows) == [
        ("elapsed", "copied (time)", 12.7143, "s"), ("throughput", "copied (rate)", 82.5, "MB/s")]


# https://lore.kernel.org/lkml/Pine.LNX.4.64.0701111832080.3673@p34.internal.lan/ (2007, raid5 stripe cache
# and readahead): the poster's `111MB/s write and 87MB/s read` are the dd runs writing from /dev/zero and
# reading into /dev/null
DD_WRITE_READ = """\
DEFAULT: (512K)
$ dd if=/dev/zero of=10gb.no.optimizations.out bs=1M count=10240
10240+0 records in
10240+0 records out
10737418240 bytes (11 GB) copied, 96.6988 seconds, 111 MB/s

DEFAULT: (1536K READ AHEAD)
$ dd if=10gb.16384k.stripe.out of=/dev/null bs=1M
298+0 records in
297+0 records out
311427072 bytes (311 MB) copied, 3.5453 seconds, 87.8 MB/s
"""


def test_dd_values_are_labelled_by_the_way_the_command_moved_the_bytes():
    got = {(r["metric_label"], r["value"]) for r in _rows(DD_WRITE_READ, "dd")}
    assert got == {("copied (write rate)", 111.0), ("copied (write time)", 96.6988),
                   ("copied (read rate)", 87.8), ("copied (read time)", 3.5453)}
    assert ddhdparm._direction(ddhdparm._operands("dd if=/dev/zero of=/dev/null bs=1M")) is None  # memory to nowhere
    assert ddhdparm._direction(ddhdparm._operands("dd if=a.img of=b.img bs=1M")) is None  # a file copy


# https://lore.kernel.org/lkml/Pine.LNX.4.64.0701121628100.3655@p34.internal.lan/ (2007, max_sectors_kb):
# nothing above the runs names a system but the device each dd read
DD_DEVICES = """\
> > # echo 3 > /proc/sys/vm/drop_caches
> > # dd if=/dev/md3 of=/dev/null bs=1M count=10240
> > 10240+0 records in
> > 10240+0 records out
> > 10737418240 bytes (11 GB) copied, 399.352 seconds, 26.9 MB/s
"""


def test_dd_reading_a_device_under_no_caption_is_named_by_the_device():
    rows = _rows(DD_DEVICES + "\n# dd if=/dev/sda of=/dev/null bs=1M count=10240\n"
                 "10737418240 bytes (11 GB) copied, 150.891 seconds, 71.2 MB/s\n", "dd")
    assert {(r["system"], r["params"]["device"], r["value"]) for r in rows if r["metric"] == "throughput"} == {
        ("/dev/md3", "/dev/md3", 26.9), ("/dev/sda", "/dev/sda", 71.2)}
    assert ddhdparm._read_device(ddhdparm._operands("dd if=/dev/zero of=/dev/sda bs=1M")) is None  # it wrote the device
    assert ddhdparm._read_device(ddhdparm._operands("dd if=/dev/urandom of=f bs=1M")) is None


# https://lore.kernel.org/linux-btrfs/34601559-6c16-6ccc-1793-20a97ca0dbba@gmx.net/
DD_FILES = """\
3. Measure read() speed with 8KB block size

$ sync
$ echo 1 | sudo tee /proc/sys/vm/drop_caches

$ dd if=highly-compressible   of=/dev/null bs=8k
1310720+0 records in
1310720+0 records out
10737418240 bytes (11 GB, 10 GiB) copied, 12.9102 s, 832 MB/s

$ dd if=compressible   of=/dev/null bs=8k
1310720+0 records in
1310720+0 records out
10737418240 bytes (11 GB, 10 GiB) copied, 30.68 s, 350 MB/s
"""


def test_dd_runs_apart_only_by_the_file_they_read_are_named_by_it_not_by_a_numbered_step():
    rows = _rows(DD_FILES, "dd")
    assert [(r["system"], r["params"]["file"], r["value"]) for r in rows if r["metric"] == "throughput"] == [
        ("highly-compressible", "highly-compressible", 832), ("compressible", "compressible", 350)]
    assert all("repeat" not in r["params"] for r in rows)


# https://lore.kernel.org/lkml/42CA5A84.1060005@rainbow-software.org/ (2005: a dd of its day printed no summary), as posted
TIMED_DD = """\
2.6.12
root@pentium:/home/rainbow# time dd if=/dev/hda of=/dev/null bs=512
count=1048576
1048576+0 records in
1048576+0 records out

real    0m32.339s
user    0m1.500s
sys     0m14.560s

2.4.26
root@pentium:/home/rainbow# time dd if=/dev/hda of=/dev/null bs=512
count=1048576
1048576+0 records in
1048576+0 records out

real    0m23.858s
user    0m1.750s
sys     0m15.180s
"""


def test_a_dd_without_a_summary_is_timed_by_the_shell():
    rows = _rows(TIMED_DD, "dd")
    assert {(r["system"], r["metric_label"], r["value"], r["unit"]) for r in rows} == {
        ("2.6.12", "real", 32.339, "s"), ("2.6.12", "user", 1.5, "s"), ("2.6.12", "sys", 14.56, "s"),
        ("2.4.26", "real", 23.858, "s"), ("2.4.26", "user", 1.75, "s"), ("2.4.26", "sys", 15.18, "s")}
    assert {r["metric"] for r in rows} == {"elapsed", "user_time", "sys_time"}
    # the operand the mailer wrapped onto its own line is the command's, not a caption
    assert all(r["params"] == {"bs": "512", "count": "1048576", "device": "/dev/hda"} for r in rows)
    # a dd that printed its summary: the shell's times after it are not its results
    summary = TIMED_DD.split("2.4.26")[0].replace("1048576+0 records out\n",
                                                   "1048576+0 records out\n536870912 bytes (537 MB) copied, "
                                                   "32.3 seconds, 16.6 MB/s\n")
    assert {r["metric"] for r in _rows(summary, "dd")} == {"throughput", "elapsed"}
    # no `time` before the dd: nothing timed it
    assert _rows(TIMED_DD.replace("time dd", "dd"), "dd") == []


def test_rate_that_does_not_follow_from_bytes_and_time_is_unparsed():
    text = "1073741824 bytes (1.1 GB) copied, 10.0 s, 900 MB/s\n"
    runs = _runs(text)
    assert [r.status for r in runs] == ["unparsed"] and "does not follow" in runs[0].reason
    assert _rows(text) == []


# --- hdparm -----------------------------------------------------------------------------------


def test_hdparm_device_without_caption_is_the_system_and_mb_is_mebibytes():
    rows = _rows(_fixture("hdparm_tT_cached_and_buffered"), "hdparm")
    c = one(rows, metric="cached_reads")
    assert c["params"] == {"device": "/dev/xvda"}
    assert (c["system"], c["value"], c["unit"], c["higher_is_better"]) == (
        "/dev/xvda",
        9423.90,
        "MiB/s",
        True,
    )
    assert one(rows, metric="buffered_disk_reads")["value"] == 392.62


def test_hdparm_old_wording_and_devices_measured_twice():
    text = _fixture("hdparm_buffer_cache_two_kernels")
    rows = _rows(text, "hdparm")
    # the kernel each caption names is the system, the device a parameter: the post compares kernels
    r1 = one(rows, system="2.4.21", metric="cached_reads", params={"device": "/dev/md1"})
    r2 = one(rows, system="2.5.75", metric="cached_reads", params={"device": "/dev/md1"})
    assert (r1["value"], r2["value"]) == (213.33, 1.18)
    assert (
        one(rows, system="2.5.75", metric="buffered_disk_reads", params={"device": "/dev/hdc"})["value"]
        == 3.05
    )
    runs = [r for r in _runs(text) if r.benchmark == "hdparm"]
    assert runs[2].caption == "These are with X running"
    assert runs[2].notes and "suspicious" in runs[2].notes[0]


def test_hdparm_timing_wrapped_before_its_unit_and_a_caption_naming_the_kernel():
    # https://lore.kernel.org/lkml/73300040777B0F44B8CE29C87A0782E101FA98FB@exchange.explainerdc.com/
    text = ("The dual 500Mhz setup with 2.4.20 does:\n\n/dev/md0:\n"
            "\tTiming buffer-cache reads:   128 MB in  0.96 seconds =133.33\nMB/sec\n"
            "\tTiming buffered disk reads:  64 MB in  3.05 seconds = 20.98\nMB/sec\n")
    rows = _rows(text, "hdparm")
    assert [(r["metric"], r["value"], r["params"]) for r in rows] == [
        ("cached_reads", 133.33, {"device": "/dev/md0"}), ("buffered_disk_reads", 20.98, {"device": "/dev/md0"}),
    ]
    assert {r["system"] for r in rows} == {"The dual 500Mhz setup with 2.4.20 does"}


def test_hdparm_error_instead_of_timing_is_unparsed():
    runs = _runs(_fixture("hdparm_read_error_unparsed"))
    assert [(r.benchmark, r.status) for r in runs] == [("hdparm", "unparsed")]


def test_hdparm_kb_per_sec_and_direct():
    text = "/dev/sdb:\n Timing O_DIRECT disk reads:   2 MB in  3.20 seconds = 640.00 kB/sec\n"
    r = one(_rows(text), metric="direct_disk_reads")
    assert (r["value"], r["unit"], r["system"]) == (640.0, "KiB/s", "/dev/sdb")


def test_negatives_give_nothing():
    for name in ("neg_prose_and_boot_log_mb_s", "neg_sysbench_prepare_lines"):
        assert _rows(_fixture(name)) == [] and _runs(_fixture(name)) == []


def test_metric_registry_units_are_known_and_emits_declared():
    assert all(spec.unit in KNOWN_UNITS for spec in ddhdparm.METRICS.values())
    assert set(ddhdparm.PARSER.emits) == {"dd", "hdparm"}


# --- properties -------------------------------------------------------------------------------

FIXTURE_TEXTS = GOLDEN.bodies()
test_random_text_never_raises, test_mutated_fixtures_never_raise = robust_tests(
    _runs, FIXTURE_TEXTS, ["", " ", ",", "x", "(", ")", "MB/s", "\n", "/dev/sdz:", "0"]
)  # fmt: skip


def _si(bps: float) -> str:
    """coreutils' human rate: two significant digits below 10, whole numbers above."""
    for unit in ("kB", "MB", "GB"):
        bps /= 1000
        if bps < 999.5 or unit == "GB":
            return (f"{bps:.1f}" if bps < 10 else f"{bps:.0f}") + f" {unit}/s"
    raise AssertionError


def _dd_line(nbytes: int, secs: float, style: str) -> str:
    if style == "bsd":
        return f"{nbytes} bytes transferred in {secs:.6f} secs ({nbytes / secs:.0f} bytes/sec)"
    human = "(1.1 GB, 1.0 GiB)" if style == "new" else "(1.1 GB)"
    return f"{nbytes} bytes {human} copied, {secs:g} s, {_si(nbytes / float(f'{secs:g}'))}"


def _hdparm_block(dev: str, cached: tuple[int, float], disk: tuple[int, float]) -> str:
    def timing(t: int, e: float) -> str:
        e = float(f"{e:.2f}")
        return f"{t:3d} MB in {e:5.2f} seconds = {t / e:6.2f} MB/sec" if t >= e else \
            f"{t:3d} MB in {e:5.2f} seconds = {t / e * 1024:6.2f} kB/sec"  # fmt: skip

    return f"\n{dev}:\n Timing cached reads:   {timing(*cached)}\n Timing buffered disk reads: {timing(*disk)}\n"


_DD = st.builds(
    _dd_line,
    st.integers(10**4, 10**12),
    st.floats(0.01, 5000),
    st.sampled_from(["old", "new", "bsd"]),
)
_HD = st.builds(_hdparm_block, st.sampled_from(["/dev/sda", "/dev/nvme0n1", "/dev/md1"]),
                st.tuples(st.integers(1, 99999), st.floats(0.5, 30)),
                st.tuples(st.integers(1, 9999), st.floats(0.5, 30)))  # fmt: skip


@settings(max_examples=150, deadline=None)
@given(_DD)
def test_printed_dd_line_round_trips(line):
    rows = _rows(line + "\n", "dd")
    assert len(rows) == 2
    nbytes = line.split()[0]
    if "transferred" in line:
        secs, bps = re.search(r"in (\S+) secs \((\d+) bytes/sec\)", line).groups()
        assert one(rows, metric="throughput")["value"] == float(bps) / 1e6
    else:
        secs, rate, unit = re.search(r"copied, (\S+) s, (\S+) (\w+)/s", line).groups()
        t = one(rows, metric="throughput")
        assert (t["value"], t["unit"]) == (float(rate), {"kB": "KB/s"}.get(unit, f"{unit}/s"))
    e = one(rows, metric="elapsed")
    assert (e["value"], e["params"]) == (float(secs), {"bytes": nbytes})


@settings(max_examples=150, deadline=None)
@given(_HD)
def test_printed_hdparm_block_round_trips(block):
    rows = _rows(block, "hdparm")
    dev = block.split(":")[0].strip()
    printed = re.findall(r"= +(\S+) (\w)B/sec", block)
    assert len(rows) == 2
    for metric, (value, scale) in zip(
        ("cached_reads", "buffered_disk_reads"), printed, strict=True
    ):
        r = one(rows, metric=metric)
        assert (r["system"], r["value"], r["unit"]) == (
            dev,
            float(value),
            {"M": "MiB/s", "k": "KiB/s"}[scale],
        )


@settings(max_examples=120, deadline=None)
@given(
    st.lists(st.one_of(_DD, _HD), min_size=1, max_size=4),
    st.sampled_from(DAMAGES),
)
def test_mail_damage_keeps_the_rows(parts, how):
    text = "\n".join(parts) + "\n"
    assert canon(_rows(damaged(text, how, keep_ends=True)), _KEYS) == canon(_rows(text), _KEYS)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(FIXTURE_TEXTS), st.sampled_from(DAMAGES))
def test_mail_damage_on_real_posts_keeps_the_rows(text, how):
    if how == "crlf":
        text = pad_bare_quotes(text)
    assert canon(_rows(damaged(text, how, keep_ends=True)), _KEYS) == canon(_rows(text), _KEYS)


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 600), st.integers(0, 59_999), st.integers(1, 10**7), st.booleans())
def test_a_timed_dd_round_trips(minutes, millis, count, posix):
    secs = f"{millis // 1000}.{millis % 1000:03d}"
    real = f"real {minutes * 60 + millis / 1000:.3f}" if posix else f"real\t{minutes}m{secs}s"
    text = (f"$ time dd if=/dev/zero of=f bs=1k count={count}\n{count}+0 records in\n{count}+0 records out\n\n"
            f"{real}\nuser\t0m0.001s\nsys\t0m1.250s\n")
    rows = {r["metric"]: r for r in _rows(text, "dd")}
    assert rows["elapsed"]["value"] == pytest.approx(minutes * 60 + millis / 1000)
    assert rows["sys_time"]["value"] == 1.25 and rows["elapsed"]["params"]["count"] == str(count)


def test_busybox_hdparm_prints_kb_per_s_and_a_console_line_may_come_between():
    # https://lore.kernel.org/linux-mips/ (2015, BMIPS 7425 SATA), the lines as posted
    from transforms.extract import extract_explained
    from transforms.rows import result_rows

    text = ("# hdparm -tT /dev/sda\n\n/dev/sda:\n[   48.557068] random: nonblocking pool is initialized\n"
            "Timing buffer-cache reads:   524 MB in 0.50 seconds = 1052111 kB/s\n"
            "Timing buffered disk reads:  358 MB in 3.00 seconds = 122132 kB/s\n")
    got = {(r["metric"], r["value"], r["unit"]) for r in result_rows(extract_explained(text, "h")[0])}
    assert got == {("cached_reads", 1052111.0, "KiB/s"), ("buffered_disk_reads", 122132.0, "KiB/s")}


def test_a_dotted_heading_over_a_console_line_names_the_dd_run():
    # https://lore.kernel.org/lkml/ (2021, khadas edge: mmc-hs400-enhanced-strobe), the lines as posted
    from transforms.extract import extract_explained
    from transforms.rows import result_rows

    text = ("..... mmc-hs400-enhanced-strobe disabled\n\n[    7.175053] mmc2: new HS400 MMC card at address 0001\n\n"
            "786432000 bytes (786 MB, 750 MiB) copied, 3 s, 262 MB/s\n")
    got = {(r["system"], r["metric"], r["value"]) for r in result_rows(extract_explained(text, "d")[0])}
    assert got == {("mmc-hs400-enhanced-strobe disabled", "throughput", 262.0),
                   ("mmc-hs400-enhanced-strobe disabled", "elapsed", 3.0)}


def test_device_and_timing_on_one_line_under_numbered_captions():
    # https://lore.kernel.org/lkml/200101241034.CAA03629@cx518206-b.irvn1.occa.home.com/ (2001), quoted lines as posted
    from transforms.extract import extract_explained
    from transforms.rows import result_rows

    text = ("> hdparm -t /dev/hda1 /dev/hda3\n> 1) 2.2.17\n"
            "> /dev/hda1: Timing buffered disk reads:  64 MB in  4.76 seconds = 13.45 MB/sec\n"
            "> /dev/hda3: Timing buffered disk reads:  64 MB in  4.57 seconds = 14.00 MB/sec\n> \n> 2) 2.4 w/apm\n"
            "> /dev/hda1: Timing buffered disk reads:  64 MB in 16.03 seconds =  3.99 MB/sec\n")
    got = {(r["system"], r["params"]["device"], r["value"]) for r in result_rows(extract_explained(text, "h")[0])}
    assert got == {("2.2.17", "/dev/hda1", 13.45), ("2.2.17", "/dev/hda3", 14.0), ("2.4 w/apm", "/dev/hda1", 3.99)}


def test_a_failed_ioctl_between_two_timings_keeps_the_device_and_its_caption():
    # https://lore.kernel.org/lkml/425E9902.8000804@interia.pl/ (2005, sil3112 under three live CDs), lines as posted
    from transforms.extract import extract_explained
    from transforms.rows import result_rows

    failed = ("HDIO_DRIVE_CMD(null) (wait for flush complete) failed: Inappropriate\n"
              "ioctl for device\n")
    text = ("Kernel 2.6.11, Knoppix 3.8.1:\n\n# hdparm -Tt /dev/sda /dev/sdb\n\n"
            "/dev/sda:\n  Timing cached reads:   1188 MB in  2.00 seconds = 592.61 MB/sec\n" + failed
            + "  Timing buffered disk reads:   50 MB in  3.09 seconds =  16.19 MB/sec\n" + failed
            + "\n/dev/sdb:\n  Timing cached reads:   1176 MB in  2.00 seconds = 586.92 MB/sec\n" + failed
            + "  Timing buffered disk reads:   54 MB in  3.19 seconds =  16.94 MB/sec\n" + failed)
    got = {(r["system"], r["params"].get("device"), r["metric"], r["value"])
           for r in result_rows(extract_explained(text, "s")[0])}
    k = "Kernel 2.6.11, Knoppix 3.8.1"
    assert got == {(k, "/dev/sda", "cached_reads", 592.61), (k, "/dev/sda", "buffered_disk_reads", 16.19),
                   (k, "/dev/sdb", "cached_reads", 586.92), (k, "/dev/sdb", "buffered_disk_reads", 16.94)}


def test_the_time_commands_output_above_a_dd_run_is_no_caption():
    # https://lore.kernel.org/lkml/8355959a0701201547x137d7897t528bcee2538f1369@mail.gmail.com/ (2007), as posted
    from transforms.extract import extract_explained
    from transforms.rows import result_rows

    text = ("real    0m24.541s\nuser    0m0.005s\nsys     0m3.899s\n\n"
            "real    0m0.000s\nuser    0m0.000s\nsys     0m0.000s\n\n\n"
            "1073741824 bytes (1.1 GB) copied, 19.8685 seconds, 54.0 MB/s\n")
    assert {r["system"] for r in result_rows(extract_explained(text, "t")[0])} == {None}


# https://lore.kernel.org/lkml/Pine.LNX.4.10.10105292045120.3596-100000@master.linux-ide.org/ (its lines)
THREE_BOXES = """\
beetle:~ # hdparm -it /dev/hda

/dev/hda:

 Model=Maxtor 5T020H2, FwRev=TAH71DP0, SerialNo=T2J0HBRC
 Kernel Drive Geometry LogicalCHS=2431/255/63 PhysicalCHS=38752/16/63
 Timing buffered disk reads:  64 MB in  1.75 seconds = 36.57 MB/sec

fttk:~ # hdparm -it /dev/hda

/dev/hda:

 Model=IBM-DTLA-307020, FwRev=TX2OA50C, SerialNo=YH0YHF85166
 Timing buffered disk reads:  64 MB in  1.81 seconds = 35.36 MB/sec
"""


def test_the_machine_the_prompt_names_is_the_system_of_timings_far_below_their_device():
    from transforms.extract import extract_runs
    from transforms.rows import result_rows

    got = {(r["system"], r["value"]) for r in result_rows(extract_runs(THREE_BOXES, "m"))}
    assert got == {("beetle", 36.57), ("fttk", 35.36)}


# https://lore.kernel.org/linux-btrfs/ (2025, readahead expansion on compressed files; tests/fixtures/real/dev/
# aa_linuxbtrfs_2025_dd_readahead_expand_compressed.txt), the lines as posted: the poster's shorthand for each
# dd command between the heading and the output it printed
RA_EXPAND = """\
==========for-next==========
dd /mnt/lol/non-cmpr 4k
1048576+0 records in
1048576+0 records out
4294967296 bytes (4.3 GB, 4.0 GiB) copied, 6.02983 s, 712 MB/s
"""


def test_a_heading_names_dd_output_under_the_posters_shorthand_for_the_command():
    from transforms.extract import extract_explained
    from transforms.rows import result_rows

    rows = result_rows(extract_explained(RA_EXPAND, "r")[0])
    assert {(r["system"], r["value"]) for r in rows} == {("for-next", 712.0), ("for-next", 6.02983)}


def test_timings_a_mailer_reflowed_into_a_paragraph_are_read_with_the_caption_between():
    # https://lore.kernel.org/lkml/IBEJLCACHGEIBMFJACBEOEPLELAA.glarsen@alpha.homedns.org/ (2003), as quoted
    body = ("on 2.4:\n"
            "  Timing buffer-cache reads:   168 MB in  2.01 seconds =  83.58\n"
            "MB/sec Timing buffered disk reads:   44 MB in  3.12 seconds =\n"
            "14.10 MB/sec on 2.6:\n"
            "  Timing buffer-cache reads:   172 MB in  2.02 seconds =  84.95\n"
            "MB/sec Timing buffered disk reads:   34 MB in  3.08 seconds =\n"
            "11.04 MB/sec\n")
    got = {(r["system"], r["metric"], r["value"]) for r in _rows(body)}
    assert got == {("on 2.4", "cached_reads", 83.58), ("on 2.4", "buffered_disk_reads", 14.1),
                   ("on 2.6", "cached_reads", 84.95), ("on 2.6", "buffered_disk_reads", 11.04)}


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 999), st.integers(10, 9999)), min_size=2, max_size=4),
       st.integers(40, 90))
def test_reflowing_timings_at_any_width_keeps_every_value(runs, width):
    import textwrap
    text = " ".join(f"Timing buffered disk reads: {mb} MB in 3.00 seconds = {rate / 100:.2f} MB/sec" for mb, rate in runs)
    lines = textwrap.wrap(text, width)
    got = sorted(r["value"] for r in _rows("\n".join(lines) + "\n"))
    if all(sum(ln.count("Timing") for ln in lines[k:k + 1]) <= 1 for k in range(len(lines))):
        assert got == sorted(round(rate / 100, 2) for _, rate in runs)


# https://lore.kernel.org/devicetree/aReSPbRxCgdNRI9y@geday/ (its lines)
RULED_CAPTIONS = """\
---
With max-link-speed = <2>
pci 0000:01:00.0: 16.000 Gb/s available PCIe bandwidth, limited by 5.0 GT/s PCIe x4 link at 0000:00:00.0 (capable of 31.504 Gb/s with 8.0 GT/s PCIe x4 link)

/dev/nvme0n1:
 Timing cached reads:   3002 MB in  2.00 seconds = 1502.21 MB/sec
 Timing buffered disk reads: 2044 MB in  3.00 seconds = 680.79 MB/sec
---
With max-link-speed = <1>
pci 0000:01:00.0: 8.000 Gb/s available PCIe bandwidth, limited by 2.5 GT/s PCIe x4 link at 0000:00:00.0 (capable of 31.504 Gb/s with 8.0 GT/s PCIe x4 link)

/dev/nvme0n1:
 Timing cached reads:   2730 MB in  2.00 seconds = 1366.15 MB/sec
 Timing buffered disk reads: 2028 MB in  3.00 seconds = 675.71 MB/sec
---
"""


def test_the_caption_right_under_a_printout_names_the_next_one_not_the_last():
    got = {(r["system"], r["value"]) for r in _rows(RULED_CAPTIONS)}
    assert got == {("With max-link-speed = <2>", 1502.21), ("With max-link-speed = <2>", 680.79),
                   ("With max-link-speed = <1>", 1366.15), ("With max-link-speed = <1>", 675.71)}


# https://lore.kernel.org/linux-arm-msm/20251126012043.3764567-3-vladimir.zapolskiy@linaro.org/ (its lines)
DEVICE_LOG_BETWEEN = """\
SDR50 speed mode:

    mmc0: new UHS-I speed SDR50 SDHC card at address 0001
    mmcblk0: mmc0:0001 00000 14.6 GiB
     mmcblk0: p1

    % dd if=/dev/mmcblk0p1 of=/dev/null bs=1M count=1024
    1024+0 records in
    1024+0 records out
    1073741824 bytes (1.1 GB, 1.0 GiB) copied, 23.5468 s, 45.6 MB/s

SDR104 speed mode:

    mmc0: new UHS-I speed SDR104 SDHC card at address 59b4
    mmcblk0: mmc0:59b4 USDU1 28.3 GiB
     mmcblk0: p1

    % dd if=/dev/mmcblk0p1 of=/dev/null bs=1M count=1024
    1024+0 records in
    1024+0 records out
    1073741824 bytes (1.1 GB, 1.0 GiB) copied, 11.9819 s, 89.6 MB/s
"""


def test_the_kernels_log_of_the_device_between_caption_and_command_is_passed_over():
    got = {(r["system"], r["value"]) for r in _rows(DEVICE_LOG_BETWEEN) if r["metric"] == "throughput"}
    assert got == {("SDR50 speed mode", 45.6), ("SDR104 speed mode", 89.6)}
