"""fio's `t/io_uring` peak-IOPS output (transforms.parsers.fio.io_uring): real posts, then properties.

Properties: series of `IOPS=` lines of any length, with or without bandwidth, the banner and the
`Maximum IOPS=` line, give one `iops` row per line with the printed value and never raise; the
same lines in ordinary mail damage (quoting) keep their rows.
"""

from __future__ import annotations

from decimal import Decimal

from hypothesis import example, given
from hypothesis import strategies as st

from tests.transforms.parsers.damage import assert_sane
from tests.transforms.parsers.helpers import Golden, property_settings
from transforms.extract import extract_runs
from transforms.parsers.fio import PARSER
from transforms.rows import result_rows

GOLDEN = Golden("fio", ("fio",))
SETTINGS = property_settings(60)


def rows(text: str) -> list[dict]:
    return result_rows(extract_runs(text, "m"))


def test_each_second_and_the_maximum_under_each_caption():
    found = GOLDEN.fixture_rows("io_uring_bio_cache_irq_passthru")
    off = [r for r in found if r["system"] == "IRQ, 128/32/32, cache off"]
    assert [r["value"] for r in off if r["metric"] == "iops" and r["statistic"] == "value"] == [
        3050000.0, 3040000.0, 3030000.0, 3030000.0]
    assert [r["value"] for r in off if r["metric"] == "bandwidth"][0] == 1488 * 1024  # `BW=1488MiB/s`, in KiB/s
    (top,) = [r for r in found if r["statistic"] == "max" and r["system"] == "IRQ, 128/32/32, cache on"]
    assert top["value"] == 3270000.0 and "sample" not in top["params"]
    params = off[0]["params"]
    assert (params["bs"], params["depth"], params["submit_batch"], params["polled"], params["device"]) == (
        "512", "128", "32", "0", "/dev/ng0n1")  # from `t/io_uring -b512 -d128 -c32 -s32 -p0 ... /dev/ng0n1`
    assert all(r["alignment"] == "exact" and not r["quoted"] for r in found)


# https://lore.kernel.org/linux-block/07f31547-5570-4150-7a4b-1d773fb9fa87@kernel.dk/ (its lines)
OLD_FORMAT = """\
I ran this through the usual peak testing, and it doesn't seem to regress
anything for me. We're still at around ~7.4M polled IOPS on a single CPU
core:

taskset -c 0,16 t/io_uring -d128 -b512 -s32 -c32 -p1 -F1 -B1 -D1 -n2 /dev/nvme1n1 /dev/nvme2n1
Added file /dev/nvme1n1 (submitter 0)
Added file /dev/nvme2n1 (submitter 1)
polled=1, fixedbufs=1, register_files=1, buffered=0, QD=128
Engine=io_uring, sq_ring=128, cq_ring=256
submitter=0, tid=1199
submitter=1, tid=1200
IOPS=7322112, BW=3575MiB/s, IOS/call=32/31, inflight=(110 71)
IOPS=7452736, BW=3639MiB/s, IOS/call=32/31, inflight=(52 80)

with some of my pending changes and hacks.
"""


def test_plain_counts_two_devices_and_a_sentence_tail_is_no_system():
    found = rows(OLD_FORMAT)
    assert [(r["metric"], r["value"]) for r in found] == [
        ("iops", 7322112.0), ("bandwidth", 3575 * 1024.0), ("iops", 7452736.0), ("bandwidth", 3639 * 1024.0)]
    assert {r["params"]["device"] for r in found} == {"/dev/nvme1n1 /dev/nvme2n1"}
    assert {r["params"]["threads"] for r in found} == {"2"}
    assert {r["system"] for r in found} != {"core"}  # `core:` ends the sentence above it


# https://lore.kernel.org/io-uring/20251218151522.m4dgyf4nkrfsgkrv@green245.gost/ (its lines): a command wrapped with `\`
WRAPPED = """\
----------
base case:
----------
sudo taskset -c 0,1 /home/nitesh/src/private/fio/t/io_uring -b512 \\
-d128 -c32 -s32 -p1 -F1 -B1 -n2 -r4 /dev/nvme0n1 /dev/nvme1n1
submitter=0, tid=206586, file=/dev/nvme0n1, nfiles=1, node=-1
polled=1, fixedbufs=1, register_files=1, buffered=0, QD=128
Engine=io_uring, sq_ring=128, cq_ring=128
IOPS=6.45M, BW=3.15GiB/s, IOS/call=32/31
IOPS=6.47M, BW=3.16GiB/s, IOS/call=32/32
Exiting on timeout
Maximum IOPS=6.47M
"""


