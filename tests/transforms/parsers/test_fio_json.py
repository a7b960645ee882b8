"""fio JSON output: the tricky cells of the real fixtures, then properties.

Properties: random JSON, fio-shaped JSON and documents cut short never make the parser or the
driver raise; a document re-serialised with other whitespace or key order gives the same rows;
several documents in one post, with the command's other output before them, give the rows of
each document.
"""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from tests.transforms.parsers.damage import assert_sane
from tests.transforms.parsers.fixtures_io import FIXTURES, canonical, fixture_body, rows_of
from tests.transforms.parsers.helpers import json_document_tests, json_values, property_settings
from transforms.extract import extract_runs
from transforms.parsers.fio import PARSER
from transforms.parsers.fio.json import JSON_METRICS

JSON_ONLY = set(JSON_METRICS) - {"cpu_usr", "cpu_sys", "disk_util"}

DIR = FIXTURES / "fio"
JSON_CASES = sorted(DIR.glob("json_*.txt"))


def _first_document(body: str) -> str:
    """The first JSON document of a fixture (lkp's multi-instance fixture holds two)."""
    text = body.lstrip()
    _, end = json.JSONDecoder().raw_decode(text)
    return text[:end] + "\n"


DOCS = [_first_document(fixture_body(p)) for p in JSON_CASES]
SETTINGS = property_settings(40)


def rows(name: str) -> list[dict]:
    return rows_of(fixture_body(DIR / f"{name}.txt"))


def value(found: list[dict], metric: str, statistic: str = "value", **params: str) -> float:
    (row,) = [
        r
        for r in found
        if r["metric"] == metric
        and r["statistic"] == statistic
        and all(r["params"].get(k) == v for k, v in params.items())
    ]
    return row["value"]


def fio_runs(text: str) -> list:
    return [er.run for er in extract_runs(text, "t") if er.parser.name == "fio"]


# --- real fixtures ---------------------------------------------------------------------------------


def test_fio2_latencies_are_us_and_filler_percentiles_skipped():
    found = rows("json_fio214_pkb_five_groups_disk_util")
    assert value(found, "clat_avg", job="sequential_write", direction="write") == 477734.84
    assert value(found, "clat_percentile", job="random_read_test", percentile="99.99") == 354304.0
    # 17 real percentiles per direction; the three `"0.00" : 0` slots are not rows
    assert len([r for r in found if r["metric"] == "clat_percentile"]) == 5 * 17
    # directions that moved no data (all zeros) give no row
    assert {
        (r["params"]["job"], r["params"]["direction"]) for r in found if r["metric"] == "iops"
    } == {
        ("sequential_write", "write"),
        ("sequential_read", "read"),
        ("random_write_test", "write"),
        ("random_read_test", "read"),
        ("random_read_test_parallel", "read"),
    }
    assert value(found, "disk_util", disk="sdb") == 97.54
    (run,) = fio_runs(fixture_body(DIR / "json_fio214_pkb_five_groups_disk_util.txt"))
    assert run.tool_version == "2.1.4" and run.attributes["format"] == "json"


def test_group_reporting_merges_numjobs_into_one_entry():
    found = rows("json_fio217_pkb_group_reporting_numjobs")
    read = {k: v for k, v in found[0]["params"].items() if k != "direction"}
    assert read == {"job": "rand_16k_read_100%-io-depth-1-num-jobs-2", "jobs": "2", "numjobs": "2",
                    "rw": "randread", "bs": "16384", "iodepth": "1", "ioengine": "libaio"}  # fmt: skip
    assert value(found, "iops", direction="read") == 8086.673998
    assert value(found, "clat_percentile", direction="write", percentile="75") == 668.0


def test_fio3_nanoseconds_become_microseconds_exactly():
    found = rows("json_fio326_virtualclient_clat_ns")
    assert value(found, "slat_max") == 4292478.9
    assert value(found, "clat_avg") == 418.473267365
    assert value(found, "clat_percentile", percentile="99.5") == 19267.584
    assert value(found, "bandwidth") == 8668.0
    assert value(found, "runtime") == 120958.0


def test_lat_percentiles_are_lat_not_clat():
    found = rows("json_fio316_superbench_lat_percentiles")
    assert not [r for r in found if r["metric"] == "clat_percentile"]
    assert value(found, "lat_percentile", direction="read", percentile="95") == 1941.504
    assert value(found, "lat_percentile", direction="write", percentile="99") == 2072.576
    # global options (iodepth, numjobs, ioengine) under the job's own (rw, bs)
    assert found[0]["params"]["iodepth"] == "64" and found[0]["params"]["rw"] == "randrw"
    assert value(found, "disk_util", disk="nvme0n1") == 99.840351


