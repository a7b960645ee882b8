"""The real-posts corpus (tests/fixtures/real): its files are well-formed, negatives give no rows,
and extraction on it does not fall below the floors in floors.json.

Also the scorer's matching rules (bench/real_corpus.py) on tiny hand-made rows and facts.
Assertion messages name posts by slug only: the test half is scored, never shown.
"""

from __future__ import annotations

import json
import re
from email.parser import BytesHeaderParser
from email.policy import compat32
from functools import cache

import pytest

from bench import real_corpus as rc
from transforms.dates import parse_date

REAL = rc.REAL
FLOORS = REAL / "floors.json"
_SOURCE = re.compile(r"^Source: https?://\S+$")
_SLUG = re.compile(r"^[a-z][a-z0-9_]*$")
ALL_POSTS = rc.posts(REAL, "all") + rc.posts(REAL, "negative")


def _ids(posts):
    return [f"{p.split}/{p.slug}" for p in posts]


# ---------------------------------------------------------------- corpus files


@pytest.mark.parametrize("post", ALL_POSTS, ids=_ids(ALL_POSTS))
def test_post_is_well_formed(post):
    raw = post.path.read_bytes()
    first, _, message = raw.partition(b"\n")
    assert _SOURCE.match(first.decode("utf-8").rstrip("\r")), f"{post.slug}: line 1 must be `Source: <http(s) URL>`"
    raw.decode("utf-8")  # files are UTF-8
    head, sep, _body = message.replace(b"\r\n", b"\n").partition(b"\n\n")
    assert sep, f"{post.slug}: no blank line after the headers"
    # the headers alone (a multipart post's body, parts and boundaries, is not part of this check)
    msg = BytesHeaderParser(policy=compat32).parsebytes(head + b"\n\n")
    assert not msg.defects, f"{post.slug}: header defects {msg.defects}"
    for name in ("From", "Date", "Subject"):
        assert msg.get(name), f"{post.slug}: no {name} header"
    date = parse_date(str(msg["Date"]))
    assert date is not None, f"{post.slug}: unreadable Date"
    if post.split == "dev":
        assert date.year % 2 == 1, f"{post.slug}: dev posts are dated in odd years"
    elif post.split == "test":
        assert date.year % 2 == 0, f"{post.slug}: test posts are dated in even years"
    assert _SLUG.match(post.slug), f"{post.slug}: slug must be [a-z0-9_]"
    assert len(raw) < 120_000, f"{post.slug}: post over the size cap"


def test_slugs_unique():
    slugs = [p.slug for p in ALL_POSTS]
    dup = sorted(s for s in set(slugs) if slugs.count(s) > 1)
    assert not dup, f"slugs used twice: {dup}"


POSITIVE = rc.posts(REAL, "all")


@pytest.mark.parametrize("post", POSITIVE, ids=_ids(POSITIVE))
def test_facts_are_well_formed(post):
    assert post.facts_path.exists(), f"{post.slug}: no facts file beside the post"
    facts = rc.read_facts(post.facts_path)
    assert facts, f"{post.slug}: empty facts file"
    for n, f in enumerate(facts, 1):
        where = f"{post.slug} fact {n}"
        missing = [k for k in rc.FACT_KEYS if k not in f]
        assert not missing, f"{where}: missing keys {missing}"
        assert f["benchmark"] in rc.BENCHMARKS, f"{where}: unknown benchmark"
        assert f["layout"] in rc.LAYOUTS, f"{where}: unknown layout"
        assert f["system"] is None or (isinstance(f["system"], str) and f["system"].strip()), f"{where}: system"
        assert isinstance(f["metric"], str) and f["metric"].strip(), f"{where}: metric"
        assert isinstance(f["params"], dict), f"{where}: params must be an object"
        assert isinstance(f["value"], (int, float)) and not isinstance(f["value"], bool), f"{where}: value"
        assert isinstance(f["unit"], str), f"{where}: unit must be a string"


@cache
def _figures() -> dict:
    return rc.summary(REAL, "all")


NEGATIVE = rc.posts(REAL, "negative")


