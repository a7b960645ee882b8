"""Test mboxes and mbox-source configs shared by flow and warehouse tests."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.conftest import SEEDS_MBOX, mbox_source, write_config


def seed_messages() -> list[bytes]:
    from tests.conftest import SEEDS_MBOX
    from transforms.mbox import split_mbox

    return list(split_mbox([SEEDS_MBOX.read_bytes()]))


def numbered_mbox(path, n: int, plant: dict[int, bytes]) -> list[str]:
    """An mbox of `n` messages, message i replaced by plant[i]; their ids. Every 10th is a seed
    post (benchmark results), the others short replies."""
    seeds = seed_messages()
    out, ids = [], []
    for i in range(n):
        body = seeds[i // 10 % len(seeds)] if i % 10 == 0 else b"Subject: Re: results\n\nThanks, looks good.\n"
        raw = plant.get(i) or b"Message-ID: <p%d@test>\n" % i + body
        out.append(b"From t@test Thu Apr 14 11:06:56 2016\n" + raw.rstrip(b"\n") + b"\n\n")
        ids.append(f"p{i}@test")
    path.write_bytes(b"".join(out))
    return ids


def planted(i: int, mark: str) -> bytes:
    return (f"From: x@test\nMessage-ID: <p{i}@test>\nSubject: planted\nDate: Tue, 5 Jun 2007 10:00:00 +0000\n\n"
            f"{mark}\n").encode()


def poison_decoding(monkeypatch: pytest.MonkeyPatch, module: ModuleType, message_id: str) -> None:
    """Make `module.decode_message` raise RecursionError on message `<message_id>` only, as a
    message nested too deep for the email package does: one bad message must cost only itself."""
    real = module.decode_message

    def decode(raw: bytes, *a: Any, **kw: Any) -> Any:
        if f"<{message_id}>".encode() in raw:
            raise RecursionError("maximum recursion depth exceeded")
        return real(raw, *a, **kw)

    monkeypatch.setattr(module, "decode_message", decode)


def _mbox(posts: list[tuple[str, str, str]]) -> str:
    out = []
    for mid, subject, body in posts:
        out.append(f"From someone@example.org Mon Jan  6 10:00:00 2003\nFrom: Someone <someone@example.org>\n"
                   f"Subject: {subject}\nDate: Mon, 6 Jan 2003 10:00:00 +0000\nMessage-ID: <{mid}>\n\n{body}\n")
    return "".join(out)


def _setup(tmp_path, copies: int = 3):
    """Three mbox sources (three batches) so a crash can fall between commits."""
    srcs = ""
    for i in range(copies):
        text = SEEDS_MBOX.read_text()
        if i:  # distinct messages per copy
            text = text.replace("Subject: ", f"Message-ID: <copy{i}-{{n}}@listbench.test>\nSubject: ", 5)
            parts = text.split("Message-ID: <copy")
            text = parts[0] + "".join(f"Message-ID: <copy{p.replace('{n}', str(k), 1)}" for k, p in enumerate(parts[1:]))
        (tmp_path / f"s{i}.mbox").write_text(text)
        srcs += mbox_source(f"s{i}", f"s{i}.mbox")
    return write_config(tmp_path, srcs)


COPIES = 8  # of the five sample posts, each copy under new Message-IDs: 40 messages


PART = 6  # messages per part in the tests: 7 parts


def big_mbox(path: Path, copies: int = COPIES) -> Path:
    """The sample posts `copies` times, each message under its own Message-ID, plus one message
    repeated at the end (a repeat in a later part must be dropped like one in the same part)."""
    posts = [b"From " + p for p in SEEDS_MBOX.read_bytes().split(b"\nFrom ")]
    posts[0] = posts[0][len(b"From "):]
    out = []
    for c in range(copies):
        for k, post in enumerate(posts):
            env, rest = post.split(b"\n", 1)
            body = rest.rstrip(b"\n") + b"\n\n"
            out.append(env + b"\n" + f"Message-ID: <c{c}-p{k}@listbench.test>\n".encode() + body)
    out.append(out[3])
    path.write_bytes(b"".join(out))
    return path
