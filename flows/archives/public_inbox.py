"""`public-inbox` (lore.kernel.org and mirrors): git epochs, one message per commit.

The source url is the inbox base (`https://lore.kernel.org/kvm`, epochs cloned
from `<base>/0`, `<base>/1`, ...) or a local folder holding epoch repos
(`git/0.git`, `0.git`, or one bare repo). A unit is one epoch: mirrored once into
the raw cache with `git clone --mirror`, then `git fetch`ed. The ledger's sha256
holds the head commit last processed, so an unchanged epoch is one fetch and no
parsing, and a grown epoch reads only the commits after that head
(`git log --reverse` piped into `git cat-file --batch`, streamed blob by blob).
Blobs are raw RFC 822 (QP and base64 undecoded); decode_message decodes them.

Options: `epochs = [0, 1]` (else `<base>/manifest.js.gz`, else probing),
`threads = ["<msgid>", ...]` (each thread's `t.mbox.gz`), `raw_messages = [...]`
(each message's `/raw`), `max_commits` (read at most that many commits of an
epoch per run, so a first backfill of a lore epoch is several bounded batches),
`git_timeout_s` (clone, fetch, ls-remote), `max_message_bytes`.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO
from urllib.parse import quote

# `import ... as` (not `from flows.http import`): flows.http imports flows.archives.base, see mhonarc.py.
import flows.http as fhttp
from flows.archives.base import FetchContext, Fetched, RawItem, Unit, UnitError, download
from flows.archives.compressed import iter_chunks
from flows.archives.mbox import KIND as MBOX
from flows.archives.options import typed_options
from flows.source import Source
from transforms.mbox import Skipped

log = logging.getLogger("listbench.public_inbox")

DEFAULT_GIT_TIMEOUT_S = 3600.0


@dataclass(frozen=True, slots=True)
class Options:
    max_unit_bytes: int = fhttp.DEFAULT_MAX_UNIT_BYTES  # an extra thread or raw-message download
    epochs: list[int] | None = None  # the epochs to mirror; default: from the manifest or probed
    threads: list[str] = field(default_factory=list)  # Message-IDs whose whole thread is fetched
    raw_messages: list[str] = field(default_factory=list)  # Message-IDs fetched one by one
    max_commits: int | None = None  # commits of an epoch read per run (bounded batches)
    git_timeout_s: float = DEFAULT_GIT_TIMEOUT_S
MAX_EPOCHS = 1000
MAX_MANIFEST_BYTES = 16 * 1024 * 1024
_EPOCH_NAME = re.compile(r"^(\d{1,6})(?:\.git)?$")
_MANIFEST_KEY = re.compile(r"/git/(\d{1,6})\.git$")
_COMMIT = re.compile(r"^[0-9a-f]{40}(?:[0-9a-f]{24})?$")


# ---------------------------------------------------------------- git plumbing


def _env(remote: bool, authorization: str | None = None) -> dict[str, str]:
    """No prompts, no user or system config (an `insteadOf` could swap the URL), no redirects, one protocol.

    A login from the config goes in as an extra HTTP header through the environment (never
    the command line or the URL, which error lines and `ps` show).
    """
    env = {**os.environ, "GIT_TERMINAL_PROMPT": "0", "GIT_CONFIG_NOSYSTEM": "1",
           "GIT_CONFIG_GLOBAL": os.devnull, "GIT_ALLOW_PROTOCOL": "http:https" if remote else "file",
           "GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": "http.followRedirects", "GIT_CONFIG_VALUE_0": "false",
           "LC_ALL": "C"}
    if remote and authorization:
        env.update({"GIT_CONFIG_COUNT": "2", "GIT_CONFIG_KEY_1": "http.extraHeader",
                    "GIT_CONFIG_VALUE_1": f"Authorization: {authorization}"})
    return env


def git(args: list[str], *, remote: bool = False, timeout: float = DEFAULT_GIT_TIMEOUT_S,
        authorization: str | None = None) -> str:
    """Run git with an argument list (never a shell); a failure is a UnitError naming the command."""
    what = "git " + " ".join(a for a in args if not a.startswith("--git-dir="))[:160]
    try:
        p = subprocess.run(["git", *args], capture_output=True, timeout=timeout,
                           env=_env(remote, authorization), check=False)
    except subprocess.TimeoutExpired:
        raise UnitError(f"{what}: timed out after {timeout:g} s") from None
    except FileNotFoundError:
        raise UnitError("git is not installed (public-inbox sources need it)") from None
    if p.returncode:
        err = p.stderr.decode("utf-8", "replace").strip().splitlines()
        raise UnitError(f"{what}: {err[-1] if err else f'exit {p.returncode}'}")
    return p.stdout.decode("utf-8", "replace")


def is_git_dir(path: Path) -> bool:
    return (path / "HEAD").is_file() and (path / "objects").is_dir()


def head_commit(git_dir: Path) -> str | None:
    try:
        out = git([f"--git-dir={git_dir}", "rev-parse", "--verify", "-q", "HEAD^{commit}"], timeout=60)
    except UnitError:
        return None
    return out.strip() or None


def has_commit(git_dir: Path, commit: str) -> bool:
    try:
        git([f"--git-dir={git_dir}", "cat-file", "-e", f"{commit}^{{commit}}"], timeout=60)
    except UnitError:
        return False
    return True


def mirror(url: str, dest: Path, *, remote: bool, timeout: float, authorization: str | None = None) -> None:
    """Clone once (into a temp folder, renamed when complete), then fetch from the configured URL."""
    if is_git_dir(dest):
        git([f"--git-dir={dest}", "fetch", "--quiet", "--prune", "--no-tags", "--", url,
             "+refs/heads/*:refs/heads/*"], remote=remote, timeout=timeout, authorization=authorization)
        return
    if dest.exists():
        shutil.rmtree(dest)  # a half-written mirror from an interrupted run
    tmp = dest.with_name(f".{dest.name}.{os.getpid()}.tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    dest.parent.mkdir(parents=True, exist_ok=True)
    try:
        git(["clone", "--mirror", "--quiet", "--", url, str(tmp)], remote=remote, timeout=timeout,
            authorization=authorization)
        os.replace(tmp, dest)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def chunk_end(git_dir: Path, since: str | None, head: str, limit: int | None) -> str:
    """The commit after which to stop so that one run reads at most `limit` commits (bounded batches)."""
    if not limit:
        return head
    revs = [f"{since}..{head}" if since else head]
    count = int(git([f"--git-dir={git_dir}", "rev-list", "--count", *revs], timeout=600).strip() or 0)
    if count <= int(limit):
        return head
    return git([f"--git-dir={git_dir}", "rev-list", f"--skip={count - int(limit)}", "-n", "1", *revs],
               timeout=600).strip()


def iter_blobs(git_dir: Path, revs: str, *, max_bytes: int) -> Iterator[bytes | Skipped]:
    """The blob `m` of every commit in `revs`, oldest first; streamed, one message in memory at a time.

    No timeout here: both processes only read the local mirror, and the consumer's pace
    (decode, extract) is not theirs; they are killed as soon as the consumer stops.
    """
    env = _env(False)
    log_p = subprocess.Popen(["git", f"--git-dir={git_dir}", "log", "--reverse", "--format=%H:m", revs, "--"],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    cat_p = subprocess.Popen(["git", f"--git-dir={git_dir}", "cat-file", "--batch"], stdin=log_p.stdout,
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    assert log_p.stdout is not None and cat_p.stdout is not None
    log_p.stdout.close()  # cat-file owns the pipe now; git log gets SIGPIPE if cat-file dies
    try:
        yield from _read_batch(cat_p.stdout, max_bytes)
        if log_p.wait() or cat_p.wait():
            raise UnitError(f"git log/cat-file failed on {revs}")
    finally:
        for p in (log_p, cat_p):
            if p.poll() is None:
                p.kill()
                p.wait()
        cat_p.stdout.close()


def _read_batch(out: IO[bytes], max_bytes: int) -> Iterator[bytes | Skipped]:
    """Parse `git cat-file --batch` output: `<oid> blob <size>\\n<bytes>\\n`, or `<name> missing\\n`."""
    index = 0
    while header := out.readline():
        parts = header.split()
        if len(parts) != 3:  # `<commit>:m missing`: a commit that removed a message
            continue
        size = int(parts[2])
        if parts[1] != b"blob" or size > max_bytes:
            _discard(out, size + 1)
            if parts[1] == b"blob":
                yield Skipped(index, f"message larger than {max_bytes} bytes", size)
                index += 1
            continue
        data = out.read(size)
        out.read(1)
        if len(data) != size:
            raise UnitError("git cat-file output ended early")
        yield data
        index += 1


def _discard(out: IO[bytes], n: int) -> None:
    while n > 0:
        chunk = out.read(min(n, 1 << 20))
        if not chunk:
            return
        n -= len(chunk)


def _dir_bytes(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


# ---------------------------------------------------------------- epochs and units


def local_epochs(root: Path) -> list[tuple[int, str]]:
    """(epoch, repo path): `root/git/N.git`, `root/N.git`, `root/N`, or root itself as one epoch."""
    if is_git_dir(root):
        m = _EPOCH_NAME.match(root.name)
        return [(int(m.group(1)) if m else 0, str(root))]
    for base in (root / "git", root):
        if not base.is_dir():
            continue
        found = [(int(m.group(1)), str(p)) for p in base.iterdir()
                 if (m := _EPOCH_NAME.match(p.name)) and is_git_dir(p)]
        if found:
            return sorted(found)
    return []


def remote_epochs(source: Source, ctx: FetchContext, timeout: float) -> list[tuple[int, str]]:
    """From the `epochs` option, else the inbox's `manifest.js.gz`, else probing `<base>/0`, `/1`, ..."""
    base = source.url.rstrip("/")
    listed = typed_options(Options, source).epochs
    if listed is None:
        listed = _manifest_epochs(base, source, ctx)
    if listed is None:
        listed = []
        for n in range(MAX_EPOCHS):
            try:
                git(["ls-remote", "--heads", "--", f"{base}/{n}"], remote=True, timeout=min(timeout, 300))
            except UnitError:
                break
            listed.append(n)
    return [(int(n), f"{base}/{int(n)}") for n in sorted(set(listed))]


