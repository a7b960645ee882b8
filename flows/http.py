"""Polite, capped HTTP for archive fetching (httpx).

Per host: a minimum interval between requests and a cap on concurrent ones;
retries with exponential backoff on timeouts, 429 and 5xx (honouring
Retry-After); conditional requests (ETag / Last-Modified); a byte cap on every
body; same-origin checks for crawled links; cache paths that cannot leave the cache.
"""

from __future__ import annotations

import email.utils
import hashlib
import json
import os
import re
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urljoin, urlsplit

import httpx

from flows.source import origin

if TYPE_CHECKING:
    from flows.config import Config

DEFAULT_MAX_UNIT_BYTES = 512 * 1024 * 1024
DEFAULT_MAX_PAGE_BYTES = 16 * 1024 * 1024
RETRY_STATUS = {429, 500, 502, 503, 504}
VALIDATORS = "index-validators.json"  # per cached folder: validators of its index pages
_SAFE = re.compile(r"[^A-Za-z0-9._=-]+")


class FetchError(Exception):
    """A unit or page that could not be fetched; the message names the URL and why."""


def same_origin(base: str, url: str) -> bool:
    """True when `url` is on the base's scheme, host and port, at or below its path."""
    b, u = urlsplit(base), urlsplit(url)
    if (u.scheme, u.hostname, u.port) != (b.scheme, b.hostname, b.port):
        return False
    base_path = b.path if b.path.endswith("/") else b.path.rsplit("/", 1)[0] + "/"
    return _norm(u.path).startswith(_norm(base_path)) and ".." not in u.path.split("/")


def _norm(path: str) -> str:
    return re.sub(r"/+", "/", path or "/")


def archive_root(url: str) -> str:
    """The root with its trailing slash (without it every relative link resolves one level up)."""
    return url if url.endswith("/") else url + "/"


def resolve_link(base: str, href: str) -> str | None:
    """An index link made absolute, or None when it leaves the archive (other host, `../`)."""
    if not href or href.startswith(("mailto:", "javascript:", "#")):
        return None
    url = urljoin(base, href.strip()).split("#", 1)[0]
    return url if same_origin(base, url) else None


def cache_path(root: Path, *parts: str) -> Path:
    """A path under `root` built from untrusted names: odd characters replaced, never outside."""
    clean = []
    for p in parts:
        s = _SAFE.sub("_", p).strip("._") or "_"
        if len(s) > 120:
            s = s[:80] + "-" + hashlib.sha1(p.encode()).hexdigest()[:16]
        clean.append(s)
    path = Path(root).joinpath(*clean)
    root_r = Path(root).resolve()
    if not str(path.resolve()).startswith(str(root_r) + os.sep):
        raise FetchError(f"refusing cache path outside {root}: {parts!r}")
    return path


@dataclass
class _Host:
    lock: threading.Lock
    slots: threading.Semaphore
    next_at: float = 0.0


