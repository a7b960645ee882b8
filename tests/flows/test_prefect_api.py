"""The temporary API's settings for a flow run (flows/prefect_api.py)."""

from __future__ import annotations

from prefect.settings import get_current_settings

from flows import prefect_api


def test_a_run_on_the_temporary_api_sends_no_heartbeats_and_a_configured_api_keeps_them(monkeypatch):
    default = get_current_settings().flows.heartbeat_frequency
    assert default is not None  # Prefect's own default: a heartbeat thread per flow run
    monkeypatch.delitem(prefect_api._SERVER, "url", raising=False)
    with prefect_api.run_settings():  # an API the user configured: its server may outlive the run
        assert get_current_settings().flows.heartbeat_frequency == default
    monkeypatch.setitem(prefect_api._SERVER, "url", "http://127.0.0.1:1/api")  # this process's own API
    with prefect_api.run_settings():
        assert get_current_settings().flows.heartbeat_frequency is None
    assert get_current_settings().flows.heartbeat_frequency == default