# --- several documents, other output around them ---------------------------------------------------


def test_json_only_sample_statistics_counts_and_latency_shares():
    found = rows("json_fio326_virtualclient_clat_ns")
    assert value(found, "bandwidth", "mean") == 12030.843023  # write.bw_mean, KiB/s
    assert value(found, "iops", "stddev") == 1014.164654
    assert value(found, "io_bytes") == 1073741824.0
    assert value(found, "total_ios") == 262144.0
    assert value(found, "latency_share", bucket="100us") == 60.919189
    assert value(found, "latency_share", bucket=">=2000ms") == 0.01
    assert not [r for r in found if r["params"].get("bucket", "").endswith("ns")]  # all-zero ns buckets
    assert not [r for r in found if r["params"].get("direction") == "read"]  # read moved no data


def test_several_documents_after_the_command_output():
    text = (
        "$ fio --output-format=json jobs.fio\nStarting 2 processes\n"
        + DOCS[0]
        + "\nAnd the second run printed this.\n"
        + DOCS[1]
    )
    expected = rows_of(DOCS[0]) + rows_of(DOCS[1])
    assert canonical(rows_of(text)) == canonical(expected)
    assert len(fio_runs(text)) == 2


def test_json_then_normal_output_of_the_same_run_is_read_once():
    doc = fixture_body(DIR / "json_fio326_virtualclient_clat_ns.txt")
    echo = (
        "\nfio_randwrite_1GB_4k_d1_th1_direct: (groupid=0, jobs=1): err= 0: pid=7: Sat Apr 17 22:41:11 2021\n"
        "  write: IOPS=2167, BW=8668KiB/s (8877kB/s)(1024MiB/120958msec)\n"
    )
    found = rows_of(doc + echo)
    assert canonical(found) == canonical(rows_of(doc))
    (run,) = fio_runs(doc + echo)
    assert any("the same run as text" in n for n in run.notes)
    # the same text far from the document is another run, and is read
    far = doc + "\n\nA week later, same job:\n\n\n" + echo
    assert len(fio_runs(far)) == 2


def _status_series(elapsed: list[int], spacing: list[int]) -> str:
    """The VirtualClient document printed again as `--status-interval` would: same jobs, the
    `elapsed` and `timestamp` clocks moved together (or apart, for repeated runs)."""
    body = fixture_body(DIR / "json_fio326_virtualclient_clat_ns.txt")
    doc = json.loads(body[body.index("{") : body.rindex("}") + 1])
    out = []
    for e, t in zip(elapsed, spacing, strict=True):
        d = json.loads(json.dumps(doc))
        d["timestamp"] = 1618699271 - 122 + t
        d["jobs"][0]["elapsed"] = e
        d["jobs"][0]["read"]["iops"] = 1000 + e  # each report its own numbers
        out.append(json.dumps(d, indent=2))
    return "\n".join(out)


def test_status_interval_reports_are_the_series_and_the_last_the_summary():
    found = rows_of(_status_series([5, 10, 122], [5, 10, 122]))
    iops = [(r["statistic"], r["params"].get("interval_end"), r["value"]) for r in found
            if r["metric"] == "iops" and r["params"]["direction"] == "read"]
    assert iops == [("interval", "5", 1005.0), ("interval", "10", 1010.0), ("value", None, 1122.0)]
    series = [r for r in found if r["statistic"] == "interval"]
    assert {r["params"]["interval_start"] for r in series} == {"0"}  # fio's reports are cumulative
    assert not any("repeat" in r["params"] for r in found)
    summary = [r for r in found if r["statistic"] != "interval"]
    assert len([r for r in summary if r["statistic"] == "value"]) == len(series) // 2
    # bw and iops sample statistics (min, max, mean, stddev) stay with the summary only
    assert sorted({r["statistic"] for r in summary} - {"value"}) == ["max", "mean", "min", "stddev"]


def test_repeated_runs_of_one_job_file_are_not_a_series():
    # each run starts its clock again: elapsed 122 three times, two minutes apart
    found = rows_of(_status_series([122, 122, 122], [122, 250, 380]))
    assert not [r for r in found if r["statistic"] == "interval"]
    reads = [r for r in found if r["metric"] == "iops" and r["params"]["direction"] == "read"]
    assert sorted(r["params"]["repeat"] for r in reads) == ["1", "2", "3"]


