# The two commands a new user needs: `make demo` and `make test`.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp

.PHONY: demo test lint bench clean

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "listbench needs Python 3.11 or newer (set PYTHON=...)")'
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev]'
	@touch $(STAMP)

demo: $(STAMP)
	$(BIN)/listbench ingest
	$(BIN)/listbench report --out data/report.html
	$(BIN)/listbench sql "SELECT benchmark, system, metric, params, value, unit FROM benchmark_results WHERE metric IN ('fork_proc', 'index_score') ORDER BY benchmark, system, params::VARCHAR"

test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/pytest

bench: $(STAMP)
	$(BIN)/python -m bench.extraction

clean:
	rm -rf data .pytest_cache .hypothesis
