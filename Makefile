# Two commands on a fresh machine with Python 3.11+ and make:
#   make run   - install, migrate, load the demo world and serve http://127.0.0.1:8000
#   make test  - install what is missing and run the whole suite (import contracts included)
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-$(shell cksum pyproject.toml | cut -d' ' -f1)

.PHONY: run test lint bench

$(PY):
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[dev]"
	rm -f $(VENV)/.installed-*
	touch $(STAMP)

run: $(STAMP)
	$(PY) manage.py migrate --noinput
	$(PY) manage.py seed_demo
	$(PY) manage.py serve --host 127.0.0.1 --port 8000

# pytest-xdist: `make test TEST_WORKERS=4` runs 4 processes, each with its own test database
# and Redis prefix (config/settings/test.py); a browser module's tests stay on one worker
# (loadgroup), sharing its served product. 0 (the default) runs in one process: some socket
# tests still wait for fixed quiet periods and fail when other workers load the machine.
TEST_WORKERS ?= 0

test: $(STAMP)
	$(PY) -m pytest -n $(TEST_WORKERS) --dist loadgroup $(PYTEST_ARGS)

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/lint-imports

bench: $(STAMP)
	$(PY) bench/engines.py
