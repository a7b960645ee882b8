"""A unit read again after it grew: only its new messages are extracted, and the lake ends with
the rows of one read of the grown unit; a known message on another list gains only its membership."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from flows import steps
from flows.archives import kind_for
from flows.archives.base import FetchContext, Unit
from flows.config import Source, load_config
from tests.conftest import mbox_source, plain_ingest, write_config
from tests.mboxes import numbered_mbox, seed_messages
from transforms.permalinks import Article, ArticleLinks
from warehouse.lake import Lake

BEFORE, AFTER = 40, 44  # messages of the unit at the first run and once it grew (p40 has results)
TABLES = ("messages", "memberships", "message_bodies", "runs", "results", "quarantine", "extractions")
STAMPS = {"batch_id", "detected_at", "extracted_at"}  # of the run that wrote a row, not of the row


@pytest.fixture
def extracted(monkeypatch) -> list[str]:
    """The message ids given to the parsers' entry point (inline runs: no budget, one worker)."""
    import transforms.extract

    seen: list[str] = []
    real = transforms.extract.extract

    def counted(body: str, message_id: str, *a: Any, **kw: Any) -> Any:
        seen.append(message_id)
        return real(body, message_id, *a, **kw)

    monkeypatch.setattr(transforms.extract, "extract", counted)
    return seen


def _config(tmp: Path, sources: dict[str, str]) -> Path:
    tmp.mkdir(parents=True, exist_ok=True)
    return write_config(tmp, "".join(mbox_source(name, file, message_timeout_s=0) for name, file in sources.items()))


def _lake_rows(cfg: Path) -> dict[str, list[str]]:
    """Every row of every table, its folder (in archive URLs) and run stamps left out."""
    lake = Lake(load_config(cfg).lake_dir)
    here = str(cfg.parent)
    return {t: sorted(repr(sorted((k, repr(v).replace(here, "")) for k, v in r.items() if k not in STAMPS))
                      for r in lake.read(t).to_pylist()) for t in TABLES}


def _ledger(cfg: Path) -> list[tuple]:
    rows = Lake(load_config(cfg).lake_dir).read("archives").to_pylist()
    return [(r["unit"], r["status"], r["messages"], r["messages_added"], r["skipped"])
            for r in sorted(rows, key=lambda r: r["fetched_at"])]


def _counts(summary: dict) -> list[tuple]:
    return [(u["unit"], u["status"], u["messages"], u["messages_added"], u["runs"], u["results"],
             u["quarantined"], u["skipped"]) for u in summary["units"]]


def test_a_grown_unit_extracts_only_its_new_messages_and_loads_as_one_fresh_read(tmp_path, extracted):
    cfg = _config(tmp_path / "rerun", {"s": "s.mbox"})
    ids = numbered_mbox(tmp_path / "rerun" / "s.mbox", BEFORE, {})
    first = plain_ingest(cfg)
    assert extracted == ids  # every message once, in order
    assert _counts(first)[0][1:4] == ("ok", BEFORE, BEFORE)
    extracted.clear()
    grown = numbered_mbox(tmp_path / "rerun" / "s.mbox", AFTER, {})
    assert grown[:BEFORE] == ids
    again = plain_ingest(cfg)
    assert extracted == grown[BEFORE:]  # the messages the lake holds were decoded, not extracted

    extracted.clear()
    fresh_cfg = _config(tmp_path / "fresh", {"s": "s.mbox"})
    numbered_mbox(tmp_path / "fresh" / "s.mbox", AFTER, {})
    fresh = plain_ingest(fresh_cfg)
    assert extracted == grown
    rows, fresh_rows = _lake_rows(cfg), _lake_rows(fresh_cfg)
    assert len(rows["results"]) > 100 and len(rows["messages"]) == AFTER
    for t in TABLES:
        assert rows[t] == fresh_rows[t], t
    # the re-run reports what it read and what it added; rows and quarantine are the new messages'
    (_, _, msgs, added, runs, results, quarantined, skipped), = _counts(again)
    assert (msgs, added, skipped) == (AFTER, AFTER - BEFORE, 0)
    total = _counts(fresh)[0]
    assert runs + _counts(first)[0][4] == total[4] and results + _counts(first)[0][5] == total[5]
    assert quarantined + _counts(first)[0][6] == total[6]
    assert results > 0
    assert _ledger(cfg) == [("s.mbox", "ok", BEFORE, BEFORE, 0), ("s.mbox", "ok", AFTER, AFTER - BEFORE, 0)]
    assert _ledger(fresh_cfg) == [("s.mbox", "ok", AFTER, AFTER, 0)]