class PoliteClient:
    def __init__(self, user_agent: str = "listbench/0.1", contact: str | None = None,
                 requests_per_second: float = 1.0, max_connections_per_host: int = 2,
                 timeout_s: float = 30.0, retries: int = 3, backoff_s: float = 1.0,
                 max_retry_after_s: float = 120.0, sleep: Callable[[float], None] = time.sleep,
                 credentials: dict[str, tuple[str, str]] | None = None) -> None:
        ua = f"{user_agent} ({contact})" if contact else user_agent
        self.client = httpx.Client(headers={"User-Agent": ua}, timeout=httpx.Timeout(timeout_s),
                                   follow_redirects=False)
        self.interval = 1.0 / requests_per_second if requests_per_second > 0 else 0.0
        self.max_conn = max(1, int(max_connections_per_host))
        self.retries, self.backoff, self.max_retry_after = retries, backoff_s, max_retry_after_s
        self.sleep = sleep
        self._hosts: dict[str, _Host] = {}
        self._hosts_lock = threading.Lock()
        self.requests = 0  # counted for tests and run summaries
        self._auth = {k: httpx.BasicAuth(u, pw) for k, (u, pw) in (credentials or {}).items()}

    @classmethod
    def from_config(cls, cfg: Config) -> PoliteClient:
        h = cfg.http
        return cls(
            user_agent=str(h.get("user_agent", "listbench/0.1")),
            contact=h.get("contact"),
            requests_per_second=float(h.get("requests_per_second", 1.0)),
            max_connections_per_host=int(h.get("max_connections_per_host", 2)),
            timeout_s=float(h.get("timeout_s", 30)),
            retries=int(h.get("retries", 3)),
            backoff_s=float(h.get("backoff_s", 1.0)),
            credentials=cfg.credentials,
        )

    def auth_for(self, url: str) -> httpx.BasicAuth | None:
        """The configured login for `url`'s origin (scheme, host and port all equal), if any."""
        return self._auth.get(origin(url)) if self._auth else None

    def auth_header(self, url: str) -> str | None:
        """The Authorization header value for `url` (for git, which runs outside this client)."""
        auth = self.auth_for(url)
        if auth is None:
            return None
        return next(auth.auth_flow(httpx.Request("GET", url))).headers["Authorization"]

    def close(self) -> None:
        self.client.close()

    def _host(self, url: str) -> _Host:
        key = urlsplit(url).netloc
        with self._hosts_lock:
            if key not in self._hosts:
                self._hosts[key] = _Host(threading.Lock(), threading.Semaphore(self.max_conn))
            return self._hosts[key]

    def _wait_turn(self, host: _Host) -> None:
        with host.lock:
            now = time.monotonic()
            delay = host.next_at - now
            host.next_at = max(now, host.next_at) + self.interval
        if delay > 0:
            self.sleep(delay)

    def _retry_delay(self, attempt: int, resp: httpx.Response | None) -> float:
        if resp is not None and (ra := resp.headers.get("Retry-After")):
            try:
                return min(float(ra), self.max_retry_after)
            except ValueError:
                when = email.utils.parsedate_to_datetime(ra) if ra else None
                if when is not None:
                    return min(max(0.0, when.timestamp() - time.time()), self.max_retry_after)
        return self.backoff * (2**attempt)

    def request(self, url: str, *, headers: dict[str, str] | None = None, max_bytes: int,
                sink: Callable[[bytes], None] | None = None) -> tuple[httpx.Response, bytes]:
        """GET with politeness and retries. Streams into `sink` when given, else returns the body."""
        host = self._host(url)
        last_exc: str = ""
        for attempt in range(self.retries + 1):
            self._wait_turn(host)
            resp: httpx.Response | None = None
            try:
                with host.slots, self.client.stream("GET", url, headers=headers or {},
                                                    auth=self.auth_for(url) or httpx.USE_CLIENT_DEFAULT) as resp:
                    self.requests += 1
                    if resp.status_code in RETRY_STATUS and attempt < self.retries:
                        last_exc = f"HTTP {resp.status_code}"
                        delay = self._retry_delay(attempt, resp)
                    else:
                        return resp, _read_capped(resp, url, max_bytes, sink)
            except httpx.TimeoutException:
                last_exc, delay = "timed out", self._retry_delay(attempt, None)
            except httpx.TransportError as exc:
                last_exc, delay = f"{type(exc).__name__}: {exc}", self._retry_delay(attempt, None)
            if attempt < self.retries:
                self.sleep(delay)
        raise FetchError(f"{url}: {last_exc} after {self.retries + 1} attempts")

    def get_text(self, url: str, max_bytes: int = DEFAULT_MAX_PAGE_BYTES) -> str:
        resp, body = self.request(url, max_bytes=max_bytes)
        if resp.status_code in (301, 302, 303, 307, 308):
            raise FetchError(f"{url}: HTTP {resp.status_code}, moved to {resp.headers.get('Location')} (use that URL)")
        if resp.status_code != 200:
            raise FetchError(f"{url}: HTTP {resp.status_code}")
        return body.decode(resp.encoding or "utf-8", errors="replace")

    def get_file(self, url: str, dest: Path, validators: Mapping[str, Any], max_bytes: int) -> FileCopy:
        """Conditional GET of `url` into `dest`: the one way every kind fetches a file.

        `validators` are what was recorded for `dest` last time (`etag`, `last_modified`,
        and optionally `sha256`/`bytes`); they are sent only when `dest` is still cached. The
        body streams to a temporary file beside `dest` under the byte cap and replaces `dest`
        atomically; a 304, or a 200 whose bytes hash as before, leaves `dest` alone. Anything
        but 200/304 raises `FetchError`.

        Not hishel (RFC 9111 caching for httpx): its storage keeps its own copy of every body
        and its own validators, where ours live in the ledger (units) or beside the cached
        page (index pages), and it reads a cacheable body whole before a caller could cap it.
        """
        headers: dict[str, str] = {}
        if dest.exists():
            if validators.get("etag"):
                headers["If-None-Match"] = validators["etag"]
            if validators.get("last_modified"):
                headers["If-Modified-Since"] = validators["last_modified"]
        dest.parent.mkdir(parents=True, exist_ok=True)
        tmp = dest.with_name(f".{dest.name}.{os.getpid()}.{threading.get_ident()}.part")
        h = hashlib.sha256()
        size = 0
        try:
            with open(tmp, "wb") as f:
                def sink(chunk: bytes) -> None:
                    nonlocal size
                    f.write(chunk)
                    h.update(chunk)
                    size += len(chunk)

                resp, _ = self.request(url, headers=headers, max_bytes=max_bytes, sink=sink)
            if resp.status_code == 304 and dest.exists():
                return FileCopy(False, validators.get("etag"), validators.get("last_modified"),
                                validators.get("sha256"), int(validators.get("bytes") or 0))
            if resp.status_code != 200:
                raise FetchError(f"{url}: HTTP {resp.status_code}")
            digest = h.hexdigest()
            copy = FileCopy(True, resp.headers.get("ETag"), resp.headers.get("Last-Modified"), digest, size)
            if digest == validators.get("sha256") and dest.exists():
                return replace(copy, changed=False)
            os.replace(tmp, dest)
            return copy
        finally:
            if tmp.exists():
                tmp.unlink()

    def cached_page(self, url: str, dest: Path, max_bytes: int) -> Path:
        """An index page kept in the cache and re-fetched conditionally.

        A unit's ledger row holds one set of validators, but a unit may read many index pages,
        so theirs are kept beside the copies, one small JSON file per folder.
        """
        vpath = dest.parent / VALIDATORS
        try:
            validators = json.loads(vpath.read_text()) if vpath.exists() else {}
        except ValueError:  # a torn write: fetch unconditionally once
            validators = {}
        copy = self.get_file(url, dest, validators.get(dest.name, {}), max_bytes)
        validators[dest.name] = copy.validators()
        vpath.write_text(json.dumps(validators, sort_keys=True))
        return dest

    def get_once(self, url: str, dest: Path, max_bytes: int) -> Path:
        """A page whose content never changes once written: requested only when not cached."""
        if not dest.exists():
            self.get_file(url, dest, {}, max_bytes)
        return dest


@dataclass(frozen=True, slots=True)
class FileCopy:
    """What a conditional GET left in the cache, and the validators to send next time."""

    changed: bool  # False: the cached copy was already current (304, or the same bytes)
    etag: str | None
    last_modified: str | None
    sha256: str | None
    bytes: int

    def validators(self) -> dict[str, str]:
        return {k: v for k, v in (("etag", self.etag), ("last_modified", self.last_modified)) if v}


def _read_capped(resp: httpx.Response, url: str, max_bytes: int,
                 sink: Callable[[bytes], None] | None) -> bytes:
    declared = resp.headers.get("Content-Length")
    if declared and declared.isdigit() and int(declared) > max_bytes:
        raise FetchError(f"{url}: {declared} bytes is over the {max_bytes}-byte cap (max_unit_bytes)")
    if resp.status_code != 200:
        return b""
    parts: list[bytes] = []
    n = 0
    for chunk in resp.iter_raw(1 << 16):
        n += len(chunk)
        if n > max_bytes:
            raise FetchError(f"{url}: body over the {max_bytes}-byte cap (max_unit_bytes)")
        if sink is not None:
            sink(chunk)
        else:
            parts.append(chunk)
    return b"".join(parts)

