"""Every documented question in docs/queries.md runs on the sample warehouse."""

from __future__ import annotations

import re

import pytest

from tests.conftest import ROOT
from warehouse.db import query

DOC = (ROOT / "docs" / "queries.md").read_text(encoding="utf-8")
QUERIES = re.findall(r"### (\d+)\. (.*?)\n\n```sql\n(.*?)```", DOC, re.S)
# questions the five sample posts can answer must return rows
NON_EMPTY = {"1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12"}


def test_at_least_ten_documented_queries():
    assert len(QUERIES) >= 10


@pytest.mark.parametrize("num, title, sql", QUERIES, ids=[q[0] for q in QUERIES])
def test_documented_query_runs(sample_warehouse, num, title, sql):
    cols, rows = query(sample_warehouse.db_path, sql)
    assert cols
    if num in NON_EMPTY:
        assert rows, f"query {num} ({title}) returned nothing on the sample"


def test_xen_vs_native_fork_latency_values(sample_warehouse):
    sql = dict((n, q) for n, _, q in QUERIES)["1"]
    cols, rows = query(sample_warehouse.db_path, sql)
    got = sorted((r[cols.index("native")], r[cols.index("guest_us")], r[cols.index("native_us")]) for r in rows)
    # seed 003: fork proc 218. (xen) vs 189. (native SMP) and 114. (native UP)
    assert got == [("26-nat-sm Linux 2.6.8.1", 218.0, 189.0), ("26-nat-un Linux 2.6.8.1", 218.0, 114.0)]


def test_comparison_ratio_is_oriented(sample_warehouse):
    # TCP_STREAM at 2048 bytes: kvm.pv 507.21 vs kvm.rtl 33.06 Mbit/s (higher is better)
    _, rows = query(sample_warehouse.db_path,
                    "SELECT ratio FROM comparisons WHERE benchmark = 'netperf' AND system_a = 'kvm.pv'"
                    " AND system_b = 'kvm.rtl' AND params['test'] = 'TCP_STREAM' AND params['size'] = '2048'")
    assert rows == [(pytest.approx(507.21 / 33.06),)]
    # lmbench null call (lower is better): lguest 0.21 vs host 0.18 -> ratio < 1 for lguest
    _, rows = query(sample_warehouse.db_path,
                    "SELECT ratio FROM comparisons WHERE metric = 'null_call' AND system_a = 'darkstar Lguest 2.6.21'"
                    " AND system_b = 'darkstar Linux 2.6.21' AND params['repeat'] = '1'")
    assert rows == [(pytest.approx(0.18 / 0.21),)]
