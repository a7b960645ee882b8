"""`listbench.toml`: sources, data dir, alerts, schedule. Errors are one clear line."""

from __future__ import annotations

import os
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from flows.archives import KINDS, check_options
from flows.archives.base import UnitError
from flows.source import ConfigError, Limits, Source, origin, split_credentials
from warehouse import storage

__all__ = ["KNOWN_KINDS", "Config", "ConfigError", "Limits", "Source", "find_config", "load_config",
           "origin", "split_credentials"]

DEFAULT_CONFIG = "listbench.toml"
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")
KNOWN_KINDS = tuple(KINDS)


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
    source = Source(name=name, kind=kind, url=_resolve(url, base), enabled=enabled, options=options,
                    defaults=limits)
    try:
        check_options(source)  # an unknown key or a wrong type fails at load, not mid-run
    except UnitError as exc:
        raise ConfigError(f"{p}: {exc}") from None
    return source
