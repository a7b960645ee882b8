"""Decoding one raw message into what extraction and the warehouse need.

stdlib `email` with the compat32 policy (5x faster than policy.default, see
research/perf.md); charsets, transfer encodings, RFC 2047 headers and MIME nesting
are decoded defensively: a broken message yields a `Mail` with notes. What still
raises (a bug in the email package) is caught per message by the caller, which
records the message with `raw_mail`.
"""

from __future__ import annotations

import binascii
import hashlib
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from email.feedparser import FeedParser
from email.header import decode_header, make_header
from email.message import Message
from email.policy import compat32
from email.utils import getaddresses, parseaddr

from transforms.dates import parse_date
from transforms.html import html_to_text
from transforms.mbox import sniff_encoding

_MSGID = re.compile(r"<([^<>\s]+)>")
_CHARSET_ALIASES = {"gb2312": "gb18030", "gbk": "gb18030", "x-gbk": "gb18030", "ascii": "us-ascii",
                    "unknown-8bit": "utf-8", "x-unknown": "utf-8", "latin1": "iso-8859-1"}  # fmt: skip


@dataclass(slots=True)
class Mail:
    message_id: str
    body: str
    subject: str | None = None
    from_name: str | None = None
    from_addr: str | None = None
    posted_at: datetime | None = None
    in_reply_to: str | None = None
    references: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    url: str | None = None  # the post's own page, when the archive kind read it from one

    @property
    def thread_root(self) -> str:
        """First known ancestor: the thread id users group by."""
        if self.references:
            return self.references[0]
        return self.in_reply_to or self.message_id


def header_text(value: object) -> str | None:
    """RFC 2047 decode, tolerant of broken encoded words and raw 8-bit bytes."""
    if value is None:
        return None
    raw = str(value)
    if "=?" not in raw:
        text = _latin1_to_utf8(raw)
    else:
        try:
            text = str(make_header(decode_header(raw)))
        except Exception:
            text = raw
    text = " ".join(text.split())
    return text or None


def _latin1_to_utf8(text: str) -> str:
    """Raw 8-bit header bytes arrive as latin-1 code points; most are really UTF-8."""
    if text.isascii():
        return text
    try:
        return text.encode("latin-1").decode("utf-8")
    except (UnicodeEncodeError, UnicodeDecodeError):
        return text


# single-byte charsets a mailer often declares for text it wrote in UTF-8: bytes that form valid
# UTF-8 sequences (`Â±` would be `±`) are hardly ever real text in them, so UTF-8 is read first
_LATIN = frozenset({"iso-8859-1", "iso-8859-15", "iso8859-1", "iso8859-15", "cp1252", "windows-1252"})


def _decode_bytes(data: bytes, charset: str | None, notes: list[str]) -> str:
    cs = (charset or "").strip().strip('"').lower()
    cs = _CHARSET_ALIASES.get(cs, cs)
    if cs in _LATIN and not data.isascii():
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            pass
        else:
            notes.append(f"declared {charset!r}, read as UTF-8")
            return text
    if cs:
        try:
            return data.decode(cs)
        except LookupError:
            notes.append(f"unknown charset {charset!r}")
        except UnicodeDecodeError:
            notes.append(f"bytes not valid {charset!r}")
        except ValueError:  # `undefined` (UnicodeError), a NUL inside the name, ...
            notes.append(f"unusable charset {charset!r}")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def _part_text(part: Message, notes: list[str]) -> str:
    try:
        payload = part.get_payload(decode=True)
    except Exception as exc:  # broken base64 padding and the like
        notes.append(f"undecodable part: {exc}")
        payload = None
    if payload is None:
        raw = part.get_payload()
        payload = raw.encode("utf-8", "replace") if isinstance(raw, str) else b""
    return _decode_bytes(payload, part.get_content_charset() or part.get_param("charset"), notes)


def body_text(msg: Message, notes: list[str]) -> str:
    """All text/plain parts (attachments too: posters attach results as .txt); HTML only as fallback."""
    plain: list[str] = []
    html: list[str] = []
    for part in msg.walk():
        if part.is_multipart():
            continue
        ctype = part.get_content_type()
        if ctype == "text/plain" or (ctype == "text/x-log") or (
            ctype == "application/octet-stream"
            and (part.get_filename() or "").lower().endswith((".txt", ".log"))
        ):
            plain.append(_part_text(part, notes))
        elif ctype == "text/html":
            html.append(_part_text(part, notes))
    if plain:
        text = "\n\n".join(plain)
    elif html:
        notes.append("text taken from HTML")
        text = "\n\n".join(html_to_text(h) for h in html)
    else:
        text = ""
    return normalise_newlines(text)


