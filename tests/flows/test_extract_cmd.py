"""`listbench extract` on hostile files: bounded gzip, poison messages, UTF-16 and CR-only text."""

from __future__ import annotations

import gzip
import json

import pytest

from flows import extract_cmd
from tests.conftest import SEEDS_MBOX, run_cli, seed_text
from tests.mboxes import numbered_mbox, planted, poison_decoding


def test_a_gzip_bomb_stops_at_the_cap(tmp_path, monkeypatch):
    p = tmp_path / "bomb.mbox.gz"
    p.write_bytes(gzip.compress(b"From a@x Thu Apr 14 11:06:56 2016\n\n" + b"\0" * (64 << 20), 9))
    assert p.stat().st_size < 100_000
    with pytest.raises(ValueError, match="compression ratio above 200"):
        extract_cmd.read_input(str(p))
    with pytest.raises(ValueError, match="expands beyond 1000000 bytes"):
        extract_cmd.read_input(str(p), max_expanded=1_000_000, max_ratio=10_000)


def test_a_real_gzip_still_reads(tmp_path):
    p = tmp_path / "seeds.mbox.gz"
    p.write_bytes(gzip.compress(SEEDS_MBOX.read_bytes()))
    data, name = extract_cmd.read_input(str(p))
    assert data == SEEDS_MBOX.read_bytes() and name == "seeds.mbox.gz"


def test_a_message_that_breaks_costs_only_itself(tmp_path, monkeypatch):
    poison_decoding(monkeypatch, extract_cmd, "p10@test")
    path = tmp_path / "poison.mbox"
    numbered_mbox(path, 31, {})
    problems: list[str] = []
    rows = extract_cmd.extract_rows(str(path), problems)
    assert {r["message_id"] for r in rows} == {"p0@test", "p20@test", "p30@test"}
    assert problems == ["message 10 <p10@test>: not decoded: RecursionError: maximum recursion depth exceeded"]


def test_oversized_messages_are_named_not_parsed(tmp_path):
    path = tmp_path / "big.mbox"
    numbered_mbox(path, 3, {1: planted(1, "x" * 30000)})
    problems: list[str] = []
    rows = extract_cmd.extract_rows(str(path), problems, max_message_bytes=20000)
    assert {r["message_id"] for r in rows} == {"p0@test"}
    assert problems == ["message 1: message larger than 20000 bytes"]


def test_cli_prints_the_good_rows_and_names_the_poison_message(tmp_path):
    deep = (b"From: a@test\nMessage-ID: <p20@test>\nSubject: deep\nContent-Type: message/rfc822\n\n"
            + b"From: a@test\nSubject: deeper\nContent-Type: message/rfc822\n\n" * 1000 + b"\n\nbody\n")
    charset = (b"From: a@test\nMessage-ID: <p21@test>\nContent-Type: multipart/mixed; boundary=BB\n\n--BB\n"
               b"Content-Type: text/plain; charset=undefined\n\nhello\n--BB--\n")
    path = tmp_path / "poison.mbox"
    numbered_mbox(path, 31, {20: deep, 21: charset})
    r = run_cli("extract", str(path), "--format", "json")
    assert r.returncode == 0, r.stderr.decode()
    assert {row["message_id"] for row in json.loads(r.stdout)} == {"p0@test", "p10@test", "p30@test"}
    err = r.stderr.decode().splitlines()
    assert "message 20 <p20@test>: MIME tree cut at depth 50" in err
    assert "message 21 <p21@test>: unusable charset 'undefined'" in err


@pytest.mark.parametrize("encode, note", [
    (lambda b: b.replace(b"\n", b"\r"), "CR line ends read as LF"),
    (lambda b: b.decode().encode("utf-16"), "read as utf-16"),
    (lambda b: b.decode().replace("\n", "\r\n").encode("utf-16-le"), "read as utf-16-le"),
])
@pytest.mark.parametrize("what", ["mbox", "post"])
def test_cr_only_and_utf16_files_give_their_rows(tmp_path, encode, note, what):
    raw = SEEDS_MBOX.read_bytes() if what == "mbox" else seed_text("000").encode()
    want = extract_cmd.extract_rows(str(_write(tmp_path / f"plain.{what}", raw)))
    assert len(want) > 20
    problems: list[str] = []
    got = extract_cmd.extract_rows(str(_write(tmp_path / f"odd.{what}", encode(raw))), problems)
    strip = lambda rows: [{k: v for k, v in r.items() if k not in ("message_id", "run_id")} for r in rows]  # noqa: E731
    assert strip(got) == strip(want)
    assert problems == [f"odd.{what}: {note}"]


def _write(p, data):
    p.write_bytes(data)
    return p
