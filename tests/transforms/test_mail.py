"""Decoding real-world mail: transfer encodings, charsets, HTML-only, broken headers."""

from __future__ import annotations

import base64
from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from transforms.dates import parse_date
from transforms.mail import decode_message, plain_post


def _msg(headers: str, body: bytes) -> bytes:
    return headers.replace("\n", "\r\n").encode() + b"\r\n\r\n" + body


def test_quoted_printable_soft_breaks_are_joined():
    raw = _msg(
        "From: A <a@x.org>\nMessage-ID: <qp@x>\nContent-Type: text/plain; charset=iso-8859-1\n"
        "Content-Transfer-Encoding: quoted-printable",
        b"Dhrystone 2 using register variables 10802400.5 lps (10.0 s, 2=\r\n samples)\r\nJ=F6rg\r\n",
    )
    m = decode_message(raw)
    assert "lps (10.0 s, 2 samples)\nJörg" in m.body
    assert m.message_id == "qp@x"


def test_base64_gb2312_body():
    text = "测试 Pipe Throughput 803044.2 lps\n"
    raw = _msg(
        "Message-ID: <b64@x>\nContent-Type: text/plain; charset=gb2312\nContent-Transfer-Encoding: base64",
        base64.encodebytes(text.encode("gb2312")),
    )
    assert decode_message(raw).body == text


def test_wrong_charset_declaration_falls_back_without_crash():
    raw = _msg("Message-ID: <cs@x>\nContent-Type: text/plain; charset=x-no-such-charset", "naïve".encode())
    m = decode_message(raw)
    assert m.body == "naïve"
    assert any("unknown charset" in n for n in m.notes)


def test_html_only_mail_keeps_pre_whitespace():
    raw = _msg(
        "Message-ID: <h@x>\nContent-Type: text/html; charset=utf-8",
        b"<html><body><p>Results:</p><pre>size   kvm.pv   xen.pv\n1      9533.74  18052.37</pre></body></html>",
    )
    m = decode_message(raw)
    assert "size   kvm.pv   xen.pv\n1      9533.74  18052.37" in m.body
    assert "text taken from HTML" in m.notes


def test_text_attachment_is_part_of_the_body():
    raw = _msg(
        'Message-ID: <att@x>\nMIME-Version: 1.0\nContent-Type: multipart/mixed; boundary="BB"',
        b"--BB\r\nContent-Type: text/plain\r\n\r\nsee attached\r\n--BB\r\n"
        b"Content-Type: text/plain; name=res.txt\r\nContent-Disposition: attachment; filename=res.txt\r\n"
        b"Content-Transfer-Encoding: base64\r\n\r\n" + base64.encodebytes(b"Time: 1.234\n") + b"--BB--\r\n",
    )
    body = decode_message(raw).body
    assert "see attached" in body and "Time: 1.234" in body


def test_rfc2047_headers_threading_and_missing_message_id():
    raw = _msg(
        "From: =?utf-8?q?Andr=C3=A9_M=C3=BCller?= <am@x.org>\nSubject: =?iso-8859-1?q?R=E9sultats?=\n"
        "In-Reply-To: <p@x>\nReferences: <root@x> <p@x>\nDate: Tue,  9 Apr 2019 18:10:08 +0200",
        b"hi\r\n",
    )
    m = decode_message(raw)
    assert (m.from_name, m.from_addr, m.subject) == ("André Müller", "am@x.org", "Résultats")
    assert m.in_reply_to == "p@x" and m.thread_root == "root@x"
    assert m.message_id.startswith("sha1-")
    assert decode_message(raw).message_id == m.message_id  # stable


