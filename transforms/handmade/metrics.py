"""Printed labels and units to the registry's canonical metrics and units.

A poster types `Pipe Throughput`, `max udp bandwidth`, `Throughput 10^6bits/sec` or `MB/sec`;
the lake keys rows by the parser registry's metric names (transforms/parsers/*.py) and the
canonical units of transforms.units. A label that matches no synonym keeps its printed form in
`metric_label` and a slug in `metric` (validation warns, it does not reject).
"""

from __future__ import annotations

import re
from functools import lru_cache

from transforms.handmade.commands import command_params
from transforms.parsers import PARSERS, owner
from transforms.parsers.lmbench.summary import _LABELS as _LMBENCH_LABELS
from transforms.parsers.unixbench import _TESTS as _UNIXBENCH_TESTS

_SPACE = re.compile(r"[\s_]+")
_SLUG = re.compile(r"[^a-z0-9]+")


def norm(label: str) -> str:
    """Lower case, one space between words, no decoration."""
    return _SPACE.sub(" ", label.lower().strip(" \t:*=-.")).strip()


def slug(label: str) -> str:
    return _SLUG.sub("_", label.lower()).strip("_")[:60] or "value"


# benchmark -> {normalised label: canonical metric}
_SYNONYMS: dict[str, dict[str, str]] = {
    "netperf": {
        "throughput": "throughput", "tcp stream": "throughput", "tcp_stream": "throughput",
        "udp stream": "throughput", "udp_stream": "throughput", "tcp maerts": "throughput",
        "tcp sendfile": "throughput", "bandwidth": "throughput", "max udp bandwidth": "throughput",
        "udp bandwidth": "throughput", "tcp bandwidth": "throughput", "10^6bits/sec": "throughput",
        "throughput 10^6bits/sec": "throughput", "mbit/s": "throughput", "mbps": "throughput",
        "10^6 bps": "throughput", "10^6bps": "throughput",
        "tcp rr": "transaction_rate", "tcp_rr": "transaction_rate", "udp rr": "transaction_rate",
        "udp_rr": "transaction_rate", "tcp crr": "transaction_rate", "tcp_crr": "transaction_rate",
        "trans/s": "transaction_rate", "trans rate": "transaction_rate",
        "transaction rate": "transaction_rate", "trans. rate per sec": "transaction_rate",
        "transactions/sec": "transaction_rate", "tps": "transaction_rate",
        "latency": "rt_latency", "rr latency": "rt_latency", "rt_latency": "rt_latency",
        "round trip latency": "rt_latency",
        # the omni test's output selectors (`-O P90_LATENCY`) and the heads it prints for them
        "min_latency": "latency_min", "minimum latency": "latency_min", "min latency": "latency_min",
        "max_latency": "latency_max", "maximum latency": "latency_max",
        "mean_latency": "latency_mean", "mean latency": "latency_mean",
        "p50_latency": "latency_p50", "p50 latency": "latency_p50", "50th percentile latency": "latency_p50",
        "p90_latency": "latency_p90", "p90 latency": "latency_p90", "90th percentile latency": "latency_p90",
        "p99_latency": "latency_p99", "p99 latency": "latency_p99", "99th percentile latency": "latency_p99",
        "stddev_latency": "latency_stddev", "stddev latency": "latency_stddev",
        "cpu util": "cpu_util_local", "local cpu": "cpu_util_local", "remote cpu": "cpu_util_remote",
    },
    "iperf": {"throughput": "throughput", "bandwidth": "throughput", "bitrate": "throughput",
              "jitter": "jitter", "loss": "datagram_loss", "lost": "datagram_loss"},
    "dbench": {"throughput": "throughput", "mb/sec": "throughput", "mb/s": "throughput",
               "max latency": "max_latency", "max_latency": "max_latency", "latency": "max_latency"},
    "tbench": {"throughput": "throughput", "mb/sec": "throughput", "mb/s": "throughput",
               "max latency": "max_latency", "max_latency": "max_latency"},
    "kernbench": {"elapsed": "elapsed_time", "elapsed time": "elapsed_time", "real": "elapsed_time",
                  "wall": "elapsed_time", "user": "user_time", "user time": "user_time",
                  "system": "system_time", "system time": "system_time", "sys": "system_time",
                  "sys time": "system_time",
                  "percent cpu": "percent_cpu", "cpu": "percent_cpu",
                  "context switches": "context_switches", "sleeps": "sleeps"},
    "hackbench": {"time": "time", "seconds": "time", "sec": "time", "runtime": "time",
                  "run time": "time", "elapsed": "time", "hackbench": "time"},
    "sysbench": {"events/s": "events_per_second", "events per second": "events_per_second",
                 "eps": "events_per_second", "tps": "transactions_per_second",
                 "transactions": "transactions_per_second", "trans/s": "transactions_per_second",
                 "transactions/s": "transactions_per_second", "qps": "queries_per_second",
                 "queries per second": "queries_per_second",
                 "queries": "queries_per_second", "total time": "total_time",
                 "latency": "latency", "avg latency": "latency", "95th percentile": "latency_percentile",
                 "ops/s": "ops_per_second", "throughput": "throughput",
                 "queries performed read": "query_count", "queries performed write": "query_count",
                 "queries performed other": "query_count", "queries performed total": "query_count"},
    "stream": {"copy": "copy", "scale": "scale", "add": "add", "triad": "triad"},
    "fio": {"bw": "bandwidth", "bandwidth": "bandwidth", "throughput": "bandwidth", "write_bw": "bandwidth",
            "read_bw": "bandwidth", "iops": "iops", "lat": "lat_avg",
            "latency": "lat_avg", "avg lat": "lat_avg", "clat": "clat_avg", "slat": "slat_avg"},
    "bonnie": {"sequential output block": "seq_output_block", "seq output block": "seq_output_block",
               "block write": "seq_output_block", "sequential output per char": "seq_output_char",
               "per char write": "seq_output_char", "rewrite": "seq_rewrite",
               "sequential input block": "seq_input_block", "block read": "seq_input_block",
               "sequential input per char": "seq_input_char", "per char read": "seq_input_char",
               "random seeks": "random_seeks", "seeks": "random_seeks",
               "sequential create": "seq_create", "random create": "random_create",
               # bonnie++'s two-level heads: `Sequential Create` over `Create`, `Read`, `Delete`
               "sequential create create": "seq_create", "sequential create read": "seq_stat",
               "sequential create delete": "seq_delete", "random create create": "random_create",
               "random create read": "random_stat", "random create delete": "random_delete",
               "sequential output rewrite": "seq_rewrite",
               # the same heads as people retell them: `sequential block output`, `block input`
               "sequential block output": "seq_output_block", "block output": "seq_output_block",
               "sequential block input": "seq_input_block", "block input": "seq_input_block"},
    "dd": {"throughput": "throughput", "speed": "throughput", "rate": "throughput",
           "bandwidth": "throughput", "copied": "throughput", "write_bw": "throughput", "write bw": "throughput",
           "read_bw": "throughput", "read bw": "throughput"},
    "hdparm": {"cached reads": "cached_reads", "timing cached reads": "cached_reads",
               "buffered disk reads": "buffered_disk_reads", "disk reads": "buffered_disk_reads",
               "timing buffered disk reads": "buffered_disk_reads"},
    # lmbench's programs and their tests, as a command runs them (`lat_syscall -N 1000 null`), normalised
    "lmbench": {"lat syscall null": "null_call", "lat syscall read": "syscall_read",
                "lat syscall write": "syscall_write", "lat syscall stat": "stat", "lat syscall fstat": "fstat",
                "lat syscall open": "open_close", "lat proc fork": "fork_proc", "lat proc exec": "exec_proc",
                "lat proc shell": "sh_proc", "lat sig install": "sig_inst", "lat sig catch": "sig_hndl",
                "lat sig prot": "prot_fault", "lat pipe": "lat_pipe", "bw pipe": "bw_pipe",
                "lat unix": "lat_unix", "bw unix": "bw_unix", "lat fifo": "lat_fifo"},
    "unixbench": {"index": "index_score", "index score": "index_score", "score": "index_score",
                  "system benchmarks index score": "index_score",
                  "system benchmarks index score (partial only)": "partial_index_score",
                  "system benchmarks partial index": "partial_index_score",
                  # the test names `./Run` takes (`./Run -c 4 spawn`)
                  "dhry2reg": "dhrystone_2", "whetstone-double": "whetstone_double",
                  "execl": "execl_throughput", "context1": "pipe_context_switching",
                  "spawn": "process_creation", "syscall": "syscall_overhead",
                  "shell1": "shell_scripts_1", "shell8": "shell_scripts_8", "shell16": "shell_scripts_16",
                  "fstime": "file_copy_1024_bufsize_2000_maxblocks",
                  "fsbuffer": "file_copy_256_bufsize_500_maxblocks",
                  "fsdisk": "file_copy_4096_bufsize_8000_maxblocks",
                  # a test's name as people shorten it in tables (`Shell Scripts (16)` reads as the registry's
                  # own `shell_scripts_16`, below)
                  "piped context switching": "pipe_context_switching", "context switching": "pipe_context_switching"},
}  # fmt: skip

