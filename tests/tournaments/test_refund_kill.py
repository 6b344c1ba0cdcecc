"""The cancel-and-refund run killed for real (platform.md §6.6, issue 10): a separate process
pays the refunds against PostgreSQL and is SIGKILLed in the middle of a slice, its
transaction open; the page shows where it stopped, and a rerun pays every entry exactly once.
(The simulated kill, an exception between slices, is in test_lifecycle.py.)"""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from django.db import connection
from django.test import Client

from apps.tournaments import services
from apps.tournaments.models import Registration, Tournament
from apps.wallet.models import Transaction
from tests.conftest import api_client

from .conftest import assert_ledger_ok, balances, create, players, register_all

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres_only, pytest.mark.timeout(400)]
ROOT = Path(__file__).resolve().parents[2]

#: runs the refund task as a worker would; on its third slice, inside the open transaction
#: (tournament row locked, ledger rows written, nothing committed), it says so and waits
WORKER = textwrap.dedent("""
    import sys, time
    import django
    django.setup()
    from apps.tournaments.services import settlement
    real = settlement.ledger_post_many
    calls = {"n": 0}
    def slow(**kwargs):
        out = real(**kwargs)
        calls["n"] += 1
        if calls["n"] == 3:
            print("in-slice-3", flush=True)
            time.sleep(120)
        return out
    settlement.REFUND_SLICES = 6
    settlement.ledger_post_many = slow
    settlement.tournament_refunds_pay(tournament_id=int(sys.argv[1]))
    print("finished", flush=True)
""")


def _worker_env() -> dict[str, str]:
    db = connection.settings_dict
    env = dict(os.environ)
    env["DATABASE_URL"] = f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    env["DJANGO_SETTINGS_MODULE"] = "config.settings.test"
    return env


def _wait_for_dead_backend() -> None:
    """PostgreSQL rolls the killed worker's transaction back once it sees the socket closed:
    wait until no session of this database is still inside a transaction (at most 30 s)."""
    for _ in range(300):
        with connection.cursor() as cur:
            cur.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                        "AND pid <> pg_backend_pid() AND state LIKE 'idle in transaction%%'")
            if cur.fetchone()[0] == 0:
                return
        time.sleep(0.1)
    raise AssertionError("the killed worker's transaction is still open")


def test_refund_run_sigkilled_midway_then_rerun_pays_each_entry_once(operator, monkeypatch, tmp_path):
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL: the worker is another process")
    t = create(operator, kind="scheduled", min_players=2, max_players=64, guaranteed_cents=30_000,
               payouts=[50, 30, 20])
    people = players(30, cash=1000, bonus=200)
    register_all(t["id"], people)
    api_client(operator).post(f"/api/tournaments/{t['id']}/start/")
    monkeypatch.setattr(services.refunds_pay, "delay", lambda *args, **kwargs: None)  # the worker pays
    services.tournament_cancel(actor=operator, tournament_id=t["id"], reason="disk full")
    connection.close()  # nothing of this process holds a lock or a snapshot while the worker runs

    errors = tmp_path / "worker.err"
    with errors.open("w") as err:
        worker = subprocess.Popen([sys.executable, "-c", WORKER, str(t["id"])], cwd=ROOT, env=_worker_env(),
                                  stdout=subprocess.PIPE, stderr=err, text=True)
    try:
        ready, _, _ = select.select([worker.stdout], [], [], 120)
        line = worker.stdout.readline().strip() if ready else ""
        assert line == "in-slice-3", (line, errors.read_text()[-3000:])
        os.kill(worker.pid, signal.SIGKILL)
        assert worker.wait(timeout=30) == -signal.SIGKILL
    finally:
        if worker.poll() is None:
            worker.kill()
            worker.wait()

    _wait_for_dead_backend()
    tour = Tournament.objects.get(pk=t["id"])
    assert tour.refunds_done_at is None
    paid = Registration.objects.filter(tournament=tour, refund_paid_at__isnull=False).count()
    assert paid == 10  # two slices of five committed; the third died with its transaction
    assert Transaction.objects.filter(kind="cancel_refund", reference=f"tournament:{t['id']}").count() == 10
    operator.is_staff = True
    operator.save()
    staff = Client()
    staff.cookies["django_language"] = "en"
    staff.force_login(operator)
    overview = staff.get(f"/admin/tournaments/tournament/{t['id']}/overview/").content.decode()
    assert "Refunded 10 of 30" in overview and "not complete" in overview
    page = staff.get(f"/tournaments/{t['id']}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Refunded 10 of 30" in page and "in progress" in page

    assert services.tournament_refunds_pay(tournament_id=t["id"]) == 20  # the rerun pays the rest
    assert services.tournament_refunds_pay(tournament_id=t["id"]) == 0  # and a second one nothing
    tour.refresh_from_db()
    assert tour.refunds_done_at is not None
    assert Transaction.objects.filter(kind="cancel_refund", reference=f"tournament:{t['id']}").count() == 30
    assert all(balances(p) == (200, 1000) for p in people)  # b1 = 1000 each: 200 to bonus, 800 to cash
    assert "Refunded 30 of 30" in staff.get(f"/admin/tournaments/tournament/{t['id']}/overview/").content.decode()
    assert_ledger_ok()