def normalise_newlines(text: str) -> str:
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text


# A note an archive kind puts on a message whose body lost its blanks (HTML without <pre>):
# every run read from it is flagged `inferred`, its column alignment cannot be trusted.
WHITESPACE_COLLAPSED = "whitespace collapsed by the archive"


def stable_id(*parts: str | None) -> str:
    """A message id for input without one: same content, same id."""
    h = hashlib.sha1("\x1f".join(p or "" for p in parts).encode("utf-8", "replace"))
    return f"sha1-{h.hexdigest()[:24]}@listbench"


def _ids(value: str | None) -> list[str]:
    return _MSGID.findall(value or "")


def header_end(raw: bytes, limit: int = -1) -> tuple[int, int] | None:
    """(where the header block ends, where the body starts): the first blank line, `\\n` or
    `\\r\\n` line ends in any mix (what `\\r?\\n\\r?\\n` finds first; two byte searches,
    the second only over the headers, cost a fifth of that pattern's scan)."""
    stop = len(raw) if limit < 0 else min(limit, len(raw))
    k = raw.find(b"\n\n", 0, stop)
    crlf = raw.find(b"\n\r\n", 0, k + 2 if k >= 0 else stop)  # one that starts before `k`
    if crlf >= 0:
        k, width = crlf, 3
    elif k >= 0:
        width = 2
    else:
        return None
    return (k - 1 if k > 0 and raw[k - 1:k] == b"\r" else k), k + width


_PARAM = re.compile(r"""(?i);\s*charset\s*=\s*"?([^";\s]+)""")


def _fast_headers(block: bytes) -> dict[str, str] | None:
    """Unfolded headers of a message (first value per name, lower-case names); None when odd."""
    out: dict[str, str] = {}
    name: str | None = None  # the header continuation lines belong to, if its first occurrence
    for line in block.decode("latin-1").replace("\r\n", "\n").split("\n"):
        if not line:
            continue
        if line[0] in " \t":
            if name is not None:
                out[name] += " " + line.strip()
            continue
        key, sep, value = line.partition(":")
        if not sep or not key or " " in key:
            if line.startswith("From "):  # a stray envelope line
                name = None
                continue
            return None
        key = key.strip().lower()
        if key in out:
            name = None
        else:
            name = key
            out[key] = value.strip()
    return out


def _fast_text(headers: dict[str, str], payload: bytes, notes: list[str]) -> str | None:
    """A text part's payload: transfer encoding undone via binascii, then its charset; None for an
    encoding only the email package reads (or base64 it would have to repair)."""
    cte = headers.get("content-transfer-encoding", "7bit").strip().lower()
    try:
        if cte == "quoted-printable":
            payload = binascii.a2b_qp(payload)
        elif cte == "base64":
            payload = binascii.a2b_base64(payload)
        elif cte not in ("7bit", "8bit", "binary", ""):
            return None
    except (binascii.Error, ValueError):
        return None
    m = _PARAM.search(headers.get("content-type", ""))
    return _decode_bytes(payload, m.group(1) if m else None, notes)


def _fast_body(headers: dict[str, str], payload: bytes, notes: list[str]) -> str | None:
    """Body of a single-part text/plain message; None means: use the email package."""
    if not headers.get("content-type", "text/plain").lower().lstrip().startswith("text/plain"):
        return None
    text = _fast_text(headers, payload, notes)
    return None if text is None else normalise_newlines(text)


def _content_type(headers: dict[str, str]) -> str:
    """`get_content_type()`'s answer from a header value: lower case, text/plain when malformed."""
    ctype = headers.get("content-type", "text/plain").split(";", 1)[0].strip().lower()
    return ctype if ctype.count("/") == 1 else "text/plain"


_BOUNDARY = re.compile(r"""(?i);[ \t]*+boundary[ \t]*+=[ \t]*+(?:"([^"\\]{1,200})"|([^";\s]{1,200}))[ \t]*+(?:;|$)""")