def test_truncated_document_is_unparsed_not_guessed():
    doc = DOCS[0]
    runs = fio_runs(doc[: len(doc) // 2])
    assert runs and all(r.status == "unparsed" for r in runs)
    assert "does not decode" in (runs[0].reason or "")


@st.composite
def one_run_both_ways(draw) -> tuple[str, str]:
    """One fio 3.x run printed as `--output-format=json` and as normal text, same numbers."""
    job = draw(st.from_regex(r"[a-z][a-z0-9_]{0,8}", fullmatch=True))
    bw, iops = draw(st.integers(1, 10**7)), draw(st.integers(1, 10**6))
    lat = {k: [draw(st.integers(1, 10**9)) for _ in range(2)] + [draw(st.integers(1, 10**9)) / 100 for _ in range(2)]
           for k in ("slat", "clat", "lat")}  # fmt: skip
    pcts = sorted(draw(st.integers(1, 10**9)) for _ in range(3))
    keys = ("50.000000", "99.000000", "99.990000")
    block = {"io_bytes": 1, "bw": bw, "iops": iops, "runtime": 1000}
    for k, (mn, mx, avg, dev) in lat.items():
        block[f"{k}_ns"] = {"min": mn, "max": mx, "mean": avg, "stddev": dev}
    block["clat_ns"]["percentile"] = dict(zip(keys, pcts, strict=True))
    doc = {
        "fio version": "fio-3.1",
        "jobs": [{"jobname": job, "job options": {"rw": "read"}, "read": block}],
    }
    lines = [f"{job}: (g=0): rw=read, bs=(R) 4096B-4096B, (W) 4096B-4096B, (T) 4096B-4096B, ioengine=psync, iodepth=1",
             f"{job}: (groupid=0, jobs=1): err= 0: pid=1: Sat Jun 24 12:07:54 2017",
             f"   read: IOPS={iops}, BW={bw}KiB/s ({bw}kB/s)(1MiB/1000msec)"]  # fmt: skip
    for k, (mn, mx, avg, dev) in lat.items():
        lines.append(f"    {k:>4} (nsec): min={mn}, max={mx}, avg={avg:.2f}, stdev={dev:.2f}")
    lines.append("    clat percentiles (nsec):")
    lines.append("     | " + ", ".join(f"{p[:5]}th=[{v}]" for p, v in zip(keys, pcts, strict=True)))
    return json.dumps(doc, indent=2), "\n".join(lines) + "\n"


@SETTINGS
@given(one_run_both_ways())
def test_text_and_json_of_one_run_give_the_same_rows(both):
    """The JSON's extra quantities (runtime, job options fio's text header does not print) aside."""
    as_json, as_text = both
    shared = {"job", "jobs", "direction", "rw", "percentile"}

    def keyed(found: list[dict]) -> dict[tuple, float]:
        return {
            (r["metric"], tuple(sorted((k, v) for k, v in r["params"].items() if k in shared))): r[
                "value"
            ]
            for r in found
            if r["metric"] not in JSON_ONLY and r["statistic"] == "value"
        }

    assert keyed(rows_of(as_json)) == keyed(rows_of(as_text))


# --- properties ------------------------------------------------------------------------------------

_KEYS = st.sampled_from(
    ["fio version", "jobs", "jobname", "read", "write", "trim", "bw", "iops", "runtime", "clat_ns", "clat",
     "lat", "percentile", "mean", "min", "max", "stddev", "99.000000", "0.00", "job options", "global options",
     "group_reporting", "numjobs", "bs", "disk_util", "name", "util", "usr_cpu", "x"]
)  # fmt: skip
JSONISH = json_values(_KEYS)


@SETTINGS
@given(st.dictionaries(_KEYS, JSONISH, max_size=6), st.sampled_from(["fio-3.1", 3, None]))
def test_random_json_never_raises(doc, version):
    doc = {**doc, "fio version": version} if version is not None else doc
    assert_sane(PARSER, json.dumps(doc, indent=2))
    assert_sane(PARSER, "$ fio --output-format=json x.fio\n" + json.dumps(doc))


test_truncated_documents_never_raise, test_reserialised_document_gives_the_same_rows = (
    json_document_tests(PARSER, DOCS, [None, 0, 1, 4, "\t"], SETTINGS)
)


def test_lkp_instances_one_document_each_numbered_in_order():
    found = rows("json_fio319_lkp_multi_instance")
    bw = [(r["params"]["repeat"], r["value"]) for r in found if r["metric"] == "bandwidth"]
    assert bw == [("1", 1024.0), ("2", 40960.0)]  # fio.output.1 `"bw" : 1024`, fio.output.2 `40960`
    assert value(found, "clat_percentile", percentile="99", repeat="2") == 8.0  # 8000 ns
    assert value(found, "slat_avg", repeat="1") == 0.01  # `"slat_ns" : {"mean" : 10`
    assert not [r for r in found if r["params"].get("direction") == "write"]  # all zeros: moved no data
