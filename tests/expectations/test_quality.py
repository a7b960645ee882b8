"""The data-quality gate: planted faults end in quarantine under the right expectation,
one alert per run reaches a webhook (and SMTP), a clean sample alerts nobody."""

from __future__ import annotations

import shutil

import pytest

from expectations import alerts
from flows.archives.base import Fetched, Unit
from flows.config import load_config
from flows.steps import UnitStats, UnitWork, load_units
from tests.conftest import SEEDS_MBOX, lake_row, mbox_source, write_config
from tests.receivers import SmtpReceiver, WebhookReceiver
from transforms.records import Records
from warehouse.lake import Lake


def _row(**kw):
    base = {"run_id": "r1", "message_id": "m1", "benchmark": "unixbench", "system": "KVM", "statistic": "value",
            "params": {"copies": "1"}, "alignment": "exact", "quoted": False, "batch_id": "b1",
            "metric_label": kw.get("metric", "x"), "higher_is_better": True}
    return lake_row("results", **{**base, **kw})


def planted() -> Records:
    rec = Records()
    rec.messages.append(lake_row("messages", message_id="m1", list_name="sample", batch_id="b1"))
    rec.runs.append(lake_row("runs", run_id="r1", message_id="m1", benchmark="unixbench", parser_version="1",
                             status="ok", n_results=6, snippet="Pipe Throughput ...", batch_id="b1"))
    rec.results += [
        _row(metric="pipe_throughput", value=803044.2, unit="lps"),
        # index inconsistent with result/baseline*10 (should be 645.5)
        _row(metric="pipe_throughput_index", value=745.5, unit="index", statistic="index",
             params={"copies": "1", "baseline": "12440.0"}),
        _row(metric="syscall_overhead", value=709335.4, unit="furlongs"),  # unit that does not exist
        _row(benchmark="lmbench", metric="lat_pipe", value=-5.0, unit="us", system="host Linux 2.6"),  # negative
        _row(benchmark="lmbench", metric="null_call", value=1137.0, unit="us", system="host Linux 2.6"),  # shifted
        _row(benchmark="lmbench", metric="fork_proc", value=213.0, unit="us", system="host Linux 2.6"),  # fine
    ]
    return rec


@pytest.fixture
def lake(tmp_path):
    return Lake(tmp_path / "lake").open()


def test_planted_faults_are_quarantined_row_by_row(lake):
    rec = planted()
    work = UnitWork(Fetched(Unit("sample", "u", "x"), "ok"), UnitStats("sample", "u", "ok"), rec, "b1")
    findings = load_units([work], lake, ["sample"], "run1")
    q = lake.read("quarantine").to_pylist()
    by_metric = {}
    for r in q:
        by_metric.setdefault(r["metric"], set()).add(r["expectation"])
    assert by_metric["pipe_throughput_index"] == {"unixbench index = result / baseline x 10"}
    assert "unit known" in by_metric["syscall_overhead"]
    assert "value non-negative" in by_metric["lat_pipe"]
    assert by_metric["null_call"] == {"value plausible for metric"}
    assert "fork_proc" not in by_metric
    loaded = lake.read("results").to_pylist()
    assert sorted((r["metric"], r["value"]) for r in loaded) == [("fork_proc", 213.0), ("pipe_throughput", 803044.2)]
    assert all(r["run_id"] == "r1" and r["message_id"] == "m1" and r["snippet"] for r in q)
    assert {f["expectation"] for f in findings} >= {"unit known", "value non-negative", "value plausible for metric",
                                                    "unixbench index = result / baseline x 10"}


def test_one_alert_per_run_to_webhook_and_smtp(tmp_path, monkeypatch):
    hook, smtp = WebhookReceiver(), SmtpReceiver()
    try:
        extra = (f'[alerts]\nwebhook_url = "{hook.url}"\n'
                 f'[alerts.smtp]\nhost = "127.0.0.1"\nport = {smtp.port}\nto = ["dq@example.org"]\n')
        cfg = load_config(write_config(tmp_path, mbox_source("sample", SEEDS_MBOX), extra))
        findings = [{"expectation": "unit known", "severity": "error", "table": "results", "count": 1,
                     "examples": [{"unit": "furlongs"}]}]
        sent = alerts.send_alert(cfg, alerts.build_alert("run1", ["sample"], findings, "data/docs/index.html"))
        assert sent == ["webhook", "smtp"]
        assert len(hook.posts) == 1
        body = hook.posts[0]
        assert body["run"] == "run1" and body["source"] == "sample"
        assert body["failures"][0]["expectation"] == "unit known"
        assert body["query"].startswith("listbench sql") and body["docs"] == "data/docs/index.html"
        assert len(smtp.messages) == 1 and b"unit known" in smtp.messages[0]
    finally:
        hook.close()
        smtp.close()


