"""The archive-kind registry: one module per kind, one line each below."""

from __future__ import annotations

from flows.archives.base import ArchiveKind
from flows.archives.mbox import KIND as MBOX

KINDS: dict[str, ArchiveKind] = {
    MBOX.name: MBOX,
}


def kind_for(name: str) -> ArchiveKind:
    try:
        return KINDS[name]
    except KeyError:
        raise KeyError(f"source kind {name!r} is not implemented yet (have: {', '.join(KINDS)})") from None