def test_pipermail_from_keeps_obfuscated_address():
    m = decode_message(_msg("From: jgb at example.com (Jesus M. Gonzalez)\nMessage-ID: <p@x>", b"x"))
    assert (m.from_name, m.from_addr) == ("Jesus M. Gonzalez", "jgb at example.com")


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Tue,  9 Apr 2019 18:10:08 +0200", datetime(2019, 4, 9, 16, 10, 8, tzinfo=UTC)),
        ("Tue Dec 17 06:03:37 PST 2024", datetime(2024, 12, 17, 14, 3, 37, tzinfo=UTC)),
        ("Mon, 04 Feb 2002 12:56:45 +0100 (CET)", datetime(2002, 2, 4, 11, 56, 45, tzinfo=UTC)),
        ("Wed, 5 Sep 07 10:01 -0400", datetime(2007, 9, 5, 14, 1, tzinfo=UTC)),
        ("Thu Apr 14 11:06:56 2016", datetime(2016, 4, 14, 11, 6, 56, tzinfo=UTC)),
        ("not a date at all", None),
        ("", None),
        ("Mon, 99 Foo 99999 99:99:99 +9999", None),
    ],
)
def test_dates(text, expected):
    assert parse_date(text) == expected


def test_plain_post_has_stable_id():
    assert plain_post("a\r\nb").body == "a\nb"
    assert plain_post("x").message_id == plain_post("x").message_id != plain_post("y").message_id


# ------------------------------------------------- From headers: the fast path equals the email package


def _email_package_from(text: str) -> tuple[str | None, str | None]:
    """What parse_from returned before it had a fast path (the reference)."""
    from email.utils import getaddresses, parseaddr

    try:
        pairs = getaddresses([text])
        name, addr = pairs[0] if pairs else parseaddr(text)
    except Exception:
        name, addr = text, ""
    return (name.strip().strip('"') or None), (addr or None)


def _from_headers() -> list[str]:
    """Every From header of the real posts, the golden fixtures, the sample and the archive fixtures."""
    import re
    from pathlib import Path

    from transforms.mail import header_text

    root = Path(__file__).parents[1]
    files = [*root.glob("fixtures/real/*/*.txt"), *root.glob("fixtures/parsers/*/*.txt"),
             *root.glob("fixtures/archives/**/*"), root.parent / "examples" / "archives" / "seeds.mbox"]
    out = []
    for f in files:
        if f.is_file():
            for raw in re.findall(rb"^From:[ \t]*+(.*(?:\r?\n[ \t].*)*)", f.read_bytes(), re.M):
                out.append(header_text(raw.decode("latin-1")))
    return [h for h in out if h]


def test_fast_from_equals_the_email_package_on_every_fixture_header():
    from transforms.mail import _plain_from

    headers = _from_headers()
    assert len(headers) > 200
    fast = [(h, _plain_from(h)) for h in headers]
    assert sum(r is not None for _, r in fast) > len(headers) // 2  # the fast path is the common one
    for h, r in fast:
        if r is not None:
            assert r == _email_package_from(h), h


@pytest.mark.parametrize("header, expected", [
    ('Ian Pratt <Ian.Pratt@cl.cam.ac.uk>', ("Ian Pratt", "Ian.Pratt@cl.cam.ac.uk")),
    ('"Pratt, Ian" <ian@example.org>', ("Pratt, Ian", "ian@example.org")),
    ("rwhron@earthlink.net", (None, "rwhron@earthlink.net")),
    ("avi@qumranet.com (Avi Kivity)", ("Avi Kivity", "avi@qumranet.com")),
    ("<anthony@codemonkey.ws>", (None, "anthony@codemonkey.ws")),
    ("A <a@x>, B <b@y>", ("A", "a@x")),  # several addresses: the email package decides
    ('"a\\"b" <q@x>', ('a"b', "q@x")),  # an escaped quote: likewise
])
def test_from_shapes(header, expected):
    from transforms.mail import parse_from

    assert parse_from(header) == expected


_FROM_CHARS = 'ab .,;:@<>()"\\\tZ\u00e9'


@given(st.text(alphabet=_FROM_CHARS, max_size=40))
def test_fast_from_agrees_or_steps_aside(text):
    from transforms.mail import _plain_from

    r = _plain_from(text)
    assert r is None or r == _email_package_from(text)


def _multipart(part_headers: bytes, body: bytes = b"Pipe Throughput 803044.2 lps\n") -> bytes:
    return (b"From: A <a@x.org>\nMessage-ID: <mp@x>\nContent-Type: multipart/mixed; boundary=BB\n\n"
            b"--BB\n" + part_headers + b"\n\n" + body + b"--BB--\n")


