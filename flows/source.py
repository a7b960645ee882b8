"""What a source is: its name, kind, URL, options and caps (the config's `[[sources]]`).

Kept apart from the loader (flows.config) so that the archive kinds can use these types while
the loader checks each source against the kinds' registry.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any
from urllib.parse import unquote, urlsplit, urlunsplit

from transforms.mbox import DEFAULT_MAX_MESSAGE_BYTES


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
    # a unit (one mbox file may hold a million messages) is committed in parts of at most this many
    # messages or result rows, so memory stays flat whatever its size; 0 = the whole unit at once
    part_messages: int = 20_000
    part_rows: int = 200_000

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
