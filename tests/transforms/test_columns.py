"""transforms.columns: printouts of several systems merged into columns, each read as its own."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from transforms.columns import columns
from transforms.extract import extract_explained
from transforms.model import Segment
from transforms.rows import result_rows

# https://lore.kernel.org/linux-mm/CAA_GA1dTJAJ2K101PwryrCnrE3t0y_EMRz_ttJ3LjBGFiyGp-g@mail.gmail.com/
# (2013, zcache), the lines as posted: two sysbench 0.4 printouts merged under the kernels' names,
# one line wrapped by the mailer
ZCACHE = """\
sysbench --test=oltp --oltp-table-size=15000000 --num-threads=16 --max-time=7200 run

                                Without zcache        With zcache
OLTP test statistics:
    queries performed:
        read:                  2238446                   2402372(+7%)
        write:                  799445                    857990
        other:                  319778                    343196
        total:                 3357669                   3603558
    transactions:               159889(22.20 per sec.)    171598(23.83
per sec.) (+7%)
    deadlocks:                       0(0.00 per sec.)          0(0.00 per sec.)

Test execution summary:
    total time:                   7201.0705s                7202.0176s
    total number of events:     159889                    171598
    per-request statistics:
         min:                       94.25ms                  57.80ms (+38%)
         avg:                      720.53ms                 671.45ms (+7%)
"""


def test_each_column_is_the_printout_of_the_system_its_head_names():
    rows = result_rows(extract_explained(ZCACHE, "z")[0])
    got = {(r["system"], r["metric"], r["params"].get("query_type"), r["value"]) for r in rows}
    assert {x for x in got if x[1] in ("query_count", "total_time")} == {
        ("Without zcache", "query_count", "read", 2238446.0), ("With zcache", "query_count", "read", 2402372.0),
        ("Without zcache", "query_count", "write", 799445.0), ("With zcache", "query_count", "write", 857990.0),
        ("Without zcache", "query_count", "other", 319778.0), ("With zcache", "query_count", "other", 343196.0),
        ("Without zcache", "query_count", "total", 3357669.0), ("With zcache", "query_count", "total", 3603558.0),
        ("Without zcache", "total_time", None, 7201.0705), ("With zcache", "total_time", None, 7202.0176)}
    assert {(r["system"], r["value"]) for r in rows if r["metric"] == "latency"} == {
        ("Without zcache", 94.25), ("With zcache", 57.8), ("Without zcache", 720.53), ("With zcache", 671.45)}
    # the wrapped line is in neither copy: no transaction rate read from half a line
    assert not [r for r in rows if r["metric"] == "transactions_per_second"]


def test_no_head_of_names_no_columns():
    lines = ZCACHE.splitlines()
    assert columns(Segment(lines)) is not None
    assert columns(Segment([x for x in lines if "zcache" not in x])) is None
    # a line whose values are not all numbers is not cut: each copy keeps it as it was
    words = [x.replace("2238446", "enabled") for x in lines]
    got = columns(Segment(words))
    assert got is not None
    k = next(i for i, x in enumerate(words) if "enabled" in x)
    assert all(c.lines[k] == words[k] for _, c in got[0])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 10**7), st.integers(0, 10**7)), min_size=3, max_size=8))
def test_every_value_lands_in_its_own_column(pairs):
    keys = ["read", "write", "other", "total", "alpha", "beta", "gamma", "delta"]
    lines = ["                    base          patched"]
    lines += [f"    {keys[i]}:    {a}          {b}" for i, (a, b) in enumerate(pairs)]
    got = columns(Segment(lines))
    assert got is not None
    (first, left), (second, right) = got[0]
    assert (first, second) == ("base", "patched")
    for i, (a, b) in enumerate(pairs):
        assert left.lines[i + 1].split() == [f"{keys[i]}:", str(a)]
        assert right.lines[i + 1].split() == [f"{keys[i]}:", str(b)]
