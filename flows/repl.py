"""A small SQL prompt for `listbench shell` when DuckDB's own CLI is not installed."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path


def repl(db_path: Path) -> None:
    import duckdb

    from flows.output import print_rows
    from warehouse import guard
    from warehouse.db import connect_readonly, error_line

    try:
        import readline

        hist = os.path.expanduser("~/.listbench_history")
        if os.path.exists(hist):
            readline.read_history_file(hist)
    except (ImportError, OSError):
        readline, hist = None, ""  # type: ignore[assignment]
    con = connect_readonly(db_path)
    print(f"listbench SQL on {db_path} (read-only). End statements with ';', quit with .quit or Ctrl-D.")
    buf: list[str] = []
    try:
        while True:
            try:
                line = input("... " if buf else "sql> ")
            except EOFError:
                print()
                break
            if not buf and line.strip() in (".quit", ".exit", "\\q"):
                break
            buf.append(line)
            if not line.rstrip().endswith(";"):
                continue
            stmt, buf = "\n".join(buf), []
            try:
                cur = guard.run(con, stmt)
                if cur is not None and cur.description:
                    print_rows([d[0] for d in cur.description], cur.fetchall(), "table")
            except guard.Refused as exc:
                print(f"error: {exc}")
            except duckdb.Error as exc:
                print(f"error: {error_line(exc)}")
    finally:
        con.close()
        if readline is not None and hist:
            with contextlib.suppress(OSError):
                readline.write_history_file(hist)
