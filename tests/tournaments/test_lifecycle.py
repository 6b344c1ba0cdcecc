"""The lifecycle under the clock, concurrency and crashes: ticks, races for the last seat,
refund runs repeated or killed midway, a whole Sit&Go played by robots."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.db import connection
from django.utils import timezone

from apps.tournaments import play, services
from apps.tournaments.models import Registration, Tournament
from apps.tournaments.services import settlement
from apps.wallet import services as wallet_services
from apps.wallet.models import Entry, Transaction
from tests.conftest import api_client

from .conftest import assert_ledger_ok, balances, create, play_round, play_to_end, players, register_all

pytestmark = pytest.mark.django_db(transaction=True)


def run_threads(count, target):
    barrier = threading.Barrier(count)
    results: list = [None] * count

    def worker(index):
        barrier.wait()
        try:
            results[index] = target(index)
        except Exception as exc:
            results[index] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


@pytest.mark.postgres_only
def test_fifty_concurrent_registrations_for_the_last_seat(operator):
    t = create(operator, kind="scheduled", min_players=2, max_players=4)
    register_all(t["id"], players(3, cash=1000))
    racers = players(50, cash=1000)

    def go(i):
        return api_client(racers[i]).post(f"/api/tournaments/{t['id']}/register/").status_code

    codes = run_threads(50, go)
    assert codes.count(201) == 1 and codes.count(409) == 49, codes
    assert Registration.objects.filter(tournament_id=t["id"], active=True).count() == 4
    assert sorted(balances(p)[1] for p in racers) == [0] + [1000] * 49
    assert_ledger_ok()


@pytest.mark.postgres_only
def test_double_click_is_one_registration_one_debit(operator):
    t = create(operator, kind="scheduled", min_players=2)
    [p] = players(1, cash=5000)
    codes = run_threads(2, lambda i: api_client(p).post(f"/api/tournaments/{t['id']}/register/").status_code)
    assert sorted(codes) == [201, 409]
    assert Registration.objects.filter(tournament_id=t["id"]).count() == 1
    assert Entry.objects.filter(account__code=f"player:{p.pk}", kind="buy_in").count() == 1
    assert balances(p) == (0, 4000)
    # with the same Idempotency-Key the second click replays the first answer
    t2 = create(operator, kind="scheduled", min_players=2)
    first = api_client(p).post(f"/api/tournaments/{t2['id']}/register/", HTTP_IDEMPOTENCY_KEY="k1")
    second = api_client(p).post(f"/api/tournaments/{t2['id']}/register/", HTTP_IDEMPOTENCY_KEY="k1")
    assert first.status_code == second.status_code == 201 and first.json() == second.json()
    assert balances(p) == (0, 3000)


def test_scheduled_closes_cancels_below_minimum_and_starts_on_time(operator, clock):
    start = timezone.now() + timedelta(minutes=30)
    short = create(operator, kind="scheduled", min_players=3, starts_at=start.isoformat())
    ok = create(operator, kind="scheduled", min_players=2, starts_at=start.isoformat())
    few = players(2, cash=2000)
    register_all(short["id"], few)
    register_all(ok["id"], few)
    clock.advance(minutes=27)
    call_command("tournaments_tick")
    assert Tournament.objects.get(pk=short["id"]).status == "open"
    clock.advance(minutes=1, seconds=1)  # registration closes 2 minutes before the start
    [late] = players(1, cash=1000)
    assert api_client(late).post(f"/api/tournaments/{ok['id']}/register/").json()["code"] == "registration_closed"
    call_command("tournaments_tick")
    cancelled = Tournament.objects.get(pk=short["id"])
    assert cancelled.status == "cancelled" and cancelled.refunds_done_at is not None
    assert Tournament.objects.get(pk=ok["id"]).status == "open"  # enough players: it waits
    assert [balances(p)[1] for p in few] == [1000, 1000]  # one refund of 1000, one buy-in still in ok
    clock.advance(minutes=2)
    call_command("tournaments_tick")
    assert Tournament.objects.get(pk=ok["id"]).status == "running"
    call_command("tournaments_tick")  # starting twice pairs once
    assert Tournament.objects.get(pk=ok["id"]).tmatches.count() == 1
    assert_ledger_ok()


def test_refund_task_three_times_and_killed_midway(operator, monkeypatch):
    t = create(operator, kind="scheduled", min_players=2, max_players=64, guaranteed_cents=30_000,
               payouts=[50, 30, 20])
    people = players(30, cash=1000, bonus=200)
    register_all(t["id"], people)
    api_client(operator).post(f"/api/tournaments/{t['id']}/start/")
    monkeypatch.setattr(settlement, "REFUND_SLICES", 6)
    real = wallet_services.ledger_post_many
    calls = {"n": 0}

    def dies_on_third(**kwargs):
        calls["n"] += 1
        if calls["n"] == 3:
            raise SystemExit("worker killed")
        return real(**kwargs)

    monkeypatch.setattr(settlement, "ledger_post_many", dies_on_third)
    with pytest.raises(SystemExit):
        services.tournament_cancel(actor=operator, tournament_id=t["id"], reason="disk full")
    tour = Tournament.objects.get(pk=t["id"])
    assert tour.status == "cancelled" and tour.refunds_done_at is None
    paid = Registration.objects.filter(tournament=tour, refund_paid_at__isnull=False).count()
    assert paid == 10  # two slices of five committed, then the worker died
    admin_page = _admin_overview(operator, t["id"])
    assert "Refunded 10 of 30" in admin_page and "not complete" in admin_page
    monkeypatch.setattr(settlement, "ledger_post_many", real)
    for _ in range(3):
        services.tournament_refunds_pay(tournament_id=t["id"])
    call_command("tournaments_tick")
    tour.refresh_from_db()
    assert tour.refunds_done_at is not None
    keys = Transaction.objects.filter(kind="cancel_refund", reference=f"tournament:{t['id']}")
    assert keys.count() == 30
    # R = 30 remaining, b1 = 1000 each: 200 back to bonus, 800 to cash (plus the 200 cash kept)
    assert all(balances(p) == (200, 1000) for p in people)
    assert "Refunded 30 of 30" in _admin_overview(operator, t["id"])
    assert_ledger_ok()


def _admin_overview(operator, tid) -> str:
    operator.is_staff = True
    operator.save()
    from django.test import Client

    c = Client()
    c.cookies["django_language"] = "en"
    c.force_login(operator)
    return c.get(f"/admin/tournaments/tournament/{tid}/overview/").content.decode()


def test_full_sit_and_go_of_eight_played_by_robots(operator):
    t = create(operator, max_players=8, buy_in_cents=1000, fee_cents=100, payouts=[50, 30, 20])
    people = players(8, cash=1000)
    register_all(t["id"], people)
    tour = play_to_end(t["id"])
    assert tour.status == "finished"
    rows = api_client(None).get(f"/api/tournaments/{t['id']}/standings/").json()
    assert [r["position"] for r in rows] == [1, 2, 3, 3, 5, 5, 5, 5]
    assert [r["status"] for r in rows] == ["winner"] + ["eliminated"] * 7
    # pool 8 x 900 = 7200 -> [3600, 2160, 1440]; positions 3-4 share 1440 -> 720 each
    assert [r["prize_cents"] for r in rows] == [3600, 2160, 720, 720, 0, 0, 0, 0]
    assert sorted(balances(p)[1] for p in people) == sorted([3600, 2160, 720, 720, 0, 0, 0, 0])
    matches = api_client(None).get(f"/api/tournaments/{t['id']}/matches/").json()
    assert [m["round"] for m in matches] == [1, 1, 1, 1, 2, 2, 3]
    assert all(m["winner"] for m in matches)
    assert_ledger_ok()


def test_points_tournament_played_to_the_end(operator):
    t = create(operator, kind="scheduled", format="points", min_players=2, max_players=8, buy_in_cents=500,
               payouts=[60, 40])
    people = players(5, cash=500)
    register_all(t["id"], people)
    api_client(operator).post(f"/api/tournaments/{t['id']}/start/")
    tour = Tournament.objects.get(pk=t["id"])
    assert tour.rounds == 3
    play_to_end(t["id"])
    rows = api_client(None).get(f"/api/tournaments/{t['id']}/standings/").json()
    assert [r["position"] for r in rows] == [1, 2, 3, 4, 5]
    assert sum(r["vp"] for r in rows) == 2 * 3 * 3  # 2 matches + 1 bye a round, 3 rounds
    assert [r["prize_cents"] for r in rows] == [1500, 1000, 0, 0, 0]
    byes = Tournament.objects.get(pk=t["id"]).registrations.values_list("byes", flat=True)
    assert sorted(byes) == [0, 0, 1, 1, 1]  # nobody gets two byes while someone has none
    assert_ledger_ok()


def test_cancel_while_running_stops_matches(operator):
    t = create(operator, max_players=4, payouts=[100])
    people = players(4, cash=1000)
    register_all(t["id"], people)
    play_round(t["id"])
    final = Tournament.objects.get(pk=t["id"]).tmatches.get(round=2).match_id
    api_client(operator).post(f"/api/tournaments/{t['id']}/cancel/", {"reason": "x"}, format="json")
    state = api_client(people[0]).get(f"/api/matches/{final}/").json()
    assert state["status"] == "cancelled" and state["legal_actions"] == []
    assert api_client(operator).post(f"/api/tournaments/{t['id']}/cancel/", {"reason": "x"},
                                     format="json").json()["code"] == "already_cancelled"
    assert_ledger_ok()


def test_match_finished_hook_advances_without_the_tick(operator):
    """The matches app's match_finished hook alone advances the bracket and pays the prizes;
    friendly cancellation is refused in a tournament match."""
    t = create(operator, max_players=2, payouts=[100])
    people = players(2, cash=1000)
    register_all(t["id"], people)
    [match_id] = [m["id"] for m in api_client(None).get(f"/api/tournaments/{t['id']}/matches/").json()]
    resp = api_client(people[0]).post(f"/api/matches/{match_id}/cancel-vote/", {"accept": True}, format="json")
    assert resp.json()["code"] == "not_allowed_in_tournament"
    play.match_play_out_by_robots(match_id=match_id)  # no tick here
    tour = Tournament.objects.get(pk=t["id"])
    assert tour.status == "finished"
    assert sorted(balances(p)[1] for p in people) == [0, 2000]
    assert_ledger_ok()
