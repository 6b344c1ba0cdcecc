# Two commands on a fresh machine with Python 3.11+ and make:
#   make run   - install, migrate, load the demo world and serve http://127.0.0.1:8000
#   make test  - install what is missing and run the whole suite (import contracts included)
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-$(shell cksum pyproject.toml | cut -d' ' -f1)

.PHONY: run run-cluster test test-long lint bench

$(PY):
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[dev]"
	rm -f $(VENV)/.installed-*
	touch $(STAMP)

# the port `make run` serves on: `make run PORT=8010` when 8000 is taken
PORT ?= 8000

run: $(STAMP)
	$(PY) manage.py migrate --noinput
	$(PY) manage.py seed_demo
	$(PY) manage.py serve --host 127.0.0.1 --port $(PORT)

# The suite in three parts: every test not marked `serial` on $(TEST_WORKERS) pytest-xdist
# workers (each with its own test database and Redis prefix, config/settings/test.py); then
# the timing-sensitive socket and served-process tests, a module per worker, on an otherwise
# unloaded machine; then the browser tests, each module on its own worker (tests/conftest.py marks
# them all; --dist loadfile: a module's tests on one worker, so its server starts once).
# TEST_WORKERS=0 runs the first and last parts in one process too. `make test-long` adds the
# whole matches by clicking (tests/browser/whole_match.py), every card face drawn in the browser,
# the run command with Celery and the data migrations' tests: they outlast CI's budget.
TEST_WORKERS ?= 4
# browsers are heavier: fewer side by side
BROWSER_WORKERS ?= 3
# the timing-sensitive socket tests mostly wait: three modules at a time, nothing else beside them
SERIAL_WORKERS ?= 3

# production's topology on one machine (docs/deploy.md): HAProxy on $(PORT) in front of two
# daphne, two Celery workers and one beat; needs DATABASE_URL, REDIS_URL and Debian's haproxy
run-cluster: $(STAMP)
	$(PY) manage.py migrate --noinput
	$(PY) manage.py serve --host 127.0.0.1 --port $(PORT) --daphne 2 --workers 2

test: $(STAMP)
	$(PY) -m pytest -n $(TEST_WORKERS) --dist loadgroup -m "not serial" $(PYTEST_ARGS); a=$$?; \
	$(PY) -m pytest -n $$([ "$(TEST_WORKERS)" = 0 ] && echo 0 || echo $(SERIAL_WORKERS)) --dist loadfile -m "serial and not browser" $(PYTEST_ARGS); b=$$?; \
	$(PY) -m pytest -n $$([ "$(TEST_WORKERS)" = 0 ] && echo 0 || echo $(BROWSER_WORKERS)) --dist loadfile -m "serial and browser" $(PYTEST_ARGS); c=$$?; \
	for s in $$a $$b $$c; do [ $$s -eq 0 -o $$s -eq 5 ] || exit 1; done

test-long: $(STAMP)
	MAZZIERE_LONG_BROWSER=1 $(PY) -m pytest -n $(BROWSER_WORKERS) --dist loadfile $(PYTEST_ARGS) tests/browser/test_whole_match_*.py \
		tests/browser/test_card_drawing_browser.py tests/test_run_command.py tests/matches/test_move_migration.py \
		tests/wallet/test_freeze_migration.py tests/players/test_login_limits.py tests/browser/test_language_browser.py

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/lint-imports
	$(VENV)/bin/mypy apps/*/services.py apps/*/services/*.py apps/*/selectors.py

bench: $(STAMP)
	$(PY) bench/engines.py
