"""fio `--output-format=json` and `json+` (fio 2.x to 3.3x), one run per document.

Rows, named as the text parser names the same quantity so that the text and the JSON
report of one run give the same rows:

* per job and direction that moved data (`read`, `write`, `trim`; params.direction):
  `bandwidth` (`bw`, KiB/s in every version), `iops`, the latency summaries
  `slat_*`, `clat_*`, `lat_*` (min, max, avg from `mean`, stddev) in us, and
  `<kind>_percentile` with params.percentile (`99.5`). fio 2.x prints `slat`/`clat`/`lat`
  in us, 3.x `slat_ns`/`clat_ns`/`lat_ns` in ns (converted exactly); a latency fio did
  not measure is all zeros and is skipped, as are the `0.00` filler percentiles of 2.x.
  The percentile block sits under `clat` unless `lat_percentiles` moved it to `lat`.
* JSON-only quantities: `runtime` (ms, per direction), `cpu_usr` / `cpu_sys` (% per job),
  `disk_util` (% per device, params.disk); per direction the sample statistics of `bandwidth`
  (`bw_min`/`bw_max`/`bw_mean`/`bw_dev`) and `iops` (`iops_min`/.../`iops_stddev`) as
  statistics `min`/`max`/`mean`/`stddev` (only when fio took samples), `io_bytes` (bytes),
  `total_ios`, `short_ios`, `drop_ios` (counts); per job the latency distribution
  `latency_share` (% of IOs, params.bucket `250us`, `>=2000ms`, from `latency_us`/`latency_ms`,
  and `latency_ns` when it holds any). `json+` latency bins are not read.

params: `job` (jobname), `jobs` (numjobs when `group_reporting` merged them into one entry,
else 1, as the text header's `jobs=` says), `direction`, and the job options `rw`, `bs`
(bytes when one size), `ioengine`, `iodepth`, `numjobs` (a job's own options over the
global ones); `instance` (1..N) when one document holds the same job name more than once
(numjobs without group_reporting).

A document is a JSON object with a `"fio version"` string and a `jobs` list; one that does
not decode (cut short, wrapped by a mailer) is reported `unparsed`, never guessed at.

`--status-interval=N` prints a whole document every N seconds, each cumulative since the start,
then the final one. Consecutive documents of the same jobs whose `elapsed` grows by what their
`timestamp` grows are such a series (`series`, shared with the text output): every document but
the last gives rows with statistic `interval` and params `interval_start` = `0`, `interval_end` =
its `elapsed` (seconds; bw/iops sample statistics are left to the summary); the last is the
summary. Repeated runs of one job file are not a series: each starts its `elapsed` again.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from transforms.model import MetricSpec, Run, Segment
from transforms.parsers._common import nearest_caption, system_label
from transforms.parsers._json import (
    Document,
    DocumentResults,
    document_runs,
    note_rejoined,
    number,
    obj,
    seq,
    text_of,
)
from transforms.parsers.fio.series import Clock, mark_series
from transforms.parsers.fio.text import _bs, _percentile

NAME = "fio"

JSON_METRICS: dict[str, MetricSpec] = {
    "runtime": MetricSpec("ms", False, 0.0, 1e10),
    "cpu_usr": MetricSpec("%", False, 0.0, 100.0),
    "cpu_sys": MetricSpec("%", False, 0.0, 100.0),
    "disk_util": MetricSpec("%", True, 0.0, 100.0),
    "io_bytes": MetricSpec("bytes", True, 0.0, 1e18),
    "total_ios": MetricSpec("count", True, 0.0, 1e15),
    "short_ios": MetricSpec("count", False, 0.0, 1e15),
    "drop_ios": MetricSpec("count", False, 0.0, 1e15),
    "latency_share": MetricSpec("%", False, 0.0, 100.0),  # params: bucket
}
# sample statistics of bw and iops: (json key, statistic), and the key saying how many samples
_SAMPLED = (
    ("bandwidth", "KiB/s", "bw_samples", (("bw_min", "min"), ("bw_max", "max"), ("bw_mean", "mean"), ("bw_dev", "stddev"))),
    ("iops", "IOPS", "iops_samples",
     (("iops_min", "min"), ("iops_max", "max"), ("iops_mean", "mean"), ("iops_stddev", "stddev"))),
)
_COUNTS = (("io_bytes", "bytes"), ("total_ios", "count"), ("short_ios", "count"), ("drop_ios", "count"))
_BUCKETS = (("latency_ns", "ns"), ("latency_us", "us"), ("latency_ms", "ms"))

_DIRECTIONS = ("read", "write", "trim")
_KINDS = ("slat", "clat", "lat")
_STATS = (("min", "min"), ("max", "max"), ("mean", "avg"), ("stddev", "stddev"))
_NS = Decimal("0.001")
_OPTIONS = ("rw", "bs", "ioengine", "iodepth", "numjobs")
_ALIASES = {"readwrite": "rw", "blocksize": "bs"}


def _is_fio(doc: dict[str, Any]) -> bool:
    return isinstance(doc.get("fio version"), str) and isinstance(doc.get("jobs"), list)


def _looks_fio(text: str) -> bool:
    return '"fio version"' in text


def _options(raw: dict[str, Any]) -> dict[str, str]:
    out: dict[str, str] = {}
    for key, value in raw.items():
        name = _ALIASES.get(key, key)
        text = text_of(value)
        if name in _OPTIONS and text is not None and len(text) <= 80:
            out[name] = _bs(text) if name == "bs" else text
    return out


def _flag(options: dict[str, Any], key: str) -> bool:
    return text_of(options.get(key)) in ("1", "true")


class _Doc(DocumentResults):
    """Results of one fio JSON document."""

    def __init__(self, doc: Document) -> None:
        super().__init__(doc)
        self.doc = doc

    def add_stat(self, metric: str, label: str, value: Any, unit: str, params: dict[str, str], stat: str) -> None:
        before = len(self.results)
        self.add(metric, label, value, unit, params)
        for r in self.results[before:]:
            r.statistic = stat

    def read(self) -> None:
        value = self.doc.value
        global_opts = obj(value, "global options")
        merged = _flag(global_opts, "group_reporting")
        names = [j.get("jobname") for j in seq(value, "jobs") if isinstance(j, dict)]
        seen: dict[str, int] = {}
        for job in seq(value, "jobs"):
            if not isinstance(job, dict):
                continue
            name = text_of(job.get("jobname")) or "?"
            options = {**_options(global_opts), **_options(obj(job, "job options"))}
            grouped = merged or _flag(obj(job, "job options"), "group_reporting")
            params = {
                **options,
                "job": name,
                "jobs": options.get("numjobs", "1") if grouped else "1",
            }
            seen[name] = seen.get(name, 0) + 1
            if names.count(name) > 1:
                params["instance"] = str(seen[name])
            self._job(job, params)
        for disk in seq(value, "disk_util"):
            name = text_of(disk.get("name")) if isinstance(disk, dict) else None
            if name is not None:
                self.add("disk_util", "disk_util.util", disk.get("util"), "%", {"disk": name})

    def _job(self, job: dict[str, Any], params: dict[str, str]) -> None:
        for direction in _DIRECTIONS:
            block = obj(job, direction)
            moved = [number(block.get(k)) for k in ("io_bytes", "iops", "bw", "total_ios")]
            if not any(n for n in moved if n is not None):
                continue  # fio prints every direction; this one moved no data
            self._direction(direction, block, {**params, "direction": direction})
        for key, metric in (("usr_cpu", "cpu_usr"), ("sys_cpu", "cpu_sys")):
            if key in job:
                self.add(metric, key, job[key], "%", params)
        self._distribution(job, params)

    def _distribution(self, job: dict[str, Any], params: dict[str, str]) -> None:
        """`latency_us: {"250": 37.8, ...}`: the share of IOs per latency bucket."""
        for key, unit in _BUCKETS:
            buckets = obj(job, key)
            if unit == "ns" and not any(number(v) for v in buckets.values()):
                continue  # fio < 3 prints no ns buckets; 3.x fills them with zeros on slow devices
            for bucket, share in buckets.items():
                if len(bucket) <= 12:
                    self.add("latency_share", f"{key}.{bucket}", share, "%", {**params, "bucket": f"{bucket}{unit}"})

    def _direction(self, d: str, block: dict[str, Any], params: dict[str, str]) -> None:
        self.add("bandwidth", f"{d}.bw", block.get("bw"), "KiB/s", params)
        self.add("iops", f"{d}.iops", block.get("iops"), "IOPS", params)
        if "runtime" in block:
            self.add("runtime", f"{d}.runtime", block.get("runtime"), "ms", params)
        for metric, unit, samples, stats in _SAMPLED:
            if number(block.get(samples)):  # without samples fio prints zeros
                for key, stat in stats:
                    if key in block:
                        self.add_stat(metric, f"{d}.{key}", block.get(key), unit, params, stat)
        for key, unit in _COUNTS:
            if key in block:
                self.add(key, f"{d}.{key}", block.get(key), unit, params)
        for kind in _KINDS:
            key, factor = (f"{kind}_ns", _NS) if f"{kind}_ns" in block else (kind, Decimal(1))
            stats = obj(block, key)
            values = [number(stats.get(k)) for k, _ in _STATS]
            if any(values):
                for (field, stat), _n in zip(_STATS, values, strict=True):
                    self.add(
                        f"{kind}_{stat}",
                        f"{d}.{key}.{field}",
                        stats.get(field),
                        "us",
                        params,
                        factor,
                    )
            self._percentiles(d, kind, key, obj(stats, "percentile"), params, factor)

    def _percentiles(
        self,
        d: str,
        kind: str,
        key: str,
        pcts: dict[str, Any],
        params: dict[str, str],
        factor: Decimal,
    ) -> None:
        for p, v in pcts.items():
            try:
                finite = Decimal(p).is_finite()
            except ArithmeticError:
                finite = False
            if not finite:
                self.notes.append(f"{d}.{key}: percentile key {p[:20]!r} is not a number, skipped")
                continue
            pct = _percentile(p)
            if Decimal(pct) == 0:
                continue  # fio 2.x fills unused percentile slots with "0.00" : 0
            label = f"{d}.{key}.percentile"
            self.add(f"{kind}_percentile", label, v, "us", {**params, "percentile": pct}, factor)


def _run(seg: Segment, found: Document) -> Run:
    doc = _Doc(found)
    doc.read()
    caption = nearest_caption(seg, found.start)
    version = text_of(found.value.get("fio version")) or ""
    run = Run(
        benchmark=NAME,
        results=doc.results,
        tool_version=version.removeprefix("fio-") or None,
        system=system_label(caption),
        caption=caption,
        line_start=found.start,
        line_end=found.end,
        notes=doc.notes,
    )
    run.attributes["format"] = "json"
    note_rejoined(run, found)
    if not run.results:
        run.status, run.reason = "unparsed", "fio JSON document without a job that moved data"
    return run


def _clock(value: dict[str, Any]) -> Clock | None:
    """(job names, timestamp, largest elapsed) of a document, or None when it lacks them."""
    jobs = [j for j in seq(value, "jobs") if isinstance(j, dict)]
    stamp = number(value.get("timestamp"))
    elapsed = [e for e in (number(j.get("elapsed")) for j in jobs) if e is not None]
    if stamp is None or not elapsed:
        return None
    return Clock(frozenset(text_of(j.get("jobname")) or "?" for j in jobs), stamp, max(elapsed))


def parse(seg: Segment) -> list[Run]:
    """Every fio JSON document in the segment, one run each."""
    clocks: dict[int, Clock] = {}

    def read(found: Document) -> Run:
        run = _run(seg, found)
        if (clock := _clock(found.value)) is not None:
            clocks[id(run)] = clock
        return run

    runs = document_runs(seg.lines, NAME, _is_fio, _looks_fio, read)
    mark_series(runs, clocks)
    return runs
