"""transforms.html helpers shared by the archive page readers."""

from __future__ import annotations

from transforms.html import between, decode_html, links


def test_decode_html_follows_the_declared_charset_then_utf8_then_cp1252():
    latin = '<meta charset="iso-8859-1"><p>caf\xe9</p>'.encode("latin-1")
    assert "café" in decode_html(latin)
    assert decode_html("<p>café</p>".encode()) == "<p>café</p>"
    assert decode_html(b"<p>caf\xe9</p>") == "<p>café</p>"  # not UTF-8, no charset
    assert "café" in decode_html(b'<meta charset="no-such"><p>caf\xc3\xa9</p>')


def test_between_takes_the_first_start_to_the_next_end():
    assert between("a<s>b<e>c<s>d<e>", "<s>", "<e>") == "b"
    assert between("a<s>b", "<s>", "<e>") == "b"
    assert between("ab", "<s>", "<e>") is None


def test_links_in_page_order():
    assert links('<a href="b.html">b</a><a name=x>x</a><A HREF="a.html">a</A><a href>e</a>') == \
        ["b.html", "a.html", ""]
