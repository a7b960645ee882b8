"""iperf: iperf 2 / iperf 3 text reports (`text`) and `iperf3 -J` JSON (`json`), one parser."""

from __future__ import annotations

import re

from transforms.model import Parser, Run, Segment
from transforms.parsers._common import number_repeated_results

from . import json, text

NAME = text.NAME
METRICS = {**text.METRICS, **json.JSON_METRICS}

# a JSON key may sit anywhere on its line (one-line documents, any key order)
SIGNATURE = re.compile(
    rf"{text.SIGNATURE.pattern}|\"(?:test_start|sum_sent|cpu_utilization_percent)\"\s*:",
    re.M,
)
KEYWORDS = (*text.KEYWORDS, '"test_start"', '"sum_sent"', '"cpu_utilization_percent"')


def parse(seg: Segment) -> list[Run]:
    """Text and JSON iperf reports of the segment, in order."""
    runs = [*json.parse(seg), *text.parse(seg)]
    runs.sort(key=lambda r: r.line_start)
    for run in runs:  # each format numbered its own repeats: count over both
        for r in run.results:
            r.params.pop("repeat", None)
    number_repeated_results(runs)
    return runs


PARSER = Parser(
    name=NAME, version="2", signature=SIGNATURE, parse=parse, metrics=METRICS, keywords=KEYWORDS
)
