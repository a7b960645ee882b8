"""fio parser: the tricky cells of the real fixtures, then properties.

Properties: reports printed from fio's own formats (2.x, 3.x, terse v3) round-trip exactly;
never raising on random or mutated text and keeping its rows under mail damage come from
`helpers.fuzz_tests` and `helpers.damage_tests`.
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
from transforms.extract import extract_runs
from transforms.parsers.fio import PARSER

GOLDEN = Golden("fio", ("fio",))
DIR = GOLDEN.dir
SETTINGS = property_settings(60)
rows = GOLDEN.fixture_rows
pick = metric_rows


def value(found: list[dict], metric: str, **params: str) -> float:
    (row,) = pick(found, metric, **params)
    return row["value"]


# --- real fixtures ---------------------------------------------------------------------------------


def test_fio2_units_suffixes_and_percentiles():
    found = pick(rows("fio2_randrw_two_runs_blog"), "bandwidth", rw="randrw")
    assert {r["params"]["direction"]: r["value"] for r in found} == {"read": 2266.1, "write": 9043.3}
    run1 = [r for r in rows("fio2_randrw_two_runs_blog") if r["params"].get("rw") == "randrw"]
    assert value(run1, "slat_max", direction="read") == 3812800.0  # `max=3812.8K` usec
    assert value(run1, "clat_percentile", direction="read", percentile="99.99") == 1646592.0
    assert value(run1, "clat_percentile", direction="write", percentile="1") == 11.0
    assert value(run1, "aggregate_bandwidth", direction="write") == 9043.0
    assert {r["system"] for r in run1} == {"Random read write"}
    params = pick(run1, "iops", direction="read")[0]["params"]
    assert params == {"job": "randrwtest", "jobs": "1", "direction": "read", "rw": "randrw", "bs": "4096",
                      "ioengine": "libaio", "iodepth": "4"}  # fmt: skip


def test_fio2_bytes_per_second_and_orphan_line():
    found = rows("fio208_iostat_blog_bytes_per_sec")
    job = [r for r in found if r["params"].get("job") == "regular_read"]
    assert value(job, "bandwidth") == 718776 / 1024  # `bw=718776 B/s`
    assert value(found, "aggregate_bandwidth", group="0") == 701.0
    orphan = [r for r in found if "job" not in r["params"] and "group" not in r["params"]]
    assert {r["metric"] for r in orphan} == {"bandwidth", "iops"}  # the line repeated under "analysis:"
    assert all(r["system"] is None for r in orphan)


def test_hand_averaged_pastes_are_means_not_measurements():
    found = rows("linux_mm_hand_averaged_quoted")
    assert {r["statistic"] for r in found} == {"mean"}
    assert all(r["quoted"] for r in found)
    before = [r for r in found if r["system"] == "Before"]
    assert value(before, "iops") == 63528.9 and value(before, "bandwidth") == 254117.0
    assert value([r for r in found if r["system"] == "After"], "lat_max") == 856333.0


def test_markdown_emphasis_and_repeated_orphan_blocks():
    found = rows("lkml_ext4_markdown_iops_quoted")
    assert [r["value"] for r in pick(found, "iops")] == [463.0, 473.0]  # `*iops=463*`
    # each report under its own wrapped caption (`With HEAD as 9c19a9cb... (with the above`)
    assert [r["system"] for r in pick(found, "iops")] == [
        "With HEAD as 9c19a9cb1642c074aa8bc7693cd4c038643960ae", "With HEAD as 6b4c54e3787bc03e810062bd257a3b05fd9c72d6"]
    with_series = [r for r in found if r["system"].startswith("With HEAD as 9c19")]
    assert value(with_series, "clat_percentile", percentile="99.95") == 23936.0
    assert not pick(with_series, "clat_percentile", percentile="99.99")  # not in the paste


def test_html_escaped_blog_with_captions():
    found = rows("runabove_blog_html_escaped")
    assert {r["system"] for r in found} == {"FIO random reads", "FIO random writes"}
    assert value(found, "iops", direction="read") == 64742.0  # `iops=64742 ,`
    assert value(found, "bandwidth", direction="write") == 29081.0
    assert pick(found, "aggregate_bandwidth", direction="read")[0]["params"]["iodepth"] == "64"


def test_fio3_iec_units_nsec_and_group_lines():
    found = rows("fio31_vps_comparison_write_read")
    assert value(found, "bandwidth", direction="write") == 11.0 * 1024  # `BW=11.0MiB/s (12.6MB/s)`
    assert value(found, "slat_min", direction="read") == 1.43  # `slat (nsec): min=1430`
    assert value(found, "aggregate_bandwidth", direction="read", group="0") == 11264.0
    assert {r["params"]["bs"] for r in found} == {"4096"}  # `bs=(R) 4096B-4096B, (W) ...`
    howto = rows("fio_howto_3x_interpreting_output")
    assert value(howto, "aggregate_bandwidth", direction="read") == 20.9 * 1024
    assert value(howto, "aggregate_bandwidth", direction="write") == 1231.0
    assert value(howto, "slat_stddev") == 4.7815  # 4781.50 nsec
    assert {r["params"]["percentile"] for r in pick(howto, "clat_percentile")} >= {"1", "99.5", "99.95", "99.99"}


def test_terse_v3_fields():
    found = rows("terse_v3_fio2015_cloudbench")
    assert value(found, "bandwidth", direction="read") == 7796.0
    assert value(found, "iops", direction="write") == 478.0
    assert value(found, "lat_avg", direction="read") == 720.603324
    assert value(found, "clat_percentile", direction="write", percentile="99.95") == 3792.0
    assert not pick(found, "slat_min")  # `0;0;0.000000;0.000000`: not measured (sync engine)
    dm = rows("terse_v3_fio2110_dmtest")
    assert value(dm, "slat_min", direction="read") == 4.0 and value(dm, "slat_max", direction="write") == 83.0
    assert value(dm, "bandwidth", direction="write") == 369806.0


def test_same_job_name_twice_is_two_instances():
    found = pick(rows("fio2_numjobs_same_name_instances"), "iops", job="mixed")
    assert {(r["params"]["direction"], r["params"]["instance"]): r["value"] for r in found} == {
        ("read", "1"): 4988.0, ("write", "1"): 4985.0, ("read", "2"): 4955.0, ("write", "2"): 4952.0,
    }  # fmt: skip


test_negative_fixtures_give_no_rows = negatives_test(DIR, rows)


def test_short_terse_line_is_unparsed_not_guessed():
    runs = extract_runs("3;fio-3.1;job;0;0;100;20;5;1000;1;2;1.5;0.5\n", "m")
    assert [er.run.status for er in runs] == ["unparsed"]


# --- (a) robustness ------------------------------------------------------------------------------


FRAGMENTS = [
    "job: (groupid=0, jobs=1): err= 0", "  read : io=1024KB, bw=", "  write: IOPS=", "26.2k", ", BW=",
    "102MiB/s", "KB/s", " B/s", ", iops=", ", runt=", "msec", "  clat (usec): min=", ", max=", "3.8K",
    ", avg=", ", stdev=", "  clat percentiles (nsec):", "     |  1.00th=[", "  302],", "]", "nan",
    "Run status group 0 (all jobs):", "   READ: bw=", "  WRITE: io=", ", aggrb=", "3;fio-3.1;j;0;0;",
    "0%=0;", "1.000000%=5;", ";", "\n", "\n", "> ", "*", "&amp;gt;", "  ", "0", ".",
]  # fmt: skip


test_random_text_never_raises, test_mutated_fixtures_never_raise = fuzz_tests(
    PARSER, FRAGMENTS, GOLDEN.bodies(), SETTINGS
)


# --- (b) round trip from fio's formats -------------------------------------------------------------

_IEC = {"KiB": Decimal(1), "MiB": Decimal(1024), "GiB": Decimal(1024**2)}
_TIME = {"nsec": Decimal("0.001"), "usec": Decimal(1), "msec": Decimal(1000)}
PCTS = ["1.00", "5.00", "10.00", "20.00", "30.00", "40.00", "50.00", "60.00", "70.00", "80.00", "90.00",
        "95.00", "99.00", "99.50", "99.90", "99.95", "99.99"]  # fmt: skip
dec2 = st.decimals(min_value=Decimal("0.01"), max_value=Decimal("99999"), places=2)


def exact(text: str, factor: Decimal = Decimal(1)) -> float:
    return float(Decimal(text) * factor)


@st.composite
def fio3_report(draw) -> tuple[str, dict[tuple, float]]:
    """Per-job `read: IOPS=..., BW=...`, latency and percentile lines, then the group line."""
    jobs = draw(st.lists(st.from_regex(r"[a-z][a-z0-9_-]{0,8}", fullmatch=True), min_size=1, max_size=2, unique=True))
    expected: dict[tuple, float] = {}
    lines: list[str] = []
    for job in jobs:
        lines.append(f"{job}: (groupid=0, jobs=1): err= 0: pid=1234: Sat Jun 24 12:07:54 2017")
        for direction in draw(st.sampled_from([("read",), ("write",), ("read", "write")])):
            unit = draw(st.sampled_from(sorted(_IEC)))
            bw = f"{draw(dec2).normalize():f}"
            if draw(st.booleans()):
                iops_text = f"{draw(st.integers(1, 999))}.{draw(st.integers(0, 9))}k"
                iops = float(Decimal(iops_text[:-1]) * 1000)
            else:
                iops_text = str(draw(st.integers(0, 9999)))
                iops = float(iops_text)
            lines.append(f"{direction:>6}: IOPS={iops_text}, BW={bw}{unit}/s (1MB/s)(30.4MiB/50032msec)")
            expected[(job, direction, "bandwidth", None)] = exact(bw, _IEC[unit])
            expected[(job, direction, "iops", None)] = iops
            for kind in ("slat", "clat", "lat"):
                tunit = draw(st.sampled_from(sorted(_TIME)))
                mn, mx, avg, dev = (f"{draw(dec2).normalize():f}" for _ in range(4))
                lines.append(f"    {kind:>4} ({tunit}): min={mn}, max={mx}, avg={avg}, stdev={dev}")
                for stat, text in zip(("min", "max", "avg", "stddev"), (mn, mx, avg, dev), strict=True):
                    expected[(job, direction, f"{kind}_{stat}", None)] = exact(text, _TIME[tunit])
            tunit = draw(st.sampled_from(sorted(_TIME)))
            lines.append(f"    clat percentiles ({tunit}):")
            values = [draw(st.integers(0, 10**7)) for _ in PCTS]
            cells = [f"{p:>5}th=[{v:5d}]" for p, v in zip(PCTS, values, strict=True)]
            for k in range(0, len(cells), 4):
                tail = "," if k + 4 < len(cells) else ""
                lines.append("     | " + ", ".join(cells[k : k + 4]) + tail)
            for p, v in zip(PCTS, values, strict=True):
                expected[(job, direction, "clat_percentile", format(Decimal(p).normalize(), "f"))] = exact(str(v), _TIME[tunit])
            lines.append("   bw (  KiB/s): min=  532, max=  686, per=0.10%, avg=622.87, stdev=24.82, samples=  100")
    lines += ["", "Run status group 0 (all jobs):"]
    bw = f"{draw(dec2).normalize():f}"
    lines.append(f"   READ: bw={bw}MiB/s (21.9MB/s), 10.4MiB/s-10.8MiB/s (10.9MB/s-11.3MB/s), io=64.0MiB (67.1MB), run=2973-3069msec")
    expected[(None, "read", "aggregate_bandwidth", None)] = exact(bw, Decimal(1024))
    return "\n".join(lines) + "\n", expected


@st.composite
def fio2_report(draw) -> tuple[str, dict[tuple, float]]:
    """fio <= 2.16: `read : io=..., bw=...KB/s, iops=N, runt= Nmsec` and `READ: io=..., aggrb=...`."""
    units = {"B": Decimal(1) / 1024, "KB": Decimal(1), "MB": Decimal(1024)}
    lines = ["randrwtest: (groupid=0, jobs=1): err= 0: pid=11744: Thu Mar 16 14:27:28 2017"]
    expected: dict[tuple, float] = {}
    for direction in ("read", "write"):
        unit = draw(st.sampled_from(sorted(units)))
        bw, iops, runt = f"{draw(dec2).normalize():f}", draw(st.integers(0, 10**6)), draw(st.integers(1, 10**6))
        sep = " " if unit == "B" else ""
        lines.append(f"  {direction:<5}: io=68052KB, bw={bw}{sep}{unit}/s, iops={iops} , runt={runt:>6}msec")
        lat = f"{draw(dec2).normalize():f}"
        lines.append(f"     lat (usec): min=156, max={lat}K, avg=2514.24, stdev=44384.66")
        expected[("randrwtest", direction, "bandwidth", None)] = exact(bw, units[unit])
        expected[("randrwtest", direction, "iops", None)] = float(iops)
        expected[("randrwtest", direction, "lat_min", None)] = 156.0
        expected[("randrwtest", direction, "lat_max", None)] = exact(lat, Decimal(1000))
        expected[("randrwtest", direction, "lat_avg", None)] = 2514.24
        expected[("randrwtest", direction, "lat_stddev", None)] = 44384.66
    lines += ["", "Run status group 0 (all jobs):"]
    aggrb = draw(st.integers(0, 10**7))
    lines.append(f"   READ: io=68052KB, aggrb={aggrb}KB/s, minb=2266KB/s, maxb=2266KB/s, mint=30019msec, maxt=30019msec")
    expected[(None, "read", "aggregate_bandwidth", None)] = float(aggrb)
    return "\n".join(lines) + "\n", expected


@st.composite
def terse_v3_line(draw) -> tuple[str, dict[tuple, float]]:
    expected: dict[tuple, float] = {}
    fields = ["3", "fio-3.1", "tjob", "0", "0"]
    for direction in ("read", "write"):
        io_kb, bw, iops, runt = (draw(st.integers(1, 10**8)) for _ in range(4))
        lats = [[draw(st.integers(1, 10**6)), draw(st.integers(1, 10**6)), draw(dec2), draw(dec2)] for _ in range(3)]
        pcts = [draw(st.integers(0, 10**6)) for _ in PCTS]
        fields += [str(io_kb), str(bw), str(iops), str(runt)]
        fields += [str(lats[0][0]), str(lats[0][1]), f"{lats[0][2]:f}", f"{lats[0][3]:f}"]
        fields += [str(lats[1][0]), str(lats[1][1]), f"{lats[1][2]:f}", f"{lats[1][3]:f}"]
        fields += [f"{Decimal(p):.6f}%={v}" for p, v in zip(PCTS, pcts, strict=True)] + ["0%=0"] * 3
        fields += [str(lats[2][0]), str(lats[2][1]), f"{lats[2][2]:f}", f"{lats[2][3]:f}"]
        fields += ["15", "8896", "94.723576%", "7384.650000", "1846.619366"]
        expected[("tjob", direction, "bandwidth", None)] = float(bw)
        expected[("tjob", direction, "iops", None)] = float(iops)
        for kind, quad in zip(("slat", "clat", "lat"), lats, strict=True):
            for stat, v in zip(("min", "max", "avg", "stddev"), quad, strict=True):
                expected[("tjob", direction, f"{kind}_{stat}", None)] = float(Decimal(str(v)))
        for p, v in zip(PCTS, pcts, strict=True):
            expected[("tjob", direction, "clat_percentile", format(Decimal(p).normalize(), "f"))] = float(v)
    fields += ["4.04%", "0.00%", "10592", "0", "4"] + ["0.0%"] * 7 + ["0.00%"] * 22
    return ";".join(fields) + "\n", expected


def keyed(found: list[dict]) -> dict[tuple, float]:
    return {(r["params"].get("job"), r["params"]["direction"], r["metric"], r["params"].get("percentile")): r["value"] for r in found}


@SETTINGS
@given(st.one_of(fio3_report(), fio2_report(), terse_v3_line()))
def test_report_round_trips(report):
    text, expected = report
    found = rows_of(text)
    assert keyed(found) == expected
    assert len(found) == len(expected)
    assert {r["statistic"] for r in found} == {"value"}


# --- (c) mail damage ------------------------------------------------------------------------------


test_synthetic_report_survives_mail_damage, test_fixture_survives_mail_damage = damage_tests(
    st.one_of(fio3_report(), fio2_report(), terse_v3_line()), DIR, SETTINGS
)


def test_one_command_then_reports_under_captions_of_their_own():
    # https://lore.kernel.org/qemu-devel/ (2021, virtiofsd g_list_reverse(): one fio command line,
    # then a report under `Without ...:` and one under `With ...:`), the real-posts corpus file


    post = Path(__file__).parents[2] / "fixtures/real/dev/h_qemu_2021_fio_virtiofsd_reverse_req_list_quoted.txt"
    found = rows_of(post.read_text().split("\n\n", 1)[1])
    iops = {r["system"]: r["value"] for r in pick(found, "iops")}
    assert iops == {'Without "g_list_reverse()"': 5709.0, 'With "g_list_reverse()"': 21300.0}


def test_a_terse_line_a_mailer_broke_is_joined_back():
    # terse lines have no blank: a mailer breaks them anywhere, mid-field too (fixture's source line 1)
    from bench.extraction import wrap

    body = GOLDEN.body("terse_v3_fio2015_cloudbench")
    assert wrap(body) != body
    key = lambda r: (r["metric"], tuple(sorted(r["params"].items())), r["value"])  # noqa: E731
    assert sorted(map(key, GOLDEN.rows(wrap(body)))) == sorted(map(key, GOLDEN.rows(body)))
    # pieces that do not make up the line's fields are not glued on
    line = next(x for x in body.splitlines() if x.startswith("3;"))
    assert GOLDEN.rows(line[:60] + "\n" + "not;a;piece\n") == []


def test_a_job_description_a_mailer_broke_before_ioengine_keeps_bs_and_iodepth():
    # dyu/vps-comparison fio 3.1 write run (fixture fio31_vps_comparison_write_read) after a 72-column wrap
    from bench.extraction import wrap

    body = GOLDEN.body("fio31_vps_comparison_write_read")
    assert "\n4096B-4096B, ioengine=libaio, iodepth=4\n" in wrap(body)
    params = {(r["params"].get("bs"), r["params"].get("iodepth")) for r in GOLDEN.rows(wrap(body))}
    assert params == {("4096", "4")}


# https://lore.kernel.org/linux-bcache/CAJhEC07JauBGfqmEaYbV9XuLUkCdbart-gnbuMWYE7JwzG4CsA@mail.gmail.com/
# (its lines, decoded; the mailer wrapped `; 0 zone resets`)
BEFORE_AFTER_LOWER_K = """\
Before:

