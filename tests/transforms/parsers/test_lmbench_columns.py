"""Placing a token under a ruler's dash spans by bisection gives what trying every span gives."""

from hypothesis import given
from hypothesis import strategies as st

from transforms.parsers.lmbench.columns import _best_span, _overlapping


def _every_span(s: int, e: int, spans: list[tuple[int, int]], slack: int = 1) -> int | None:
    """The reference: each span tried in turn (what `_best_span` did before bisection)."""
    best, best_ov = None, 0
    for k, (a, b) in enumerate(spans):
        ov = max(0, min(e, b) - max(s, a))
        if ov > best_ov:
            best, best_ov = k, ov
    if best is not None:
        return best
    for k, (a, b) in enumerate(spans):
        if a - slack <= s < b + slack or a - slack < e <= b + slack:
            return k
    return None


@st.composite
def _ruler_and_token(draw: st.DrawFn) -> tuple[list[tuple[int, int]], int, int, int]:
    spans, at = [], draw(st.integers(0, 3))
    for _ in range(draw(st.integers(1, 12))):
        width = draw(st.integers(1, 9))
        spans.append((at, at + width))
        at += width + draw(st.integers(1, 3))
    s = draw(st.integers(0, at + 3))
    return spans, s, s + draw(st.integers(1, 12)), draw(st.integers(0, 3))


@given(_ruler_and_token())
def test_bisection_places_tokens_as_trying_every_span_does(case):
    spans, s, e, slack = case
    assert _best_span(s, e, spans, slack) == _every_span(s, e, spans, slack)
    assert list(_overlapping(s, e, spans)) == [k for k, (a, b) in enumerate(spans) if min(e, b) > max(s, a)]


def test_a_token_under_two_spans_goes_to_the_one_it_covers_most():
    # `Host     OS  Mhz` over `-------- ----- ---`: `OS` at 9-11 sits in the second span
    spans = [(0, 8), (9, 14), (15, 18)]
    assert _best_span(9, 11, spans) == 1
    assert _best_span(6, 12, spans) == 1  # 2 columns in the first, 3 in the second
    assert _best_span(14, 15, spans) == 1  # in the gap: the span within one column, first in order
    assert _best_span(30, 32, spans) is None
