"""Where the lake lives: a local folder or any fsspec URL (`s3://bucket/prefix`, `memory://...`).

Only the lake (Parquet parts) goes to object storage. The raw cache, the local
ingest lock, Data Docs and the DuckDB views file stay on the machine that runs
the ingest (`Config.data_dir` is that local folder; see flows.config).

Credentials never come from the config file: s3fs/botocore read them from the
environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN,
AWS_PROFILE, ...). `[storage]` holds only non-secret options (endpoint_url,
region_name, ...); they are remembered per URL prefix here so that every
`Lake(url)` and every DuckDB connection of the process finds them, and they
are recorded in the DuckDB file (warehouse.db) so that `listbench sql` can
reach the lake without the config.

Remote writer lock (`lake_lock`): a marker object `<lake>/_lock/writer.json`
created with a conditional PUT (If-None-Match: *, honoured by AWS S3 since
2024 and by moto; a store that ignores it degrades to last-writer-wins, which
is why this lock is called best effort). A marker older than its TTL, or left
by a process of this host that no longer exists (a crash), is taken to be
abandoned and is replaced. The local fcntl lock
(flows.pipeline.ingest_lock) still serialises writers on one machine.
"""

from __future__ import annotations

import json
import os
import re
import socket
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

_URL = re.compile(r"^([a-z][a-z0-9+.-]*)://")
LOCAL_PROTOCOLS = {"file", "local"}
# keys that would put a secret into a config file or the DuckDB file
SECRET_KEYS = re.compile(r"(^|_)(key|secret|token|password|passwd|credentials?)($|_)", re.I)
LOCK_TTL_SECONDS = 6 * 3600

_OPTIONS: dict[str, dict[str, Any]] = {}


class LakeBusy(Exception):
    """Another writer holds the lake's marker lock."""


def protocol(url: str | os.PathLike[str]) -> str | None:
    """The fsspec protocol of a URL (`s3`), or None for a plain path."""
    m = _URL.match(str(url))
    return m.group(1) if m else None


def is_remote(url: str | os.PathLike[str]) -> bool:
    p = protocol(url)
    return p is not None and p not in LOCAL_PROTOCOLS


def local_path(url: str) -> str:
    """`file:///x/y` -> `/x/y`; a plain path is returned unchanged."""
    p = protocol(url)
    return url[len(p) + 3:] if p in LOCAL_PROTOCOLS else url


def check_options(options: dict[str, Any], where: str) -> dict[str, Any]:
    """Refuse credentials in configuration; they belong in the environment."""
    for k, v in options.items():
        if SECRET_KEYS.search(k) and k not in {"key_env", "secret_env"}:
            raise ValueError(f"{where}: {k!r} looks like a credential; set it in the environment "
                             "(AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_PROFILE, ...) instead")
        if isinstance(v, dict):
            check_options(v, f"{where}.{k}")
    return options


def configure(url: str, options: dict[str, Any]) -> None:
    """Remember the storage options of a data URL for this process (longest prefix wins)."""
    _OPTIONS[str(url).rstrip("/")] = dict(options)


def options_for(url: str) -> dict[str, Any] | None:
    """Options configured for the longest prefix of `url`, or None when nothing was configured."""
    url = str(url)
    best = None
    for prefix in _OPTIONS:
        if (url == prefix or url.startswith(prefix + "/")) and (best is None or len(prefix) > len(best)):
            best = prefix
    return dict(_OPTIONS[best]) if best is not None else None


def fsspec_options(proto: str, options: dict[str, Any]) -> dict[str, Any]:
    """Config keys to fsspec keyword arguments (s3fs: region_name goes to client_kwargs)."""
    opts = {k: v for k, v in options.items() if k not in {"key_env", "secret_env"}}
    if proto in ("s3", "s3a"):
        client = dict(opts.pop("client_kwargs", {}) or {})
        for k in ("region_name",):
            if k in opts:
                client[k] = opts.pop(k)
        if client:
            opts["client_kwargs"] = client
        env = options.get("key_env"), options.get("secret_env")
        if env[0] and env[1] and os.environ.get(env[0]) and os.environ.get(env[1]):
            opts["key"], opts["secret"] = os.environ[env[0]], os.environ[env[1]]
    return opts


def filesystem(url: str, options: dict[str, Any] | None = None):
    """(fsspec filesystem, path inside it) for a URL; options default to the configured ones."""
    import fsspec

    proto = protocol(url) or "file"
    opts = options if options is not None else (options_for(url) or {})
    return fsspec.url_to_fs(url, **fsspec_options(proto, opts))


def join(url: str, *parts: str) -> str:
    return "/".join([str(url).rstrip("/"), *parts])


def register_duckdb(con: Any, url: str, options: dict[str, Any] | None = None) -> None:
    """Make a DuckDB connection read `url` through fsspec (no httpfs extension needed)."""
    fs, _ = filesystem(url, options)
    protos = {fs.protocol} if isinstance(fs.protocol, str) else set(fs.protocol)
    if protos & set(con.list_filesystems()):
        return  # same database instance opened twice in this process: already registered
    con.register_filesystem(fs)


# --- best-effort writer lock on object storage ---------------------------------------------

@contextmanager
def lake_lock(lake_url: str | os.PathLike[str], ttl: float = LOCK_TTL_SECONDS,
              busy: type[Exception] = LakeBusy) -> Iterator[None]:
    """Hold `<lake>/_lock/writer.json` while writing a remote lake; a no-op for local lakes.

    Raises `busy` (LakeBusy unless the caller names its own exception) when another writer holds it.
    """
    if not is_remote(lake_url):
        yield
        return
    url = str(lake_url)
    fs, root = filesystem(url)
    marker = f"{root.rstrip('/')}/_lock/writer.json"
    me = {"owner": uuid.uuid4().hex, "host": socket.gethostname(), "pid": os.getpid(), "since": time.time(),
          "ttl": ttl}
    body = json.dumps(me).encode()
    for attempt in range(2):
        try:
            fs.pipe_file(marker, body, mode="create")
            break
        except FileExistsError:
            held = _read_marker(fs, marker)
            age = time.time() - float(held.get("since") or 0)
            if attempt == 0 and (age > float(held.get("ttl") or ttl) or _dead_here(held)):
                fs.rm_file(marker)  # stale: its writer died without removing it
                continue
            raise busy(
                f"another writer ({held.get('host', '?')} pid {held.get('pid', '?')}, {int(age)} s ago) "
                f"holds {join(url, '_lock/writer.json')}; try again when it ends (delete that object if "
                "that writer is gone)") from None
    fs.invalidate_cache()
    if _read_marker(fs, marker).get("owner") != me["owner"]:  # a store without conditional PUT
        raise busy(f"another writer took {join(url, '_lock/writer.json')} at the same time; try again")
    try:
        yield
    finally:
        try:
            if _read_marker(fs, marker).get("owner") == me["owner"]:
                fs.rm_file(marker)
        except OSError:
            pass


def _dead_here(held: dict[str, Any]) -> bool:
    """The marker's writer ran on this host and its process is gone (killed, crashed)."""
    if held.get("host") != socket.gethostname() or not isinstance(held.get("pid"), int):
        return False
    try:
        os.kill(held["pid"], 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    return False


def _read_marker(fs: Any, marker: str) -> dict[str, Any]:
    try:
        return json.loads(fs.cat_file(marker) or b"{}")
    except (FileNotFoundError, ValueError):
        return {}
