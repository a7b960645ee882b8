"""Golden fixtures: `<bench>/<case>.txt` (first line `Source: ...`) beside `<case>.expected.jsonl`.

They live under tests/fixtures/parsers/; this reader lives here so that both the benchmarks and
the tests use it (bench/ never imports tests/).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from transforms.extract import ExtractedRun, extract_runs
from transforms.handmade import HANDMADE
from transforms.rows import result_rows

FIXTURES = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "parsers"
KEYS = ("benchmark", "system", "metric", "params", "value", "unit", "quoted", "alignment", "statistic")


def fixture_body(path: Path) -> str:
    """The post text without the `Source:` provenance line."""
    text = path.read_text(encoding="utf-8")
    first, _, rest = text.partition("\n")
    assert first.startswith("Source:"), f"{path}: first line must name the source"
    return rest


def rows_of(body: str, message_id: str = "fixture") -> list[dict[str, Any]]:
    """The benchmark parsers' rows: the golden files are the parsers' contract. What the reader of
    hand-made layouts finds in the same posts (tables, prose, a command's bare output, whatever
    its layout) has no expected values in these files; it is scored on the real-posts corpus."""
    return [{k: r[k] for k in KEYS} for r in result_rows(parser_runs(extract_runs(body, message_id)))]


def hand_rows_of(body: str, message_id: str = "fixture") -> list[dict[str, Any]]:
    """The hand-made reader's rows of a post (not part of the golden contract; counted apart)."""
    return result_rows([er for er in extract_runs(body, message_id) if er.parser.name == HANDMADE.name])


def parser_runs(runs: list[ExtractedRun]) -> list[ExtractedRun]:
    """Runs a benchmark parser read (not the reader of hand-made layouts)."""
    return [er for er in runs if er.parser.name != HANDMADE.name]


def canonical(rows: list[dict[str, Any]]) -> list[str]:
    return sorted(json.dumps(r, sort_keys=True) for r in rows)


def expected_rows(path: Path) -> list[dict[str, Any]]:
    exp = path.with_suffix(".expected.jsonl")
    return [json.loads(line) for line in exp.read_text().splitlines() if line.strip()]


def all_fixtures() -> list[Path]:
    return sorted(FIXTURES.glob("*/*.txt"))
