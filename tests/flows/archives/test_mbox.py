"""mbox splitting: envelopes, >From unescaping, bounded message size, gzip caps."""

from __future__ import annotations

import gzip
import io

import pytest
from hypothesis import given
from hypothesis import strategies as st

from flows.archives.base import UnitError
from flows.archives.compressed import iter_chunks
from tests.conftest import SEEDS_MBOX
from transforms.mail import decode_message
from transforms.mbox import Skipped, split_mbox

MBOX = (
    b"From a@x Thu Apr 14 11:06:56 2016\nMessage-ID: <1@x>\n\nbody one\n>From the start\n\n"
    b"From jgb at example.com  Thu Apr 14 11:07:56 2016\nMessage-ID: <2@x>\n\nFrom here, not an envelope\n"
)


def test_split_and_unescape():
    msgs = list(split_mbox(io.BytesIO(MBOX)))
    assert len(msgs) == 2
    assert b"From the start" in msgs[0] and b">From" not in msgs[0]
    assert decode_message(msgs[1]).message_id == "2@x"
    assert b"From here, not an envelope" in msgs[1]


def test_oversized_message_is_skipped_not_loaded():
    big = b"From a@x Thu Apr 14 11:06:56 2016\nMessage-ID: <big@x>\n\n" + b"x" * 100 + b"\n" * 5000
    data = big + b"From b@x Thu Apr 14 11:06:56 2016\nMessage-ID: <ok@x>\n\nsmall\n"
    items = list(split_mbox(io.BytesIO(data), max_message_bytes=1000))
    assert isinstance(items[0], Skipped) and "larger than 1000" in items[0].reason
    assert decode_message(items[1]).message_id == "ok@x"


def test_sample_mbox_has_the_five_seeds():
    with open(SEEDS_MBOX, "rb") as f:
        mails = [decode_message(m) for m in split_mbox(f)]
    assert len(mails) == 5
    assert [m.from_name for m in mails] == ["Xiaodong Yi", "hofrat", "Jim", "Ian Pratt", "Emre ERENOGLU"]
    assert "L M B E N C H 3 . 0 S U M M A R Y" in mails[1].body
    assert all(m.posted_at is not None for m in mails)


def test_gzip_bomb_stops_with_clear_error(tmp_path):
    p = tmp_path / "bomb.mbox.gz"
    p.write_bytes(gzip.compress(b"\n" * (50 * 1024 * 1024)))
    with pytest.raises(UnitError, match="gzip bomb"):
        for _ in iter_chunks(p, max_ratio=100):
            pass


def test_truncated_gzip_is_a_unit_error(tmp_path):
    p = tmp_path / "cut.mbox.gz"
    p.write_bytes(gzip.compress(MBOX * 200)[:300])
    with pytest.raises(UnitError, match="corrupt or truncated gzip"):
        list(iter_chunks(p))


def test_any_chunk_size_gives_the_same_messages():
    data = SEEDS_MBOX.read_bytes() + MBOX
    want = list(split_mbox([data]))
    assert len(want) == 7
    for size in (7, 64, 1000, 1 << 20):
        chunks = [data[i:i + size] for i in range(0, len(data), size)]
        assert list(split_mbox(chunks)) == want, size


def test_a_huge_message_is_skipped_without_being_held():
    def chunks():
        yield b"From a@x Thu Apr 14 11:06:56 2016\nMessage-ID: <big@x>\n\n"
        for _ in range(100):  # 100 MB of body, streamed
            yield b"x" * (1 << 20)
        yield b"\n\nFrom b@x Thu Apr 14 11:06:56 2016\nMessage-ID: <ok@x>\n\nsmall\n"

    items = list(split_mbox(chunks(), max_message_bytes=5 << 20))
    assert isinstance(items[0], Skipped) and items[0].size > 100 << 20
    assert decode_message(items[1]).message_id == "ok@x"


def test_a_non_mbox_is_refused():
    from transforms.mbox import NotAnMbox

    with pytest.raises(NotAnMbox, match="not an mbox: starts with '<html>"):
        list(split_mbox([b"<html><body>503 Service Unavailable</body></html>\n"]))


