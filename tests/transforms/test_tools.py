"""The one table of tool names (transforms/tools.py) and the readers that take names from it."""

import re

import pytest

from transforms.handmade.evidence import _LITERALS
from transforms.tools import TOOLS, names_pattern


def test_the_longest_spelling_is_tried_first():
    rx = re.compile(names_pattern())
    assert rx.match("bonnie++ -d /mnt").group(0) == "bonnie++"
    assert rx.match("iperf3 -c host").group(0) == "iperf3"
    assert re.fullmatch(names_pattern(without=("dd",)), "dd") is None


def test_an_unknown_name_left_out_is_a_mistake():
    with pytest.raises(ValueError, match="not tool names"):
        names_pattern(without=("bonie",))


def test_the_evidence_literals_name_every_tool_as_the_table_does():
    """`dd` alone is an everyday word: the evidence reader knows it by `dd if=`, `dd of=` and a
    count glued to it (`10dd`), which `evidence._dd_named` checks."""
    assert {k: v for k, v in _LITERALS.items() if k in TOOLS} == dict(TOOLS)
