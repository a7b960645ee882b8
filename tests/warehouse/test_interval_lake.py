"""Interval series through the whole ingest: out of the headline view, in their own."""

from __future__ import annotations

from tests.conftest import mbox_source, plain_ingest, write_config
from tests.mboxes import _mbox
from tests.sample_posts import SB10_SERIES
from warehouse.db import query


def test_interval_rows_load_beside_the_summary(tmp_path):
    (tmp_path / "iv.mbox").write_text(_mbox([("s1@example.org", "sysbench oltp on 4.19", SB10_SERIES)]),
                                      encoding="utf-8")
    cfg = write_config(tmp_path, mbox_source("iv", "iv.mbox"))
    report = plain_ingest(cfg)
    assert report["failed"] == 0
    db = tmp_path / "data" / "listbench.duckdb"
    assert query(db, "SELECT count(*) FROM quarantine")[1][0][0] == 0
    assert query(db, "SELECT count(*) FROM benchmark_results WHERE statistic = 'interval'")[1] == [(0,)]
    assert query(db, "SELECT value FROM benchmark_results WHERE metric = 'transactions_per_second'")[1] == [
        (2741.88,)]
    cols, rows = query(db, "SELECT interval_start, interval_end, value, params FROM benchmark_intervals"
                           " WHERE metric = 'transactions_per_second' ORDER BY interval_end")
    assert [r[:3] for r in rows] == [(0.0, 1.0, 2379.78), (1.0, 2.0, 2580.37)]
    assert dict(rows[0][3]) == {"test": "oltp", "threads": "8"}  # the span is in its own columns
    assert query(db, "SELECT count(*) FROM benchmark_intervals")[1] == [(16,)]
