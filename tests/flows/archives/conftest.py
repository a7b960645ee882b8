"""Fixtures the archive-kind tests share."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.httpserver import Site


@pytest.fixture(scope="module")
def server() -> Iterator[Site]:
    """One 127.0.0.1 site per test module (starting one per test is slow); each module's `site`
    fixture resets it with `fresh` and serves its own archive's pages."""
    s = Site().start()
    yield s
    s.stop()

