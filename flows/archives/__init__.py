"""The archive-kind registry: one module per kind, one line each below."""

from __future__ import annotations

from flows.archives.base import ArchiveKind
from flows.archives.hyperkitty import KIND as HYPERKITTY
from flows.archives.hypermail import KIND as HYPERMAIL
from flows.archives.mail_archive import KIND as MAIL_ARCHIVE
from flows.archives.maildir import KIND as MAILDIR
from flows.archives.marc import KIND as MARC
from flows.archives.mbox import KIND as MBOX
from flows.archives.mhonarc import KIND as MHONARC
from flows.archives.options import typed_options
from flows.archives.pipermail import KIND as PIPERMAIL
from flows.archives.public_inbox import KIND as PUBLIC_INBOX
from flows.source import Source

KINDS: dict[str, ArchiveKind] = {
    MBOX.name: MBOX,
    PIPERMAIL.name: PIPERMAIL,
    HYPERKITTY.name: HYPERKITTY,
    MAILDIR.name: MAILDIR,
    MHONARC.name: MHONARC,
    PUBLIC_INBOX.name: PUBLIC_INBOX,
    MAIL_ARCHIVE.name: MAIL_ARCHIVE,
    HYPERMAIL.name: HYPERMAIL,
    MARC.name: MARC,
}


def permalink_base(source: Source) -> tuple[str | None, str | None]:
    """(style, base URL) for kinds whose message pages are addressed by Message-ID, else (None, None)."""
    kind = KINDS.get(source.kind)
    style = getattr(kind, "permalink_style", None)
    if style is None or not source.is_remote:
        return None, None
    return style, kind.archive_root(source.url)


def kind_for(name: str) -> ArchiveKind:
    try:
        return KINDS[name]
    except KeyError:
        raise KeyError(f"source kind {name!r} is not implemented yet (have: {', '.join(KINDS)})") from None


def check_options(source: Source) -> None:
    """Raise UnitError when the source's options are not its kind's (unknown key, wrong type)."""
    typed_options(kind_for(source.kind).Options, source)
