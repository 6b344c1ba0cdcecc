"""`make run PORT=8010` serves on that port (issue 25: `make run` always bound 8000)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: `make -n` only prints: not timing-sensitive (tests/conftest.py)
PARALLEL_SAFE = True

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="no make on this machine")


def _serve_line(*args: str) -> str:
    """The serve command `make run` would run (``make -n``: printed, nothing executed)."""
    out = subprocess.run(["make", "-n", "run", *args], cwd=ROOT, capture_output=True, text=True, timeout=30,
                         check=True).stdout
    return next(line for line in out.splitlines() if "manage.py serve" in line)


def test_make_run_serves_on_the_port_given():
    assert _serve_line("PORT=8010").endswith("--port 8010")


def test_make_run_serves_on_8000_by_default():
    assert _serve_line().endswith("--port 8000")
