"""Canonical units. Parsers map what they read onto these; validation rejects others."""

from __future__ import annotations

KNOWN_UNITS: frozenset[str] = frozenset(
    {
        # UnixBench
        "lps", "lpm", "MWIPS", "KBps", "index",
        # time
        "ns", "us", "ms", "s", "min",
        # bandwidth / throughput
        "KB/s", "MB/s", "GB/s", "K/sec", "KiB/s", "MiB/s", "GiB/s",
        "B/s", "bit/s", "Kbit/s", "Mbit/s", "Gbit/s",
        # CPU cost per unit of work (netperf service demand)
        "us/KB", "us/Tr", "ms/Tr",
        # rates and counts
        "trans/s", "/sec", "ops/s", "IOPS", "events/s", "count", "packets", "pps", "Kpps", "Mpps",
        # cpu / ratios
        "%CPU", "%", "MHz", "bytes", "KB", "MB",
        # hand-made tables: a ratio (`x1.07`), or no unit printed nor implied
        "x", "",
    }
)  # fmt: skip