@pytest.mark.parametrize("post", NEGATIVE, ids=_ids(NEGATIVE))
def test_negative_post_gives_no_rows(post):
    rows = rc.post_rows(post.path)
    assert not rows, f"{post.slug}: {len(rows)} rows from a post without benchmark results: " + "; ".join(
        f"{r['benchmark']}/{r['metric']}={r['value']:g}" for r in rows[:5])


@pytest.mark.parametrize("split", rc.SPLITS)
def test_figures_hold_the_floors(split):
    floors = json.loads(FLOORS.read_text(encoding="utf-8")).get(split) if FLOORS.exists() else None
    if not floors:
        pytest.skip(f"no floors for {split}")
    total = _figures()["splits"][split]["total"]
    low = {k: (total[k], floor) for k, floor in floors.items() if (total[k] or 0.0) < floor}
    assert not low, f"{split}: below the floor (measured, floor): {low}"


def test_dev_figures_hold_their_floor_when_a_mailer_rewraps_every_post():
    """The dev posts as a mailer re-wrapping them at 72 columns would send them (`--damage wrap`):
    tables broken row by row must still be read."""
    floors = json.loads(FLOORS.read_text(encoding="utf-8")).get("dev_wrapped") if FLOORS.exists() else None
    if not floors:
        pytest.skip("no floors for the re-wrapped dev posts")
    from bench.extraction import wrap

    total = rc.summary(REAL, "dev", wrap)["splits"]["dev"]["total"]
    low = {k: (total[k], floor) for k, floor in floors.items() if (total[k] or 0.0) < floor}
    assert not low, f"dev, re-wrapped: below the floor (measured, floor): {low}"


# ---------------------------------------------------------------- matching rules


def _fact(**kw):
    base = {"benchmark": "netperf", "system": None, "metric": "TCP_STREAM", "params": {}, "value": 940.5,
            "unit": "Mbit/s", "layout": "hand_table"}
    return {**base, **kw}


def _row(**kw):
    base = {"benchmark": "netperf", "system": None, "metric": "throughput", "metric_label": "TCP_STREAM",
            "params": {}, "value": 940.5, "unit": "Mbit/s"}
    return {**base, **kw}


def test_value_equal_or_converted_within_half_a_percent():
    assert rc.value_match(940.5, "Mbit/s", 940.5, "Mbit/s") == 2
    assert rc.value_match(137214, "KB/s", 137214.0000001, "K/sec") == 2
    assert rc.value_match(363, "kIOPS", 363000, "IOPS") == 1  # fio's `IOPS=363k` written as 363 kIOPS
    assert rc.value_match(56.01, "K transactions/sec", 56010, "trans/s") == 1  # a count's thousands
    assert rc.value_match(1.2, "Mpps", 1200000, "pps") == 1
    assert rc.value_match(56.01, "K transactions/sec", 56010, "IOPS") == 0  # another count
    assert rc.value_match(1.2, "GB/s", 1200, "MB/s") == 1  # decimal prefixes
    assert rc.value_match(1.0, "GiB/s", 1024, "MiB/s") == 1
    assert rc.value_match(800, "Mbit/s", 100, "MB/s") == 1  # bits and bytes
    assert rc.value_match(2.5, "ms", 2500, "us") == 1
    assert rc.value_match(2.5, "ms", 2520, "us") == 0  # 0.8% off
    assert rc.value_match(1.2, "GB/s", 1200, "IOPS") == 0  # IOPS does not scale
    assert rc.value_match(3.2, "%", 3.2, "") == 2  # the same number matches whatever the units say
    assert rc.value_match(2.5, "s", 2.5, "MB/s") == 2
    assert rc.value_match(2.5, "s", 2500, "MB/s") == 0  # time and rate do not convert


def test_system_rule():
    assert rc.system_match(None, "anything")
    assert rc.system_match(None, None)
    assert rc.system_match("2.6.24-rc3", "2.6.24-rc3:")
    assert rc.system_match("Patched", "patched kernel")  # containment, shorter >= 3
    assert not rc.system_match("v1", "v12")  # too short to contain
    assert not rc.system_match("patched", None)
    assert not rc.system_match("guest", "host")


