"""Run one plain ingest (no Prefect) for crash tests: `python -m tests.crash_ingest CONFIG`."""

import sys

from tests.conftest import plain_ingest

if __name__ == "__main__":
    plain_ingest(sys.argv[1])