latency_test: (groupid=0, jobs=1): err= 0: pid=14917: Mon Apr 21 06:50:45 2025
  write: IOPS=11.8k, BW=45.9MiB/s (48.1MB/s)(4035GiB/90000002msec); 0
zone resets
    slat (usec): min=9, max=4003.9k, avg=74.37, stdev=3734.09
    clat (usec): min=2, max=5319.2k, avg=10815.66, stdev=46998.95

After:

latency_test: (groupid=0, jobs=1): err= 0: pid=15158: Mon Apr 21 17:22:13 2025
  write: IOPS=17.1k, BW=66.7MiB/s (69.9MB/s)(5859GiB/90000004msec); 0
zone resets
    slat (usec): min=7, max=469348k, avg=46.71, stdev=20576.47
"""


def test_latency_with_a_lower_case_k_and_a_caption_inside_the_printout():
    from transforms.rows import result_rows

    got = {(r["system"], r["metric"], r["value"]) for r in result_rows(extract_runs(BEFORE_AFTER_LOWER_K, "m"))}
    assert ("Before", "slat_max", 4003900.0) in got and ("Before", "slat_avg", 74.37) in got
    assert ("After", "slat_max", 469348000.0) in got and ("After", "iops", 17100.0) in got
    assert ("Before", "iops", 11800.0) in got and not any(s == "Before" and v == 17100.0 for s, _, v in got)


def test_a_short_line_naming_a_configuration_right_above_each_printout_is_its_system():
    # https://lore.kernel.org/linux-raid/CALTww2-ie0Y+0JMQAASKwDhAwcmD-aOuf=_J_GD95ATUi7w-3Q@mail.gmail.com/ (its lines)
    text = ("without the patch set\n"
            "write: IOPS=68.0k, BW=266MiB/s (279MB/s)(15.6GiB/60001msec); 0 zone resets\n"
            "with the patch set\n"
            "write: IOPS=69.1k, BW=270MiB/s (283MB/s)(15.8GiB/60001msec); 0 zone resets\n")
    from transforms.rows import result_rows

    got = {(r["system"], r["metric"], r["value"]) for r in result_rows(extract_runs(text, "m"))}
    assert ("without the patch set", "iops", 68000.0) in got and ("with the patch set", "iops", 69100.0) in got
    assert len(got) == 4


# https://lore.kernel.org/lkml/20191030001054.GA175126@google.com/ (its quoted lines): run status
# groups under bare labels, each group line's tail wrapped by the mailer
ZRAM_LABELS = """> fio --bs=4k --direct=1 --loops=15 --numjobs=4 --filename=/dev/block/zram0 \\
>      --name=seq-write --rw=write --stonewall --name=seq-read --rw=read
>
> zsmalloc:
> Run status group 0 (all jobs):
>   WRITE: io=61440MB, aggrb=1680.4MB/s, minb=430167KB/s,
> maxb=440590KB/s, mint=35699msec, maxt=36564msec
>
> Run status group 1 (all jobs):
>    READ: io=61440MB, aggrb=1620.4MB/s, minb=414817KB/s,
> maxb=414850KB/s, mint=37914msec, maxt=37917msec
>
> z3fold:
> Run status group 0 (all jobs):
>   WRITE: io=61440MB, aggrb=1224.8MB/s, minb=313525KB/s,
> maxb=329941KB/s, mint=47671msec, maxt=50167msec
>
> Run status group 1 (all jobs):
>    READ: io=61440MB, aggrb=3119.3MB/s, minb=798529KB/s,
> maxb=862883KB/s, mint=18228msec, maxt=19697msec
"""


def test_bare_labels_inside_a_printout_name_its_groups_and_wrapped_tails_stay_in_it():
    from transforms.rows import result_rows

    rows = result_rows(extract_runs(ZRAM_LABELS, "m"))
    got = {(r["system"], r["params"].get("group"), r["value"]) for r in rows}
    assert ("zsmalloc", "0", 1680.4 * 1024) in got and ("zsmalloc", "1", 1620.4 * 1024) in got
    assert ("z3fold", "0", 1224.8 * 1024) in got and ("z3fold", "1", 3119.3 * 1024) in got
    assert len(rows) == 4  # `maxb=`, `mint=`, `maxt=` are fio's spreads, not results of their own


def test_summary_blocks_each_under_a_caption_of_their_own():
    # https://lore.kernel.org/linux-raid/CALTww2-HamETu5UppBiz079PZUP+rDRtQkaRA+03=s3wSQGRKA@mail.gmail.com/
    # (2023, RAID1 against a ram disk), its lines
    text = ("I can reproduce this with upstream kernel too.\n\nRAID1\n"
            "READ: bw=3699MiB/s (3879MB/s)\nWRITE: bw=1586MiB/s (1663MB/s)\n\nram disk:\n"
            "READ: bw=5720MiB/s (5997MB/s)\nWRITE: bw=2451MiB/s (2570MB/s)\n\n"
            "There is a performance problem. But not like your result.\n")
    found = GOLDEN.rows(text)
    assert {(r["system"], r["params"]["direction"], r["value"]) for r in found} == {
        ("RAID1", "read", 3699 * 1024), ("RAID1", "write", 1586 * 1024),
        ("ram disk", "read", 5720 * 1024), ("ram disk", "write", 2451 * 1024)}
    # without a caption over the second block, both stay the first caption's, told apart by repeat
    plain = GOLDEN.rows(text.replace("ram disk:\n", ""))
    assert {r["system"] for r in plain} == {"RAID1"}


def test_group_summaries_under_captions_repeated_for_a_second_series():
    # https://lore.kernel.org/lkml/CAMgjq7CJ3hYHysyRfHzYU4hOYqhUOttxMYGtg0FxzM_wvvyhFA@mail.gmail.com/
    # (its lines, shortened): each summary under its caption, `Run status group` between; the same
    # captions again for the second series
    block = ("Run status group 0 (all jobs):\n   READ: bw={}MiB/s ({}MB/s), {}MiB/s-{}MiB/s\n"
             "({}MB/s-{}MB/s), io=1918GiB (2060GB), run=300001-300001msec\n\n")
    text = "zipf:0.5 is used here to simulate a cached read.\n"
    for caption, mib, mb in (("Unpatched 6.7-rc4:", 6548, 6866), ("Patched with this series:", 7098, 7442),
                             ("MGLRU off:", 6525, 6842), ("Patched with this series:", 5839, 6123),
                             ("MGLRU off:", 5689, 5965)):
        text += caption + "\n" + block.format(mib, mb, mib, mib, mb, mb)
    got = [(r["system"], r["value"]) for r in rows_of(text) if r["metric"] == "aggregate_bandwidth"]
    assert got == [("Unpatched 6.7-rc4", 6548 * 1024.0), ("Patched with this series", 7098 * 1024.0),
                   ("MGLRU off", 6525 * 1024.0), ("Patched with this series", 5839 * 1024.0),
                   ("MGLRU off", 5689 * 1024.0)]


# https://lore.kernel.org/lkml/5ab07cf8-a2a5-a60e-c86a-ab6ea53990bb@huawei.com/ (its lines): stat lines
# and percentile rows a mailer broke, the rest of each at the margin
STATS_WRAPPED = """\
1) null_blk before this patch:
test: (g=0): rw=write, bs=(R) 4096B-4096B, (W) 4096B-4096B, (T) 4096B-4096B, ioengine=libaio, iodepth=16
...
fio-3.13-42-g8066f
Starting 72 processes
test: (groupid=0, jobs=72): err= 0: pid=4986: Mon Aug  2 11:25:33 2021
   write: IOPS=279k, BW=1091MiB/s (1144MB/s)(128GiB/120009msec); 0 zone
