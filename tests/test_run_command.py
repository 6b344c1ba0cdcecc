"""The README's run command really serves the product on the embedded defaults.

It starts `manage.py serve` (what `make run` ends with) on SQLite with the in-process
channel layer and the filesystem Celery broker, in a scratch data folder, and checks the
lobby and the admin login answer 200 and that beat and the worker really run the tick.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def embedded_env(var_dir: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(DJANGO_SETTINGS_MODULE="config.settings.base", MAZZIERE_VAR_DIR=str(var_dir),
               CELERY_TASK_ALWAYS_EAGER="0", PYTHONUNBUFFERED="1")
    return env


def manage(env, *args, timeout=120) -> str:
    run = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True,
                         text=True, timeout=timeout)
    assert run.returncode == 0, run.stderr
    return run.stdout


def wait_for(url: str, seconds: float = 60) -> int:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                return response.status
        except Exception:
            time.sleep(0.5)
    raise AssertionError(f"{url} did not answer within {seconds}s")


@pytest.fixture
def embedded_server(tmp_path):
    env = embedded_env(tmp_path)
    manage(env, "migrate", "--noinput")
    manage(env, "seed_demo")
    port = free_port()
    log = open(tmp_path / "serve.log", "w")  # noqa: SIM115 (closed in the finally below)
    proc = subprocess.Popen([sys.executable, "manage.py", "serve", "--port", str(port)], cwd=ROOT, env=env,
                            stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        yield f"http://127.0.0.1:{port}", env, proc
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGINT)
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
        log.close()


def test_run_command_serves_pages_and_runs_celery(embedded_server, tmp_path):
    base, env, proc = embedded_server
    assert wait_for(f"{base}/") == 200
    assert wait_for(f"{base}/admin/login/") == 200
    assert wait_for(f"{base}/static/css/mazziere.css") == 200
    # beat (every 5 s) + worker credit a recharge that has fallen due
    manage(env, "shell", "-c", (
        "from datetime import timedelta; from django.utils import timezone;"
        "from django.contrib.auth import get_user_model; from apps.wallet.models import CreditRecharge;"
        "u = get_user_model().objects.get(username='anna'); now = timezone.now();"
        "CreditRecharge.objects.create(player=u, requested_at=now - timedelta(hours=3),"
        " available_at=now - timedelta(hours=1))"))
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
