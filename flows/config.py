"""`listbench.toml`: sources, data dir, alerts, schedule. Errors are one clear line."""

from __future__ import annotations

import os
import re
import tomllib
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit, urlunsplit

from transforms.mbox import DEFAULT_MAX_MESSAGE_BYTES
from warehouse import storage

DEFAULT_CONFIG = "listbench.toml"
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")
KNOWN_KINDS = ("mbox", "pipermail", "hyperkitty", "public-inbox", "mhonarc", "maildir",
               "mail-archive", "hypermail", "marc")


class ConfigError(Exception):
    """A problem the user can fix in the config; the message is the whole story."""


@dataclass(frozen=True)
class Limits:
    """Caps that keep one bad message or file from costing the rest of a run.

    Set for every source in `[limits]`, or per source with the same keys in its
    `[[sources]]` table (the source's value wins).
    """

    max_message_bytes: int = DEFAULT_MAX_MESSAGE_BYTES  # a larger message is recorded as skipped, not parsed
    max_expanded_bytes: int = 4 * 1024**3  # a gzip file may expand to this much
    max_compression_ratio: float = 200.0  # ... and at most this many times its size (gzip bombs)
    max_mime_depth: int = 50  # MIME nesting below this is cut (with a note)
    message_timeout_s: float = 10.0  # decoding + extraction of one message; 0 = no budget

    @classmethod
    def from_table(cls, table: dict[str, Any], where: str, base: Limits | None = None) -> Limits:
        """The keys of `table` that are limits, checked, over `base` (one clear line on a bad value)."""
        out = base or cls()
        for f in fields(cls):
            if f.name not in table:
                continue
            value = table[f.name]
            kind = int if f.type in ("int", int) else float
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0 \
                    or (kind is int and not isinstance(value, int)):
                raise ConfigError(f"{where}: {f.name} must be a non-negative {'integer' if kind is int else 'number'} "
                                  f"(got {value!r})")
            out = replace(out, **{f.name: kind(value)})
        return out


@dataclass(frozen=True)
class Source:
    name: str
    kind: str
    url: str  # a resolved path or an http(s) URL
    enabled: bool = True
    options: dict[str, Any] = field(default_factory=dict)
    defaults: Limits = field(default_factory=Limits)  # the config's [limits]

    @property
    def is_remote(self) -> bool:
        return self.url.startswith(("http://", "https://"))

    @property
    def limits(self) -> Limits:
        """This source's caps: its own keys over the config's [limits]."""
        return Limits.from_table(self.options, f"source {self.name!r}", self.defaults)

    def option(self, key: str, default: Any) -> Any:
        return self.options.get(key, default)


@dataclass(frozen=True)
class Config:
    """The loaded config.

    `data_dir` is always a local folder: the raw cache, Data
    Docs and the DuckDB views file live there. When the config's `data_dir`
    is an fsspec URL (`s3://bucket/prefix`), that URL is `data_url`, only the
    lake goes there (`lake_dir` is then a URL string), and `data_dir` is
    `local_dir` (default: a folder per data URL under the system temp dir).
    """

    path: Path
    data_dir: Path
    sources: list[Source]
    alerts: dict[str, Any] = field(default_factory=dict)
    schedule: dict[str, Any] = field(default_factory=dict)
    http: dict[str, Any] = field(default_factory=dict)
    quality: dict[str, Any] = field(default_factory=dict)
    lake: dict[str, Any] = field(default_factory=dict)  # [lake]: retention_days, z_order (listbench compact)
    data_url: str | None = None  # remote data_dir (fsspec URL) holding the lake
    storage: dict[str, Any] = field(default_factory=dict)  # [storage]: non-secret fsspec options
    # user and password per origin, taken out of the source URLs (see split_credentials)
    credentials: dict[str, tuple[str, str]] = field(default_factory=dict, repr=False, compare=False)
    limits: Limits = field(default_factory=Limits)  # [limits]: defaults of every source's caps

    @property
    def remote(self) -> bool:
        return self.data_url is not None

    @property
    def lake_dir(self) -> Path | str:
        if self.data_url is not None:
            return self.data_url.rstrip("/") + "/lake"
        return self.data_dir / "lake"

    @property
    def db_path(self) -> Path:
        return self.data_dir / "listbench.duckdb"

    @property
    def raw_dir(self) -> Path:
        return self.data_dir / "raw"

    @property
    def docs_dir(self) -> Path:
        return self.data_dir / "docs"

    def source(self, name: str) -> Source:
        for s in self.sources:
            if s.name == name:
                return s
        raise ConfigError(f"no source named {name!r} in {self.path} (have: {', '.join(s.name for s in self.sources)})")

    @property
    def enabled_sources(self) -> list[Source]:
        return [s for s in self.sources if s.enabled]


def find_config(path: str | os.PathLike[str] | None) -> Path:
    p = Path(path or os.environ.get("LISTBENCH_CONFIG") or DEFAULT_CONFIG)
    if not p.is_file():
        raise ConfigError(f"config file not found: {p}")
    return p.resolve()