for _kind, _labels in _LMBENCH_LABELS.items():
    for _label, (_role, _metric) in _labels.items():
        if _metric in PARSERS["lmbench"].metrics:
            _SYNONYMS["lmbench"].setdefault(norm(_label), _metric)


def _registry(benchmark: str) -> dict:
    p = owner(benchmark)
    return dict(p.metrics) if p is not None else {}


# the registry's own names read as words: `pipe_throughput` <- `pipe throughput`
for _bench in list(_SYNONYMS):
    for _metric in _registry(_bench):
        _SYNONYMS[_bench].setdefault(norm(_metric), _metric)

# benchmark -> metric when the table names none (one value per system, the tool's headline)
DEFAULT_METRIC = {
    "netperf": "throughput", "iperf": "throughput", "dbench": "throughput", "tbench": "throughput",
    "hackbench": "time", "kernbench": "elapsed_time", "sysbench": "events_per_second",
    "dd": "throughput", "fio": "bandwidth", "unixbench": "index_score",
}  # fmt: skip
BY_UNIT = {  # benchmark -> unit -> metric, when the unit tells the headline apart
    "netperf": {"trans/s": "transaction_rate", "Mbit/s": "throughput", "Gbit/s": "throughput",
                "Kbit/s": "throughput", "us": "rt_latency"},
    "fio": {"IOPS": "iops", "us": "lat_avg", "ms": "lat_avg", "ns": "lat_avg"},
    "sysbench": {"trans/s": "transactions_per_second", "ops/s": "queries_per_second", "ms": "latency",
                 "s": "total_time",
                 "MiB/s": "throughput", "MB/s": "throughput"},
    "dbench": {"ms": "max_latency"},
    "tbench": {"ms": "max_latency"},
}  # fmt: skip