def _multipart_parts(ctype_header: str, payload: bytes) -> list[bytes] | None:
    """The parts of a flat multipart body as the email package cuts them (preamble and epilogue
    dropped, each part without the line break before its delimiter); None when odd."""
    m = _BOUNDARY.search(ctype_header)
    if m is None:
        return None
    boundary = (m.group(1) or m.group(2)).rstrip()
    if not boundary or not boundary.isascii():
        return None
    sep = b"--" + boundary.encode("ascii")
    parts: list[bytes] = []
    cur: list[bytes] | None = None  # None: still in the preamble
    for line in payload.splitlines(keepends=True):
        if line.startswith(sep):
            rest = line[len(sep):]
            closing = rest.startswith(b"--")
            if not (rest[2:] if closing else rest).rstrip(b"\r\n").strip(b" \t"):  # a delimiter line
                if cur is not None:
                    part = b"".join(cur)
                    cut = 2 if part.endswith(b"\r\n") else 1 if part.endswith((b"\n", b"\r")) else 0
                    parts.append(part[: len(part) - cut])
                if closing:
                    return parts
                cur = []
                continue
        if cur is not None:
            cur.append(line)
    return None  # no closing delimiter: the email package's defect handling decides


def _fast_multipart(headers: dict[str, str], payload: bytes, notes: list[str]) -> str | None:
    """What `body_text` reads of a flat multipart message (text/plain parts; HTML only when there
    is none); None (use the email package) for nesting, parts that need a file name, encodings
    binascii does not read or anything malformed. The email package compiles one pattern per
    boundary: on 2.6% of generated list mail that was a tenth of all decoding."""
    ctype = _content_type(headers)
    if not ctype.startswith("multipart/") or ctype == "multipart/digest":
        return None
    parts = _multipart_parts(headers.get("content-type", ""), payload)
    if not parts:
        return None
    plain: list[str] = []
    html: list[str] = []
    for part in parts:
        if part.startswith((b"\n", b"\r")):  # no headers: a text/plain part
            head: dict[str, str] | None = {}
            body = part[2 if part.startswith(b"\r\n") else 1:]
        else:
            cut = header_end(part)
            if cut is None or part.startswith(b"From ") or b"\nFrom " in part[: cut[0]]:
                return None
            head, body = _fast_headers(part[: cut[0]]), part[cut[1]:]
        if head is None:
            return None
        kind = _content_type(head)
        if kind.startswith(("multipart/", "message/")) or kind == "application/octet-stream":
            return None
        if kind in ("text/plain", "text/x-log", "text/html"):
            text = _fast_text(head, body, notes)
            if text is None:
                return None
            (html if kind == "text/html" else plain).append(text)
    if plain:
        return normalise_newlines("\n\n".join(plain))
    if html:
        notes.append("text taken from HTML")
        return normalise_newlines("\n\n".join(html_to_text(h) for h in html))
    return ""


def _decode_fast(raw: bytes, cut: tuple[int, int] | None = None) -> Mail | None:
    """The common cases (one text/plain part; a flat multipart) without the email package: ~5x
    faster. `cut`: where the headers end, when the caller found it already."""
    cut = cut or header_end(raw)
    if cut is None:
        return None
    headers = _fast_headers(raw[: cut[0]])
    if headers is None:
        return None
    notes: list[str] = []
    body = _fast_body(headers, raw[cut[1]:], notes)
    if body is None:
        body = _fast_multipart(headers, raw[cut[1]:], notes)
    if body is None:
        return None
    return _mail_from(headers.get, body, notes)


MAX_MIME_DEPTH = 50  # real mail nests a handful of levels; 1,000 overflow the parser's recursion


CUT_TYPE = "application/x-listbench-cut"


class _CutMessage(Message):
    """A part below the depth cap: the parser keeps its content as an opaque payload."""

    def get_content_type(self) -> str:
        return CUT_TYPE


class _CappedParser(FeedParser):
    """compat32 parsing with nesting stopped at `max_depth`: the stdlib recurses once per
    level (multipart and message/rfc822), so a 1,000-deep tree raises RecursionError."""

    def __init__(self, max_depth: int) -> None:
        super().__init__(policy=compat32)
        self.max_depth = max_depth
        self.cut = False

    def _new_message(self) -> None:
        if len(self._msgstack) >= self.max_depth:
            self._factory = _CutMessage
            self.cut = True
        super()._new_message()
        self._factory = Message


def parse_capped(raw: bytes, max_depth: int = MAX_MIME_DEPTH) -> tuple[Message, bool]:
    """The email package's tree of `raw`, nesting cut at `max_depth`; (message, was cut)."""
    parser = _CappedParser(max(1, max_depth))
    parser.feed(raw.decode("ascii", "surrogateescape"))
    return parser.close(), parser.cut


# A MIME delimiter, then a part's own header: the body of a multipart message
_LOST_DELIMITER = re.compile(rb"[\r\n]*+--([0-9A-Za-z'()+_,./:=?-]{6,70})[ \t]*+\r?\n"
                             rb"(?i:content-(?:type|transfer-encoding|disposition)):")
_CONTENT_TYPE = re.compile(rb"(?im)^content-type[ \t]*+:")


