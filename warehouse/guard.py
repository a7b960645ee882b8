"""Read-only SQL: only read statements run, on a connection that cannot write files.

`duckdb.connect(read_only=True)` protects only DuckDB's catalog: `COPY ... TO`,
`EXPORT DATABASE` and the file functions reach the disk all the same (a COPY onto
a lake part once emptied a table). So user SQL is parsed with DuckDB's own parser,
statement by statement, and only SELECT (or EXPLAIN of one) may run; and the
connection may touch files only under the lake, with its configuration locked so
no statement can widen that again.
"""

from __future__ import annotations

import re
from typing import Any

import duckdb

_EXPLAIN = re.compile(r"\s*EXPLAIN\s+(?:ANALY[SZ]E\s+)?", re.IGNORECASE)
_GLOB_CHARS = re.compile(r"[\[*?]")


class Refused(ValueError):
    """A statement that is not a read; the message is one line for the user."""


def _refuse(kind: str) -> Refused:
    return Refused(f"refused: only read statements (SELECT) may run here; got {kind}")


def read_statements(sql: str) -> list[Any]:
    """The statements of `sql` (DuckDB's parser), or Refused when any of them is not a read.

    A parse error is raised as DuckDB's own error (nothing has run).
    """
    statements = duckdb.extract_statements(sql)
    for st in statements:
        kind = _kind(st)
        if kind == duckdb.StatementType.SELECT:
            continue
        if kind == duckdb.StatementType.MULTI and _is_read_pivot(st.query):
            continue
        if kind == duckdb.StatementType.EXPLAIN:
            m = _EXPLAIN.match(st.query)
            inner = duckdb.extract_statements(st.query[m.end():]) if m else []
            if len(inner) == 1 and _kind(inner[0]) == duckdb.StatementType.SELECT:
                continue
            raise _refuse("EXPLAIN of a statement that is not a SELECT")
        raise _refuse(kind.name if kind is not None else "a statement of a type unknown here")
    return statements


_WORD = re.compile(r"[A-Za-z_]+")
_READ_START = {"select", "from", "with", "pivot", "pivot_wider", "values"}
_WRITE_WORDS = {"insert", "update", "delete", "copy", "create", "drop", "alter", "attach", "detach", "export",
                "import", "install", "load", "set", "reset", "pragma", "call", "merge", "vacuum", "checkpoint",
                "truncate", "use", "into"}


def _is_read_pivot(sql: str) -> bool:
    """A PIVOT without an IN list parses as MULTI (its values are read first). So do `COPY
    (PIVOT ...) TO` and `CREATE TABLE ... AS PIVOT`: allowed only when its first keyword starts
    a read and none of its keywords (strings and names aside) writes or configures."""
    words = [m.group(0).lower() for pos, kind in duckdb.tokenize(sql)
             if kind == duckdb.token_type.keyword and (m := _WORD.match(sql, pos))]
    return bool(words) and words[0] in _READ_START and not _WRITE_WORDS.intersection(words)


def _kind(statement: Any) -> Any:
    """The statement's type; None for a type this duckdb module has no name for (`UPDATE EXTENSIONS`)."""
    try:
        return statement.type
    except ValueError:
        return None


def escape_glob(path: str) -> str:
    """`path` as a DuckDB glob matching only itself (`[`, `*`, `?` each in a class of one)."""
    return _GLOB_CHARS.sub(lambda m: f"[{m.group(0)}]", path)


def allowed_directories(lake: str, also: tuple[str, ...] = ()) -> list[str]:
    """Where the connection may read: the lake (as written, as a glob, and as fsspec lists it),
    and the few local folders the views also read (`also`: the table schema files)."""
    out = []
    for place in (lake, *also):
        root = place.rstrip("/")
        out += [root + "/", escape_glob(root) + "/"]
        if "://" in root:
            proto, rest = root.split("://", 1)
            out.append(f"{proto}:///{rest.lstrip('/')}/")
    return list(dict.fromkeys(out))


def lock_down(con: duckdb.DuckDBPyConnection, lake: str, also: tuple[str, ...] = ()) -> None:
    """No file access outside the lake, no extensions, and no SET that could undo it."""
    con.execute("SET autoinstall_known_extensions = false")
    con.execute("SET autoload_known_extensions = false")
    con.execute("SET allowed_directories = ?", [allowed_directories(lake, also)])
    con.execute("SET enable_external_access = false")
    con.execute("SET lock_configuration = true")


def run(con: duckdb.DuckDBPyConnection, sql: str, params: list[Any] | None = None) -> duckdb.DuckDBPyConnection | None:
    """Run the read statements of `sql` in order (params go to the last); returns the last result."""
    statements = read_statements(sql)
    cur = None
    for i, st in enumerate(statements):
        last = i == len(statements) - 1
        cur = con.execute(st, params or []) if last else con.execute(st)
    return cur