@pytest.mark.parametrize("charset", [b"undefined", b'"utf\x008"', b"utf-8\x00"])
def test_charsets_that_make_python_raise_fall_back_with_a_note(charset):
    m = decode_message(_multipart(b"Content-Type: text/plain; charset=" + charset))
    assert m.message_id == "mp@x"
    assert m.body == "Pipe Throughput 803044.2 lps"
    assert any("charset" in n for n in m.notes)


def _nested_rfc822(depth: int) -> bytes:
    return (b"From: a@x.org\nSubject: deep\nContent-Type: message/rfc822\n\n" * depth
            + b"Content-Type: text/plain\n\nPipe Throughput 803044.2 lps\n")


def _nested_multipart(depth: int) -> bytes:
    parts = b"".join(b"Content-Type: multipart/mixed; boundary=b%d\n\n--b%d\n" % (i, i) for i in range(depth))
    return b"From: a@x.org\nMessage-ID: <deep@x>\nSubject: deep\n" + parts + b"Content-Type: text/plain\n\nbody\n"


@pytest.mark.parametrize("make", [_nested_rfc822, _nested_multipart])
def test_a_mime_tree_deeper_than_the_cap_is_cut_with_a_note(make):
    m = decode_message(make(1000))
    assert any(n.startswith("MIME tree cut at depth") for n in m.notes)
    shallow = decode_message(make(5))
    assert not any("cut" in n for n in shallow.notes)
    assert "Pipe Throughput" in shallow.body or shallow.body == "body"


def test_the_depth_cap_is_a_parameter():
    m = decode_message(_nested_rfc822(5), max_depth=3)
    assert "MIME tree cut at depth 3" in m.notes and "Pipe Throughput" not in m.body
    assert "Pipe Throughput" in decode_message(_nested_rfc822(5), max_depth=10).body


@pytest.mark.parametrize("codec", ["utf-16", "utf-16-le", "utf-16-be"])
def test_a_utf16_message_file_is_read(codec):
    raw = "From: Jörg <a@x>\nMessage-ID: <u16@x>\nSubject: hi\n\nPipe Throughput 1 lps\n"
    m = decode_message(raw.encode(codec))
    assert (m.message_id, m.subject, m.from_name, m.body) == ("u16@x", "hi", "Jörg", "Pipe Throughput 1 lps\n")
    assert m.notes == [f"read as {codec}"]


def test_a_cr_only_message_file_is_read():
    m = decode_message(b"From: a@x\rMessage-ID: <cr@x>\rSubject: hi\r\rPipe Throughput 1 lps\rline2\r")
    assert (m.message_id, m.subject, m.body) == ("cr@x", "hi", "Pipe Throughput 1 lps\nline2\n")


# ------------------------------------ flat multipart messages: the fast path equals the email package

def _reference_body(raw: bytes) -> tuple[str, list[str]]:
    """What the email package makes of the body (the path every multipart took before)."""
    from transforms.mail import body_text, parse_capped

    notes: list[str] = []
    msg, _ = parse_capped(raw)
    return body_text(msg, notes), notes


_PART_TYPES = st.sampled_from([
    "", "Content-Type: text/plain", "Content-Type: text/plain", "Content-Type: text/plain; charset=utf-8", "Content-Type: text/plain; charset=utf-8",
    "Content-Type: TEXT/PLAIN; charset=\"iso-8859-1\"", "Content-Type: text/html; charset=utf-8",
    "Content-Type: text/x-log", "Content-Type: application/pgp-signature", "Content-Type: image/png",
    "Content-Type: text/plain; charset=bogus-cs", "Content-Type: application/octet-stream; name=r.txt",
    "Content-Type: message/rfc822", "Content-Type: multipart/alternative; boundary=inner",
    "Content-Type: nonsense", "Content-Disposition: attachment; filename=results.txt",
])
_CTES = st.sampled_from(["", "", "7bit", "8bit", "quoted-printable", "base64", "x-uuencode"])
_TEXT = st.lists(st.sampled_from(["Pipe Throughput 803044.2 lps", "J\xf6rg", "--BB", "--BBX", "--BB--  ",
                                  "=E9t=E9", "<b>1.2</b> MB/s", "", "  ", "QUJD", "QUJ", "From here on"]),
                 max_size=6)