_CTE = re.compile(rb"(?im)^content-transfer-encoding[ \t]*+:")
# quoted-printable's own marks: a soft line break, an escaped `=`, a blank kept before a break,
# a UTF-8 no-break space or punctuation
_QP_MARK = re.compile(rb"=\r?\n|=3D|=20(?=\r?\n)|=C2=A0|=E2=80=[89AB][0-9A-F]")
_QP_HINT = re.compile(rb"=(?:3D|\r?\n)")
_NOT_QP = re.compile(rb"=(?![0-9A-F]{2}|\r?\n)")  # an `=` quoted-printable would have escaped


def restore_lost_headers(raw: bytes) -> tuple[bytes, list[str], tuple[int, int] | None]:
    """A message whose headers lost what its body needs (archives and copies that keep only From,
    Subject, Date and Message-Id), with it put back, and a note for each:
    - a body that opens with a MIME delimiter and a part's header is multipart: its parts are
      decoded (quoted-printable `=20`, base64) instead of read as raw text;
    - a plain-text body in quoted-printable (every `=` an escape or a soft line break, and at least
      two of its marks such as `=3D` or a soft break) is decoded, instead of read with its `=3D`
      and its lines broken at 76 columns.
    Any other message comes back as it is. Last, where its headers end (`header_end`), for the
    decoder not to search again; None when headers were put back."""
    cut = header_end(raw)
    if cut is None:
        return raw, [], None
    head_end, body = cut
    delimited = raw[body:body + 4].lstrip(b"\r\n").startswith(b"--")
    if not delimited and _QP_HINT.search(raw, body) is None:
        return raw, [], cut  # most messages: no sign of either
    eol = b"\r\n" if raw[head_end:head_end + 1] == b"\r" else b"\n"
    ctype = _CONTENT_TYPE.search(raw, 0, head_end)
    if ctype is None and delimited:
        d = _LOST_DELIMITER.match(raw, body)
        if d is not None:
            added = eol + b'Content-Type: multipart/mixed; boundary="' + d.group(1) + b'"'
            return (raw[:head_end] + added + raw[head_end:],
                    ["MIME parts under headers without a Content-Type: read as multipart"], None)
    if ctype is not None and not _TEXT_PLAIN.match(raw, ctype.end()):
        return raw, [], cut  # a declared type of another kind is read by its own rules
    if _CTE.search(raw, 0, head_end) or not _qp_marked(raw, body):
        return raw, [], cut
    added = eol + b"Content-Transfer-Encoding: quoted-printable"
    return (raw[:head_end] + added + raw[head_end:],
            ["quoted-printable body under headers without a Content-Transfer-Encoding: decoded"], None)


_TEXT_PLAIN = re.compile(rb"[ \t]*+text/plain\b", re.I)


def _qp_marked(raw: bytes, start: int) -> bool:
    marks = _QP_MARK.finditer(raw, start)
    if next(marks, None) is None or next(marks, None) is None:
        return False
    return _NOT_QP.search(raw, start) is None


def decode_message(raw: bytes, max_depth: int = MAX_MIME_DEPTH) -> Mail:
    """Parse one RFC 822 message (bytes). Bad charsets, transfer encodings and nesting give
    notes, not exceptions; anything else is left to the caller's per-message guard."""
    raw, restored, cut = restore_lost_headers(raw)
    mail = _decode(raw, max_depth, cut)
    mail.notes[:0] = restored
    return mail


def _decode(raw: bytes, max_depth: int, cut: tuple[int, int] | None = None) -> Mail:
    fast = _decode_fast(raw, cut)
    if fast is not None:
        return fast
    notes: list[str] = []
    if b"\x00" in raw[:512]:  # a file saved as UTF-16 (maildir, .eml): text to UTF-8 first
        enc = sniff_encoding(raw)
        if enc and enc.startswith("utf-16"):
            raw = raw.decode(enc, errors="replace").encode("utf-8")
            fast = _decode_fast(raw)
            if fast is not None:
                fast.notes.insert(0, f"read as {enc}")
                return fast
            notes.append(f"read as {enc}")
    msg, cut = parse_capped(raw, max_depth)
    if cut:
        notes.append(f"MIME tree cut at depth {max(1, max_depth)}")
    return _mail_from(lambda k: msg.get(k), body_text(msg, notes), notes)


