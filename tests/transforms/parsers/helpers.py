"""Scaffolding the parser test modules share: how a module reads its benchmark's golden fixtures,
and the property tests every parser must pass whatever its format.

Each parser module used to write these again (a `_rows`/`_runs`/`_fixture` wrapper trio, the
fixture directory and body list, the hypothesis settings, the never-raise properties): one home
here keeps them the same everywhere. The property-test factories return test functions; a module
binds them to `test_*` names so that pytest collects them there, under the same ids as before.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.transforms.parsers.damage import (
    DAMAGES,
    MUTATION,
    ROBUST,
    assert_damage_keeps_rows,
    assert_no_parser_error,
    assert_ok_or_unparsed,
    assert_sane,
    bench_rows,
    damage_cases,
    fuzz_text,
    mutate,
    parser_runs,
    spliced,
)
from tests.transforms.parsers.fixtures_io import FIXTURES, canonical, fixture_body, rows_of
from transforms.model import Parser, Run

PropertyTest = Callable[..., None]


def property_settings(max_examples: int) -> settings:
    """Hypothesis settings of the parser property tests: only the number of examples differs
    from one module to the next (no deadline: the shared machine makes timings noisy)."""
    return settings(
        max_examples=max_examples, deadline=None, suppress_health_check=[HealthCheck.too_slow]
    )


@dataclass(frozen=True, slots=True)
class Golden:
    """One benchmark's folder of golden fixtures and the readings its tests take of them.

    `benchmarks` are the row names the parser gives (dbench's parser also names `tbench` rows;
    dd and hdparm share one parser); `parser` is the parser's name, the folder's by default.
    """

    folder: str
    benchmarks: tuple[str, ...]
    parser: str = ""

    @property
    def dir(self) -> Path:
        """The fixture folder (`<name>.txt` posts, `neg_*` ones that must give no rows)."""
        return FIXTURES / self.folder

    def body(self, name: str) -> str:
        """The post text of fixture `name` (no `.txt`), without its provenance line."""
        return fixture_body(self.dir / f"{name}.txt")

    def bodies(self) -> list[str]:
        """Every fixture's post text, in name order: the seeds of the mutation properties."""
        return [fixture_body(p) for p in sorted(self.dir.glob("*.txt"))]

    def fixture_rows(self, name: str) -> list[dict[str, Any]]:
        """The golden columns of this benchmark's rows of fixture `name` (other parsers may read
        the same post)."""
        return [r for r in rows_of(self.body(name)) if r["benchmark"] in self.benchmarks]

    def rows(self, body: str) -> list[dict[str, Any]]:
        """All columns of this benchmark's rows of a post."""
        return bench_rows(body, *self.benchmarks)

    def runs(self, body: str) -> list[Run]:
        """The runs this benchmark's parser gave for a post, unparsed ones included."""
        return parser_runs(body, self.parser or self.folder)


def metric_rows(found: list[dict[str, Any]], metric: str, **params: str) -> list[dict[str, Any]]:
    """Rows of `metric` whose params include these (a parser adds params a test need not name)."""
    return [
        r
        for r in found
        if r["metric"] == metric and all(r["params"].get(k) == v for k, v in params.items())
    ]


def negatives_test(directory: Path, rows: Callable[[str], list[dict[str, Any]]]) -> PropertyTest:
    """`test_negative_fixtures_give_no_rows`: every `neg_*` fixture of `directory` (a post that
    looks like the format but holds no result) gives no row as `rows` reads a fixture by name."""

    @pytest.mark.parametrize("name", [p.stem for p in sorted(directory.glob("neg_*.txt"))])
    def test_negative_fixtures_give_no_rows(name: str) -> None:
        assert rows(name) == []

    return test_negative_fixtures_give_no_rows


def fuzz_tests(
    parser: Parser, fragments: Sequence[str], bodies: Sequence[str], conf: settings
) -> tuple[PropertyTest, PropertyTest]:
    """`test_random_text_never_raises` and `test_mutated_fixtures_never_raise` of a parser:
    text made of its format's fragments, and its fixtures with lines dropped, doubled, cut or
    joined, pass `assert_sane` (no exception, no junk row)."""

    @conf
    @given(fuzz_text(fragments))
    def test_random_text_never_raises(text: str) -> None:
        assert_sane(parser, text)

    @conf
    @given(st.sampled_from(bodies), st.lists(MUTATION, max_size=8))
    def test_mutated_fixtures_never_raise(body: str, ops: list[tuple[str, int, str]]) -> None:
        assert_sane(parser, mutate(body, ops))

    return test_random_text_never_raises, test_mutated_fixtures_never_raise


