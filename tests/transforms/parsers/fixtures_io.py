"""The golden-fixture reader, shared with the benchmarks (see bench/golden.py)."""

from bench.golden import (  # noqa: F401
    FIXTURES,
    KEYS,
    all_fixtures,
    canonical,
    expected_rows,
    fixture_body,
    hand_rows_of,
    parser_runs,
    rows_of,
)
