"""fio: normal and terse output (`text`), `--output-format=json`/`json+` (`json`) and the peak-IOPS
tool `t/io_uring` (`io_uring`), one parser.

A segment may hold both: `--output-format=json,normal` prints the JSON document and then the
same run as text. The text run that follows a JSON document directly and names the same jobs
is that run a second time, rounded; it is dropped (noted on the JSON run), so one measurement
gives one row.
"""

from __future__ import annotations

import re

from transforms.model import Parser, Run, Segment
from transforms.parsers._common import number_repeated_results

from . import io_uring, json, text

NAME = text.NAME
METRICS = {**text.METRICS, **json.JSON_METRICS}

# a JSON key may sit anywhere on its line (one-line documents, any key order)
SIGNATURE = re.compile(rf"{text.SIGNATURE.pattern}|\"fio version\"\s*:|{io_uring.SIGNATURE.pattern}", re.M)
KEYWORDS = (*text.KEYWORDS, '"fio version"')

_ECHO_GAP = 3  # lines between the end of a JSON document and the text run that repeats it


def _jobs(run: Run) -> set[str]:
    return {r.params["job"] for r in run.results if "job" in r.params}


def _echoes(text_run: Run, json_runs: list[Run]) -> Run | None:
    """The JSON run `text_run` repeats (`json,normal` output), if any."""
    names = _jobs(text_run)
    for jr in json_runs:
        near = jr.line_end <= text_run.line_start <= jr.line_end + _ECHO_GAP
        if near and names and names <= _jobs(jr):
            return jr
    return None


def _renumber(runs: list[Run]) -> None:
    """Repeats are counted over both formats: each format numbered its own, so start again."""
    for run in runs:
        for r in run.results:
            r.params.pop("repeat", None)
    number_repeated_results(runs)


def parse(seg: Segment) -> list[Run]:
    """Text and JSON fio reports of the segment, in order, each measurement once."""
    json_runs = json.parse(seg)
    runs = list(json_runs)
    for run in text.parse(seg):
        twin = _echoes(run, json_runs) if run.status == "ok" else None
        if twin is not None:
            twin.notes.append(
                f"lines {run.line_start}-{run.line_end}: the same run as text, not read twice"
            )
            continue
        runs.append(run)
    runs += io_uring.parse(seg)
    runs.sort(key=lambda r: r.line_start)
    _renumber(runs)
    return runs


PARSER = Parser(
    name=NAME, version="2", signature=SIGNATURE, parse=parse, metrics=METRICS, keywords=KEYWORDS
)
