"""Hand-made rows through the whole ingest: validated, loaded, and told apart by `layout`."""

from __future__ import annotations

from tests.conftest import mbox_source, plain_ingest, write_config
from tests.mboxes import _mbox
from tests.sample_posts import CHANGE_ONLY, KERNBENCH
from warehouse.db import query


def test_hand_made_rows_load_with_their_layout(tmp_path):
    (tmp_path / "hand.mbox").write_text(_mbox([
        ("k1@example.org", "Re: gcc -O2 vs gcc -Os performance", KERNBENCH),
        ("u1@example.org", "Re: [PATCH v4 0/5] Reduce overhead of LSMs with static calls", CHANGE_ONLY),
    ]), encoding="utf-8")
    cfg = write_config(tmp_path, mbox_source("hand", "hand.mbox"))
    report = plain_ingest(cfg)
    assert report["failed"] == 0
    db = tmp_path / "data" / "listbench.duckdb"
    layouts = dict(query(db, "SELECT layout, count(*) FROM benchmark_results GROUP BY 1")[1])
    assert layouts == {"hand_table": 8, "change_table": 8}
    assert query(db, "SELECT count(*) FROM quarantine")[1][0][0] == 0
    assert query(db, "SELECT value FROM benchmark_results WHERE metric = 'execl_throughput_change_pct'"
                     " AND params['baseline'] = 'without these patches'")[1] == [(1.9356,)]