def test_metric_rule():
    assert rc.metric_match("TCP_STREAM", None, "tcp_stream")
    assert rc.metric_match("fork proc", "fork proc", "fork_proc")
    assert rc.metric_match("Sequential Output Block", "Block", "seq_output_block")
    assert rc.metric_match("read bw", "bw", "read_bandwidth")  # `bw` is contained in `readbw`
    assert not rc.metric_match("TCP_RR", "UDP_STREAM", "udp_stream")
    assert not rc.metric_match("Time", "Throughput", "throughput")
    assert rc.metric_match("Pipe-based Context Switching", "Pipe-based Context Switching", "context1")
    assert not rc.metric_match("Pipe-based Context Switching", "Pipe Throughput", "pipe_throughput")
    # a fact labelled only with the tool's name is the tool's headline figure, and no other
    assert rc.metric_match("tbench", None, "throughput", "tbench")
    assert not rc.metric_match("tbench", None, "max_latency", "tbench")
    # ... also the headline its unit tells apart (netperf TCP_RR's rate), or a change of it
    assert rc.metric_match("netperf", "TCP_RR", "transaction_rate_change_pct", "netperf")
    assert rc.metric_match("fio", None, "iops", "fio")
    assert not rc.metric_match("netperf", "TCP_RR", "rt_latency", "netperf")
    assert not rc.metric_match("dbench", None, "max_latency_change_pct", "dbench")
    # ... named with a word for its result, or normalized
    assert rc.metric_match("tbench results", "throughput", "throughput", "tbench")
    assert rc.metric_match("tbench", "Normalized throughput", "normalized_throughput", "tbench")
    assert not rc.metric_match("tbench latency", None, "throughput", "tbench")
    assert rc.metric_match("write_bw", "throughput", "throughput", "dd")  # the registry's synonym


def test_benchmark_rule():
    assert rc.benchmark_match("bonnie++", "bonnie")
    assert not rc.benchmark_match("dbench", "tbench")


def test_pairing_is_one_to_one_and_prefers_full_matches():
    facts = [_fact(system="base", value=1.0), _fact(system="patched", value=1.0)]
    rows = [_row(system="patched", value=1.0)]
    ps = rc.score_post("p", facts, rows)
    assert ps.pair == {1: 0}  # the fully matching fact gets the row
    assert ps.attributed == {1}
    assert ps.value_found == {0, 1}  # any row with the value
    assert ps.correct_rows == {0}


def test_wrong_label_finds_the_value_but_is_not_attributed():
    ps = rc.score_post("p", [_fact(system="guest")], [_row(system="eth0")])
    assert ps.value_found == {0} and ps.attributed == set() and ps.correct_rows == {0}


def test_unattributed_pairs_say_what_differs():
    facts = [_fact(system="guest", value=1.0), _fact(system="guest", value=2.0), _fact(value=3.0),
             _fact(system="host", value=4.0)]
    rows = [_row(system=None, value=1.0), _row(system="eth0", value=2.0),
            _row(value=3.0, metric_label="Latency", metric="latency"), _row(system="guest", value=4.0)]
    sc = rc.SplitScore([rc.score_post("p", facts, rows)])
    assert sc.posts[0].why == {0: ("no system",), 1: ("system not in the post",), 2: ("metric",),
                               3: ("other system",)}
    assert sc.why() == {"metric": 1, "no system": 1, "other system": 1, "system not in the post": 1}


def test_extra_rows_and_repeats():
    facts = [_fact(value=10.0)]
    rows = [_row(value=10.0), _row(value=10.0), _row(value=99.0)]
    sc = rc.SplitScore([rc.score_post("p", facts, rows)])
    t = sc.tally()
    assert (t.facts, t.attributed, t.rows, t.correct, t.repeats) == (1, 1, 3, 1, 1)
    assert t.precision == 0.5  # 1 correct of 3 rows less 1 repeat
    assert t.attributed_recall == 1.0


def test_standard_deviation_rows_are_not_held_against_precision():
    rows = [_row(value=10.0), _row(value=0.5, statistic="stddev"), _row(value=99.0)]
    t = rc.SplitScore([rc.score_post("p", [_fact(value=10.0), _fact(value=0.5)], rows)]).tally()
    assert (t.rows, t.correct, t.spreads) == (3, 1, 1)
    assert t.precision == 0.5  # the spread neither pairs with a fact nor counts as a wrong row
    assert t.value_found == 1  # and a fact never takes a stddev row's value