def load_config(path: str | os.PathLike[str] | None = None) -> Config:
    p = find_config(path)
    try:
        data = tomllib.loads(p.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{p}: not valid TOML: {exc}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{p}: cannot read: {exc}") from None
    base = p.parent
    data_dir = _resolve(str(data.get("data_dir", "data")), base)
    storage_opts = data.get("storage", {})
    if not isinstance(storage_opts, dict):
        raise ConfigError(f"{p}: [storage] must be a table")
    storage_opts = dict(storage_opts)
    local_dir = storage_opts.pop("local_dir", None) or data.get("local_dir")
    data_url = None
    if storage.is_remote(data_dir):
        try:
            storage.check_options(storage_opts, f"{p}: [storage]")
        except ValueError as exc:
            raise ConfigError(str(exc)) from None
        data_url = data_dir.rstrip("/")
        storage.configure(data_url, storage_opts)
        data_dir = _resolve(str(local_dir), base) if local_dir else _default_local_dir(data_url)
    else:
        data_dir = storage.local_path(data_dir)
    if "?" in str(data_dir):  # DuckDB reads it as the start of options: its WAL would go elsewhere
        raise ConfigError(f"{p}: the local data folder {data_dir} has a '?', which DuckDB cannot keep "
                          "a database under; choose a name without it")
    raw_limits = data.get("limits", {})
    if not isinstance(raw_limits, dict):
        raise ConfigError(f"{p}: [limits] must be a table")
    limits = Limits.from_table(raw_limits, f"{p}: [limits]")
    sources: list[Source] = []
    seen: set[str] = set()
    credentials: dict[str, tuple[str, str]] = {}
    raw_sources = data.get("sources", [])
    if not isinstance(raw_sources, list):
        raise ConfigError(f"{p}: [[sources]] must be an array of tables")
    for i, s in enumerate(raw_sources):
        sources.append(_source(s, i, base, p, seen, credentials, limits))
    return Config(
        path=p,
        data_dir=Path(data_dir),
        sources=sources,
        alerts=dict(data.get("alerts", {})),
        schedule=dict(data.get("schedule", {})),
        http=dict(data.get("http", {})),
        quality=dict(data.get("quality", {})),
        lake=dict(data.get("lake", {})),
        data_url=data_url,
        storage=storage_opts if data_url else {},
        credentials=credentials,
        limits=limits,
    )


def split_credentials(url: str) -> tuple[str, tuple[str, str] | None]:
    """`https://user:pass@host/x` -> (`https://host/x`, (user, pass)); other URLs unchanged.

    The URL without them is what the ledger, logs, Prefect and alerts see; only the HTTP
    client holds the pair (flows.http), for requests to that origin.
    """
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or "@" not in parts.netloc:
        return url, None
    userinfo, _, hostport = parts.netloc.rpartition("@")
    user, _, password = userinfo.partition(":")
    return urlunsplit(parts._replace(netloc=hostport)), (unquote(user), unquote(password))


def origin(url: str) -> str:
    """scheme://host:port of an http(s) URL (the default port spelled out)."""
    parts = urlsplit(url)
    try:
        port = parts.port
    except ValueError:
        port = None
    port = port or (443 if parts.scheme == "https" else 80)
    return f"{parts.scheme}://{(parts.hostname or '').lower()}:{port}"


def _default_local_dir(data_url: str) -> str:
    import hashlib
    import tempfile

    user = os.environ.get("USER") or str(os.getuid())
    tag = hashlib.sha1(data_url.encode()).hexdigest()[:12]
    return os.path.join(tempfile.gettempdir(), f"listbench-{user}-{tag}")


def _resolve(value: str, base: Path) -> str:
    if re.match(r"^[a-z][a-z0-9+.-]*://", value):
        return value
    q = Path(os.path.expanduser(value))
    return str(q if q.is_absolute() else (base / q).resolve())


def _source(s: Any, i: int, base: Path, p: Path, seen: set[str],
            credentials: dict[str, tuple[str, str]], limits: Limits) -> Source:
    if not isinstance(s, dict):
        raise ConfigError(f"{p}: sources[{i}] must be a table")
    name = s.get("name")
    if not isinstance(name, str) or not _NAME.match(name):
        raise ConfigError(f"{p}: sources[{i}] needs a name of letters, digits, '.', '_' or '-' (got {name!r})")
    if name in seen:
        raise ConfigError(f"{p}: source name {name!r} is used twice")
    seen.add(name)
    kind = s.get("kind")
    if kind not in KNOWN_KINDS:
        raise ConfigError(f"{p}: source {name!r} has unknown kind {kind!r} (known: {', '.join(KNOWN_KINDS)})")
    url = s.get("url")
    if not isinstance(url, str) or not url:
        raise ConfigError(f"{p}: source {name!r} needs a url")
    enabled = s.get("enabled", True)
    if not isinstance(enabled, bool):
        raise ConfigError(f"{p}: source {name!r}: enabled must be true or false")
    options = {k: v for k, v in s.items() if k not in {"name", "kind", "url", "enabled"}}
    url, pair = split_credentials(url)
    if pair is not None:
        key = origin(url)
        if credentials.setdefault(key, pair) != pair:
            raise ConfigError(f"{p}: source {name!r} gives other credentials for {key} than an earlier source")
    Limits.from_table(options, f"{p}: source {name!r}", limits)  # a bad value fails at load
    return Source(name=name, kind=kind, url=_resolve(url, base), enabled=enabled, options=options, defaults=limits)
