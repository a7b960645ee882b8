"""Write `<case>.expected.jsonl` from the current parser output, for review.

    python -m tests.transforms.parsers.regen tests/fixtures/parsers/lmbench/seed_001.txt

Review every line against the post before committing: expected files are the
contract, not a snapshot.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from tests.transforms.parsers.fixtures_io import fixture_body, rows_of

if __name__ == "__main__":
    for arg in sys.argv[1:]:
        p = Path(arg)
        rows = rows_of(fixture_body(p))
        with p.with_suffix(".expected.jsonl").open("w") as f:
            for r in rows:
                f.write(json.dumps(r, sort_keys=True) + "\n")
        print(f"{p}: {len(rows)} rows")