@st.composite
def _flat_multipart(draw) -> bytes:
    eol = draw(st.sampled_from(["\n", "\r\n"]))
    boundary = draw(st.sampled_from(["BB", '"BB"', '"BB "', "BB; format=flowed"]))
    out = [f"From: A <a@x.org>\nMessage-ID: <mp@x>\nContent-Type: multipart/"
           f"{draw(st.sampled_from(['mixed', 'alternative', 'signed', 'digest']))}; boundary={boundary}\n\n"]
    if draw(st.booleans()):
        out.append("This is a multi-part message in MIME format.\n")
    for _ in range(draw(st.integers(1, 3))):
        out.append("--BB" + draw(st.sampled_from(["", " ", "\t"])) + "\n")
        head = [h for h in (draw(_PART_TYPES), draw(_CTES)) if h]
        if len(head) == 2:
            head[1] = "Content-Transfer-Encoding: " + head[1]
        elif head and not head[0].startswith("Content-"):
            head = ["Content-Transfer-Encoding: " + head[0]]
        out.append("".join(h + "\n" for h in head) + "\n")
        out.append("".join(line + "\n" for line in draw(_TEXT)))
    if draw(st.integers(0, 4)):  # most messages close their last part
        out.append("--BB--\n" + ("epilogue\n" if draw(st.booleans()) else ""))
    text = "".join(out).replace("\n", eol)
    return text.encode("latin-1") + b"\xe9\n" * draw(st.integers(0, 1))


@settings(max_examples=300, deadline=None)
@given(_flat_multipart())
def test_flat_multipart_fast_path_equals_the_email_package(raw):
    from transforms.mail import _decode_fast

    fast = _decode_fast(raw)
    if fast is not None:
        assert (fast.body, fast.notes) == _reference_body(raw)
    assert decode_message(raw).body == _reference_body(raw)[0]


def test_the_fast_path_takes_the_common_flat_multipart():
    from transforms.mail import _decode_fast

    raw = (b"From: A <a@x.org>\nMessage-ID: <mp@x>\nContent-Type: multipart/mixed; boundary=\"=-=x\"\n\n"
           b"preamble\n--=-=x\nContent-Type: text/plain; charset=utf-8\n\nPipe Throughput 803044.2 lps\n"
           b"--=-=x\nContent-Type: application/pgp-signature\n\nsig\n--=-=x--\n")
    fast = _decode_fast(raw)
    assert fast is not None and fast.body == "Pipe Throughput 803044.2 lps" == _reference_body(raw)[0]


# https://lore.kernel.org/linux-arch/20211001112354.GA10720@duo.ucw.cz/ as an archive that kept
# only four headers gives it: the multipart body, no Content-Type to say so
LOST_TYPE = (b"From: Pavel Machek <pavel@ucw.cz>\nSubject: Re: [PATCH v5 1/3] riscv: optimized memcpy\n"
             b"Date: Fri, 1 Oct 2021 13:23:54 +0200\nMessage-ID: <20211001112354.GA10720@duo.ucw.cz>\n\n\n"
             b"--huq684BweRXVnRxX\nContent-Type: text/plain; charset=us-ascii\nContent-Disposition: inline\n"
             b"Content-Transfer-Encoding: quoted-printable\n\nHi!\n\n> before:\n>=20\n"
             b"> [  5]   0.00-1.00   sec  76.4 MBytes   641 Mbits/sec   27    624 KBytes\n\n"
             b"--huq684BweRXVnRxX\nContent-Type: application/pgp-signature; name=\"signature.asc\"\n\n"
             b"-----BEGIN PGP SIGNATURE-----\nxyz\n-----END PGP SIGNATURE-----\n\n--huq684BweRXVnRxX--\n")


def test_a_multipart_body_under_headers_that_lost_their_content_type_is_decoded():
    m = decode_message(LOST_TYPE)
    assert m.body.startswith("Hi!\n\n> before:\n> \n> [  5]   0.00-1.00")
    assert "=20" not in m.body and "PGP SIGNATURE" not in m.body and "huq684" not in m.body
    assert m.notes == ["MIME parts under headers without a Content-Type: read as multipart"]
    assert m.message_id == "20211001112354.GA10720@duo.ucw.cz"


