"""hyperkitty (Mailman 3): month exports by query string, months from the overview or options."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest

from flows.archives.base import FetchContext, UnitError
from flows.archives.hyperkitty import (
    KIND,
    current_month,
    first_month,
    months_back,
    parse_month,
    settled,
)
from flows.config import ConfigError, Source
from tests.archive_sites import (
    ARCHIVES,
    HK_MONTHS,
    HK_ROOT,
    answers_with,
    client,
    drain,
    fresh,
    hyperkitty_site,
    linked,
    message_page,
    remember,
)
from tests.httpserver import Site


@pytest.fixture
def site(server):
    s = fresh(server)
    return s


def _src(site: Site, **opts) -> Source:
    return Source("kvm", "hyperkitty", site.url(HK_ROOT), options=opts)


def test_overview_month_links_give_the_first_month():
    root = "http://127.0.0.1:8080" + HK_ROOT
    assert first_month(root, (ARCHIVES / "hyperkitty" / "overview.html").read_text()) == "2016-04"
    assert first_month(root, "<a href='/archives/list/other@lists.example.org/2001/1/'>x</a>") is None


def test_units_from_overview_until_option(site, tmp_path):
    hyperkitty_site(site)
    units = KIND.units(_src(site, until="2016-06"), FetchContext(tmp_path, http=client()))
    assert [(u.key, u.month) for u in units] == [(f"kvm-{m}.mbox.gz", m) for m in HK_MONTHS]
    assert units[0].url == site.url(HK_ROOT + "export/kvm-2016-04.mbox.gz?start=2016-04-01&end=2016-05-01")


def test_since_until_work_without_an_overview_and_cross_the_year(site, tmp_path):
    units = KIND.units(_src(site, since="2015-11", until="2016-01"), FetchContext(tmp_path, http=client()))
    assert [u.url.split("?")[1] for u in units] == [
        "start=2015-11-01&end=2015-12-01", "start=2015-12-01&end=2016-01-01", "start=2016-01-01&end=2016-02-01"]
    assert dict(site.hits) == {HK_ROOT: 1}  # the overview was asked for (404): every month is a unit


def test_months_the_sidebar_leaves_out_are_not_requested(site, tmp_path):
    hyperkitty_site(site, overview=False)
    markup = (ARCHIVES / "hyperkitty" / "overview.html").read_text()
    site.add(HK_ROOT, markup.replace('<li><a href="/archives/list/kvm@lists.example.org/2016/5/">May</a></li>', ""),
             content_type="text/html; charset=utf-8")
    src = _src(site, since="2016-03", until="2016-06")  # March: before the list's first message
    drained = drain(src, FetchContext(tmp_path / "raw", http=client()))
    assert {k: len(d.mails) for k, d in drained.items()} == {"kvm-2016-04.mbox.gz": 2, "kvm-2016-06.mbox.gz": 1}
    assert not [p for p in site.hits if "kvm-2016-03" in p or "kvm-2016-05" in p]


def test_no_overview_means_the_last_12_months(site, tmp_path):
    units = KIND.units(_src(site), FetchContext(tmp_path, http=client()))
    now = current_month()
    assert [u.month for u in units][-1] == now and units[0].month == months_back(now, 11) and len(units) == 12
    assert site.hits[HK_ROOT] == 1


@pytest.mark.parametrize("opts, match", [
    ({"since": "2016-4"}, "since must be YYYY-MM"), ({"until": "2016-13"}, "until must be YYYY-MM"),
    ({"since": "2016-05", "until": "2016-04"}, "since 2016-05 is after until 2016-04")])
def test_bad_month_options_are_config_errors(site, tmp_path, opts, match):
    with pytest.raises(ConfigError, match=match):
        KIND.units(_src(site, **opts), FetchContext(tmp_path, http=client()))


def test_toml_date_options_are_months():
    assert parse_month(date(2016, 4, 1), "since", "kvm") == "2016-04" and parse_month(None, "since", "kvm") is None


def test_not_a_list_root_is_a_clear_error(tmp_path):
    with pytest.raises(UnitError, match="not a HyperKitty list root"):
        KIND.units(Source("kvm", "hyperkitty", "http://127.0.0.1:1/archives/list/kvm/"), FetchContext(tmp_path))


def test_fetch_decode_then_second_pass_downloads_nothing(site, tmp_path):
    hyperkitty_site(site)
    src = _src(site, until="2016-06")
    ctx = FetchContext(tmp_path / "raw", http=client())
    first = drain(src, ctx)
    assert {k: (d.fetched.status, len(d.mails)) for k, d in first.items()} == {
        f"kvm-{m}.mbox.gz": ("ok", n) for m, n in HK_MONTHS.items()}
    april = first["kvm-2016-04.mbox.gz"].mails
    assert [m.message_id for m in april] == ["hk-bonnie-1@example.com", "hk-bonnie-2@example.com"]
    assert "Bonnie 1.4" in april[0].body and "=\n" not in april[0].body  # quoted-printable decoded
    assert april[0].posted_at == datetime(2016, 4, 12, 5, 0, tzinfo=UTC) and april[0].from_name == "Emre ERENOGLU"
    assert april[1].in_reply_to == "hk-bonnie-1@example.com"
    (june,) = first["kvm-2016-06.mbox.gz"].mails
    assert "Résumé: no change." in june.body  # base64 utf-8 decoded
    cached = sorted(p.name for p in (tmp_path / "raw" / "kvm").iterdir())
    assert cached == [f"kvm-{m}.mbox.gz" for m in HK_MONTHS]  # no `?start=` in cache names

    remember(ctx, first)
    bodies = dict(site.full_bodies)
    second = drain(src, ctx)
    assert {d.fetched.status for d in second.values()} == {"unchanged"}
    exports = {p: n for p, n in site.full_bodies.items() if "/export/" in p}
    assert exports == {p: n for p, n in bodies.items() if "/export/" in p} and set(exports.values()) == {1}


def test_settled_months_are_not_requested(site, tmp_path):
    hyperkitty_site(site)
    src = _src(site, since="2016-04", until="2016-04", settled_after_days=7)
    ctx = FetchContext(tmp_path, http=client())
    unit = KIND.units(src, ctx)[0]
    site.hits.clear()  # the overview; what follows counts the export requests only
    ctx.previous[("kvm", unit.key)] = {"sha256": "abc", "bytes": 10, "fetched_at": datetime(2016, 5, 9, tzinfo=UTC)}
    assert KIND.fetch(unit, src, ctx).status == "unchanged" and sum(site.hits.values()) == 0
    ctx.previous[("kvm", unit.key)]["fetched_at"] = datetime(2016, 5, 3, tzinfo=UTC)  # fetched before it settled
    assert KIND.fetch(unit, src, ctx).status == "ok" and sum(site.hits.values()) == 1


def test_months_settle_by_default_and_recheck_or_false_asks_again(site, tmp_path):
    hyperkitty_site(site)
    src = _src(site, since="2016-04", until="2016-04")  # no settled_after_days: the default 7
    unit = KIND.units(src, FetchContext(tmp_path))[0]
    last = {"sha256": "abc", "bytes": 10, "fetched_at": datetime(2016, 5, 9, tzinfo=UTC)}
    ctx = FetchContext(tmp_path, http=client(), previous={("kvm", unit.key): dict(last)})
    assert KIND.fetch(unit, src, ctx).status == "unchanged" and sum(site.hits.values()) == 0
    again = FetchContext(tmp_path, http=client(), previous={("kvm", unit.key): dict(last)}, recheck=True)
    assert KIND.fetch(unit, src, again).status == "ok" and sum(site.hits.values()) == 1
    never = _src(site, since="2016-04", until="2016-04", settled_after_days=False)
    assert KIND.fetch(unit, never, ctx).status == "ok" and sum(site.hits.values()) == 2


@pytest.mark.parametrize("bad", [-1, "7", True])
def test_settled_after_days_is_checked(site, tmp_path, bad):
    hyperkitty_site(site)
    src = _src(site, since="2016-04", until="2016-04", settled_after_days=bad)
    unit = KIND.units(src, FetchContext(tmp_path))[0]
    ctx = FetchContext(tmp_path, http=client(), previous={("kvm", unit.key): {"fetched_at": datetime(2016, 5, 9, tzinfo=UTC)}})
    with pytest.raises(ConfigError, match="settled_after_days"):
        KIND.fetch(unit, src, ctx)


def test_settled_boundary():
    end = datetime(2016, 5, 1, tzinfo=UTC)
    assert settled("2016-04", end + timedelta(days=7), 7) and not settled("2016-04", end + timedelta(days=6), 7)
    assert not settled("2016-04", None, 7)


# Each message's page, at the id HyperKitty derives from its Message-ID (base32 of SHA-1, as Mailman 3's
# documentation shows for `<ant>`), written out here so that the link the ingest records is checked
# against the archive's address, not against the code that computes it.
HK_PAGES = {"hk-bonnie-1@example.com": "message/NLP3AUMSC44TBYYTOROY7VJZ7L4B4FWK/",
            "hk-bonnie-2@example.com": "message/3KUJKHSZTWFMFQAQG5W4ZROTZT6WHEZF/",
            "hk-virtio-1@example.com": "message/GET2HKD3P2LYFE4LBW635TBFHYZ7FODY/"}


def test_every_message_links_to_its_page(site, tmp_path):
    hyperkitty_site(site)
    for mid, page in HK_PAGES.items():
        site.add(HK_ROOT + page, message_page(mid, "fixture"), content_type="text/html")
    urls = linked(_src(site, until="2016-06"), FetchContext(tmp_path / "raw", http=client()))
    assert urls == {mid: site.url(HK_ROOT + page) for mid, page in HK_PAGES.items()}
    assert all(answers_with(url, mid) for mid, url in urls.items())
