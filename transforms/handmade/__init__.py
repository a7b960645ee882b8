"""Results people type by hand: whitespace, pipe, box and grid tables, change-only tables,
`key: value` summaries and prose (issue classes 1-4 and 7).

`read` is the one entry point, called by `transforms.extract` after the benchmark parsers over
the lines none of them claimed. `HANDMADE` stands in for a parser in run records.
"""

from __future__ import annotations

import re

from transforms.handmade.read import Explained, HandRun, read
from transforms.model import Parser

HANDMADE = Parser(name="handmade", version="1", signature=re.compile(r"(?!)"), parse=lambda seg: [],
                  metrics={})

__all__ = ["HANDMADE", "Explained", "HandRun", "read"]