@pytest.mark.parametrize("body", [
    b"-- \nPavel\n",  # a signature separator
    b"--huq684BweRXVnRxX\njust text after a rule\n",  # no part header under it
])
def test_bodies_that_only_look_like_mime_stay_as_they_are(body):
    raw = b"From: a@x\nMessage-ID: <p@x>\n\n" + body
    m = decode_message(raw)
    assert m.body == body.decode() and m.notes == []


def test_a_declared_type_is_never_second_guessed():
    raw = LOST_TYPE.replace(b"Message-ID:", b"Content-Type: text/plain\nMessage-ID:", 1)
    m = decode_message(raw)
    assert "huq684BweRXVnRxX" in m.body and m.notes == []


# https://lore.kernel.org/linux-btrfs/CAL3q7H4JPumV5YPUdbTU=gS6wyYOpUga0H47ffxgirqrEVE=pQ@mail.gmail.com/
# (its quoted lines), as an archive that kept four headers and dropped its transfer encoding shows it
LOST_QP = (b"From: A <a@x.org>\nSubject: Re: [PATCH] btrfs: ra expand\nMessage-ID: <qp@x>\n\n"
           b"> dd if=3Dsome-compressed-file of=3D/dev/null bs=3D4k count=3DX\n>\n"
           b"> =3D=3D=3Dfor-next=3D=3D=3D\n> 4294967296 bytes (4.3 GB, 4.0 GiB) copied, 6.02983 s, 712 MB=\n/s\n")


def test_a_quoted_printable_body_under_headers_that_lost_its_encoding_is_decoded():
    m = decode_message(LOST_QP)
    assert "dd if=some-compressed-file of=/dev/null bs=4k count=X" in m.body
    assert "===for-next===" in m.body and "copied, 6.02983 s, 712 MB/s" in m.body
    assert m.notes == ["quoted-printable body under headers without a Content-Transfer-Encoding: decoded"]


@pytest.mark.parametrize("body", [
    b"fio --iodepth=32 --numjobs=16 --size=10G\n",  # `=32`, `=16` look like escapes: no mark of QP
    b"x =3D y\nbut a = b here\n",  # an `=` quoted-printable would have escaped
    b"one soft break=\nonly\n",  # one mark is not enough
])
def test_plain_bodies_with_equals_signs_stay_as_they_are(body):
    m = decode_message(b"From: a@x\nMessage-ID: <p@x>\n\n" + body)
    assert m.body == body.decode() and m.notes == []


def test_a_declared_encoding_or_another_type_is_never_second_guessed():
    declared = LOST_QP.replace(b"Message-ID:", b"Content-Transfer-Encoding: 8bit\nMessage-ID:", 1)
    assert "=3D" in decode_message(declared).body
    html = LOST_QP.replace(b"Message-ID:", b"Content-Type: text/html\nMessage-ID:", 1)
    assert decode_message(html).notes[:1] != ["quoted-printable body under headers without a Content-Transfer-Encoding: decoded"]


@given(st.lists(st.sampled_from([b"\r", b"\n", b"a", b": "]), max_size=30).map(b"".join), st.integers(-1, 40))
def test_header_end_finds_what_the_blank_line_pattern_finds(raw, limit):
    import re

    from transforms.mail import header_end

    m = re.compile(rb"\r?\n\r?\n").search(raw, 0, len(raw) if limit < 0 else limit)
    assert header_end(raw, limit) == ((m.start(), m.end()) if m else None)


def test_utf8_text_under_a_latin1_label_is_read_as_utf8():
    # https://lore.kernel.org/lkml/20230824075208.GA459974@ziqianlu-dell/ (2023): `192s±25%` in a
    # post labelled iso-8859-1 whose bytes are UTF-8; real Latin-1 text stays Latin-1
    head = b"From: a@b.c\nSubject: x\nMessage-ID: <m@x>\nContent-Type: text/plain; charset=\"iso-8859-1\"\n\n"
    mail = decode_message(head + "base     192s\u00b125%  15.12%\n".encode("utf-8"))
    assert "192s\u00b125%" in mail.body and any("read as UTF-8" in n for n in mail.notes)
    latin = decode_message(head + "caf\u00e9 M\u00fcller\n".encode("latin-1"))
    assert "caf\u00e9 M\u00fcller" in latin.body