def test_a_wrapped_command_gives_its_options_and_the_label_above_names_the_system():
    found = rows(WRAPPED)
    assert {r["system"] for r in found} == {"base case"}
    assert {(r["params"].get("depth"), r["params"].get("runtime"), r["params"]["device"]) for r in found} == {
        ("128", "4", "/dev/nvme0n1 /dev/nvme1n1")}
    assert [r["value"] for r in found if r["metric"] == "iops"] == [6450000.0, 6470000.0, 6470000.0]


# https://lore.kernel.org/linux-block/20211006163522.450882-1-axboe@kernel.dk/ (its lines)
FROM_TO = """\
This brings single core performance on my setup from:

sudo taskset -c 0,16  t/io_uring -b512 -d128 -s32 -c32 -p1 -F1 -B1 -n2 /dev/nvme1n1 /dev/nvme2n1
Added file /dev/nvme1n1 (submitter 0)
Added file /dev/nvme2n1 (submitter 1)
polled=1, fixedbufs=1, register_files=1, buffered=0, QD=128
Engine=io_uring, sq_ring=128, cq_ring=256
submitter=0, tid=1206
submitter=1, tid=1207
IOPS=5806400, BW=2835MiB/s, IOS/call=32/32, inflight=(77 32)
IOPS=5860352, BW=2861MiB/s, IOS/call=32/31, inflight=(102 128)

to:

taskset -c 0,16  t/io_uring -b512 -d128 -s32 -c32 -p1 -F1 -B1 -n2 /dev/nvme1n1 /dev/nvme2n1
Added file /dev/nvme1n1 (submitter 0)
Added file /dev/nvme2n1 (submitter 1)
polled=1, fixedbufs=1, register_files=1, buffered=0, QD=128
Engine=io_uring, sq_ring=128, cq_ring=256
submitter=0, tid=1220
submitter=1, tid=1221
IOPS=6061248, BW=2959MiB/s, IOS/call=32/31, inflight=(114 82)
IOPS=6100672, BW=2978MiB/s, IOS/call=32/31, inflight=(128 128)

which is about a 4-5% improvement in single core performance.
"""


def test_from_and_to_name_the_two_ends_of_the_change_not_the_devices():
    found = [r for r in rows(FROM_TO) if r["metric"] == "iops"]
    assert [(r["system"], r["value"]) for r in found] == [
        ("from", 5806400.0), ("from", 5860352.0), ("to", 6061248.0), ("to", 6100672.0)]
    assert {r["params"]["device"] for r in found} == {"/dev/nvme1n1 /dev/nvme2n1"}  # a parameter still
    # one end alone is no pair: a sentence ending in `from:` names nothing then
    alone = FROM_TO[: FROM_TO.index("to:\n")]
    assert {r["system"] for r in rows(alone)} == {"/dev/nvme1n1 /dev/nvme2n1"}


def test_fio_report_lines_are_not_t_io_uring():
    text = "  read: IOPS=3050k, BW=1488MiB/s (1560MB/s)(8192MiB/5503msec)\nIOPS=12 and more\n"
    assert not any(r.attributes.get("tool") == "t/io_uring" for r in (er.run for er in extract_runs(text, "m")))


_SCALE = {"": 1, "K": 1000, "M": 10**6}
_line = st.tuples(st.integers(1, 9999), st.integers(0, 99), st.sampled_from(["", "K", "M"]),
                  st.one_of(st.none(), st.integers(1, 9999)))


@SETTINGS
@given(st.lists(_line, min_size=1, max_size=12), st.booleans(), st.booleans(), st.booleans())
@example([(8192, 3, "M", None)], False, False, False)  # 8192.03 * 10**6 is 8192030000.000001 in floats
def test_any_series_gives_one_iops_row_per_line(lines, banner, maximum, quoted):
    text = "t/io_uring -b512 -d32 /dev/nvme0n1\nEngine=io_uring, sq_ring=32, cq_ring=32\n" if banner else ""
    want = []
    for whole, frac, suffix, bw in lines:
        number = f"{whole}.{frac:02d}" if suffix else str(whole)
        text += f"IOPS={number}{suffix}, " + (f"BW={bw}MiB/s, IOS/call=32/31\n" if bw else "IOS/call=32/31\n")
        want.append(float(Decimal(number) * _SCALE[suffix]))  # exact, then rounded once, as the parser scales
    if maximum:
        text += f"Maximum IOPS={max(want):.0f}\n"
    if quoted:
        text = "".join(f"> {x}\n" for x in text.splitlines())
    assert_sane(PARSER, text)
    found = [r for r in rows(text) if r["metric"] == "iops" and r["statistic"] == "value"]
    assert [r["value"] for r in found] == want
    assert [r for r in rows(text) if r["statistic"] == "max"] == [] or maximum
