"""One config with a pipermail site, a HyperKitty site and a maildir: every fixture message lands once."""

from __future__ import annotations

import pytest

from flows.config import load_config
from tests.archive_sites import (
    FAST_HTTP,
    HK_MONTHS,
    HK_ROOT,
    PIPERMAIL_BAD,
    PIPERMAIL_GOOD,
    PIPERMAIL_ROOT,
    hyperkitty_site,
    make_maildir,
    pipermail_site,
)
from tests.conftest import mbox_source, write_config
from tests.httpserver import Site
from warehouse.db import query

TABLES = ("messages", "runs", "benchmark_results", "quarantine")




@pytest.fixture
def site():
    s = Site().start()
    pipermail_site(s)
    hyperkitty_site(s)
    yield s
    s.stop()


def _counts(cfg) -> dict[str, int]:
    return {t: query(cfg.db_path, f"SELECT count(*) FROM {t}")[1][0][0] for t in TABLES}


def test_three_kinds_in_one_config_then_rerun_changes_nothing(site, tmp_path, prefect_api):
    from flows.ingest import run_ingest

    maildir = make_maildir(tmp_path / "Maildir")
    sources = "\n".join([
        mbox_source("virt", site.url(PIPERMAIL_ROOT), kind="pipermail"),
        mbox_source("kvm", site.url(HK_ROOT), kind="hyperkitty", until="2016-06"),
        mbox_source("inbox", maildir, kind="maildir"),
    ])
    cfg = load_config(write_config(tmp_path, sources, extra=FAST_HTTP))

    first = run_ingest(cfg)
    assert sorted(u["unit"] for u in first["units"] if u["status"] == "failed") == sorted(PIPERMAIL_BAD)
    added = {s: sum(u["messages_added"] for u in first["units"] if u["source"] == s) for s in ("virt", "kvm", "inbox")}
    assert added == {"virt": sum(PIPERMAIL_GOOD.values()), "kvm": sum(HK_MONTHS.values()), "inbox": 3}
    per_list = dict(query(cfg.db_path, "SELECT list_name, count(*) FROM messages GROUP BY 1")[1])
    assert per_list == added
    per_bench = dict(query(cfg.db_path, "SELECT benchmark || '@' || list_name, count(DISTINCT message_id)"
                                        " FROM benchmark_results GROUP BY 1")[1])
    assert per_bench == {"netperf@virt": 1, "bonnie@kvm": 1, "unixbench@inbox": 1}
    before, bodies = _counts(cfg), dict(site.full_bodies)
    assert before["messages"] == 10 and before["quarantine"] == 0

    second = run_ingest(cfg)
    statuses = {u["unit"]: u["status"] for u in second["units"]}
    assert {k for k, v in statuses.items() if v != "unchanged"} == set(PIPERMAIL_BAD)  # retried, still broken
    assert _counts(cfg) == before
    units = [PIPERMAIL_ROOT + k for k in PIPERMAIL_GOOD] + [p for p in bodies if "/export/" in p]
    assert len(units) == len(PIPERMAIL_GOOD) + len(HK_MONTHS)
    assert all(site.full_bodies[p] == bodies[p] == 1 for p in units)
