"""iperf3 `-J` JSON reports, one run per document (iperf 3.0 to 3.1x).

Rows, named as the text parser names the same quantity so that `iperf3` and `iperf3 -J`
of one test give the same rows:

* `throughput` (Mbit/s, from `bits_per_second`) per stream of `end.streams` and side
  (`sender` / `receiver`); iperf 3.0/3.1 UDP reports one untagged `udp` entry per stream
  (no side, as its text prints one untagged summary row). `[SUM]` rows (`sum_sent`,
  `sum_received`, or `sum` for old UDP) only with more than one stream, as the text report
  prints them; with one stream they repeat that stream's numbers.
* UDP, receiver side or untagged: `jitter` (ms, `jitter_ms`), `datagram_loss` (%,
  `lost_percent`); JSON-only `datagrams_lost` and `datagrams_total` (`lost_packets`,
  `packets`).
* `retransmits` (TCP sender, count; the text's `Retr`), JSON-only `cpu_host` / `cpu_remote`
  (%, `cpu_utilization_percent.host_total` / `remote_total`, one each per test).
* `intervals`, as the text prints them: `throughput` per stream (and `[SUM]` with more than
  one stream) with statistic `interval` and params `interval_start` / `interval_end` (seconds,
  two decimals as iperf3 prints them); `--omit` warm-up intervals are skipped, as they are
  not part of the summary either.

`start.test_start` gives params.protocol (`tcp`|`udp`), params.streams (`num_streams`) and,
only for `-R`, params.reverse = `1` (the server sent); `blksize` and `duration` become run
attributes, as `intervals` (their count) does. An idle sender entry (0 bits/s beside a
receiver entry that moved data, as `iperf3 -s -J` prints) is skipped, as in text. A report
without `end` (the test was cut short) or that does not decode is `unparsed`.
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

NAME = "iperf"

JSON_METRICS: dict[str, MetricSpec] = {
    "datagrams_lost": MetricSpec("count", False, 0.0, 1e13),
    "datagrams_total": MetricSpec("count", True, 0.0, 1e13),
    "retransmits": MetricSpec("count", False, 0.0, 1e13),
    "cpu_host": MetricSpec("%", False, 0.0, 1e4),
    "cpu_remote": MetricSpec("%", False, 0.0, 1e4),
}

_MBIT = Decimal("0.000001")


def _is_iperf3(doc: dict[str, Any]) -> bool:
    return isinstance(doc.get("start"), dict) and ("end" in doc or "intervals" in doc)


def _looks_iperf3(text: str) -> bool:
    return '"test_start"' in text or '"sum_sent"' in text or '"connecting_to"' in text


class _Doc(DocumentResults):
    def __init__(self, doc: Document) -> None:
        super().__init__(doc)
        self.value = doc.value

    def entry(self, label: str, e: dict[str, Any], params: dict[str, str], udp: bool) -> None:
        """One summary entry: a stream's sender/receiver/udp part or a sum."""
        self.add(
            "throughput",
            f"{label}.bits_per_second",
            e.get("bits_per_second"),
            "Mbit/s",
            params,
            _MBIT,
        )
        side = params.get("side")
        if udp and side != "sender" and "jitter_ms" in e:
            self.add("jitter", f"{label}.jitter_ms", e.get("jitter_ms"), "ms", params)
            self.add("datagram_loss", f"{label}.lost_percent", e.get("lost_percent"), "%", params)
            self.add(
                "datagrams_lost", f"{label}.lost_packets", e.get("lost_packets"), "count", params
            )
            self.add("datagrams_total", f"{label}.packets", e.get("packets"), "count", params)
        if not udp and side == "sender" and "retransmits" in e:
            self.add("retransmits", f"{label}.retransmits", e.get("retransmits"), "count", params)


def _idle(sender: dict[str, Any], receiver: dict[str, Any]) -> bool:
    """`iperf3 -s -J`: the server's sender entry moved nothing beside a receiver that did."""
    return not number(sender.get("bits_per_second")) and bool(
        number(receiver.get("bits_per_second"))
    )


