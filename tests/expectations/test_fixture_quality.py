"""Every golden fixture's rows pass the results suite: the metric registry (units,
plausible ranges) agrees with real output, so clean posts are never quarantined."""

from __future__ import annotations

from expectations.derive import results_frame
from expectations.gate import run_suite
from expectations.suites import results_expectations
from tests.transforms.parsers.fixtures_io import all_fixtures, fixture_body
from transforms.extract import extract_runs
from transforms.rows import result_rows


def test_fixture_rows_raise_no_error_finding():
    rows = []
    for i, path in enumerate(all_fixtures()):
        mid = f"m{i}"
        rows += result_rows(extract_runs(fixture_body(path), mid), {"message_id": mid, "fixture": path.name})
    assert len(rows) > 3000
    _, findings = run_suite("fixtures", results_expectations, results_frame(rows), ("fixture", "metric", "value", "unit"))
    errors = [f.as_dict() for f in findings if f.severity == "error"]
    assert errors == []
    # hand-made tables may name metrics the registry lacks (a warning by design); tool output may not
    tool = [r for r in rows if r["layout"] == "tool_output"]
    _, findings = run_suite("fixtures", results_expectations, results_frame(tool), ("fixture", "metric", "value", "unit"))
    assert [f.as_dict() for f in findings] == []