def test_failing_channel_does_not_leak_the_secret(tmp_path, monkeypatch, caplog):
    monkeypatch.setenv("LISTBENCH_WEBHOOK_URL", "http://127.0.0.1:9/secret-token-123")
    cfg = load_config(write_config(tmp_path, mbox_source("sample", SEEDS_MBOX)))
    assert alerts.send_alert(cfg, alerts.build_alert("r", ["s"], [], None), timeout=1) == []
    assert "secret-token-123" not in caplog.text


def test_quarantine_share_rule():
    assert alerts.quarantine_share_finding(100, 1, 0.05) is None
    f = alerts.quarantine_share_finding(90, 10, 0.05)
    assert f["count"] == 10 and f["examples"][0]["share"] == 0.1


@pytest.fixture(scope="module")
def flow_env(tmp_path_factory, prefect_api):
    tmp = tmp_path_factory.mktemp("quality")
    hook = WebhookReceiver()
    yield tmp, hook
    hook.close()


def test_clean_sample_sends_no_alert_and_planted_post_sends_one(flow_env):
    from flows.ingest import run_ingest

    tmp, hook = flow_env
    shutil.copy(SEEDS_MBOX, tmp / "seeds.mbox")
    cfg = load_config(write_config(tmp, mbox_source("sample", "seeds.mbox"), f'[alerts]\nwebhook_url = "{hook.url}"\n'))
    out = run_ingest(cfg)
    assert out["findings"] == [] and hook.posts == []
    # a post whose UnixBench index disagrees with its own result/baseline
    bad = (SEEDS_MBOX.read_text().split("From listbench-sample ")[1])
    bad = bad.replace("Pipe Throughput 12440.0 803044.2 645.5", "Pipe Throughput 12440.0 803044.2 745.5")
    bad = bad.replace("Subject: Re: Luvalley-2", "Message-ID: <planted@listbench.test>\nSubject: Re: Luvalley-2")
    (tmp / "planted.mbox").write_text("From listbench-sample " + bad)
    cfg2 = load_config(write_config(tmp, mbox_source("sample", "seeds.mbox") + mbox_source("planted", "planted.mbox"),
                                    f'[alerts]\nwebhook_url = "{hook.url}"\n'))
    out = run_ingest(cfg2, ["planted"])
    assert len(hook.posts) == 1
    names = {f["expectation"] for f in hook.posts[0]["failures"]}
    assert "unixbench index = result / baseline x 10" in names
    assert out["alerted"] == ["webhook"]


def test_one_broken_channel_costs_no_other(tmp_path, monkeypatch, caplog):
    slack, smtp = WebhookReceiver(), SmtpReceiver()
    try:
        monkeypatch.setenv("LISTBENCH_WEBHOOK_URL", "http://127.0.0.1:9/secret-token-456\r")  # a pasted CR
        extra = (f'[alerts]\nslack_webhook_url = "{slack.url}"\n'
                 f'[alerts.smtp]\nhost = "127.0.0.1"\nport = {smtp.port}\nto = ["dq@example.org"]\n')
        cfg = load_config(write_config(tmp_path, mbox_source("sample", SEEDS_MBOX), extra))
        findings = [{"expectation": "unit known", "severity": "error", "table": "results", "count": 1,
                     "examples": []}]
        got = alerts.deliver(cfg, alerts.build_alert("run1", ["sample"], findings, None), timeout=2)
        assert got.sent == ["slack", "smtp"]
        assert got.failed == {"webhook": "InvalidURL"}
        assert alerts.send_alert(cfg, alerts.build_alert("run2", ["sample"], findings, None), timeout=2) == ["slack", "smtp"]
        assert len(slack.posts) == 2 and len(smtp.messages) == 2
        assert "alert channel webhook failed: InvalidURL" in caplog.text
        assert "secret-token-456" not in caplog.text
    finally:
        slack.close()
        smtp.close()


def test_a_run_with_a_broken_channel_records_it_and_ends(tmp_path):
    from tests.conftest import plain_ingest

    hook = WebhookReceiver()
    try:
        bad = SEEDS_MBOX.read_text().split("From listbench-sample ")[1]
        bad = bad.replace("Pipe Throughput 12440.0 803044.2 645.5", "Pipe Throughput 12440.0 803044.2 745.5")
        (tmp_path / "planted.mbox").write_text("From listbench-sample " + bad)
        extra = (f'[alerts]\nwebhook_url = "http://127.0.0.1:9/hook\\r"\nslack_webhook_url = "{hook.url}"\n'
                 '[alerts.smtp]\nhost = "127.0.0.1"\nport = 9\nto = ["dq@example.org\\r\\nBcc: x@example.org"]\n')
        out = plain_ingest(write_config(tmp_path, mbox_source("planted", "planted.mbox"), extra))
        assert out["failed"] == 0 and out["findings"]
        assert out["alerted"] == ["slack"] and len(hook.posts) == 1
        assert set(out["alert_failures"]) == {"webhook", "smtp"}
    finally:
        hook.close()