def _read(d: _Doc, base: dict[str, str], udp: bool) -> None:
    end = obj(d.value, "end")
    streams = [s for s in seq(end, "streams") if isinstance(s, dict)]
    count = base["streams"]
    for k, s in enumerate(streams):
        sid = text_of(
            obj(s, "sender").get("socket")
            or obj(s, "receiver").get("socket")
            or obj(s, "udp").get("socket")
        )
        params = {**base, "stream": sid or str(k + 1)}
        label = f"end.streams[{k}]"
        sender, receiver = obj(s, "sender"), obj(s, "receiver")
        if sender and not (receiver and _idle(sender, receiver)):
            d.entry(f"{label}.sender", sender, {**params, "side": "sender"}, udp)
        elif sender:
            d.notes.append(f"{label}: idle sender entry (0 bits/s) beside a receiver entry skipped")
        if receiver:
            d.entry(f"{label}.receiver", receiver, {**params, "side": "receiver"}, udp)
        if obj(s, "udp"):
            d.entry(f"{label}.udp", obj(s, "udp"), params, udp)
    if int(count) > 1 or not streams:
        params = {**base, "stream": "SUM"}
        sent, received = obj(end, "sum_sent"), obj(end, "sum_received")
        if sent and not (received and _idle(sent, received)):
            d.entry("end.sum_sent", sent, {**params, "side": "sender"}, udp)
        if received:
            d.entry("end.sum_received", received, {**params, "side": "receiver"}, udp)
        if not sent and not received and obj(end, "sum"):
            d.entry("end.sum", obj(end, "sum"), params, udp)
    cpu = obj(end, "cpu_utilization_percent")
    if cpu:
        d.add("cpu_host", "cpu_utilization_percent.host_total", cpu.get("host_total"), "%", base)
        d.add(
            "cpu_remote", "cpu_utilization_percent.remote_total", cpu.get("remote_total"), "%", base
        )


def _read_intervals(d: _Doc, base: dict[str, str], value: dict[str, Any]) -> None:
    """The interval series: each interval's streams (and sum), statistic `interval`."""
    many = int(base["streams"]) > 1
    first = len(d.results)
    for k, iv in enumerate(seq(value, "intervals")):
        if not isinstance(iv, dict):
            continue
        entries = [(f"intervals[{k}].streams[{j}]", e) for j, e in enumerate(seq(iv, "streams"))]
        if many:
            entries.append((f"intervals[{k}].sum", obj(iv, "sum")))
        for label, e in entries:
            if not isinstance(e, dict) or not e or e.get("omitted") is True:
                continue
            start, end = number(e.get("start")), number(e.get("end"))
            if start is None or end is None:
                continue
            stream = "SUM" if label.endswith(".sum") else (text_of(e.get("socket")) or "")
            params = {**base, "stream": stream, "interval_start": f"{float(start):.2f}",
                      "interval_end": f"{float(end):.2f}"}
            d.add("throughput", f"{label}.bits_per_second", e.get("bits_per_second"), "Mbit/s",
                  params, _MBIT)
    for r in d.results[first:]:
        r.statistic = "interval"


def _run(seg: Segment, found: Document) -> Run:
    d = _Doc(found)
    start = obj(found.value, "start")
    test = obj(start, "test_start")
    protocol = (text_of(test.get("protocol")) or "tcp").lower()
    udp = protocol == "udp"
    base = {"protocol": protocol, "streams": text_of(test.get("num_streams")) or "1"}
    if text_of(test.get("reverse")) == "1":
        base["reverse"] = "1"
    if not base["streams"].isdigit():
        base["streams"] = "1"
    caption = nearest_caption(seg, found.start)
    version = text_of(start.get("version")) or ""
    run = Run(
        benchmark=NAME,
        results=[],
        tool_version=version.removeprefix("iperf").strip() or None,
        system=system_label(caption),
        caption=caption,
        line_start=found.start,
        line_end=found.end,
        notes=d.notes,
    )
    run.attributes.update({"variant": "iperf3", "format": "json"})
    note_rejoined(run, found)
    for key in ("blksize", "duration"):
        value = text_of(test.get(key))
        if value is not None:
            run.attributes[key] = value[:40]
    run.attributes["intervals"] = str(len(seq(found.value, "intervals")))
    error = text_of(found.value.get("error"))
    if not obj(found.value, "end"):
        run.status = "unparsed"
        run.reason = f"iperf3 JSON without an end summary{': ' + error[:80] if error else ''}"
        return run
    _read(d, base, udp)
    if not d.results:
        run.status, run.reason = "unparsed", "iperf3 JSON end summary without a stream to read"
        return run
    _read_intervals(d, base, found.value)
    run.results = d.results
    return run


def parse(seg: Segment) -> list[Run]:
    """Every iperf3 JSON document in the segment, one run each."""
    return document_runs(seg.lines, NAME, _is_iperf3, _looks_iperf3, lambda found: _run(seg, found))
