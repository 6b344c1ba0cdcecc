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

# The suite in three parts: every test not marked `serial` on $(TEST_WORKERS) pytest-xdist
# workers (each with its own test database and Redis prefix, config/settings/test.py); then
# the timing-sensitive socket and served-process tests in one process on an unloaded
# machine; then the browser tests, each module on its own worker (tests/conftest.py marks
# them all). TEST_WORKERS=0 runs the first and last parts in one process too.
TEST_WORKERS ?= 4
# browsers are heavier: fewer side by side
BROWSER_WORKERS ?= 3

test: $(STAMP)
	$(PY) -m pytest -n $(TEST_WORKERS) --dist loadgroup -m "not serial" $(PYTEST_ARGS); a=$$?; \
	$(PY) -m pytest -m "serial and not browser" $(PYTEST_ARGS); b=$$?; \
	$(PY) -m pytest -n $$([ "$(TEST_WORKERS)" = 0 ] && echo 0 || echo $(BROWSER_WORKERS)) --dist loadgroup -m "serial and browser" $(PYTEST_ARGS); c=$$?; \
	for s in $$a $$b $$c; do [ $$s -eq 0 -o $$s -eq 5 ] || exit 1; done

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/lint-imports

bench: $(STAMP)
	$(PY) bench/engines.py
