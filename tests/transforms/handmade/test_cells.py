"""Cutting a line into cells (transforms/handmade/cells.py): spreads after a value are not values."""

from hypothesis import given, settings
from hypothesis import strategies as st

from transforms.handmade.cells import cells, decimal_commas


def _read(line: str) -> list[tuple[str, str, str | None]]:
    return [(c.kind, c.text, c.unit) for c in cells(line)]


def test_a_spread_after_a_value_is_dropped():
    # https://lore.kernel.org/lkml/ (2005, LSM hooks v2: `original:  357.957780 +/- 3.50919`)
    assert _read("original:  357.957780 +/- 3.50919") == [("label", "original:", None), ("abs", "357.957780", None)]
    # https://lore.kernel.org/lkml/ (2019, CFS load balance rework v4: `1.579 +/-29.16%`)
    assert [c for c in _read("1 groups      1.579 +/-29.16%       1.410 +/-13.46%") if c[0] == "abs"] == [
        ("abs", "1", None), ("abs", "1.579", None), ("abs", "1.410", None)]
    assert _read("1.2 ± 0.3 MB/s") == [("abs", "1.2", "MB/s")]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("0123.45 +/-±%MBs()ab")), max_size=120))
def test_cells_never_raise_and_keep_order(line):
    found = cells(line)
    assert [c.start for c in found] == sorted(c.start for c in found)


def test_an_options_argument_belongs_to_the_label():
    # https://lore.kernel.org/lkml/20250221085725.33943-1-15645113830zzh@gmail.com/
    assert _read("./hackbench -g 8 -l 10000    2.063") == [("label", "./hackbench -g 8 -l 10000", None),
                                                          ("abs", "2.063", None)]
    # https://lore.kernel.org/lkml/7D48A756-C253-48DE-B536-826314778404@fb.com/ (perf stat
    # --bpf-counters timings): a number a wide gap after the option is the row's value
    assert _read("perf stat -a\t\t\t\t107.887 [sec]") == [("label", "perf stat -a", None), ("abs", "107.887", "s")]
    assert _read("perf stat -C 1,3,5 \t\t\t107.063") == [("label", "perf stat -C 1,3,5", None), ("abs", "107.063", None)]


def test_a_spread_glued_to_its_value_is_dropped():
    # https://lore.kernel.org/lkml/20230912065808.2530-2-aaron.lu@intel.com/ (`base:   42382±19.8%`)
    assert _read("base:   42382±19.8%") == [("label", "base:", None), ("abs", "42382", None)]
    assert _read("patch:  112470±0.1% +12.2%") == [("label", "patch:", None), ("abs", "112470", None),
                                                   ("chg", "+12.2%", "%")]


def test_a_scale_letter_set_apart_from_its_number():
    # https://lore.kernel.org/linux-nvme/cover.1561381826.git.zhangweiping@didiglobal.com/, rows as posted
    row = cells("fio-3:\t\t220 k\t\t66  k")
    assert [(c.kind, c.value, c.unit) for c in row] == [("label", None, None), ("abs", 220.0, "k"), ("abs", 66.0, "k")]
    assert [c.kind for c in cells("Total   12    K9 board")] == ["label", "abs", "label"]


def test_minutes_and_seconds_are_a_duration_never_a_slot_or_a_time_of_day():
    # https://lore.kernel.org/lkml/01010420411300.00624@oscar/: `ext2  14.6  50.5s  76.4s  29%  7:14.9m`
    from transforms.handmade.cells import read_number

    assert read_number("7:14.9m") == ("abs", 434.9, "s")
    assert read_number("1:23.45") == ("abs", 83.45, "s")
    assert read_number("12:30") is None  # a time of day
    assert read_number("00:04.1") is None  # `PIIX4: IDE controller at PCI slot 00:04.1`
    row = cells("ext2\t14.6\t50.5s\t 76.4s\t29%\t 7:14.9m")
    assert [c.kind for c in row] == ["label", "abs", "abs", "abs", "chg", "abs"]


# https://lore.kernel.org/lkml/20230224093454.956298-1-vincent.guittot@linaro.org/ : decimals
# written with a comma (`0,88 %` cannot be thousands), so `1,315` is 1.315 s, not 1315
_COMMA_BLOCK = [
    "hackbench\t1 group\t",
    "avg     1,315                   1,344                   1,359",
    "stdev   0,88 %                  1,55 %                  1,82 %",
    "vs tip  -0,47 %                 -2,68 %                 -3,87 %",
]


def test_a_block_written_with_decimal_commas_reads_them_as_points():
    out = decimal_commas(_COMMA_BLOCK)
    assert out[1].split() == ["avg", "1.315", "1.344", "1.359"]
    assert out[3].split() == ["vs", "tip", "-0.47", "%", "-2.68", "%", "-3.87", "%"]
    assert out[0] == _COMMA_BLOCK[0]