def _kind_messages(tmp_path, data: bytes) -> list:
    from flows.archives.base import Fetched, Unit
    from flows.archives.mbox import KIND
    from flows.config import Source

    p = tmp_path / "odd.mbox"
    p.write_bytes(data)
    return list(KIND.messages(Fetched(Unit("s", "odd.mbox", str(p)), "ok", path=p), Source("s", "mbox", str(p))))


@pytest.mark.parametrize("encode", [
    lambda b: b.replace(b"\n", b"\r"),  # classic Mac line ends
    lambda b: b.decode().encode("utf-16"),  # with a BOM
    lambda b: b.decode().encode("utf-16-le"),  # without one
    lambda b: b.decode().replace("\n", "\r\n").encode("utf-16-be"),
    lambda b: b"\xef\xbb\xbf" + b,  # a UTF-8 BOM
])
def test_cr_only_and_utf16_mboxes_are_read(tmp_path, encode):
    msgs = _kind_messages(tmp_path, encode(SEEDS_MBOX.read_bytes()))
    assert len(msgs) == 5
    assert [decode_message(m).message_id for m in msgs] == [
        decode_message(m).message_id for m in split_mbox([SEEDS_MBOX.read_bytes()])]
    assert all(b"\r" not in m.replace(b"\r\n", b"") for m in msgs)


def test_normalised_chunks_split_anywhere():
    from transforms.mbox import normalise_chunks

    data = SEEDS_MBOX.read_bytes().decode().encode("utf-16")
    for size in (1, 3, 4096):
        chunks = [data[i:i + size] for i in range(0, len(data), size)]
        assert b"".join(normalise_chunks(chunks)) == SEEDS_MBOX.read_bytes()
    cr = SEEDS_MBOX.read_bytes().replace(b"\n", b"\r")
    assert b"".join(normalise_chunks([cr[i:i + 7] for i in range(0, len(cr), 7)])) == SEEDS_MBOX.read_bytes()


@given(st.lists(st.sampled_from([b">From x", b">>From y", b"From", b"> From z", b"a>From b", b">", b"",
                                 b">>>From w", b"\r"]), max_size=8))
def test_unescaping_removes_one_angle_from_every_line_that_starts_with_it(lines):
    import re

    from transforms.mbox import _finish

    msg = b"\n".join(lines)  # the first line stands at the message's start, the others after a break
    expected = re.sub(rb"(?m)^>(>*From )", rb"\1", msg)  # the rule, written as plainly as it reads
    assert _finish(msg, 0, 0, 1 << 20) == expected


def _fetch(path, previous=None, recheck=False):
    from flows.archives.base import FetchContext, Unit
    from flows.archives.mbox import KIND
    from flows.source import Source

    source = Source("l", "mbox", str(path))
    unit = Unit(source="l", key=path.name, url=str(path))
    ctx = FetchContext(raw_dir=path.parent / "raw", previous={("l", path.name): previous} if previous else {},
                       recheck=recheck)
    return KIND.fetch(unit, source, ctx), source


def test_the_same_stamp_is_unchanged_without_reading_and_a_touch_is_hashed(tmp_path):
    import hashlib
    import os

    p = tmp_path / "l.mbox"
    p.write_bytes(MBOX)
    first, _ = _fetch(p)
    assert first.status == "ok" and first.sha256 == hashlib.sha256(MBOX).hexdigest() and first.bytes == len(MBOX)
    last = {"etag": first.etag, "sha256": "recorded", "bytes": len(MBOX)}
    again, _ = _fetch(p, last)
    assert again.status == "unchanged" and again.sha256 == "recorded"  # the stamp alone decided
    st = p.stat()
    os.utime(p, ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))  # touched: same bytes, read to be sure
    digest = hashlib.sha256(MBOX).hexdigest()
    touched, _ = _fetch(p, {**last, "sha256": digest})
    assert touched.status == "unchanged" and touched.etag != first.etag
    assert _fetch(p, last)[0].status == "ok"  # an old stamp: hashed, and "recorded" is not its hash
    assert _fetch(p, {**last, "etag": touched.etag, "sha256": digest}, recheck=True)[0].sha256 == digest
    p.write_bytes(MBOX + MBOX)  # grown: another stamp, another hash
    assert _fetch(p, {**last, "etag": touched.etag, "sha256": digest})[0].status == "ok"