def _manifest_epochs(base: str, source: Source, ctx: FetchContext) -> list[int] | None:
    """Epoch numbers from grokmirror's manifest (`/kvm/git/0.git` keys); None when there is none."""
    dest = fhttp.cache_path(ctx.raw_dir, source.name, "manifest.js.gz")
    dest.parent.mkdir(parents=True, exist_ok=True)
    try:
        with open(dest, "wb") as f:
            resp, _ = ctx.http.request(f"{base}/manifest.js.gz", max_bytes=MAX_MANIFEST_BYTES, sink=f.write)
    except fhttp.FetchError as exc:
        log.warning("source %s: no manifest (%s); probing epochs", source.name, exc)
        return None
    if resp.status_code != 200:
        return None
    try:
        data = json.loads(b"".join(iter_chunks(dest, max_expanded=MAX_MANIFEST_BYTES)))
    except (UnitError, ValueError) as exc:
        raise UnitError(f"{base}/manifest.js.gz: unreadable ({exc})") from None
    return sorted({int(m.group(1)) for key in data if (m := _MANIFEST_KEY.search(str(key)))})


def _mbox_units(source: Source) -> list[Unit]:
    """`threads` -> `<base>/<msgid>/t.mbox.gz`, `raw_messages` -> `<base>/<msgid>/raw` (both mboxrd)."""
    opts = typed_options(Options, source)
    wanted = [("thread", m, "t.mbox.gz") for m in opts.threads]
    wanted += [("raw", m, "raw") for m in opts.raw_messages]
    if wanted and not source.is_remote:
        log.warning("source %s: threads/raw_messages need an http(s) inbox url; ignored", source.name)
        return []
    base = source.url.rstrip("/")
    return [Unit(source.name, f"{kind}-{hashlib.sha1(mid.encode()).hexdigest()[:16]}",
                 f"{base}/{quote(mid.strip('<>'), safe='@!$&()*+,;=:~')}/{suffix}")
            for kind, mid, suffix in wanted]


