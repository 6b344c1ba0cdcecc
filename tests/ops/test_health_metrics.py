"""/health/ for the balancer and /metrics for Prometheus (issue 30): 200 when the database,
Redis and the worker are up, 503 naming what is down; the counters move with moves, sockets
and ledger transactions; both answer only to this machine or to staff. Real PostgreSQL and
Redis, no mock."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import warnings
from datetime import timedelta
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.utils import timezone
from prometheus_client import REGISTRY

from apps.games.engines import get_engine
from apps.matches.services import match_action_apply
from apps.ops.models import Heartbeat
from apps.ops.selectors import celery_oldest_task_age, redis_client
from apps.ops.services import heartbeat_beat
from apps.wallet.services import wallet_credit

from ..conftest import api_client, make_user
from ..tables.conftest import briscola_table, current_match

pytestmark = [pytest.mark.django_db(transaction=True)]
FAR = "203.0.113.9"  # a client that is not this machine


def sample(name: str, labels: dict | None = None) -> float:
    return REGISTRY.get_sample_value(name, labels or {}) or 0.0


def test_all_up_is_200_with_every_check_named():
    heartbeat_beat()
    answer = Client().get("/health/")
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert body["status"] == "ok" and body["down"] == []
    assert set(body["checks"]) == {"database", "redis", "worker"}


def test_redis_unreachable_is_503_naming_redis(settings):
    heartbeat_beat()
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens there
    answer = Client().get("/health/")
    assert answer.status_code == 503 and answer.json()["down"] == ["redis"]
    assert "Redis did not answer" in answer.json()["checks"]["redis"]


DB_DOWN = """
import json, django
django.setup()
from django.test.utils import setup_test_environment
setup_test_environment()
from django.test import Client
answer = Client(raise_request_exception=False).get("/health/")
print(json.dumps({"status": answer.status_code, "type": answer["Content-Type"], "body": answer.content.decode()}))
"""


@pytest.mark.timeout(60)
def test_a_database_that_is_down_is_503_naming_the_database_never_500():
    """A real process whose database is a closed port: the balancer reads 503 naming it (the
    heartbeat, kept in the database, is not read: ``unknown``, not named), never a 500 page."""
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": str(root), "DJANGO_SETTINGS_MODULE": "config.settings.test",
           "DATABASE_URL": "postgres://postgres@127.0.0.1:1/nowhere", "MAZZIERE_DB_POOL_TIMEOUT": "1"}
    run = subprocess.run([sys.executable, "-c", DB_DOWN], cwd=root, env=env, capture_output=True, text=True,
                         timeout=50)
    assert run.returncode == 0, run.stderr[-2000:]
    answer = json.loads(run.stdout.strip().splitlines()[-1])
    assert answer["status"] == 503 and answer["type"] == "application/json", answer
    body = json.loads(answer["body"])
    assert body["status"] == "down" and body["down"] == ["database"], body
    assert body["checks"]["worker"].startswith("unknown")


def test_a_stale_worker_is_503_naming_the_worker(settings):
    settings.HEALTH_WORKER_STALE_SECONDS = 60
    Heartbeat.objects.update_or_create(name="worker", defaults={"at": timezone.now() - timedelta(seconds=61)})
    answer = Client().get("/health/")
    assert answer.status_code == 503 and answer.json()["down"] == ["worker"]
    assert "the worker last beat 6" in answer.json()["checks"]["worker"]  # 61 s ago, or 62 on a slow machine
    Heartbeat.objects.all().delete()
    assert Client().get("/health/").json()["checks"]["worker"].endswith("the worker has never beaten")
    heartbeat_beat()  # the tick's job
    assert Client().get("/health/").status_code == 200


def test_the_tick_beats_the_workers_heart():
    from apps.common.tick import tick_run

    Heartbeat.objects.all().delete()
    tick_run()
    assert Heartbeat.objects.get(name="worker").at > timezone.now() - timedelta(seconds=5)


def test_only_this_machine_or_staff_may_read_them():
    heartbeat_beat()
    far = Client(REMOTE_ADDR=FAR)
    assert far.get("/health/").status_code == 404
    assert far.get("/metrics").status_code == 404
    assert far.get("/health/", HTTP_X_FORWARDED_FOR="127.0.0.1").status_code == 404  # a header proves nothing
    player = Client(REMOTE_ADDR=FAR)
    player.force_login(make_user(nickname="Curioso_ops"))
    assert player.get("/metrics").status_code == 404
    staff = Client(REMOTE_ADDR=FAR)
    staff.force_login(make_user(group="operator"))
    assert staff.get("/health/").status_code == 200
    assert staff.get("/metrics").status_code == 200
    assert Client().post("/health/").status_code == 405  # GET only, and nothing changes


def test_metrics_name_every_figure_and_count_moves_and_ledger_transactions():
    heartbeat_beat()
    table, players = briscola_table()
    match = current_match(table)
    moves, ledger = sample("mazziere_moves_total", {"by": "player"}), sample("mazziere_ledger_transactions_total")
    state = get_engine("briscola").from_json(match.state)
    seat = state.to_act[0]
    by_seat = {ms.number: ms.player for ms in match.match_seats.all()}
    match_action_apply(match_id=match.pk, action=state.legal_actions(seat)[0], version=match.version,
                       user=by_seat[seat])
    wallet_credit(player=players[0], currency="credits", amount=5, kind="adjustment", reference="ops",
                  source="house:play_money")
    assert sample("mazziere_moves_total", {"by": "player"}) == moves + 1
    assert sample("mazziere_ledger_transactions_total") == ledger + 1
    text = Client().get("/metrics").content.decode()
    names = ["mazziere_moves_total", "mazziere_move_latency_seconds_bucket", "mazziere_open_sockets",
             "mazziere_ledger_transactions_total", "mazziere_worker_heartbeat_age_seconds"]
    queue = ["mazziere_celery_queue_length", "mazziere_celery_oldest_task_age_seconds"]
    if settings.CELERY_BROKER_URL.startswith("redis"):
        names += queue  # read from a Redis broker's list
    else:  # the embedded broker (no REDIS_URL) has no queue to read: the figures are left out, not made up
        assert not any(name in text for name in queue)
    for name in names:
        assert name in text, name


def test_the_queues_lag_is_its_oldest_waiting_tasks_age(settings):
    """A task really sent to the Redis broker (this run's own key prefix, which no worker
    reads) waits in the queue: /metrics shows it and how long the oldest has waited."""
    from config.celery import app

    url = settings.CELERY_BROKER_URL
    if not url.startswith("redis"):
        pytest.skip("the queue's figures are read from a Redis broker (REDIS_URL)")
    key = settings.CELERY_BROKER_TRANSPORT_OPTIONS["global_keyprefix"] + "celery"
    client = redis_client(url)
    client.delete(key)
    assert celery_oldest_task_age() == 0.0
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # "eager is ignored by send_task": sent for real, as wanted
            app.send_task("apps.ops.never_run")
            app.send_task("apps.ops.never_run")
        sent = json.loads(client.lindex(key, -1))["headers"]["sent_at"]
        assert celery_oldest_task_age(now=sent + 7.5) == pytest.approx(7.5)
        text = Client().get("/metrics").content.decode()
        assert "mazziere_celery_queue_length 2.0" in text
        age = next(line for line in text.splitlines() if line.startswith("mazziere_celery_oldest_task_age_seconds "))
        assert 0 <= float(age.split()[1]) < 60
    finally:
        client.delete(key)


def test_a_rolled_back_move_is_not_counted():
    from django.db import transaction

    table, _players = briscola_table()
    match = current_match(table)
    before = sample("mazziere_moves_total", {"by": "player"})
    state = get_engine("briscola").from_json(match.state)
    seat = state.to_act[0]
    user = {ms.number: ms.player for ms in match.match_seats.all()}[seat]
    with pytest.raises(RuntimeError), transaction.atomic():
        match_action_apply(match_id=match.pk, action=state.legal_actions(seat)[0], version=match.version, user=user)
        raise RuntimeError("rolled back")
    assert sample("mazziere_moves_total", {"by": "player"}) == before


def test_the_api_client_is_not_needed_for_either():
    """They are plain pages for machines: no session, no CSRF, JSON or Prometheus text."""
    heartbeat_beat()
    assert api_client(None).get("/health/").status_code == 200
    answer = Client().get("/metrics")
    assert answer.status_code == 200 and answer["Content-Type"].startswith("text/plain")


def test_the_balancers_check_leaves_the_worker_out_and_a_bad_scope_is_refused(settings):
    """``?only=process``: a daphne is healthy when its database and Redis are, whatever the
    worker (a stopped worker is no reason to take a web process out of rotation)."""
    settings.HEALTH_WORKER_STALE_SECONDS = 60
    Heartbeat.objects.update_or_create(name="worker", defaults={"at": timezone.now() - timedelta(seconds=600)})
    assert Client().get("/health/").status_code == 503
    answer = Client().get("/health/?only=process")
    assert answer.status_code == 200 and set(answer.json()["checks"]) == {"database", "redis"}
    refused = Client().get("/health/?only=everything")
    assert refused.status_code == 400 and refused.json()["code"] == "validation_error"
    assert Heartbeat.objects.get(name="worker").at < timezone.now() - timedelta(seconds=500)  # nothing changed
