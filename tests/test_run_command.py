"""The README's run command really serves the product on the embedded defaults.

It starts `manage.py serve` (what `make run` ends with) on SQLite with the in-process
channel layer and the filesystem Celery broker, in a scratch data folder, and checks the
lobby and the admin login answer 200 and that beat and the worker really run the tick.
It starts from the run's migrated demo world (tests/embedded.py): CI's own `make run` step
migrates and seeds from nothing, and tests/tournaments/test_pages.py checks what the seed holds.
"""

from __future__ import annotations

import os
import signal
import time

import pytest

from tests.conftest import LONG
from tests.embedded import manage, recharge_fall_due, serving, wait_for


@pytest.fixture
def embedded_server(tmp_path):
    with serving(tmp_path, reuse_seed=True) as server:
        yield server


@LONG  # .ci/run itself checks the run command serves the lobby and the admin
def test_run_command_serves_pages_and_runs_celery(embedded_server, tmp_path):
    base, env, proc = embedded_server
    assert wait_for(f"{base}/") == 200
    assert wait_for(f"{base}/admin/login/") == 200
    assert wait_for(f"{base}/static/css/mazziere.css") == 200
    # beat (every 5 s) + worker credit a recharge that has fallen due
    recharge_fall_due(env)
    deadline = time.monotonic() + 60
    credited = ""
    while time.monotonic() < deadline:
        credited = manage(env, "shell", "-c", (
            "from apps.wallet.models import CreditRecharge;"
            "print(CreditRecharge.objects.filter(credited_at__isnull=False).count())")).strip()
        if credited.endswith("1"):
            break
        time.sleep(2)
    assert credited.endswith("1"), (tmp_path / "serve.log").read_text()[-3000:]
    assert "ledger OK" in manage(env, "check_ledger")
    # Ctrl-C stops everything
    os.killpg(proc.pid, signal.SIGINT)
    assert proc.wait(timeout=30) == 0