class PublicInboxKind:
    name = "public-inbox"
    Options = Options
    permalink_style = "public-inbox"  # `<inbox>/<message-id>/`

    @staticmethod
    def archive_root(url: str) -> str:
        """The inbox base (`https://lore.kernel.org/kvm/`); epochs live beneath it."""
        return url.rstrip("/") + "/"

    def units(self, source: Source, ctx: FetchContext) -> list[Unit]:
        if source.is_remote:
            epochs = remote_epochs(source, ctx, _timeout(source))
        else:
            epochs = local_epochs(Path(source.url))
        if not epochs:
            raise UnitError(f"source {source.name!r}: no public-inbox epochs (git/N.git) at {source.url}")
        return [Unit(source.name, f"epoch-{n}", url) for n, url in epochs] + _mbox_units(source)

    def fetch(self, unit: Unit, source: Source, ctx: FetchContext) -> Fetched:
        if not unit.key.startswith("epoch-"):
            f = download(unit, source, ctx, max_bytes=typed_options(Options, source).max_unit_bytes)
            f.extra["mode"] = "mbox"
            return f
        dest = fhttp.cache_path(ctx.raw_dir, source.name, f"{unit.key}.git")
        try:
            login = ctx.http.auth_header(unit.url) if source.is_remote and ctx.http is not None else None
            mirror(unit.url, dest, remote=source.is_remote, timeout=_timeout(source), authorization=login)
        except (UnitError, OSError) as exc:
            return Fetched(unit, "failed", error=str(exc))
        head = head_commit(dest)
        if head is None:
            return Fetched(unit, "failed", error=f"{unit.url}: epoch has no commits")
        last = (ctx.last(unit) or {}).get("sha256")
        since = last if isinstance(last, str) and _COMMIT.match(last) else None
        if since == head:
            return Fetched(unit, "unchanged", path=dest, sha256=head, bytes=_dir_bytes(dest))
        if since and not has_commit(dest, since):  # history rewritten: read it all, known ids are skipped
            log.warning("%s: last processed commit %s is gone; reading the whole epoch", unit.url, since)
            since = None
        try:
            upto = chunk_end(dest, since, head, typed_options(Options, source).max_commits)
        except UnitError as exc:
            return Fetched(unit, "failed", error=str(exc))
        # sha256 = the last commit this run processes: the next run starts after it.
        return Fetched(unit, "ok", path=dest, sha256=upto, bytes=_dir_bytes(dest),
                       extra={"git_dir": str(dest), "since": since, "head": upto})

    def messages(self, fetched: Fetched, source: Source) -> Iterator[RawItem]:
        if fetched.extra.get("mode") == "mbox":
            yield from MBOX.messages(fetched, source)
            return
        git_dir = Path(fetched.extra.get("git_dir") or fetched.path or "")
        head = fetched.extra.get("head") or fetched.sha256
        if not head or not is_git_dir(git_dir):
            raise UnitError("nothing fetched")
        since = fetched.extra.get("since")
        revs = f"{since}..{head}" if since else head
        yield from iter_blobs(git_dir, revs, max_bytes=source.limits.max_message_bytes)


def _timeout(source: Source) -> float:
    return typed_options(Options, source).git_timeout_s


KIND = PublicInboxKind()