resets
     clat (usec): min=89, max=1837.9k, avg=3882.70, stdev=13528.70
     clat percentiles (usec):
      |  1.00th=[   223],  5.00th=[   223], 10.00th=[   225], 20.00th=[
231],
      | 30.00th=[   478], 40.00th=[   873], 50.00th=[  1811], 60.00th=[
2737],
      | 99.00th=[ 18482], 99.50th=[ 22676], 99.90th=[ 62129],
99.95th=[231736],
      | 99.99th=[641729]
    bw (  MiB/s): min=   32, max= 3681, per=100.00%, avg=1106.55,
stdev=25.25, samples=17006
    iops        : min= 8405, max=942588, avg=283276.25, stdev=6464.60,
samples=17006
"""


def test_stat_lines_and_percentile_rows_a_mailer_broke_are_read_whole():
    from transforms.rows import result_rows

    rows = result_rows(extract_runs(STATS_WRAPPED, "w"))
    pct = {r["params"]["percentile"]: r["value"] for r in rows if r["metric"] == "clat_percentile"}
    assert pct["20"] == 231.0 and pct["60"] == 2737.0 and pct["99.95"] == 231736.0 and pct["99.99"] == 641729.0
    assert len(pct) == 13
    assert {r["metric"] for r in rows} == {"bandwidth", "iops", "clat_min", "clat_max", "clat_avg", "clat_stddev",
                                           "clat_percentile"}  # (the bw and iops sample lines are not read)
