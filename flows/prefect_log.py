"""Prefect's console log handler without markup or emoji codes (see flows.console).

Log lines carry unit names and error texts from archives. Installed for the
processes `listbench` starts by `flows.cli.quiet_prefect`, through Prefect's
logging override `PREFECT_LOGGING_HANDLERS_CONSOLE_CLASS`.
"""

from __future__ import annotations

import logging
from typing import Any, TextIO

from prefect.logging.handlers import PrefectConsoleHandler, PrefectConsoleHighlighter
from rich.console import Console
from rich.highlighter import Highlighter


class PlainConsoleHandler(PrefectConsoleHandler):
    """Prefect's console handler (same styles and highlighting) without markup or emoji codes."""

    def __init__(self, stream: TextIO | None = None,
                 highlighter: type[Highlighter] = PrefectConsoleHighlighter,
                 styles: dict[str, str] | None = None, level: int | str = logging.NOTSET) -> None:
        super().__init__(stream=stream, highlighter=highlighter, styles=styles, level=level)
        old = self.console
        self.console = Console(highlighter=old.highlighter, theme=_theme(styles), file=self.stream,
                               markup=False, emoji=False)


def _theme(styles: dict[str, str] | None) -> Any:
    from prefect.settings import PREFECT_LOGGING_COLORS
    from rich.theme import Theme

    return Theme(styles or {}, inherit=False) if PREFECT_LOGGING_COLORS.value() else Theme(inherit=False)