def damage_tests(
    reports: st.SearchStrategy[tuple[str, Any]], directory: Path, conf: settings
) -> tuple[PropertyTest, PropertyTest]:
    """`test_synthetic_report_survives_mail_damage` and `test_fixture_survives_mail_damage`:
    a report the tool could print (`reports` draws (text, expected) pairs) and every fixture of
    `directory` give the same rows quoted, with CRLF line ends or with blanks collapsed."""

    @conf
    @given(reports, st.sampled_from(DAMAGES))
    def test_synthetic_report_survives_mail_damage(report: tuple[str, Any], how: str) -> None:
        text, _ = report
        assert_damage_keeps_rows(text, how)

    @pytest.mark.parametrize(("path", "how"), damage_cases(directory))
    def test_fixture_survives_mail_damage(path: Path, how: str) -> None:
        assert_damage_keeps_rows(fixture_body(path), how)

    return test_synthetic_report_survives_mail_damage, test_fixture_survives_mail_damage


def robust_tests(
    runs: Callable[[str], list[Run]],
    texts: Sequence[str],
    inserts: Sequence[str],
    only: str | None = None,
) -> tuple[PropertyTest, PropertyTest]:
    """`test_random_text_never_raises` and `test_mutated_fixtures_never_raise` of a parser read
    through the driver: any text gives runs that are ok or unparsed, and fixtures with `inserts`
    spliced in never make the parser (`only` that one, when given) raise."""

    @ROBUST
    @given(st.text(max_size=400))
    def test_random_text_never_raises(text: str) -> None:
        assert_ok_or_unparsed(runs(text))

    @ROBUST
    @given(spliced(texts, inserts))
    def test_mutated_fixtures_never_raise(text: str) -> None:
        assert_no_parser_error(text, only=only)

    return test_random_text_never_raises, test_mutated_fixtures_never_raise


# --- JSON reports ------------------------------------------------------------------------------

JSON_SCALAR = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**20), 10**20),
    st.floats(allow_nan=False),
    st.text(max_size=8),
)


def json_values(keys: st.SearchStrategy[str]) -> st.SearchStrategy[Any]:
    """Random JSON values whose object keys come from `keys` (a format's own key names, so that
    the random documents reach deep into its reader)."""
    return st.recursive(
        JSON_SCALAR,
        lambda inner: st.one_of(
            st.lists(inner, max_size=4), st.dictionaries(keys, inner, max_size=6)
        ),
        max_leaves=40,
    )


def reordered(value: Any, rnd: random.Random) -> Any:
    """A decoded JSON value with every object's keys shuffled: key order must not matter."""
    if isinstance(value, dict):
        items = list(value.items())
        rnd.shuffle(items)
        return {k: reordered(v, rnd) for k, v in items}
    if isinstance(value, list):
        return [reordered(v, rnd) for v in value]
    return value


def json_document_tests(
    parser: Parser, docs: Sequence[str], indents: Sequence[int | str | None], conf: settings
) -> tuple[PropertyTest, PropertyTest]:
    """`test_truncated_documents_never_raise` and `test_reserialised_document_gives_the_same_rows`
    of a JSON report parser: a document cut anywhere never makes it raise, and the same document
    printed with other whitespace (`indents`) and key order gives the same rows."""

    @conf
    @given(st.sampled_from(docs), st.floats(0, 1), st.sampled_from(["", "\n", "\n}\n", "\n{\n"]))
    def test_truncated_documents_never_raise(doc: str, where: float, tail: str) -> None:
        assert_sane(parser, doc[: int(len(doc) * where)] + tail)

    @conf
    @given(st.sampled_from(docs), st.sampled_from(list(indents)), st.randoms(use_true_random=False))
    def test_reserialised_document_gives_the_same_rows(
        doc: str, indent: int | str | None, rnd: random.Random
    ) -> None:
        again = json.dumps(reordered(json.loads(doc), rnd), indent=indent)
        assert canonical(rows_of(again)) == canonical(rows_of(doc))

    return test_truncated_documents_never_raise, test_reserialised_document_gives_the_same_rows
