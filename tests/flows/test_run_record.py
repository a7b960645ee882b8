"""Recording a run over Prefect's REST API: credentials as Prefect sends them, one-line errors."""

from __future__ import annotations

import json
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from flows.run_record import RecordError, flow_id


class FakeFlowsApi:
    """Answers POST /api/flows/ with an id when the Authorization header is `want`, else 401."""

    def __init__(self, want: str | None) -> None:
        self.seen: list[tuple[str, str | None, dict]] = []
        api = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *a) -> None:
                pass

            def do_POST(self) -> None:  # noqa: N802
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))) or b"null")
                auth = self.headers.get("Authorization")
                api.seen.append((self.path, auth, body))
                ok = auth == want and self.path == "/api/flows/"
                out = json.dumps({"id": "f-1", "name": body["name"]}).encode() if ok else b"{}"
                self.send_response(200 if ok else 401)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(out)))
                self.end_headers()
                self.wfile.write(out)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/api"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def no_prefect_auth(monkeypatch):
    for name in ("PREFECT_API_KEY", "PREFECT_API_AUTH_STRING", "PREFECT_API_SSL_CERT_FILE",
                 "PREFECT_API_TLS_INSECURE_SKIP_VERIFY"):
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


def test_the_api_key_goes_as_bearer_and_an_auth_string_as_basic_first(no_prefect_auth):
    api = FakeFlowsApi(want="Bearer k-123")
    try:
        no_prefect_auth.setenv("PREFECT_API_KEY", "k-123")
        assert flow_id(api.url, "ingest") == "f-1"
        no_prefect_auth.setenv("PREFECT_API_AUTH_STRING", "admin:pass")  # wins over the key, as in Prefect
        with pytest.raises(RecordError) as err:
            flow_id(api.url, "ingest")
    finally:
        api.close()
    assert [(p, a) for p, a, _ in api.seen] == [("/api/flows/", "Bearer k-123"),
                                               ("/api/flows/", "Basic YWRtaW46cGFzcw==")]
    assert api.seen[0][2] == {"name": "ingest"}
    assert str(err.value) == "POST /flows/: HTTP 401"  # one line, no credential


def test_an_api_that_does_not_answer_is_one_line(no_prefect_auth):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed again: nothing listens there
    with pytest.raises(RecordError) as err:
        flow_id(f"http://127.0.0.1:{port}/api", "ingest")
    assert str(err.value).startswith("POST /flows/: ") and "\n" not in str(err.value)
    with pytest.raises(RecordError, match="not an http"):
        flow_id("file:///etc/passwd", "ingest")
