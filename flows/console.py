"""Everything printed through rich goes through here.

Subjects, unit names, error texts and query results come from messages and
archives: rich would read `[/dev/shm]` as a closing tag (and crash) and `:x:` as
an emoji. `plain()` turns any value into a `Text` that rich prints as it is; the
consoles here have markup and emoji off; Prefect's console log handler gets the
same treatment (flows.prefect_log, installed by `flows.cli.quiet_prefect`). No
Prefect import here: `listbench extract` prints tables without it.
"""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
from rich.text import Text


def plain(value: Any) -> Text:
    """`value` as text rich prints verbatim (no markup, no emoji codes, no highlighting)."""
    return value if isinstance(value, Text) else Text("" if value is None else str(value))


def console(**kw: Any) -> Console:
    """A console that never interprets strings either (for anything not wrapped in `plain`)."""
    return Console(markup=False, emoji=False, highlight=False, **kw)


def progress(con: Console) -> Progress:
    """Units and bytes per source; descriptions carry unit names, so they are not markup."""
    return Progress(TextColumn("{task.description}", markup=False), BarColumn(), MofNCompleteColumn(),
                    TextColumn("{task.fields[mb]:.1f} MB", markup=False), transient=True, console=con)
