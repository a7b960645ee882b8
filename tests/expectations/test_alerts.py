"""Alert targets, one URL each, against real receivers on 127.0.0.1 (HTTP and SMTP)."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs

import pytest

from expectations import alerts
from tests.receivers import SmtpReceiver, WebhookReceiver

FINDINGS = [{"expectation": "unit known", "severity": "error", "table": "results", "count": 2,
             "examples": [{"unit": "furlongs"}]}]
SECRET = "s3cret-Token-42"


@dataclass
class Settings:
    alerts: dict[str, Any] = field(default_factory=dict)
    quality: dict[str, Any] = field(default_factory=dict)
    sources: list[Any] = field(default_factory=list)


@pytest.fixture
def hook():
    h = WebhookReceiver()
    yield h
    h.close()


def _alert() -> dict[str, Any]:
    return alerts.build_alert("run1", ["kvm"], FINDINGS, "data/docs/index.html")


def test_json_target_gets_the_design_body(hook):
    url = hook.url.replace("http://", "json://")
    got = alerts.deliver(Settings({"urls": [url]}), _alert(), timeout=2)
    assert got.sent == ["json"] and got.failed == {}
    (body,) = hook.posts
    assert set(body) == {"run", "source", "summary", "failures", "query", "docs"}
    assert body["failures"] == FINDINGS and body["run"] == "run1" and body["source"] == "kvm"
    assert body["summary"] == "2 error and 0 warning finding(s): unit known"


def test_apprise_target_from_the_environment_keeps_its_secret(hook, monkeypatch, caplog):
    caplog.set_level(logging.DEBUG)
    port = hook.url.split(":")[2].split("/")[0]
    monkeypatch.setenv("LISTBENCH_ALERT_URLS", f"form://ops:{SECRET}@127.0.0.1:{port}/hook "
                                               f"form://ops:{SECRET}@127.0.0.1:9/hook")
    got = alerts.deliver(Settings(), _alert(), timeout=2)
    assert got.sent == ["form"] and got.failed == {"form-2": "NotDelivered"}
    ((ctype, raw),) = hook.bodies
    form = parse_qs(raw.decode())
    assert ctype.startswith("application/x-www-form-urlencoded")
    assert form["title"] == ["[listbench] data quality: 2 error and 0 warning finding(s): unit known"]
    assert "- error: unit known (results): 2" in form["message"][0]
    assert SECRET not in caplog.text and "alert channel form-2 failed: NotDelivered" in caplog.text


def test_mailto_url_and_smtp_table_reach_the_mail_server(monkeypatch, caplog):
    caplog.set_level(logging.DEBUG)
    smtp = SmtpReceiver()
    try:
        monkeypatch.setenv("LISTBENCH_SMTP_PASSWORD", SECRET)
        url = f"mailto://127.0.0.1:{smtp.port}?from=lb@example.org&to=dq@example.org&mode=insecure"
        table = {"host": "127.0.0.1", "port": smtp.port, "to": ["ops@example.org"], "from": "lb@example.org"}
        got = alerts.deliver(Settings({"urls": [url], "smtp": table}), _alert(), timeout=2)
        assert sorted(got.sent) == ["mailto", "smtp"] and got.failed == {}
        assert len(smtp.messages) == 2
        assert all(b"Subject: [listbench] data quality: 2 error" in m for m in smtp.messages)
        assert any(b"To: ops@example.org" in m for m in smtp.messages)
        assert SECRET not in caplog.text
    finally:
        smtp.close()


def test_a_bad_address_or_unknown_scheme_fails_alone(hook):
    table = {"host": "127.0.0.1", "port": 9, "to": ["dq@example.org\r\nBcc: x@example.org"]}
    got = alerts.deliver(Settings({"smtp": table, "urls": ["nosuch://x", hook.url.replace("http", "json", 1)]}),
                         _alert(), timeout=2)
    assert got.sent == ["json"]
    assert got.failed == {"smtp": "ValueError", "nosuch": "NotDelivered"}


def test_targets_name_schemes_not_urls(monkeypatch):
    monkeypatch.setenv("LISTBENCH_WEBHOOK_URL", f"https://hooks.example.org/{SECRET}")
    found = alerts.targets(Settings({"urls": "slack://T/B/C"}))
    assert [(t.name, t.how) for t in found] == [("webhook", "json"), ("slack", "apprise")]
    assert SECRET not in repr(found)