@lru_cache(maxsize=8192)
def canonical(benchmark: str, label: str) -> str | None:
    """The registry metric a printed label means for `benchmark`, or None."""
    n = norm(label)
    if not n:
        return None
    if benchmark == "unixbench":
        for pattern, template, _unit in _UNIXBENCH_TESTS:
            m = pattern.match(label.strip())
            if m and m.end() >= len(label.strip()) - 1:
                name = template.format(*(g.lower() for g in m.groups()))
                if name in _registry("unixbench"):
                    return name
    table = _SYNONYMS.get(benchmark, {})
    if n in table:
        return table[n]
    bare = n.replace("(", "").replace(")", "").strip()
    if bare in table:
        return table[bare]
    if (m := _UNIT_AFTER.match(n)) and unit(m.group(2)) and m.group(1) in table:
        return table[m.group(1)]  # `Bitrate(Gb/s)`: the metric, its unit glued to it in brackets
    words = bare.split()
    if 2 <= len(words) <= 3 and words[0] == benchmark and all(unit(w) or w.isdigit() for w in words[1:]):
        return DEFAULT_METRIC.get(benchmark)  # `tbench (MB/s)`, `dbench 8`: the headline figure
    if 2 <= len(words) <= 4 and unit(words[0]) and (m := _MMTESTS_TAIL.match(words[-1])):
        # mmtests: `MB/sec copy-16`, `usec lat-4`: the unit, the metric, `-<threads>`
        return table.get(" ".join([*words[1:-1], m.group(1)]))
    if 2 <= len(words) <= 3 and unit(words[0]):
        return table.get(" ".join(words[1:]))  # mmtests: `MB/sec copy`, the unit, then the metric
    if len(words) >= 3 and words[-1] in _CPU_WORDS:
        base = table.get(" ".join(words[:-1]))  # `Sequential Output Block %CPU`: its CPU share
        return f"{base}_cpu" if base and f"{base}_cpu" in _registry(benchmark) else None
    if len(words) >= 3 and (unit(words[-1]) or words[-1] in _RATE_WORDS):
        return table.get(" ".join(words[:-1]))  # `Sequential Output Block K/sec`: the unit after it
    label = label.strip()
    if " " not in label and _CAMEL.search(label):  # `UserTime`, `ElapsedTime`: words run together
        return canonical(benchmark, _CAMEL.sub(r"\1 \2", label))
    return None


