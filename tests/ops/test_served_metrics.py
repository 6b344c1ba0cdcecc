"""`manage.py serve` (the README's `make run`) gives its processes one prometheus-client
multiprocess directory: /metrics, answered by daphne, counts what the Celery worker did (a
ledger transaction written by the tick, in another process), and /health/ sees the worker's
heartbeat beaten by beat's tick. Embedded defaults (tests/embedded.py), real processes."""

from __future__ import annotations

import json
import time
import urllib.request

import pytest

from tests.embedded import recharge_fall_due, serving, wait_for

pytestmark = pytest.mark.timeout(240)


def read(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


def figure(text: str, name: str) -> float:
    return sum(float(line.split()[-1]) for line in text.splitlines() if line.startswith(name + " ")
               or line.startswith(name + "{"))


def test_metrics_add_up_the_workers_counters_and_health_sees_its_heartbeat(tmp_path):
    stale = tmp_path / "prometheus"
    with serving(tmp_path, reuse_seed=True) as (base, env, _proc):
        assert wait_for(f"{base}/") == 200
        files = list(stale.rglob("*.db"))
        assert files, "serve gave its processes a multiprocess directory under MAZZIERE_VAR_DIR"
        recharge_fall_due(env)
        deadline, text, health = time.monotonic() + 90, "", (0, "")
        while time.monotonic() < deadline:
            status, text = read(f"{base}/metrics")
            health = read(f"{base}/health/")
            if status == 200 and figure(text, "mazziere_ledger_transactions_total") >= 1 and health[0] == 200:
                break
            time.sleep(2)
        # daphne wrote no ledger row: the count is the worker's, read from the shared directory
        assert figure(text, "mazziere_ledger_transactions_total") >= 1, text[-3000:]
        assert "mazziere_worker_heartbeat_age_seconds" in text
        assert health[0] == 200, health
        assert json.loads(health[1])["down"] == []
