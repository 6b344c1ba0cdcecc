"""Browser tests: Debian's chromium driven by Playwright against the real `manage.py serve`.

Never a downloaded browser: if /usr/bin/chromium is missing the tests are skipped, naming
the package to install (CI installs it).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.embedded import ROOT, serving, wait_for

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
ARTIFACTS = ROOT / "test-artifacts"


@pytest.fixture
def chromium():
    if not CHROMIUM.exists():
        pytest.skip("Debian chromium not installed: apt-get install chromium (CI does)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture(scope="module")
def mazziere_server(tmp_path_factory):
    """`manage.py serve` on the embedded defaults, in a scratch folder: (base URL, env, still_up).

    One server for a module's tests (they use different demo players and their own tables);
    ``still_up()`` asserts it has not stopped (it stops everything if the worker dies).
    """
    if not CHROMIUM.exists():  # do not start a server only to skip
        pytest.skip("Debian chromium not installed: apt-get install chromium (CI does)")
    var_dir = tmp_path_factory.mktemp("serve")
    with serving(var_dir, reuse_seed=True, MAZZIERE_ROBOT_MOVE_DELAY="0.3") as (base, env, proc):
        wait_for(f"{base}/")
        yield base, env, lambda: _still_up(proc, var_dir)


@pytest.fixture(scope="module")
def fast_server(tmp_path_factory):
    """The embedded server with robots that move at once and a socket that looks for the
    worker's changes five times a second: whole matches stay quick (tests/browser/whole_match.py)."""
    if not CHROMIUM.exists():
        pytest.skip("Debian chromium not installed: apt-get install chromium (CI does)")
    var_dir = tmp_path_factory.mktemp("serve")
    with serving(var_dir, reuse_seed=True, MAZZIERE_ROBOT_MOVE_DELAY="0", MAZZIERE_TABLE_POLL_SECONDS="0.2") as (base, env, proc):
        wait_for(f"{base}/")
        yield base, env, lambda: _still_up(proc, var_dir)


def _still_up(proc, var_dir: Path) -> None:
    assert proc.poll() is None, "manage.py serve stopped:\n" + (var_dir / "serve.log").read_text()[-4000:]


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
