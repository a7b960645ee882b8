"""The benchmarks under bench/ run end to end at tiny sizes (`python -m bench.<name>`).

All of them start at once (separate processes: the GX context and the DuckDB files stay
out of this test session) and each test checks one report.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from tests.conftest import ROOT

RUNS = {
    "extraction": ["--corpus", "300", "--repeat", "1"],
    "validate": ["--rows", "2000"],
    "queries": ["--rows", "2000", "--repeat", "2"],
    "flowrun": ["--runs", "3", "--work", "0.3"],
}


@pytest.fixture(scope="module")
def reports():
    env = {**os.environ, "GX_ANALYTICS_ENABLED": "False", "PREFECT_SERVER_ANALYTICS_ENABLED": "false"}
    procs = {name: subprocess.Popen([sys.executable, "-m", f"bench.{name}", *args], cwd=ROOT, env=env,
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for name, args in RUNS.items()}
    out = {}
    for name, p in procs.items():
        try:
            stdout, stderr = p.communicate(timeout=240)
        except subprocess.TimeoutExpired:
            p.kill()
            stdout, stderr = p.communicate()
        out[name] = (p.returncode, stdout, stderr)
    return out


def _ok(reports, name):
    code, stdout, stderr = reports[name]
    assert code == 0, f"bench.{name} exited {code}: {stderr[-2000:]}"
    assert f"command: .venv/bin/python -m bench.{name} {' '.join(RUNS[name])}" in stdout
    return stdout


def test_extraction_report(reports):
    out = _ok(reports, "extraction")
    assert "-- 1. golden fixtures" in out
    assert re.search(r"fixture corpus: \d+ fixtures", out)
    # the golden files are the contract
    assert "golden recall 1.000  precision 1.000  wrong numbers 0" in out
    total = next(line for line in out.splitlines() if line.strip().startswith("TOTAL"))
    assert total.split()[4] == "1.000" and total.split()[7] == "1.000"
    assert "-- 2. robustness" in out
    for t in ("quote", "crlf", "wrap", "collapse"):
        assert f"transform {t}" in out
    assert "HEADLINE -- rows with WRONG NUMBERS vs rows missing" in out
    headline = out.split("HEADLINE", 1)[1]
    assert re.search(r"^\s+crlf\s+\d+\s+\d+", headline, re.M), "wrong-number count per transform"
    assert "-- 3. synthetic corpus: gen_corpus -n 300" in out
    assert "recall per benchmark kind" in out and "false positives:" in out
    assert "ratio extraction/baseline" in out and "ratio extract/decode" in out


def test_validate_report(reports):
    out = _ok(reports, "validate")
    assert "rows: 2,000 results" in out
    assert "GX first call" in out and "import great_expectations" in out
    assert re.search(r"RATIO validate / write\s+\d+\.\d\dx", out)
    assert "GX checkpoint.run" in out and "derive.results_frame" in out
    assert re.search(r"RATIO gate\(all suites\) / \(to_table \+ Lake.commit\)\s+\d+\.\d\dx", out)


def test_queries_report(reports):
    out = _ok(reports, "queries")
    assert "lake size on disk" in out and re.search(r"^\s+results\s+\d+", out, re.M)
    assert "SELECT count(*) FROM benchmark_results" in out and "read_parquet scan of results" in out
    table = out.split("x scan", 1)[1]
    for n in range(1, 15):
        assert re.search(rf"^\s+{n}\s+\S", table, re.M), f"query {n} missing from the report"
    assert "ERROR" not in table
    assert re.search(r"CLI end to end: .*\n\s+exit 0, answer '\d+'", out)


def test_flowrun_report(reports):
    out = _ok(reports, "flowrun")
    med = {k: float(v) for k, v in re.findall(r"^\s+(Prefect's default|listbench) \(.*?median (\d+\.\d+) s", out, re.M)}
    assert set(med) == {"Prefect's default", "listbench"}
    assert med["listbench"] >= 0.3 and med["Prefect's default"] >= 0.3  # the flow's own work is in both
    # the heartbeat thread sleeps in one-second steps and is joined as the flow ends
    assert med["listbench"] < med["Prefect's default"]
    assert re.search(r"ratio listbench / default: \d+\.\d\dx time", out)
