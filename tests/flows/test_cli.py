"""The CLI as a user meets it: extract on the seeds, clear one-line errors, no tracebacks."""

from __future__ import annotations

import json

import pytest

from tests.conftest import (
    ROOT,
    SEED_FIXTURES,
    SEEDS_MBOX,
    mbox_source,
    run_cli,
    seed_text,
    write_config,
)


def _json(args):
    r = run_cli(*args)
    assert r.returncode == 0, r.stderr.decode()
    return json.loads(r.stdout)


def test_extract_seed_files_as_they_are(tmp_path):
    benches = {}
    for num in SEED_FIXTURES:
        p = tmp_path / f"{num}.txt"
        p.write_text(seed_text(num), encoding="utf-8")
        rows = _json(["extract", str(p), "--format", "json"])
        assert rows, p.name
        benches[num] = {r["benchmark"] for r in rows}
        for r in rows:
            assert set(r) >= {"benchmark", "tool_version", "system", "metric", "metric_label", "params",
                              "value", "unit", "higher_is_better", "quoted", "alignment", "message_id"}
            assert isinstance(r["params"], dict)
    assert benches == {"000": {"unixbench"}, "001": {"lmbench"}, "002": {"netperf"}, "003": {"lmbench"},
                       "004": {"bonnie"}}


def test_extract_mbox_from_stdin_and_csv():
    r = run_cli("extract", "-", "--format", "csv", input=SEEDS_MBOX.read_bytes())
    assert r.returncode == 0, r.stderr.decode()
    lines = r.stdout.decode().splitlines()
    assert lines[0].startswith("message_id,subject,posted_at,run_id,benchmark")
    assert len(lines) > 500


def test_extract_mbox_json_carries_message_identity():
    rows = _json(["extract", str(SEEDS_MBOX), "--format", "json"])
    subjects = {r["subject"] for r in rows}
    assert "[Xen-users] Re: HVM Linux DomU with PV Drivers - Performance" in subjects
    assert all(r["posted_at"] for r in rows)


@pytest.mark.parametrize(
    "args, message",
    [
        (["extract", "/no/such/post.txt"], "no such file: /no/such/post.txt"),
        (["extract", "x", "--format", "xml"], "unknown format 'xml'"),
        (["sql", "select 1", "--config", "/no/such.toml"], "config file not found: /no/such.toml"),
    ],
)
def test_user_errors_are_one_clear_line(args, message):
    r = run_cli(*args)
    err = r.stderr.decode()
    assert r.returncode == 1
    assert message in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_bad_config_and_unknown_kind(tmp_path):
    cfg = write_config(tmp_path, mbox_source("s", "x.mbox", kind="carrier-pigeon"))
    r = run_cli("ingest", "--config", str(cfg))
    assert r.returncode == 1
    assert "unknown kind 'carrier-pigeon'" in r.stderr.decode()
    bad = tmp_path / "bad.toml"
    bad.write_text("data_dir = [unclosed")
    r = run_cli("sql", "select 1", "--config", str(bad))
    assert r.returncode == 1 and "not valid TOML" in r.stderr.decode()
    assert "Traceback" not in r.stderr.decode()


def test_an_ingest_ends_its_process_with_its_exit_code_and_all_its_output(tmp_path, prefect_api):
    """The process ends without tearing its heap down: the summary, the failed unit's line and
    the exit code (2: a unit failed) must all still come out, and the good unit's rows be kept."""
    import shutil

    shutil.copy(SEEDS_MBOX, tmp_path / "seeds.mbox")
    (tmp_path / "page.mbox").write_text("<html>not an archive</html>\n", encoding="utf-8")
    cfg = write_config(tmp_path, mbox_source("good", "seeds.mbox") + "\n" + mbox_source("bad", "page.mbox"))
    from prefect.settings import PREFECT_API_URL

    r = run_cli("ingest", "--config", str(cfg), cwd=tmp_path, env={"PREFECT_API_URL": PREFECT_API_URL.value()})
    err = r.stderr.decode()
    assert r.returncode == 2, err[-2000:]
    assert "1 unit(s) failed" in err and "Traceback" not in err
    assert "messages: 5" in r.stdout.decode()
    rows = _json(["sql", "SELECT count(*) AS n FROM benchmark_results", "--config", str(cfg), "--format", "json"])
    assert rows[0]["n"] > 500


def test_sql_without_warehouse_and_bad_sql(tmp_path):
    cfg = write_config(tmp_path, mbox_source("s", SEEDS_MBOX))
    r = run_cli("sql", "select 1", "--config", str(cfg))
    assert r.returncode == 1 and "run `listbench ingest` first" in r.stderr.decode()


def test_help_is_fast_and_does_not_import_prefect():
    import subprocess
    import sys

    code = ("import sys, flows.cli\nfrom typer.testing import CliRunner\n"
            "CliRunner().invoke(flows.cli.app, ['--help'])\n"
            "print(any(m.split('.')[0] in ('prefect', 'great_expectations', 'duckdb') for m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == "False", out.stderr


def test_extract_shows_the_summary_and_the_series_on_request():
    # PerfKit's sysbench 0.5 sample (source URL on the fixture's first line): 48 `[ Ns ]` interval reports
    post = ROOT / "tests" / "fixtures" / "parsers" / "sysbench" / "v05_oltp_pkb.txt"
    summary = _json(["extract", str(post), "--format", "json"])
    both = _json(["extract", str(post), "--format", "json", "--intervals"])
    assert summary and all(r["statistic"] != "interval" for r in summary)
    series = [r for r in both if r["statistic"] == "interval"]
    assert len(series) == 48 and len(both) == len(summary) + 48
    r = run_cli("extract", str(post))
    assert "48 interval rows not shown (--intervals prints them)" in r.stderr.decode()


def test_ingest_takes_a_number_of_workers_and_refuses_fewer_than_one():
    r = run_cli("ingest", "--workers", "2", "--config", "/no/such.toml")  # taken: the config is what fails
    assert r.returncode == 1 and "config file not found" in r.stderr.decode()
    r = run_cli("ingest", "--workers", "0", "--config", "/no/such.toml")
    err = r.stderr.decode()
    assert r.returncode == 2 and "--workers" in err and "Traceback" not in err
