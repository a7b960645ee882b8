"""Where the lake lives: a local folder or any fsspec URL (`s3://bucket/prefix`, `memory://...`).

Only the lake (Delta tables) goes to object storage. The raw cache, the local
Data Docs and the DuckDB views file stay on the machine that runs
the ingest (`Config.data_dir` is that local folder; see flows.config).

Credentials never come from the config file: s3fs/botocore read them from the
environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN,
AWS_PROFILE, ...). `[storage]` holds only non-secret options (endpoint_url,
region_name, ...); whoever opens the lake passes them (`Lake(url, options)`,
which hands them on to the views file), and they are recorded in the DuckDB
file (warehouse.db) so that `listbench sql` can reach the lake without the config.

The lake's Delta tables are written by delta-rs, which takes its own options
(`delta_options`). On S3 a Delta commit must be put-if-absent, or two writers
could both write log version N: delta-rs does that with a conditional PUT
(`conditional_put = "etag"`, If-None-Match, honoured by AWS S3 since 2024, by
moto, MinIO and R2), the default here. A store without it needs a locking
provider (`[storage.delta] AWS_S3_LOCKING_PROVIDER = "dynamodb"` and its table)
or, for a single writer only, `AWS_S3_ALLOW_UNSAFE_RENAME = "true"`.
"""

from __future__ import annotations

import os
import re
from typing import Any

_URL = re.compile(r"^([a-z][a-z0-9+.-]*)://")
LOCAL_PROTOCOLS = {"file", "local"}
# keys that would put a secret into a config file or the DuckDB file
SECRET_KEYS = re.compile(r"(^|_)(key|secret|token|password|passwd|credentials?)($|_)", re.I)

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


def delta_options(url: str, options: dict[str, Any]) -> dict[str, str] | None:
    """Config keys (fsspec style) to delta-rs storage options; `delta` passes keys through as is.

    Credentials are not copied: delta-rs reads AWS_* from the environment itself (key_env and
    secret_env name other variables to read them from)."""
    proto = protocol(url)
    if proto not in ("s3", "s3a"):
        return {str(k): str(v) for k, v in (options.get("delta") or {}).items()} or None
    out: dict[str, str] = {"conditional_put": "etag"}
    endpoint = options.get("endpoint_url") or (options.get("client_kwargs") or {}).get("endpoint_url")
    if endpoint:
        out["AWS_ENDPOINT_URL"] = str(endpoint)
        if str(endpoint).startswith("http://"):
            out["AWS_ALLOW_HTTP"] = "true"
    region = options.get("region_name") or (options.get("client_kwargs") or {}).get("region_name")
    if region:
        out["AWS_REGION"] = str(region)
    env = options.get("key_env"), options.get("secret_env")
    if env[0] and env[1] and os.environ.get(env[0]) and os.environ.get(env[1]):
        out["AWS_ACCESS_KEY_ID"], out["AWS_SECRET_ACCESS_KEY"] = os.environ[env[0]], os.environ[env[1]]
    for k, v in (options.get("delta") or {}).items():
        out[str(k)] = str(v)
    if any(k.upper() in ("AWS_S3_LOCKING_PROVIDER", "AWS_S3_ALLOW_UNSAFE_RENAME") for k in out):
        out.pop("conditional_put", None)
    return out


def fsspec_options(proto: str, options: dict[str, Any]) -> dict[str, Any]:
    """Config keys to fsspec keyword arguments (s3fs: region_name goes to client_kwargs)."""
    opts = {k: v for k, v in options.items() if k not in {"key_env", "secret_env", "delta"}}
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
    """(fsspec filesystem, path inside it) for a URL, with the config's `[storage]` options."""
    import fsspec

    proto = protocol(url) or "file"
    return fsspec.url_to_fs(url, **fsspec_options(proto, options or {}))


def join(url: str, *parts: str) -> str:
    return "/".join([str(url).rstrip("/"), *parts])


def register_duckdb(con: Any, url: str, options: dict[str, Any] | None = None) -> None:
    """Make a DuckDB connection read `url` through fsspec (no httpfs extension needed)."""
    fs, _ = filesystem(url, options)
    protos = {fs.protocol} if isinstance(fs.protocol, str) else set(fs.protocol)
    if protos & set(con.list_filesystems()):
        return  # same database instance opened twice in this process: already registered
    con.register_filesystem(fs)