_CAMEL = re.compile(r"([a-z])([A-Z])")
_UNIT_AFTER = re.compile(r"^([^()]{1,60}?)[ \t]*+\(([^()]{1,20}+)\)$")


_RATE_WORDS = frozenset({"/sec", "/s", "k/sec", "m/sec"})
_CPU_WORDS = frozenset({"%cpu", "%cp", "cpu%", "cp%"})


_MMTESTS_TAIL = re.compile(r"^([a-z][\w.]{0,30}?)-\d{1,5}$")


# a statistic of the runs as a column head or key names (`avg`, `Max`) -> the row's statistic
STAT_HEAD = {"min": "min", "max": "max", "avg": "mean", "average": "mean", "mean": "mean", "median": "median"}
_STATISTIC_WORDS = frozenset({"average", "avg", "mean", "median"})


def metric_for(benchmark: str, label: str | None, unit: str) -> tuple[str, str]:
    """(metric, metric_label): canonical when a synonym matches, else a slug of the label."""
    if label and norm(label) in _STATISTIC_WORDS:
        label = label.strip()  # `Average` over a column: the headline figure's mean, labelled as printed
        return BY_UNIT.get(benchmark, {}).get(unit) or DEFAULT_METRIC.get(benchmark) or "value", label
    if label:
        found = canonical(benchmark, label)
        if found is not None:
            return found, label
        if unit and _unit_of(label) == unit and (by_unit := BY_UNIT.get(benchmark, {}).get(unit)):
            return by_unit, label  # `queries/s  30468.0`: a row named by its unit, the tool's measure in it
        if command_params(label, benchmark) is None:
            words = label.split()
            if len(words) >= 2 and unit is not None and _unit_of(words[-1]) == unit:
                return slug(" ".join(words[:-1])), label  # `1GB copy MB/s`: the unit is the row's, not the name's
            return slug(label), label
    by_unit = BY_UNIT.get(benchmark, {}).get(unit)
    metric = by_unit or DEFAULT_METRIC.get(benchmark) or "value"
    return metric, label or metric.replace("_", " ")  # a command label says how the headline was run


def label_votes(labels: list[str]) -> dict[str, int]:
    """How many labels read as a metric of each benchmark (table attribution from its labels)."""
    votes: dict[str, int] = {}
    for lbl in labels:
        if len(norm(lbl)) < 3:
            continue
        for bench in _SYNONYMS:
            if canonical(bench, lbl) is not None and norm(lbl) not in _GENERIC:
                votes[bench] = votes.get(bench, 0) + 1
    return votes


def metric_in(benchmark: str, text: str | None) -> str | None:
    """The words of a caption that name a metric of `benchmark` (`average eps show:` -> `eps`)."""
    if not text or len(text) > 800:
        return None
    words = [w.strip("():,;.[]'\"`") for w in text.split()]
    for size in (3, 2, 1):
        for i in range(len(words) - size + 1):
            gram = " ".join(words[i:i + size])
            if i + size < len(words) and words[i + size - 1].isdigit() and words[i + size].lower() in _TIMES:
                continue  # `ran hackbench 3 times`: how often it ran, no argument of the tool
            if gram and canonical(benchmark, gram) is not None and not gram.isdigit():
                return gram
    return None