def test_unpaired_bounds_are_spreads_and_a_bound_given_as_a_fact_pairs():
    rows = [_row(value=10.0), _row(value=9.0, statistic="min"), _row(value=12.0, statistic="max"), _row(value=99.0)]
    t = rc.SplitScore([rc.score_post("p", [_fact(value=10.0), _fact(value=12.0)], rows)]).tally()
    assert (t.rows, t.correct, t.spreads, t.attributed) == (4, 2, 1, 2)
    assert t.precision == 2 / 3  # the unpaired `min` is left aside, the 99 counts against


def test_per_layout_counts_rows_without_layout_as_tool_output():
    facts = [_fact(layout="tool_output", value=1.0), _fact(layout="prose", value=2.0)]
    rows = [_row(value=1.0), _row(value=2.0, layout="prose"), _row(value=3.0, layout="hand_table")]
    per = rc.SplitScore([rc.score_post("p", facts, rows)]).per_layout()
    assert per["tool_output"].rows == 1 and per["tool_output"].attributed == 1
    assert per["prose"].facts == 1 and per["prose"].correct == 1
    assert per["hand_table"].facts == 0 and per["hand_table"].rows == 1 and per["hand_table"].precision == 0.0


def _demo_post(tmp_path):
    post = tmp_path / "x_lkml_2001_dd_demo.txt"
    post.write_text(
        "Source: https://lore.kernel.org/lkml/demo@example.org/\n"
        "From: A <a@example.org>\nDate: Mon, 1 Jan 2001 10:00:00 +0000\nSubject: dd numbers\n"
        "Message-ID: <demo@example.org>\n\n"
        "$ dd if=/dev/zero of=/tmp/f bs=1M count=1024\n"
        "1024+0 records in\n1024+0 records out\n"
        "1073741824 bytes (1.1 GB) copied, 9.5 s, 113 MB/s\n",
        encoding="utf-8",
    )
    return post


def test_post_rows_read_like_listbench_extract(tmp_path):
    rows = rc.post_rows(_demo_post(tmp_path))
    assert rows and rows[0]["message_id"] == "demo@example.org" and rows[0]["subject"] == "dd numbers"
    assert any(r["benchmark"] == "dd" and r["value"] == 113 for r in rows)


def test_post_rows_with_damage_read_the_damaged_body(tmp_path):
    from bench.extraction import quote

    post = _demo_post(tmp_path)
    plain = rc.post_rows(post)
    assert [r["value"] for r in rc.post_rows(post, lambda body: body)] == [r["value"] for r in plain]
    quoted = rc.post_rows(post, quote)
    assert [r["value"] for r in quoted] == [r["value"] for r in plain] and all(r["quoted"] for r in quoted)
    assert rc.post_rows(post, lambda body: "") == []


def test_show_misses_refuses_the_test_half(capsys):
    from bench.extraction import main

    with pytest.raises(SystemExit):
        main(["--real", "--split", "test", "--show-misses"])
    assert "only on --split dev" in capsys.readouterr().err


def test_damages_compose_in_the_order_named_and_unknown_ones_are_refused(capsys):
    import argparse

    from bench.extraction import _damage, main

    ap = argparse.ArgumentParser()
    line = "a " * 40 + "b"
    assert _damage(ap, "quote,wrap")(line).splitlines()[1] == "a a a a a b"  # quoted, then its rest wrapped unquoted
    assert _damage(ap, "wrap,quote")(line).splitlines()[1] == "> a a a a b"
    with pytest.raises(SystemExit):
        main(["--real", "--split", "dev", "--damage", "quote,bogus"])
    assert "unknown damage 'bogus'" in capsys.readouterr().err


def test_a_row_kept_at_its_printed_scale_is_its_value_times_the_scale():
    # a row `25.1` with params scale=k (`25.1k` as printed) is the fact `25100 IOPS`
    row = _row(value=25.1, unit="")
    row["params"] = {"scale": "k"}
    ps = rc.score_post("p", [_fact(value=25100.0, unit="IOPS")], [row])
    assert ps.value_found == {0} and ps.attributed == {0}
    assert rc.score_post("p", [_fact(value=25.2, unit="IOPS")], [row]).value_found == set()
