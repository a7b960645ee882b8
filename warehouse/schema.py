"""Arrow schemas of the lake tables: the storage contract behind the DuckDB views."""

from __future__ import annotations

import pyarrow as pa

SCHEMA_VERSION = "1"

_TS = pa.timestamp("us", tz="UTC")
_MAP = pa.map_(pa.string(), pa.string())

SCHEMAS: dict[str, pa.Schema] = {
    "messages": pa.schema(
        [
            ("message_id", pa.string()),
            ("list_name", pa.string()),
            ("posted_at", _TS),
            ("from_name", pa.string()),
            ("subject", pa.string()),
            ("in_reply_to", pa.string()),
            ("thread_id", pa.string()),
            ("archive_url", pa.string()),
            ("url", pa.string()),  # the post's own page (permalink); NULL for local archives
            ("unit", pa.string()),
            ("notes", pa.list_(pa.string())),
            ("batch_id", pa.string()),
        ]
    ),
    # every list a message was seen on (a cross-post is one message, several lists)
    "memberships": pa.schema(
        [("message_id", pa.string()), ("list_name", pa.string()), ("unit", pa.string()),
         ("archive_url", pa.string()), ("batch_id", pa.string())]
    ),
    # decoded bodies of messages that matched a benchmark signature: re-extraction input
    "message_bodies": pa.schema([("message_id", pa.string()), ("body", pa.string()), ("batch_id", pa.string())]),
    # which extraction of a message is current: re-extraction adds a newer one atomically
    "extractions": pa.schema(
        [("message_id", pa.string()), ("batch_id", pa.string()), ("extracted_at", _TS),
         ("parsers", _MAP), ("reason", pa.string())]
    ),
    "runs": pa.schema(
        [
            ("run_id", pa.string()),
            ("message_id", pa.string()),
            ("block_index", pa.int32()),
            ("benchmark", pa.string()),
            ("parser", pa.string()),
            ("parser_version", pa.string()),
            ("tool_version", pa.string()),
            ("system", pa.string()),
            ("caption", pa.string()),
            ("quoted", pa.bool_()),
            ("line_start", pa.int32()),
            ("line_end", pa.int32()),
            ("status", pa.string()),
            ("notes", pa.list_(pa.string())),
            ("attributes", _MAP),
            ("content_hash", pa.string()),
            ("n_results", pa.int32()),
            ("snippet", pa.string()),
            ("batch_id", pa.string()),
        ]
    ),
    "results": pa.schema(
        [
            ("run_id", pa.string()),
            ("message_id", pa.string()),
            ("result_index", pa.int32()),
            ("benchmark", pa.string()),
            ("system", pa.string()),
            ("metric", pa.string()),
            ("metric_label", pa.string()),
            ("params", _MAP),
            ("value", pa.float64()),
            ("unit", pa.string()),
            ("higher_is_better", pa.bool_()),
            ("statistic", pa.string()),
            ("alignment", pa.string()),
            ("layout", pa.string()),
            ("quoted", pa.bool_()),
            ("batch_id", pa.string()),
        ]
    ),
    "quarantine": pa.schema(
        [
            ("table_name", pa.string()),
            ("expectation", pa.string()),
            ("severity", pa.string()),
            ("run_id", pa.string()),
            ("message_id", pa.string()),
            ("list_name", pa.string()),
            ("benchmark", pa.string()),
            ("metric", pa.string()),
            ("value", pa.float64()),
            ("observed", pa.string()),
            ("row_json", pa.string()),
            ("snippet", pa.string()),
            ("batch_id", pa.string()),
            ("detected_at", _TS),
        ]
    ),
    "archives": pa.schema(
        [
            ("source", pa.string()),
            ("unit", pa.string()),
            ("url", pa.string()),
            ("etag", pa.string()),
            ("last_modified", pa.string()),
            ("sha256", pa.string()),
            ("bytes", pa.int64()),
            ("status", pa.string()),
            ("error", pa.string()),
            ("messages", pa.int64()),
            ("messages_added", pa.int64()),
            ("skipped", pa.int64()),
            ("fetched_at", _TS),
            ("ingest_run", pa.string()),
            ("batch_id", pa.string()),
        ]
    ),
}

TABLES = tuple(SCHEMAS)

# the record of committed batches (warehouse.lake): a row here makes a batch's rows visible
BATCHES = "batches"
SCHEMAS[BATCHES] = pa.schema(
    [("batch_id", pa.string()), ("committed_at", _TS), ("command", pa.string()), ("run", pa.string()),
     ("source", pa.string()), ("host", pa.string()), ("rows", pa.map_(pa.string(), pa.int64()))]
)


def empty(table: str) -> pa.Table:
    return SCHEMAS[table].empty_table()


def partial_row(table: str, **values: object) -> dict:
    """A row that sets only some columns (synthetic data, a bookkeeping record): every other
    column NULL, said explicitly. An unknown column is still an error."""
    names = SCHEMAS[table].names
    unknown = sorted(set(values) - set(names))
    if unknown:
        raise ValueError(f"not columns of {table}: {unknown}")
    return {name: values.get(name) for name in names}


def to_table(table: str, rows: list[dict]) -> pa.Table:
    """Rows (dicts) to an Arrow table of the table's schema.

    A row must carry exactly the schema's columns: a missing or extra key is a bug in the
    row's builder (transforms/rows.py), refused here instead of loading as NULL.
    """
    schema = SCHEMAS[table]
    names = set(schema.names)
    for row in rows:
        if row.keys() != names:
            missing, extra = sorted(names - row.keys()), sorted(row.keys() - names)
            raise ValueError(f"{table} row does not match its schema: missing {missing}, extra {extra}")
    return pa.Table.from_pylist(rows, schema=schema)  # in C++: a third of building columns in Python
