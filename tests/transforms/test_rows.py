"""transforms/rows.py: the one builder of lake rows; `extract` prints what the lake stores."""

from __future__ import annotations

import mailbox
from datetime import UTC, datetime

import pytest

from tests.conftest import SEEDS_MBOX
from transforms.extract import extract_runs
from transforms.mail import Mail, decode_message
from transforms.records import Records, add_mail, add_unreadable
from transforms.rows import EXTRACT_KEYS, result_rows
from warehouse.schema import SCHEMAS, to_table

NOW = datetime(2026, 1, 1, tzinfo=UTC)


def _seed_mails() -> list[Mail]:
    return [decode_message(m.as_bytes()) for m in mailbox.mbox(SEEDS_MBOX)]


def test_every_builder_gives_exactly_its_tables_columns():
    rec = Records()
    for mail in _seed_mails():
        add_mail(rec, mail, list_name="sample", unit="seeds.mbox", archive_url=None, batch_id="b", detected_at=NOW)
    add_unreadable(rec, Mail(message_id="u@x", body="?"), expectation="undecodable message", reason="why",
                   index=3, size=1, list_name="sample", unit="seeds.mbox", archive_url=None, batch_id="b",
                   detected_at=NOW)
    for table, rows in rec.tables().items():
        assert rows, table
        assert all(list(r) == SCHEMAS[table].names for r in rows), table
        assert to_table(table, rows).num_rows == len(rows)


@pytest.mark.parametrize("row, match", [
    ({"message_id": "m"}, r"missing \['archive_url'"),
    ({name: None for name in SCHEMAS["messages"].names} | {"colour": "red"}, r"extra \['colour'\]"),
])
def test_a_row_that_does_not_match_its_schema_is_refused(row, match):
    with pytest.raises(ValueError, match=match):
        to_table("messages", [row])


def test_extract_prints_the_rows_the_lake_stores():
    # every post of the bundled sample archive (examples/archives/seeds.mbox)
    for mail in _seed_mails():
        rec = Records()
        runs = add_mail(rec, mail, list_name="sample", unit="u", archive_url=None, batch_id="b", detected_at=NOW)
        printed = result_rows(extract_runs(mail.body, mail.message_id, subject=mail.subject))
        stored = [{k: r[k] for k in EXTRACT_KEYS if k != "tool_version"} for r in rec.results]
        assert [{k: v for k, v in r.items() if k != "tool_version"} for r in printed] == stored
        versions = {er.run_id: er.run.tool_version for er in runs}
        assert [r["tool_version"] for r in printed] == [versions[r["run_id"]] for r in rec.results]