def _mail_from(get, body: str, notes: list[str]) -> Mail:
    """A Mail from header lookups (`get(name)`) and the decoded body."""
    subject = header_text(get("subject"))
    name, addr = parse_from(get("from"))
    date_raw = get("date")
    posted = parse_date(str(date_raw)) if date_raw else None
    if date_raw and posted is None:
        notes.append(f"unreadable Date {str(date_raw)[:60]!r}")
    mid = _ids(str(get("message-id") or ""))
    message_id = mid[0] if mid else stable_id(str(date_raw), addr, subject, body)
    refs = _ids(str(get("references") or ""))
    irt = _ids(str(get("in-reply-to") or ""))
    return Mail(
        message_id=message_id,
        body=body,
        subject=subject,
        from_name=name,
        from_addr=addr,
        posted_at=posted,
        in_reply_to=irt[0] if irt else (refs[-1] if refs else None),
        references=refs,
        notes=notes,
    )


# The three shapes nearly every From header has, read without the email package (which costs
# a fifth of decoding): `Name <addr>` / `"Name" <addr>`, `addr (Name)`, bare `addr`. Anything
# else (groups, escapes, nested comments, several addresses) goes to `getaddresses`.
_ADDR = r"[^\s<>()\[\]\\,;:\"@]+@[^\s<>()\[\]\\,;:\"@]+"
_NAME_ADDR = re.compile(rf'\s*+(?:"([^"\\]*+)"|([^<>()\[\]\\,;:"@]*+))\s*+<({_ADDR})>\s*+')
_ADDR_COMMENT = re.compile(rf"\s*+({_ADDR})\s*+\(([^()\\]*+)\)\s*+")
_BARE_ADDR = re.compile(rf"\s*+({_ADDR})\s*+")


def _plain_from(text: str) -> tuple[str | None, str | None] | None:
    """(name, address) for the common shapes, exactly as `getaddresses` gives them; None otherwise."""
    if m := _NAME_ADDR.fullmatch(text):
        name = m.group(1) if m.group(1) is not None else " ".join(m.group(2).split())
        return (name.strip().strip('"') or None), m.group(3)
    if m := _ADDR_COMMENT.fullmatch(text):
        return (" ".join(m.group(2).split()).strip().strip('"') or None), m.group(1)
    if m := _BARE_ADDR.fullmatch(text):
        return None, m.group(1)
    return None


def parse_from(value: object) -> tuple[str | None, str | None]:
    """(name, address) of a From header as archives show it; obfuscated addresses kept as they are."""
    text = header_text(value)
    if not text:
        return None, None
    if "@" not in text and "<" not in text and " at " not in text:
        return text.strip('"') or None, None  # a bare name (GNU MHonArc pages, hypermail)
    # pipermail writes `user at host (Real Name)`; keep the obfuscated address as is
    m = re.match(r"^\s*+(\S+ at [^\s(]++)\s*+\((.*)\)\s*+$", text)
    if m:
        return m.group(2).strip() or None, m.group(1)
    fast = _plain_from(text)
    if fast is not None:
        return fast
    try:
        pairs = getaddresses([text])
        name, addr = pairs[0] if pairs else parseaddr(text)
    except Exception:
        name, addr = text, ""
    return (name.strip().strip('"') or None), (addr or None)


def plain_post(text: str, *, source: str = "") -> Mail:
    """A post saved as plain text (no headers): the whole text is the body."""
    body = normalise_newlines(text)
    return Mail(message_id=stable_id("plain", source, body), body=body)


NOW_SLACK = timedelta(days=1)


def date_in_range(d: datetime | None) -> bool:
    return d is None or datetime(1990, 1, 1, tzinfo=UTC) <= d <= datetime.now(UTC) + NOW_SLACK


def raw_mail(raw: bytes, note: str) -> Mail:
    """A message the decoder could not read, as far as its bytes tell (never raises): the
    header block's Message-ID, Subject and Date when they are plain, the whole raw text
    (UTF-8, else cp1252) as body, so the parsers can run on it again later."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        text = raw.decode("cp1252", errors="replace")
    text = normalise_newlines(text).replace("\x00", "\ufffd")
    headers: dict[str, str] = {}
    try:
        cut = header_end(raw, 256 * 1024)
        headers = (_fast_headers(raw[: cut[0]]) if cut else None) or {}
    except Exception:  # a header block too odd to read: the id comes from the content
        headers = {}
    mid = _ids(headers.get("message-id"))
    date = headers.get("date")
    try:
        posted = parse_date(date) if date else None
    except Exception:
        posted = None
    return Mail(
        message_id=mid[0] if mid else stable_id("raw", hashlib.sha1(raw).hexdigest()),
        body=text,
        subject=_latin1_to_utf8(" ".join(headers["subject"].split())) or None if "subject" in headers else None,
        posted_at=posted,
        notes=[note],
    )
