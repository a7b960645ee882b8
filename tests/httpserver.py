"""A real HTTP server on 127.0.0.1 for fetcher tests: static routes with ETag,
Last-Modified and 304s, plus scripted misbehaviour (flaky 500s, slow answers).
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from email.utils import formatdate
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit


@dataclass
class Route:
    body: bytes
    content_type: str = "application/octet-stream"
    status: int = 200
    fail_first: int = 0  # answer `fail_status` this many times first
    fail_status: int = 500
    retry_after: str | None = None  # Retry-After header of those failures
    delay_s: float = 0.0
    headers: dict[str, str] = field(default_factory=dict)
    mtime: float = 1_200_000_000.0
    auth: str | None = None  # "user:password": answer 401 without that Basic authorization
    served: int = 0


class Site:
    """Routes by path (query string included when a route names one)."""

    def __init__(self) -> None:
        self.routes: dict[str, Route] = {}
        self.hits: Counter[str] = Counter()
        self.full_bodies: Counter[str] = Counter()  # 200 answers with a body
        self.user_agents: set[str] = set()
        self.authorizations: list[str | None] = []  # the Authorization header of every request
        self.server: ThreadingHTTPServer | None = None

    def add(self, path: str, body: bytes | str, **kw) -> Route:
        r = Route(body.encode() if isinstance(body, str) else body, **kw)
        self.routes[path] = r
        return r

    @property
    def base(self) -> str:
        assert self.server is not None
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def url(self, path: str) -> str:
        return self.base + path

    def start(self) -> Site:
        site = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *a) -> None:  # quiet
                pass

            def do_GET(self) -> None:  # noqa: N802
                site.user_agents.add(self.headers.get("User-Agent", ""))
                path = self.path
                route = site.routes.get(path) or site.routes.get(urlsplit(path).path)
                site.hits[path] += 1
                site.authorizations.append(self.headers.get("Authorization"))
                if route is None:
                    self.send_error(404)
                    return
                if route.auth is not None and self.headers.get("Authorization") != (
                        "Basic " + base64.b64encode(route.auth.encode()).decode()):
                    self.send_response(401)
                    self.send_header("WWW-Authenticate", 'Basic realm="list"')
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                if route.delay_s:
                    time.sleep(route.delay_s)
                route.served += 1
                if route.served <= route.fail_first:
                    self.send_response(route.fail_status)
                    if route.retry_after is not None:
                        self.send_header("Retry-After", route.retry_after)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                etag = '"' + hashlib.sha1(route.body).hexdigest()[:16] + '"'
                lm = formatdate(route.mtime, usegmt=True)
                if self.headers.get("If-None-Match") == etag or (
                    not self.headers.get("If-None-Match") and self.headers.get("If-Modified-Since") == lm
                ):
                    self.send_response(304)
                    self.send_header("ETag", etag)
                    self.end_headers()
                    return
                if route.status == 200:  # counted before the client can see the answer (and hang up)
                    site.full_bodies[path] += 1
                self.send_response(route.status)
                self.send_header("Content-Type", route.content_type)
                self.send_header("Content-Length", str(len(route.body)))
                self.send_header("ETag", etag)
                self.send_header("Last-Modified", lm)
                for k, v in route.headers.items():
                    self.send_header(k, v)
                self.end_headers()
                with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                    self.wfile.write(route.body)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        if self.server:
            self.server.shutdown()
            self.server.server_close()