_TIMES = frozenset({"times"})  # (`dbench 48 runs` are runs of `dbench 48`)


def any_metric(label: str) -> bool:
    """Whether a label reads as a metric of some benchmark (generic words included)."""
    return len(norm(label)) >= 2 and any(canonical(b, label) is not None for b in _SYNONYMS)


_GENERIC = frozenset({"throughput", "bandwidth", "latency", "time", "seconds", "sec", "rate", "speed",
                      "user", "system", "sys", "real", "cpu", "index", "score", "add", "copy", "lat",
                      "bw", "elapsed", "loss", "lost", "tps", "iops", "stat", "pipe", "tcp", "udp",
                      "transactions", "queries", "mhz", "runtime", "run time", "wall"})


def spec_unit(benchmark: str, metric: str) -> str | None:
    spec = _registry(benchmark).get(metric)
    return spec.unit if spec is not None else None


def allows(benchmark: str, metric: str, unit: str) -> bool:
    """Whether the registry accepts `unit` for a canonical metric (unknown metrics accept any)."""
    spec = _registry(benchmark).get(metric)
    return spec is None or spec.allows(unit)


# ----------------------------------------------------------------------------- units

_UNITS: dict[str, str] = {
    "mb/s": "MB/s", "mb/sec": "MB/s", "mbytes/s": "MB/s", "mbytes/sec": "MB/s", "mbyte/s": "MB/s",
    "mbyte/sec": "MB/s", "megabytes/s": "MB/s",
    "gb/s": "GB/s", "gb/sec": "GB/s", "gbytes/s": "GB/s", "gbytes/sec": "GB/s",
    "kb/s": "KB/s", "kb/sec": "KB/s", "kbytes/s": "KB/s", "kbytes/sec": "KB/s", "kbps": "KBps",
    "k/sec": "K/sec", "k/s": "K/sec", "m/s": "MB/s", "m/sec": "MB/s", "g/s": "GB/s",  # `BW(M/s)`: storage's shorthand
    "kib/s": "KiB/s", "kib/sec": "KiB/s", "mib/s": "MiB/s", "mib/sec": "MiB/s",
    "gib/s": "GiB/s", "gib/sec": "GiB/s",
    "mbit/s": "Mbit/s", "mbit/sec": "Mbit/s", "mbits/s": "Mbit/s", "mbits/sec": "Mbit/s", "mbps": "Mbit/s",
    "gbit/s": "Gbit/s", "gbit/sec": "Gbit/s", "gbits/s": "Gbit/s", "gbits/sec": "Gbit/s", "gbps": "Gbit/s",
    "kbit/s": "Kbit/s", "kbits/sec": "Kbit/s", "kbits/s": "Kbit/s",
    "gbit": "Gbit/s", "gbits": "Gbit/s", "mbit": "Mbit/s", "mbits": "Mbit/s", "kbit": "Kbit/s",  # `55 Gbit`: a rate
    "10^6bits/sec": "Mbit/s", "10^6bits/s": "Mbit/s", "10^6 bits/sec": "Mbit/s", "10^3bits/sec": "Kbit/s",
    "10^6bps": "Mbit/s", "10^6 bps": "Mbit/s", "10^3bps": "Kbit/s", "10^3 bps": "Kbit/s",
    "us": "us", "usec": "us", "usecs": "us", "µs": "us", "microseconds": "us", "microsec": "us",
    "ns": "ns", "nsec": "ns", "nsecs": "ns", "nanoseconds": "ns",
    "ms": "ms", "msec": "ms", "msecs": "ms", "milliseconds": "ms",
    "s": "s", "sec": "s", "secs": "s", "seconds": "s", "second": "s",
    "iops": "IOPS", "kiops": "kIOPS", "miops": "MIOPS", "trans/s": "trans/s", "trans/sec": "trans/s", "tps": "trans/s",
    "transactions/s": "trans/s", "transactions/sec": "trans/s", "tr/s": "trans/s",
    "qps": "ops/s", "queries/s": "ops/s", "queries/sec": "ops/s",  # (sysbench's queries: the registry's ops/s)
    "ops/s": "ops/s", "ops/sec": "ops/s", "op/s": "ops/s", "events/s": "events/s",
    "events/sec": "events/s", "lps": "lps", "lpm": "lpm", "mwips": "MWIPS",
    "%": "%", "%cpu": "%CPU", "x": "x",
    "/sec": "/sec", "seeks/sec": "/sec", "seeks/s": "/sec",  # bonnie's seeks
}  # fmt: skip
_MB_CASE = re.compile(r"^[kmg]b(?:/|ps)", re.I)
_MIB_BITS = re.compile(r"^[KMG]ib/s(?:ec)?$")  # lower-case b after `i`: bits, however loosely spelled
# a count written with its scale (`570 KIOPS`, `5.01 MIOPS`): kept as printed, the scale a parameter
SCALED = {"kIOPS": ("k", "IOPS"), "MIOPS": ("M", "IOPS")}


