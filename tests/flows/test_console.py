"""Text from messages and archives reaches the terminal as it is: never rich markup, never emoji."""

from __future__ import annotations

import io
import logging

from tests.conftest import SEEDS_MBOX, run_cli

NASTY = ["Re: lmbench on [/dev/shm] vs ext3", "[/bold] after the commit", ":x: failed", "[link=file:///etc]x[/link]",
         "[bold red]loud"]


def test_table_output_prints_cells_and_headers_verbatim():
    from flows.output import print_rows

    out = io.StringIO()
    print_rows(["subject", "[b]col"], [[s, s] for s in NASTY], "table", out=out, title="[/i] title")
    text = out.getvalue()
    for s in NASTY:
        assert s in text
    assert "[b]col" in text and "[/i] title" in text and "❌" not in text


def test_ingest_summary_prints_unit_names_and_errors_verbatim(sample_warehouse, capsys, monkeypatch):
    from flows.summary import print_summary

    monkeypatch.setenv("COLUMNS", "200")
    unit = {"source": "sample", "unit": "[/dev/shm]", "status": "failed", "messages": 1, "messages_added": 0,
            "runs": 0, "results": 0, "quarantined": 0, "error": "[/bold] :x: broke"}
    print_summary(sample_warehouse, {"units": [unit]})
    out = capsys.readouterr().out
    assert "[/dev/shm]" in out and "[/bold] :x: broke" in out and "❌" not in out


def test_progress_descriptions_are_not_markup():
    from rich.console import Console

    from flows.console import progress

    buf = io.StringIO()
    con = Console(file=buf, force_terminal=True, width=200)
    bar = progress(con)
    bar.add_task("[/bold] :x: unit [/dev/shm]", total=2, mb=0.0)
    con.print(bar.get_renderable())
    assert "[/bold] :x: unit [/dev/shm]" in buf.getvalue()


def test_prefect_console_handler_prints_messages_verbatim(monkeypatch):
    import os

    from flows.cli import quiet_prefect
    from flows.prefect_log import PlainConsoleHandler

    buf = io.StringIO()
    h = PlainConsoleHandler(stream=buf)
    h.emit(logging.LogRecord("prefect", logging.ERROR, __file__, 1, "unit %s: %s", ("[/bold]", ":x: gone"), None))
    assert "unit [/bold]: :x: gone" in buf.getvalue()
    monkeypatch.delenv("PREFECT_LOGGING_HANDLERS_CONSOLE_CLASS", raising=False)
    monkeypatch.setenv("PREFECT_LOGGING_MARKUP", "true")
    quiet_prefect()
    assert os.environ["PREFECT_LOGGING_MARKUP"] == "false"
    assert os.environ["PREFECT_LOGGING_HANDLERS_CONSOLE_CLASS"] == "flows.prefect_log.PlainConsoleHandler"


def test_extract_table_with_a_bracketed_subject(tmp_path):
    first = SEEDS_MBOX.read_text().split("\nFrom listbench-sample ")[0]
    import re

    post = re.sub(r"(?m)^Subject: .*$", "Subject: Re: lmbench on [/dev/shm] vs ext3 :x:", first, count=1)
    p = tmp_path / "post.mbox"
    p.write_text(post)
    r = run_cli("extract", str(p))
    err = r.stderr.decode()
    assert r.returncode == 0 and "Traceback" not in err, err[-2000:]
    out = r.stdout.decode()
    assert "❌" not in out and ":x:" in out.replace("\n", "").replace("│", "").replace(" ", "")
