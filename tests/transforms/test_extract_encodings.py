"""Raw mail through `listbench extract`: quoted-printable (soft breaks, =20), base64, CRLF and
an HTML-only post give the same rows as the decoded text."""

from __future__ import annotations

import base64
import json
import quopri

import pytest

from tests.conftest import run_cli
from tests.transforms.parsers.fixtures_io import FIXTURES, canonical, expected_rows, fixture_body

CASES = ["netperf/seed_002", "unixbench/seed_000", "lmbench/seed_003", "bonnie/seed_004"]
KEYS = ("benchmark", "system", "metric", "params", "value", "unit", "quoted", "alignment", "statistic")


def _eml(body: bytes, cte: str, ctype: str = "text/plain") -> bytes:
    head = (f"From: Tester <t@example.org>\r\nSubject: results\r\nDate: Tue, 5 Jun 2007 10:00:00 +0000\r\n"
            f"Message-ID: <enc-{cte}@listbench.test>\r\nMIME-Version: 1.0\r\n"
            f"Content-Type: {ctype}; charset=utf-8\r\nContent-Transfer-Encoding: {cte}\r\n\r\n")
    return head.encode() + body


def _rows(tmp_path, data: bytes, name: str) -> list[dict]:
    p = tmp_path / name
    p.write_bytes(data)
    r = run_cli("extract", str(p), "--format", "json")
    assert r.returncode == 0, r.stderr.decode()
    return [{k: row[k] for k in KEYS} for row in json.loads(r.stdout)]


@pytest.mark.parametrize("case", CASES)
def test_quoted_printable_and_base64_give_the_decoded_rows(tmp_path, case):
    path = FIXTURES / f"{case}.txt"
    text = fixture_body(path)
    want = canonical(expected_rows(path))
    raw = text.replace("\n", "\r\n").encode()
    qp = quopri.encodestring(raw, quotetabs=True)  # soft line breaks, =20 for trailing blanks
    assert b"=\r\n" in qp or b"=\n" in qp or len(raw) < 76
    assert canonical(_rows(tmp_path, _eml(qp, "quoted-printable"), "qp.eml")) == want
    b64 = base64.encodebytes(raw).replace(b"\n", b"\r\n")
    assert canonical(_rows(tmp_path, _eml(b64, "base64"), "b64.eml")) == want


def test_html_only_post_keeps_pre_tables(tmp_path):
    import html

    path = FIXTURES / "netperf/seed_002.txt"
    text = fixture_body(path)
    page = f"<html><body><p>Jim wrote:</p><pre>{html.escape(text)}</pre></body></html>".encode()
    got = _rows(tmp_path, _eml(page, "8bit", "text/html"), "h.eml")
    assert canonical(got) == canonical(expected_rows(path))


def test_a_body_over_the_extraction_cap_is_cut_at_a_line_end_and_says_so(monkeypatch):
    import transforms.extract as ex

    table = "dbench version 4.00\n\nThroughput 123.456 MB/sec  4 clients  4 procs  max_latency=12.5 ms\n"
    monkeypatch.setattr(ex, "MAX_EXTRACT_CHARS", len(table) * 3 + 5)
    runs, matched = ex.extract(table * 10, "<cap@example>")
    assert matched
    assert len(runs) == 3  # only the blocks inside the cap
    assert all(r.line_end <= 9 for r in runs)
    assert all(any("only the first" in n for n in r.run.notes) for r in runs)
    small, _ = ex.extract(table, "<small@example>")
    assert small and not any("only the first" in n for r in small for n in r.run.notes)