def unit(token: str) -> str | None:
    """A unit as posters spell it (`Mib/s`, `MB/sec`, `usec`, `K/sec`) to its canonical form."""
    t = token.strip().strip("()[],;:")
    if t.endswith(".") and len(t) > 1:
        t = t[:-1]  # `1100 K IOPS.`: the sentence's full stop
    if not t or len(t) > 16:
        return None
    if t.lower().endswith("/second"):
        t = t[:-3]  # `MB/second` is `MB/sec`
    low = t.lower()
    if _MIB_BITS.match(t):
        return {"k": "Kb/s", "m": "Mb/s", "g": "Gb/s"}[low[0]]  # `Mib/s`: a poster's megabits, as `Mb/s`
    if _MB_CASE.match(t) and t[1] == "b" and low not in ("kbps",):
        # lower-case b: bits by the book (`Mb/s`), but posters write `Mb/sec` for dbench's MB/sec
        # too: kept apart here, and `resolve_unit` decides by the benchmark
        return {"k": "Kb/s", "m": "Mb/s", "g": "Gb/s"}[low[0]]
    return _UNITS.get(low)


# `Mb/s` as a poster types it: megabits for the network tools, the tool's MB/s for the byte tools
_AMBIGUOUS = {"Kb/s": ("Kbit/s", "KB/s"), "Mb/s": ("Mbit/s", "MB/s"), "Gb/s": ("Gbit/s", "GB/s")}
_BIT_TOOLS = frozenset({"netperf", "iperf"})


def resolve_unit(benchmark: str, u: str) -> str:
    """`Mb/s` is Mbit/s for netperf and iperf, which print bits; MB/s for the tools printing bytes."""
    if u in _AMBIGUOUS:
        bits, bytes_ = _AMBIGUOUS[u]
        return bits if benchmark in _BIT_TOOLS else bytes_
    return u


_IN_TEXT = re.compile(r"10\^[36]\s?(?:bits/sec|bps)\b|[A-Za-z%µ][A-Za-z%/µ]{0,12}")


_PER_SEC = re.compile(r"\btrans(?:actions?|\.)?\s*(?:rate\s+)?per\s+sec", re.I)


_PER_BEFORE = re.compile(r"(?i)\bper[ \t]++(?:\d++[ \t]*+)?$")  # `compilations per 1000 sec`


def unit_in(text: str) -> str | None:
    """The first unit spelled anywhere in a header or caption (`(MB/s)`, `usec`, `Mbit/s`)."""
    if _PER_SEC.search(text):
        return "trans/s"
    for m in _IN_TEXT.finditer(text):
        word = m.group(0)
        if m.start() > 0 and text[m.start() - 1] == "/" or _PER_BEFORE.search(text, max(0, m.start() - 24), m.start()):
            continue  # `/sec`, `per 1000 sec`: a rate of something counted, not seconds
        if len(word) == 1 and word.lower() not in ("%",):
            continue
        found = unit(word)
        if found and found not in ("x",) and not (found == "s" and word.lower() == "s"):
            return found
    return None


_unit_of = unit  # (metric_for's own argument is named `unit`)