def _mbox(path: Path, posts: dict[str, int]) -> None:
    """An mbox of seed posts (by number) under the given ids."""
    seeds = seed_messages()
    path.write_bytes(b"".join(b"From t@test Thu Apr 14 11:06:56 2016\n" + f"Message-ID: <{mid}>\n".encode()
                              + seeds[k].rstrip(b"\n") + b"\n\n" for mid, k in posts.items()))


def test_a_known_message_on_a_second_list_gains_its_membership_and_no_rows(tmp_path, extracted):
    cfg = _config(tmp_path, {"a": "a.mbox", "b": "b.mbox"})
    _mbox(tmp_path / "a.mbox", {"x1@test": 0, "x2@test": 1})
    _mbox(tmp_path / "b.mbox", {"x2@test": 1, "y1@test": 2})
    summary = plain_ingest(cfg)
    assert extracted == ["x1@test", "x2@test", "y1@test"]  # x2 read on b, not extracted again
    assert [(u["unit"], u["messages"], u["messages_added"]) for u in summary["units"]] == [
        ("a.mbox", 2, 2), ("b.mbox", 2, 1)]
    lake = Lake(load_config(cfg).lake_dir)
    members = sorted((r["message_id"], r["list_name"]) for r in lake.read("memberships").to_pylist())
    assert members == [("x1@test", "a"), ("x2@test", "a"), ("x2@test", "b"), ("y1@test", "b")]
    messages = sorted((r["message_id"], r["list_name"]) for r in lake.read("messages").to_pylist())
    assert messages == [("x1@test", "a"), ("x2@test", "a"), ("y1@test", "b")]
    runs = lake.read("runs").to_pylist()
    assert {r["message_id"] for r in runs} == {"x1@test", "x2@test", "y1@test"}
    x2_runs = [r for r in runs if r["message_id"] == "x2@test"]
    assert x2_runs and len({r["batch_id"] for r in x2_runs}) == 1  # written once, with list a
    # read again on a third run after b grew: no membership twice, nothing extracted but the new one
    extracted.clear()
    _mbox(tmp_path / "b.mbox", {"x2@test": 1, "y1@test": 2, "y2@test": 3})
    plain_ingest(cfg)
    assert extracted == ["y2@test"]
    members = sorted((r["message_id"], r["list_name"]) for r in lake.read("memberships").to_pylist())
    assert members == [("x1@test", "a"), ("x2@test", "a"), ("x2@test", "b"), ("y1@test", "b"), ("y2@test", "b")]


def _fetched(path: Path, source: Source) -> Any:
    return kind_for("mbox").fetch(Unit(source.name, path.name, str(path)), source, FetchContext(raw_dir=path.parent))


@pytest.mark.parametrize("workers", [1, 2])
def test_known_messages_still_place_the_new_ones_among_the_article_pages(tmp_path, workers):
    """A pipermail month pairs messages with its index pages in mbox order: the messages the lake
    holds, read but not extracted, must still take their pages so the new ones get theirs."""
    path = tmp_path / "s.mbox"
    before, after = 60, 64  # more known messages than the linker looks ahead (p60 has results)
    ids = numbered_mbox(path, after, {})
    source = Source("s", "mbox", str(path), options={"message_timeout_s": 0 if workers == 1 else 30})
    whole = steps.extract_unit(_fetched(path, source), source, steps.Known(set(), set()), workers=1)
    subjects = {r["message_id"]: (r["subject"], r["from_name"] or "") for r in whole.records.messages}

    def links() -> ArticleLinks:
        return ArticleLinks("https://lists.example.org/s/", [
            Article(f"{i:06d}.html", i, *subjects[mid]) for i, mid in enumerate(ids)])

    fetched = _fetched(path, source)
    fetched.extra["links"] = links()
    assert links().window < before
    known = steps.Known(ids[:before], [(m, "s") for m in ids[:before]])
    work = steps.extract_unit(fetched, source, known, workers=workers)
    urls = {r["message_id"]: r["url"] for r in work.records.messages}
    assert urls == {mid: f"https://lists.example.org/s/{i:06d}.html" for i, mid in enumerate(ids) if i >= before}
    assert {r["message_id"] for r in work.records.runs} == {"p60@test"}
    assert (work.stats.messages, work.stats.messages_added) == (after, after - before)
