"""One decoded message to the rows of every lake table (pure).

The parsers (~0.5 s to import) are imported by the first message extracted: a run that only
records its checks (every unit unchanged) builds `Records` without them."""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from transforms import rows
from transforms.mail import WHITESPACE_COLLAPSED, Mail
from transforms.model import INFERRED
from transforms.permalinks import permalink as permalink_of

if TYPE_CHECKING:
    from transforms.extract import ExtractedRun


@functools.cache
def parser_versions() -> dict[str, str]:
    """Every parser's version (and the hand-made reader's), as an extraction row records them."""
    from transforms.handmade import HANDMADE
    from transforms.parsers import PARSERS

    return {name: p.version for name, p in PARSERS.items()} | {HANDMADE.name: HANDMADE.version}


def __getattr__(name: str) -> Any:  # `PARSER_VERSIONS`, computed on first use (PEP 562)
    if name == "PARSER_VERSIONS":
        return parser_versions()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@dataclass(slots=True)
class Records:
    """Row dicts per lake table, accumulated over a batch."""

    messages: list[dict[str, Any]] = field(default_factory=list)
    memberships: list[dict[str, Any]] = field(default_factory=list)
    message_bodies: list[dict[str, Any]] = field(default_factory=list)
    runs: list[dict[str, Any]] = field(default_factory=list)
    results: list[dict[str, Any]] = field(default_factory=list)
    quarantine: list[dict[str, Any]] = field(default_factory=list)
    extractions: list[dict[str, Any]] = field(default_factory=list)

    def tables(self) -> dict[str, list[dict[str, Any]]]:
        return {
            "messages": self.messages,
            "memberships": self.memberships,
            "message_bodies": self.message_bodies,
            "runs": self.runs,
            "results": self.results,
            "quarantine": self.quarantine,
            "extractions": self.extractions,
        }


def add_mail(rec: Records, mail: Mail, *, list_name: str, unit: str, archive_url: str | None,
             batch_id: str, detected_at: Any = None,
             permalink: tuple[str | None, str | None] = (None, None)) -> list[ExtractedRun]:
    """Append the rows of one new message; returns its runs.

    `permalink` is (style, base) of archives whose pages are addressed by Message-ID.
    """
    add_known(rec, mail, list_name=list_name, unit=unit, archive_url=archive_url, batch_id=batch_id,
              permalink=permalink)
    from transforms.extract import extract  # the parsers: loaded by the first message only

    runs, hit = extract(mail.body, mail.message_id, subject=mail.subject)
    flag_collapsed(runs, mail.notes)
    if runs or hit:
        rec.message_bodies.append(rows.body_row(mail.message_id, mail.body, batch_id))
        add_extraction(rec, mail.message_id, batch_id=batch_id, at=detected_at, reason="ingest")
    add_runs(rec, runs, mail.message_id, list_name=list_name, batch_id=batch_id, detected_at=detected_at)
    return runs


def add_known(rec: Records, mail: Mail, *, list_name: str, unit: str, archive_url: str | None,
              batch_id: str, permalink: tuple[str | None, str | None] = (None, None)) -> None:
    """Append the rows of one message read but not extracted: its message row and membership,
    the first rows `add_mail` writes. For a message the lake already holds: its rows are dropped
    once the message is known (its membership stays if it is new), but the message row still
    places the unit's next messages among the archive's article pages."""
    rec.messages.append(rows.message_row(mail, list_name=list_name, unit=unit, archive_url=archive_url,
                                         url=mail.url or permalink_of(*permalink, mail.message_id),
                                         batch_id=batch_id))
    add_membership(rec, mail.message_id, list_name=list_name, unit=unit, archive_url=archive_url, batch_id=batch_id)


def flag_collapsed(runs: list[ExtractedRun], message_notes: list[str] | None) -> None:
    """Runs of a body whose blanks the archive squeezed: noted, and every row `inferred`.

    Columns were placed by inference whatever the parser saw, so alignment cannot be `exact`.
    """
    collapsed = [n for n in message_notes or [] if n.startswith(WHITESPACE_COLLAPSED)]
    for er in runs if collapsed else ():
        er.run.notes.extend(n for n in collapsed if n not in er.run.notes)
        for r in er.run.results:
            r.alignment = INFERRED


def add_extraction(rec: Records, message_id: str, *, batch_id: str, at: Any, reason: str) -> None:
    rec.extractions.append(rows.extraction_row(message_id, batch_id=batch_id, at=at, parsers=parser_versions(),
                                               reason=reason))


def add_membership(rec: Records, message_id: str, *, list_name: str, unit: str,
                   archive_url: str | None, batch_id: str) -> None:
    rec.memberships.append(rows.membership_row(message_id, list_name=list_name, unit=unit,
                                               archive_url=archive_url, batch_id=batch_id))


def add_runs(rec: Records, runs: list[ExtractedRun], message_id: str, *, list_name: str,
             batch_id: str, detected_at: Any = None) -> None:
    for er in runs:
        results = list(rows.result_rows_of(er, message_id, batch_id))
        rec.results.extend(results)
        if er.run.status != "ok":
            rec.quarantine.append(rows.unparsed_block_row(er, message_id, list_name=list_name, batch_id=batch_id,
                                                          detected_at=detected_at))
        rec.runs.append(rows.run_row(er, message_id, n_results=len(results), batch_id=batch_id))


def add_unreadable(rec: Records, mail: Mail, *, expectation: str, reason: str, index: int, size: int,
                   list_name: str, unit: str, archive_url: str | None, batch_id: str, detected_at: Any = None,
                   **extra: Any) -> None:
    """A message that could not be decoded or extracted: its message row and body (kept for
    reextract) and a quarantine row saying why, with its place in the unit; no runs."""
    notes = [*mail.notes, reason] if reason not in mail.notes else mail.notes
    rec.messages.append(rows.message_row(mail, list_name=list_name, unit=unit, archive_url=archive_url,
                                         url=mail.url, batch_id=batch_id, notes=notes))
    add_membership(rec, mail.message_id, list_name=list_name, unit=unit, archive_url=archive_url, batch_id=batch_id)
    rec.message_bodies.append(rows.body_row(mail.message_id, mail.body, batch_id))
    add_skipped(rec, expectation=expectation, reason=reason, index=index, size=size, list_name=list_name,
                unit=unit, batch_id=batch_id, detected_at=detected_at, message_id=mail.message_id,
                snippet=mail.body, **extra)


def add_skipped(rec: Records, *, expectation: str, reason: str, index: int, size: int, list_name: str,
                unit: str, batch_id: str, detected_at: Any = None, message_id: str | None = None,
                snippet: str = "", **extra: Any) -> None:
    """The quarantine row of a message that was not (fully) read: why, and where in its unit."""
    rec.quarantine.append(rows.quarantine_row(
        "messages", expectation, observed=reason, message_id=message_id, list_name=list_name,
        row_json=json.dumps({"unit": unit, "index": index, "bytes": size, **extra}), snippet=snippet,
        batch_id=batch_id, detected_at=detected_at))
