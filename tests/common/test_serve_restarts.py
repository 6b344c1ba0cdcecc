"""`manage.py serve` keeps the site up when one of its processes dies (issue 25: a ``kill -9``
of the Celery worker's main process stopped daphne and beat too, and nothing restarted them).

The README's run command on the embedded defaults (tests/embedded.py): the worker's main
process is killed; the lobby keeps answering, a new worker is running within 10 s, and it
really works (beat's tick reaches it and credits a recharge that has fallen due).
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request

import pytest

from tests.embedded import ROOT, embedded_env, manage, recharge_fall_due, serving, wait_for

pytestmark = pytest.mark.timeout(240)

STARTED = re.compile(r"(?:started|restarted) celery-worker \(pid (\d+)")


def worker_pids(log_text: str) -> list[int]:
    return [int(pid) for pid in STARTED.findall(log_text)]


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as stat:  # a zombie is not a running worker
        return stat.read().split(")")[-1].split()[0] != "Z"


def lobby_status(base: str) -> int:
    try:
        with urllib.request.urlopen(f"{base}/", timeout=5) as response:
            return response.status
    except Exception:
        return 0


def test_a_killed_worker_is_restarted_and_the_site_keeps_answering(tmp_path):
    log = tmp_path / "serve.log"
    with serving(tmp_path, reuse_seed=True) as (base, env, proc):
        assert wait_for(f"{base}/") == 200
        first = worker_pids(log.read_text())
        assert len(first) == 1, log.read_text()[-3000:]
        os.kill(first[0], signal.SIGKILL)
        killed_at = time.monotonic()
        statuses, back_after = [], None
        while time.monotonic() - killed_at < 12:
            statuses.append(lobby_status(base))
            pids = worker_pids(log.read_text())
            if back_after is None and len(pids) == 2 and alive(pids[1]):
                back_after = time.monotonic() - killed_at
            if back_after is not None and time.monotonic() - killed_at > back_after + 2:
                break  # back, and the lobby answered all along: no need to watch the rest
            time.sleep(0.3)
        text = log.read_text()
        assert proc.poll() is None, text[-3000:]  # serve itself is still running
        assert back_after is not None and back_after <= 10, text[-3000:]
        assert "celery-worker" in text and "restarting it in 1 s" in text  # the restart is logged
        assert statuses and all(s == 200 for s in statuses), statuses  # the lobby never stopped answering
        # the new worker works: beat's tick reaches it and a recharge that has fallen due is credited
        recharge_fall_due(env)
        deadline, credited = time.monotonic() + 60, ""
        while time.monotonic() < deadline and not credited.endswith("1"):
            time.sleep(1)
            credited = manage(env, "shell", "-c", (
                "from apps.wallet.models import CreditRecharge;"
                "print(CreditRecharge.objects.filter(credited_at__isnull=False).count())")).strip()
        assert credited.endswith("1"), log.read_text()[-3000:]
        assert len(worker_pids(log.read_text())) == 2  # one restart, no loop
        os.killpg(proc.pid, signal.SIGINT)
        assert proc.wait(timeout=30) == 0


def test_a_port_already_taken_stops_serve_instead_of_restarting(tmp_path):
    """A port in use is a set-up error: serve says so, names the way out and exits (no restart loop)."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        run = subprocess.run([sys.executable, "manage.py", "serve", "--no-celery", "--port", str(port)], cwd=ROOT,
                             env=embedded_env(tmp_path), capture_output=True, text=True, timeout=60)
    assert run.returncode == 1
    assert f"port {port}" in run.stderr and "make run PORT=8010" in run.stderr and "started" not in run.stdout
