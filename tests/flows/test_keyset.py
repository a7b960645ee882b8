"""The digest set behind the lake's known keys."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from flows import keyset
from flows.keyset import KeySet, digest
from flows.steps import Known


def test_membership_before_and_after_merges(monkeypatch):
    monkeypatch.setattr(keyset, "MERGE_AT", 7)
    ks = KeySet(["a", "b"])
    keys = [f"<{i}@example.org>" for i in range(100)]
    for k in keys[:50]:
        ks.add(digest(k))
    assert len(ks._sorted) > 0 and len(ks._recent) < 7  # merged into the array several times
    assert ks.contains([digest(k) for k in keys]) == [True] * 50 + [False] * 50
    assert "a" in ks and "b" in ks and "c" not in ks and "" not in ks
    assert len(ks) == 52
    assert ks.digests() == KeySet(["b", "a", *keys[:50]]).digests()


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(max_size=8), max_size=40), st.lists(st.text(max_size=8), max_size=10),
       st.integers(min_value=2, max_value=9))
def test_one_key_asked_alone_answers_as_in_a_batch(held, asked, merge_at):
    # a worker asks one key at a time (its own path); a batch goes through the arrays
    keyset.MERGE_AT, old = merge_at, keyset.MERGE_AT
    try:
        ks = KeySet(held)
    finally:
        keyset.MERGE_AT = old
    probes = [digest(k) for k in [*asked, *held[:5]]]
    assert [ks.contains([d])[0] for d in probes] == ks.contains(probes) == [
        k in set(held) for k in [*asked, *held[:5]]]


def test_digests_survive_a_fixed_width_array():
    # numpy drops trailing NUL bytes of fixed-width bytes: no digest may end in one
    d = [digest(f"m{i}") for i in range(5000)]
    assert all(len(x) == 16 and x.endswith(b"\x01") for x in d)
    assert len(set(d)) == 5000
    ks = KeySet()
    for x in d:
        ks.add(x)
    ks._merge()
    assert ks.contains(d) == [True] * 5000


def test_known_accept_new_join_and_repeats():
    known = Known({"old"}, {("old", "a")})
    new, join = known.accept(["x", "old", "x", "y", "old"], "b")
    assert (new, join) == ({"x", "y"}, {"old"})
    new, join = known.accept(["x", "old", "z"], "b")  # all known now, memberships of b too
    assert (new, join) == ({"z"}, set())
    new, join = known.accept(["x"], "c")
    assert (new, join) == (set(), {"x"})
    assert known.message_ids == Known({"old", "x", "y", "z"}, set()).message_ids
    assert known.memberships == Known(set(), {("old", "a"), ("old", "b"), ("x", "b"), ("y", "b"), ("z", "b"),
                                              ("x", "c")}).memberships


def test_extend_takes_a_packed_block_small_ones_recent_and_big_ones_merged(monkeypatch):
    monkeypatch.setattr(keyset, "MERGE_AT", 8)
    keys = [f"<{i}@example.org>" for i in range(40)]
    packed = KeySet(keys[:20]).packed()
    assert len(packed) == 20 * 16
    ks = KeySet()
    ks.extend(packed)
    assert len(ks._sorted) == 20 and not ks._recent  # taken as it is: sorted already
    ks.extend(b"".join(digest(k) for k in keys[18:23]))  # two already in, three new: recent
    assert len(ks._sorted) == 20 and len(ks._recent) == 5
    ks.extend(b"".join(digest(k) for k in reversed(keys[23:40])))  # 17 >= MERGE_AT: one merge
    assert ks.contains([digest(k) for k in keys]) == [True] * 40
    assert ks.digests() == KeySet(keys).digests() and len(ks) == 40
    unsorted = KeySet()
    unsorted.extend(b"".join(digest(k) for k in reversed(keys[:20])))  # not a packed block: merged
    assert unsorted.digests() == KeySet(keys[:20]).digests()
    assert not KeySet() and KeySet(["a"])
