"""Rows of one message: what an archive's note about its body does to the runs read from it."""

from __future__ import annotations

from tests.conftest import seed_text
from transforms.mail import WHITESPACE_COLLAPSED, Mail
from transforms.records import Records, add_mail


def _rows(notes: list[str]) -> Records:
    rec = Records()
    add_mail(rec, Mail(message_id="m@x", body=seed_text("002"), notes=notes), list_name="kvm-devel",
             unit="u", archive_url=None, batch_id="b")
    return rec


def test_a_collapsed_body_flags_every_row_inferred_and_notes_its_runs():
    note = f"{WHITESPACE_COLLAPSED} (mail-archive: body not in <pre>)"
    rec = _rows([note])
    assert len(rec.results) == 85
    assert {r["alignment"] for r in rec.results} == {"inferred"}
    assert all(note in (run["notes"] or []) for run in rec.runs)
    assert rec.messages[0]["notes"] == [note]


def test_other_notes_leave_alignment_to_the_parser():
    rec = _rows(["unreadable Date 'x'"])
    assert {r["alignment"] for r in rec.results} == {"exact"}
    assert not any(WHITESPACE_COLLAPSED in n for run in rec.runs for n in run["notes"] or [])
