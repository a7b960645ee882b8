"""One config with one source of every kind (served on 127.0.0.1 or on disk): every fixture
message is ingested, and a second run downloads no unchanged body and adds no row."""

from __future__ import annotations

from flows.config import load_config
from tests.archive_sites import (
    CAP,
    FAST_HTTP,
    FIRST,
    HK_MONTHS,
    HK_ROOT,
    HM_ROOT,
    MA_ROOT,
    MARC_LIST,
    MHONARC_ROOT,
    PAGE_CAP,
    PIPERMAIL_BAD,
    PIPERMAIL_GOOD,
    PIPERMAIL_ROOT,
    Epoch,
    hyperkitty_site,
    hypermail_site,
    mail_archive_site,
    make_maildir,
    marc_site,
    mhonarc_site,
    pipermail_site,
)
from tests.conftest import SEEDS_MBOX, mbox_source, write_config
from tests.httpserver import Site
from warehouse.db import query

EXPECTED = {  # messages each list holds after the run
    "virt": sum(PIPERMAIL_GOOD.values()), "kvm": sum(HK_MONTHS.values()), "inbox": 3,
    "xen-devel": 5, "lore": len(FIRST), "sample": 5, "kvm-devel": 3, "lkml": 2, "lkml-marc": 2,
}  # fmt: skip
COUNTS = ("SELECT (SELECT count(*) FROM messages), (SELECT count(*) FROM memberships),"
          " (SELECT count(*) FROM runs), (SELECT count(*) FROM benchmark_results), (SELECT count(*) FROM quarantine)")


def test_every_kind_in_one_config(tmp_path, prefect_api):
    from flows.ingest import run_ingest

    site = Site()
    pipermail_site(site)
    hyperkitty_site(site)
    mhonarc_site(site)
    mail_archive_site(site)
    hypermail_site(site)
    marc_site(site)
    site.add("/mbox/seeds.mbox", SEEDS_MBOX.read_bytes(), content_type="application/mbox")
    site.start()
    try:
        epoch = Epoch(tmp_path / "lore" / "git" / "0.git")
        epoch.add(*FIRST)
        sources = "\n".join([
            mbox_source("virt", site.url(PIPERMAIL_ROOT), kind="pipermail"),
            mbox_source("kvm", site.url(HK_ROOT), kind="hyperkitty", until="2016-06"),
            mbox_source("inbox", make_maildir(tmp_path / "Maildir"), kind="maildir"),
            mbox_source("xen-devel", site.url(MHONARC_ROOT), kind="mhonarc", max_page_bytes=CAP),
            mbox_source("lore", tmp_path / "lore", kind="public-inbox"),
            mbox_source("sample", site.url("/mbox/seeds.mbox"), kind="mbox"),
            mbox_source("kvm-devel", site.url(MA_ROOT), kind="mail-archive", max_page_bytes=PAGE_CAP),
            mbox_source("lkml", site.url(HM_ROOT), kind="hypermail", max_page_bytes=PAGE_CAP),
            mbox_source("lkml-marc", site.url(f"/?l={MARC_LIST}"), kind="marc", max_page_bytes=PAGE_CAP),
        ])
        cfg = load_config(write_config(tmp_path, sources, extra=FAST_HTTP))

        first = run_ingest(cfg)
        failed = sorted(u["unit"] for u in first["units"] if u["status"] == "failed")
        assert failed == sorted(PIPERMAIL_BAD)  # the corrupt and HTML-error months, by design
        per_list = dict(query(cfg.db_path, "SELECT list_name, count(*) FROM memberships GROUP BY 1")[1])
        assert per_list == EXPECTED
        benches = {b for (b,) in query(cfg.db_path, "SELECT DISTINCT benchmark FROM benchmark_results"
                                                    " WHERE layout = 'tool_output'")[1]}
        assert benches == {"unixbench", "lmbench", "netperf", "bonnie"}
        before, bodies = query(cfg.db_path, COUNTS)[1][0], dict(site.full_bodies)

        second = run_ingest(cfg)
        changed = {u["unit"] for u in second["units"] if u["status"] != "unchanged"}
        assert changed == set(PIPERMAIL_BAD)  # retried, still broken
        assert query(cfg.db_path, COUNTS)[1][0] == before
        # no unchanged unit body downloaded again (index pages are re-read, broken months retried)
        units = [p for p in bodies if "/export/" in p or "/msg" in p or p.endswith(".mbox")
                 or p.removeprefix(PIPERMAIL_ROOT) in PIPERMAIL_GOOD]
        assert len(units) >= 10
        assert all(site.full_bodies[p] == bodies[p] == 1 for p in units)
    finally:
        site.stop()
