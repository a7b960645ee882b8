"""bonnie parser: placeholder until its module lands (matches nothing)."""

from __future__ import annotations

import re

from transforms.model import Parser

PARSER = Parser(name="bonnie", version="0", signature=re.compile(r"(?!x)x"), parse=lambda seg: [], metrics={})
