"""Typed caps in listbench.toml: [limits] for every source, a source's own keys win, bad values fail at load."""

from __future__ import annotations

import pytest

from flows.config import ConfigError, Limits, Source, load_config
from tests.conftest import mbox_source, write_config


def test_limits_default_then_global_then_per_source(tmp_path):
    assert Source("s", "mbox", "x").limits == Limits()
    assert Limits().message_timeout_s == 10.0 and Limits().max_mime_depth == 50
    cfg = load_config(write_config(
        tmp_path, mbox_source("a", "a.mbox", message_timeout_s=2.5) + mbox_source("b", "b.mbox"),
        extra="[limits]\nmessage_timeout_s = 4\nmax_message_bytes = 1000\n"))
    a, b = cfg.sources
    assert (a.limits.message_timeout_s, a.limits.max_message_bytes) == (2.5, 1000)
    assert (b.limits.message_timeout_s, b.limits.max_mime_depth) == (4.0, 50)
    assert cfg.limits.message_timeout_s == 4.0


@pytest.mark.parametrize("extra, message", [
    ("[limits]\nmessage_timeout_s = \"ten\"\n", "message_timeout_s must be a non-negative number (got 'ten')"),
    ("[limits]\nmax_mime_depth = 2.5\n", "max_mime_depth must be a non-negative integer (got 2.5)"),
    ("limits = 3\n", "[limits] must be a table"),
])
def test_bad_limits_are_one_clear_line(tmp_path, extra, message):
    with pytest.raises(ConfigError, match=message.replace("[", r"\[").replace("(", r"\(").replace(")", r"\)")):
        load_config(write_config(tmp_path, mbox_source("a", "a.mbox"), extra=extra))
