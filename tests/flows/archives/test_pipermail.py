"""pipermail (Mailman 2): index crawl, monthly .txt/.txt.gz volumes, broken months, hostile links."""

from __future__ import annotations

from datetime import UTC, datetime
from urllib.parse import quote

import httpx
import pytest

from flows.archives.base import FetchContext
from flows.archives.pipermail import month_units, volume_month
from flows.config import Source, load_config
from tests.archive_sites import (
    ARCHIVES,
    FAST_HTTP,
    PIPERMAIL_ARTICLES,
    PIPERMAIL_BAD,
    PIPERMAIL_GOOD,
    PIPERMAIL_HOSTILE,
    PIPERMAIL_ROOT,
    client,
    drain,
    fresh,
    pipermail_site,
    remember,
)
from tests.conftest import mbox_source, write_config
from warehouse.db import query


@pytest.fixture
def site(server):
    s = fresh(server)
    pipermail_site(s)
    return s


@pytest.mark.parametrize("name, month", [
    ("2009-April.txt.gz", "2009-04"), ("2016-April.txt", "2016-04"), ("2004-December.txt.gz", "2004-12"),
    ("2009q2.txt.gz", "2009-04"), ("Week-of-Mon-20090413.txt.gz", "2009-04"), ("20090413.txt", "2009-04"),
    ("2009.txt.gz", "2009-01"),
    ("2009-Aprill.txt.gz", None), ("2009-April.html", None), ("2009-April/thread.html", None),
    ("2016-Aprildate.html", None), ("20091313.txt", None),
])
def test_volume_month(name, month):
    assert volume_month(name) == month


def test_index_yields_one_unit_per_month_same_origin_only():
    root = "http://127.0.0.1:8080" + PIPERMAIL_ROOT
    units = month_units("virt", root, (ARCHIVES / "pipermail" / "index.html").read_text())
    assert [(u.key, u.month) for u in units] == [
        ("2007-June.txt.gz", "2007-06"),  # .txt.gz preferred over the .txt of the same month
        ("2015-November.txt.gz", "2015-11"),
        ("2016-March.txt.gz", "2016-03"),
        ("2016-April.txt", "2016-04"),  # only a plain .txt linked (the Perceval quirk)
    ]
    assert all(u.url == root + u.key and u.source == "virt" for u in units)


def test_fetch_decode_then_second_pass_downloads_nothing(site, tmp_path):
    src = Source("virt", "pipermail", site.url(PIPERMAIL_ROOT.rstrip("/")))  # no trailing slash given
    ctx = FetchContext(tmp_path / "raw", http=client())
    first = drain(src, ctx)
    assert set(first) == set(PIPERMAIL_GOOD) | set(PIPERMAIL_BAD)
    for key, n in PIPERMAIL_GOOD.items():
        assert first[key].fetched.status == "ok" and first[key].error is None
        assert len(first[key].mails) == n
    for key, reason in PIPERMAIL_BAD.items():
        assert reason in first[key].error and not first[key].mails

    april = {m.message_id: m for m in first["2016-April.txt"].mails}
    m = april["1460624816.5581.114.camel@example.com"]
    assert (m.from_name, m.from_addr) == ("Jesus M. Gonzalez-Barahona", "jgb at example.com")
    assert m.subject == "[Metrics-grimoire] [GrimoireLab] Presenting GrimoireLab"
    assert m.posted_at == datetime(2016, 4, 14, 9, 6, 56, tzinfo=UTC)
    reply = april["CACRHdMZgAgzyhewu_aAJ2f2DWHVZdNH6J7zd2S=YWQuf-2yZDw@example.com"]
    assert reply.in_reply_to == "1460624816.5581.114.camel@example.com"
    june = first["2007-June.txt.gz"].mails
    assert [x.message_id for x in june] == ["pipermail-netperf-1@example.com", "pipermail-netperf-2@example.com"]
    assert "TCP REQUEST/RESPONSE" in june[0].body and "From what I see" in june[1].body
    assert site.hits[PIPERMAIL_ROOT + "2007-June.txt"] == 0
    assert all(site.hits[p] == 0 for p in PIPERMAIL_HOSTILE)
    assert not [p for p in site.hits if "evil" in p]
    assert all("?" not in p.name for p in (tmp_path / "raw").rglob("*"))

    remember(ctx, first)
    bodies = dict(site.full_bodies)
    second = drain(src, ctx)
    assert {k: second[k].fetched.status for k in PIPERMAIL_GOOD} == dict.fromkeys(PIPERMAIL_GOOD, "unchanged")
    for key in PIPERMAIL_GOOD:
        assert site.full_bodies[PIPERMAIL_ROOT + key] == bodies[PIPERMAIL_ROOT + key] == 1


def test_local_path_is_a_clear_error(tmp_path):
    from flows.archives.base import UnitError
    from flows.archives.pipermail import KIND

    with pytest.raises(UnitError, match="needs an http"):
        KIND.units(Source("virt", "pipermail", str(tmp_path)), FetchContext(tmp_path))


def test_flow_loads_good_months_and_names_broken_ones(site, tmp_path, prefect_api):
    from flows.ingest import run_ingest

    cfg = load_config(write_config(tmp_path, mbox_source("virt", site.url(PIPERMAIL_ROOT), kind="pipermail"),
                                   extra=FAST_HTTP))
    first = run_ingest(cfg)
    by_unit = {u["unit"]: u for u in first["units"]}
    assert {k: by_unit[k]["messages_added"] for k in PIPERMAIL_GOOD} == PIPERMAIL_GOOD
    assert {k: by_unit[k]["status"] for k in PIPERMAIL_BAD} == dict.fromkeys(PIPERMAIL_BAD, "failed")
    assert all(reason in by_unit[k]["error"] for k, reason in PIPERMAIL_BAD.items())
    assert query(cfg.db_path, "SELECT count(*) FROM messages")[1][0][0] == 4
    rows = query(cfg.db_path, "SELECT count(*) FROM benchmark_results WHERE benchmark = 'netperf'")[1][0][0]
    assert rows > 0
    failed = query(cfg.db_path, "SELECT unit FROM archives WHERE status = 'failed' ORDER BY unit")[1]
    assert [r[0] for r in failed] == sorted(PIPERMAIL_BAD)
    links = dict(query(cfg.db_path, "SELECT message_id, url FROM messages")[1])
    assert links == {mid: site.url(PIPERMAIL_ROOT + page) for mid, page in PIPERMAIL_ARTICLES.items()}
    for mid, url in links.items():  # every link answers and shows that message (its id is the reply target)
        page = httpx.get(url)
        assert page.status_code == 200 and f"In-Reply-To={quote(f'<{mid}>', safe='')}" in page.text
    assert {r[0] for r in query(cfg.db_path, "SELECT DISTINCT url FROM benchmark_results")[1]} == {
        links["pipermail-netperf-1@example.com"]}

    second = run_ingest(cfg)
    assert {u["unit"]: u["status"] for u in second["units"] if u["unit"] in PIPERMAIL_GOOD} == dict.fromkeys(
        PIPERMAIL_GOOD, "unchanged")
    assert all(site.full_bodies[PIPERMAIL_ROOT + k] == 1 for k in PIPERMAIL_GOOD)
    assert query(cfg.db_path, "SELECT count(*) FROM messages")[1][0][0] == 4
    assert query(cfg.db_path, "SELECT count(*) FROM benchmark_results")[1][0][0] == rows
