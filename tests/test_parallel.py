"""Decoding a unit on a process pool gives exactly the rows of the in-process path."""

from __future__ import annotations

import subprocess
import sys

import pytest

from flows.archives.base import Fetched, Unit, sha256_file
from flows.config import Source
from flows.pipeline import Known, extract_unit
from tests.conftest import ROOT

GEN = ROOT.parent / "shared" / "tools" / "gen_corpus.py"


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    if not GEN.exists():
        pytest.skip("shared/tools/gen_corpus.py not present")
    out = tmp_path_factory.mktemp("corpus") / "c.mbox"
    subprocess.run([sys.executable, str(GEN), "-n", "600", "-f", "0.1", "--seed", "5", "-o", str(out)],
                   check=True, capture_output=True)
    return out


def _rows(path, workers):
    digest, size = sha256_file(path)
    fetched = Fetched(Unit("s", "c.mbox", str(path)), "ok", path=path, sha256=digest, bytes=size)
    work = extract_unit(fetched, Source("s", "mbox", str(path)), Known(set(), set()), workers=workers)
    rec = work.records
    key = lambda r: (r["message_id"], r.get("run_id") or "", r.get("result_index") or 0)  # noqa: E731
    strip = lambda r: {k: v for k, v in r.items() if k not in ("batch_id", "detected_at", "extracted_at")}  # noqa: E731
    return work.stats, {t: sorted((strip(r) for r in rows), key=key) for t, rows in rec.tables().items()}


def test_pool_and_inline_give_the_same_rows(corpus):
    s1, inline = _rows(corpus, 1)
    s2, pooled = _rows(corpus, 2)
    assert (s1.messages, s1.messages_added) == (s2.messages, s2.messages_added) == (600, 600)
    assert len(inline["results"]) > 500
    assert inline == pooled
