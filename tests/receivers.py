"""Local receivers for alert tests: a JSON webhook and an SMTP server on 127.0.0.1."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class WebhookReceiver:
    def __init__(self) -> None:
        self.posts: list[dict] = []  # JSON bodies
        self.bodies: list[tuple[str, bytes]] = []  # (Content-Type, body) of every POST
        recv = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *a) -> None:
                pass

            def do_POST(self) -> None:  # noqa: N802
                n = int(self.headers.get("Content-Length", "0"))
                body = self.rfile.read(n)
                recv.bodies.append((self.headers.get("Content-Type", ""), body))
                if "json" in self.headers.get("Content-Type", ""):
                    recv.posts.append(json.loads(body or b"null"))
                self.send_response(200)
                self.end_headers()

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/hook"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class SmtpReceiver:
    """aiosmtpd on a free port; `messages` holds what it received."""

    def __init__(self) -> None:
        import socket

        from aiosmtpd.controller import Controller

        self.messages: list[bytes] = []
        recv = self

        class Handler:
            async def handle_DATA(self, server, session, envelope):  # noqa: N802
                recv.messages.append(envelope.content)
                return "250 OK"

        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.controller = Controller(Handler(), hostname="127.0.0.1", port=self.port)
        self.controller.start()

    def close(self) -> None:
        self.controller.stop()
