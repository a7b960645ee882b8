"""Every golden fixture gives exactly its expected rows (all columns that matter)."""

from __future__ import annotations

import pytest

from tests.transforms.parsers.fixtures_io import (
    KEYS,
    all_fixtures,
    canonical,
    expected_rows,
    fixture_body,
    rows_of,
)

CASES = all_fixtures()


@pytest.mark.parametrize("path", CASES, ids=[f"{p.parent.name}/{p.stem}" for p in CASES])
def test_fixture_rows_match_expected(path):
    got = rows_of(fixture_body(path))
    exp = expected_rows(path)
    for row in exp:
        assert set(row) == set(KEYS), f"{path.name}: expected row lacks keys {set(KEYS) - set(row)}"
    missing = sorted(set(canonical(exp)) - set(canonical(got)))
    extra = sorted(set(canonical(got)) - set(canonical(exp)))
    assert not missing and not extra, f"missing={missing[:5]} extra={extra[:5]}"
    assert len(got) == len(exp)


def test_there_are_fixtures():
    assert len(CASES) >= 5