def test_thousands_separators_stay_thousands():
    for block in (["netperf  137,214  140,003"], ["IOPS : 147,182", "bw = 1.5 GB/s"],
                  ["avg 1,315 2,5", "ratio 1.07"]):  # a point decimal anywhere: commas are no decimals
        assert decimal_commas(block) == block


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(alphabet="0123456789,. %-\tab", max_size=40), max_size=6))
def test_decimal_commas_keeps_the_line_count_and_only_swaps_commas(lines):
    out = decimal_commas(lines)
    assert len(out) == len(lines)
    for a, b in zip(lines, out, strict=True):
        assert len(a) == len(b) and a.replace(",", ".") == b.replace(",", ".")


def test_an_aside_whose_parenthesis_was_lost_ends_at_the_next_column():
    # https://lore.kernel.org/lkml/YbcEE/mgIAhWuS+A@BLR-5CG11610CF.amd.com/ (STREAM, NPS=1)
    row = _read("  Add:    124504.19 (0.00 pct)     253461.32 (103.57 pct     260273.88 (109.04 pct)")
    assert row == [("label", "Add:", None), ("abs", "124504.19", None), ("abs", "253461.32", None),
                   ("abs", "260273.88", None)]
    # an aside spaced inside its parentheses is still one aside
    assert _read(" 1.00 (  0.84)\t -0.32 (  0.71)") == [("abs", "1.00", None), ("chg", "-0.32", None)]


def test_a_starred_change_glued_to_its_star_is_an_aside():
    # https://lore.kernel.org/lkml/20211004080547.GK3959@techsingularity.net/ (mmtests: `*-105.52%*`)
    row = _read("Amean     4         22.32 (   0.00%)       22.06 *   1.14%*       45.86 *-105.52%*")
    assert [c[1] for c in row if c[0] == "abs"] == ["4", "22.32", "22.06", "45.86"]


def test_a_hedge_before_a_number_and_a_scale_set_apart_from_its_count():
    # https://lore.kernel.org/linux-block/fdd60ef5-285c-964b-818a-6e0ee0481751@acm.org/
    assert _read("* No I/O scheduler:   about 5630 K IOPS.") == [("label", "No I/O scheduler:", None),
                                                              ("abs", "5630", "IOPS")]
    assert cells("about  760 K IOPS")[0].value == 760000.0
    assert _read("the job took about") == [("label", "the job took about", None)]  # no number after it


def test_an_option_and_its_argument_starting_a_row_are_its_label():
    assert _read("  -j 16     0.00%    +0.8%") == [("label", "-j 16", None), ("chg", "0.00%", "%"), ("chg", "+0.8%", "%")]
    assert _read("-j      16") == [("label", "-j", None), ("abs", "16", None)]  # a wide gap: a value


def test_a_scale_written_as_a_word():
    # https://lore.kernel.org/linux-block/345e9d6e-8bb2-3d43-4c3c-cc16fa7dd8c1@huaweicloud.com/
    (_, c) = cells("base: 6.4 Million IOPS")
    assert (c.kind, c.value, c.unit) == ("abs", 6_400_000, "IOPS")
    (_, c) = cells("patch: 7.48 million IOPS")
    assert (c.value, c.unit) == (7_480_000, "IOPS")


def test_a_compare_mark_before_a_change_is_no_label():
    # https://lore.kernel.org/lkml/20250815085512.2182322-1-kevin.brodsky@arm.com/ (`(R)`: a regression)
    assert _read("(R) 3.97%") == [("chg", "3.97%", "%")]
    # https://lore.kernel.org/lkml/20250903054635.19949-1-dev.jain@arm.com/ (`(I)`: an improvement)
    assert _read("(I) -12.13%") == [("chg", "-12.13%", "%")]
    # fio's job line: the mark names the block size read, no change follows
    assert _read("bs=(R) 4096B-4096B, (W) 4096B-4096B") == [("label", "bs=(R) 4096B-4096B, (W) 4096B-4096B", None)]


def test_a_share_of_the_cpus_is_a_value_not_a_change():
    # https://lore.kernel.org/netdev/c6e2474e-2c8a-5881-86bf-59c66bdfc34f@solarflare.com/: `210.3% cpu`
    # is CPU utilisation summed across CPUs; a signed share (`+11.9%`) stays a change
    got = [(c.kind, c.value, c.unit) for c in cells("after #1: 181.5% cpu (-13.7%, p=0.031 vs net-next)")]
    assert got == [("label", None, None), ("abs", 181.5, "%CPU")]
    assert [(c.kind, c.unit) for c in cells("x: +11.9% cpu")][1] == ("chg", "%")

