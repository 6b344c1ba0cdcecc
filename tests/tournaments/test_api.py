"""Tournaments through the API: creation rules, registration money, start, refunds by rule."""

from __future__ import annotations

import pytest

from apps.audit.models import AuditLog
from apps.tournaments.models import Registration, Tournament, TournamentMatch
from apps.wallet.models import Entry
from tests.conftest import api_client

from .conftest import (
    assert_ledger_ok,
    balances,
    body,
    create,
    fund,
    play_match,
    play_round,
    play_to_end,
    players,
    playing_matches,
    register_all,
)

pytestmark = pytest.mark.django_db(transaction=True)


def test_create_rules(operator, player):
    api = api_client(operator)
    for over, field in [({"buy_in_cents": 1025}, "buy_in_cents"), ({"buy_in_cents": 10_050}, "buy_in_cents"),
                        ({"fee_cents": 201}, "fee_cents"), ({"max_players": 6}, "max_players"),
                        ({"payouts": [30, 70]}, "payouts"), ({"game": "nope"}, "game"),
                        ({"buy_in_cents": 0}, "guaranteed_cents"), ({"prize": "bonus"}, "prize"),
                        ({"kind": "scheduled", "starts_at": "2020-01-01T10:00:00+00:00"}, "starts_at"),
                        ({"turn_seconds": 5}, "turn_seconds"), ({"rounds": 3}, "rounds")]:
        resp = api.post("/api/tournaments/", body(**over), format="json")
        assert resp.status_code == 400, over
        assert resp.json()["code"] == "validation_error" and field in resp.json()["fields"], (over, resp.json())
    assert api_client(player).post("/api/tournaments/", {}, format="json").status_code == 403
    t = create(operator, fee_cents=100)
    assert t["entry"] == "€10,00 (9,00+1,00)" and t["status"] == "open" and t["min_players"] == 8
    assert AuditLog.objects.filter(action="tournament_create").count() == 1


def test_preview_and_live_pool(operator):
    t = create(operator, kind="scheduled", max_players=64, min_players=2, guaranteed_cents=200_000,
               payouts=[50, 30, 20])
    resp = api_client(None).get(f"/api/tournaments/{t['id']}/preview/?entrants=60")
    assert resp.json() == {"prize_pool_cents": 200_000, "overlay_cents": 140_000, "fees_cents": 0,
                           "payouts_cents": [100_000, 60_000, 40_000]}
    assert api_client(None).get(f"/api/tournaments/{t['id']}/preview/?entrants=x").status_code == 400


def test_patch_only_name_after_registration(operator):
    t = create(operator, kind="scheduled", min_players=2)
    api = api_client(operator)
    assert api.patch(f"/api/tournaments/{t['id']}/", {"buy_in_cents": 500}, format="json").json()["buy_in_cents"] == 500
    [p] = players(1, cash=1000)
    register_all(t["id"], [p])
    resp = api.patch(f"/api/tournaments/{t['id']}/", {"buy_in_cents": 1000}, format="json")
    assert resp.status_code == 400
    assert api.patch(f"/api/tournaments/{t['id']}/", {"name": "Nuovo"}, format="json").json()["name"] == "Nuovo"


def test_register_checks_and_bonus_first(operator, newcomer, superuser):
    t = create(operator, max_players=2, payouts=[100])
    tid = t["id"]
    assert api_client(newcomer).post(f"/api/tournaments/{tid}/register/").json()["code"] == "nickname_required"
    assert api_client(superuser).post(f"/api/tournaments/{tid}/register/").json()["code"] == "staff_cannot_play"
    [poor] = players(1, cash=600, bonus=300)
    resp = api_client(poor).post(f"/api/tournaments/{tid}/register/")
    assert resp.status_code == 402 and resp.json()["code"] == "insufficient_funds"
    [a] = players(1, cash=1000, bonus=300)
    resp = api_client(a).post(f"/api/tournaments/{tid}/register/")
    assert resp.status_code == 201 and resp.json()["paid_bonus_cents"] == 300 and resp.json()["paid_cash_cents"] == 700
    assert balances(a) == (0, 300)
    assert api_client(a).post(f"/api/tournaments/{tid}/register/").json()["code"] == "already_registered"
    resp = api_client(a).post(f"/api/tournaments/{tid}/unregister/")
    assert resp.json() == {"refunded_bonus_cents": 300, "refunded_cash_cents": 700}
    assert balances(a) == (300, 1000)
    assert api_client(a).post(f"/api/tournaments/{tid}/unregister/").json()["code"] == "not_registered"
    assert_ledger_ok()


def test_sit_and_go_starts_when_full_and_then_closes(operator):
    t = create(operator, max_players=4)
    people = players(5, cash=1000)
    register_all(t["id"], people[:4])
    detail = api_client(None).get(f"/api/tournaments/{t['id']}/").json()
    assert detail["status"] == "running" and detail["prize_pool_cents"] == 4000
    assert detail["payouts_cents"] == [2000, 1200, 800]
    assert len(playing_matches(t["id"])) == 2
    resp = api_client(people[4]).post(f"/api/tournaments/{t['id']}/register/")
    assert resp.json()["code"] == "registration_closed"
    assert api_client(people[0]).post(f"/api/tournaments/{t['id']}/unregister/").json()["code"] == \
        "registration_closed"
    matches = api_client(None).get(f"/api/tournaments/{t['id']}/matches/").json()
    assert [len(m["seats"]) for m in matches] == [2, 2]
    assert_ledger_ok()


def test_refund_goes_back_to_bonus_and_cash_before_start(operator):
    """A refund credited straight to cash would leave bonus at 0 and cash at 1300: caught here."""
    t = create(operator, kind="scheduled", min_players=2)
    [a] = players(1, cash=1000, bonus=300)
    register_all(t["id"], [a])
    assert balances(a) == (0, 300)
    resp = api_client(operator).post(f"/api/tournaments/{t['id']}/cancel/", {"reason": "test"}, format="json")
    assert resp.status_code == 202
    assert balances(a) == (300, 1000)
    entries = Entry.objects.filter(account__code=f"player:{a.pk}", kind="cancel_refund")
    assert sorted(entries.values_list("currency", "amount")) == [("bonus", 300), ("cash", 700)]
    row = api_client(None).get(f"/api/tournaments/{t['id']}/standings/").json()[0]
    assert row["refund_rule"] == "full" and row["refund_cents"] == 1000
    assert_ledger_ok()


def test_example_8_partial_refund_after_start_bonus_first(operator):
    """Refund 800 of a 300 bonus + 700 cash entry: 300 to bonus, 500 to cash (§6.7 example 8)."""
    t = create(operator, kind="scheduled", min_players=2, max_players=16, format="points", buy_in_cents=1000,
               payouts=[100])
    people = players(3, cash=1000)
    [mixed] = players(1, cash=700, bonus=300)
    register_all(t["id"], [mixed, *people])
    api_client(operator).post(f"/api/tournaments/{t['id']}/start/")
    # 4 remaining, points: b2.1 = max(1000, 0); R*A = 4000 = Q; all get 1000: a full refund
    api_client(operator).post(f"/api/tournaments/{t['id']}/cancel/", {"reason": "server"}, format="json")
    assert balances(mixed) == (300, 700)
    conv = Entry.objects.filter(account__code="house:promotions", transaction__kind="cancel_refund")
    assert sorted(conv.values_list("currency", "amount")) == [("bonus", -300), ("cash", 300)]
    assert_ledger_ok()


def test_example_1_and_2_end_to_end(operator):
    t = create(operator, max_players=8, payouts=[50, 30, 20])
    people = players(8, cash=1000)
    register_all(t["id"], people)
    play_round(t["id"])  # round one: 4 losers at positions 5-8
    semis = playing_matches(t["id"])
    assert len(semis) == 2
    play_match(semis[0])  # example 2: one semi-final finished
    resp = api_client(operator).post(f"/api/tournaments/{t['id']}/cancel/", {"reason": "crash"}, format="json")
    assert resp.status_code == 202
    rows = api_client(None).get(f"/api/tournaments/{t['id']}/standings/").json()
    by_rule = sorted((r["refund_rule"], r["refund_cents"]) for r in rows)
    assert by_rule == [("a1", 0)] * 4 + [("a2", 800)] + [("b1", 2400)] * 3
    semi_loser = next(r for r in rows if r["refund_rule"] == "a2")
    assert semi_loser["position"] == 3 and semi_loser["status"] == "eliminated"
    assert all(r["position"] is None for r in rows if r["refund_rule"] == "b1")
    total = sum(balances(p)[1] for p in people)
    assert total == 8000
    assert Tournament.objects.get(pk=t["id"]).refunds_done_at is not None
    assert not TournamentMatch.objects.filter(tournament_id=t["id"], status="playing").exists()
    assert api_client(operator).post(f"/api/tournaments/{t['id']}/cancel/", {"reason": "again"},
                                     format="json").json()["code"] == "already_cancelled"
    assert_ledger_ok()


def test_example_1_round_two_no_semi_finished(operator):
    t = create(operator, max_players=8, payouts=[50, 30, 20])
    people = players(8, cash=1000)
    register_all(t["id"], people)
    play_round(t["id"])
    api_client(operator).post(f"/api/tournaments/{t['id']}/cancel/", {"reason": "crash"}, format="json")
    rows = api_client(None).get(f"/api/tournaments/{t['id']}/standings/").json()
    assert sorted((r["refund_rule"], r["refund_cents"]) for r in rows) == [("a1", 0)] * 4 + [("b1", 2000)] * 4
    assert sorted(balances(p)[1] for p in people) == [0] * 4 + [2000] * 4
    assert_ledger_ok()


def test_example_3_guaranteed_three_players(operator):
    t = create(operator, kind="scheduled", min_players=2, max_players=4, guaranteed_cents=5000, payouts=[60, 40])
    people = players(3, cash=1000)
    register_all(t["id"], people)
    api_client(operator).post(f"/api/tournaments/{t['id']}/start/")
    detail = api_client(None).get(f"/api/tournaments/{t['id']}/").json()
    assert (detail["prize_pool_cents"], detail["overlay_cents"], detail["payouts_cents"]) == (5000, 2000, [3000, 2000])
    matches = api_client(None).get(f"/api/tournaments/{t['id']}/matches/").json()
    assert sorted(m["status"] for m in matches) == ["bye", "playing"]
    api_client(operator).post(f"/api/tournaments/{t['id']}/cancel/", {"reason": "crash"}, format="json")
    assert [balances(p)[1] for p in people] == [1667, 1667, 1666]
    assert_ledger_ok()


def test_example_3b_after_the_first_match(operator):
    t = create(operator, kind="scheduled", min_players=2, max_players=4, guaranteed_cents=5000, payouts=[60, 40])
    people = players(3, cash=1000)
    register_all(t["id"], people)
    api_client(operator).post(f"/api/tournaments/{t['id']}/start/")
    play_round(t["id"])
    api_client(operator).post(f"/api/tournaments/{t['id']}/cancel/", {"reason": "crash"}, format="json")
    assert sorted(balances(p)[1] for p in people) == [0, 2500, 2500]
    assert_ledger_ok()


def test_example_6_scale_down_points(operator):
    t = create(operator, kind="scheduled", format="points", min_players=2, max_players=8, buy_in_cents=1500,
               fee_cents=300, guaranteed_cents=10_000, payouts=[50, 30, 20])
    people = players(7, cash=1500)
    register_all(t["id"], people)
    api_client(operator).post(f"/api/tournaments/{t['id']}/start/")
    detail = api_client(None).get(f"/api/tournaments/{t['id']}/").json()
    assert (detail["overlay_cents"], detail["fees_cents"]) == (1600, 2100)
    api_client(operator).post(f"/api/tournaments/{t['id']}/cancel/", {"reason": "crash"}, format="json")
    assert [balances(p)[1] for p in people] == [1429] * 4 + [1428] * 3
    rows = api_client(None).get(f"/api/tournaments/{t['id']}/standings/").json()
    assert {r["refund_rule"] for r in rows} == {"b2_scaled"}
    assert_ledger_ok()


@pytest.mark.parametrize("prize", ["cash", "bonus"])
def test_example_7_freeroll(operator, prize):
    t = create(operator, buy_in_cents=0, guaranteed_cents=5000, payouts=[60, 40], prize=prize)
    people = players(8)
    register_all(t["id"], people)
    play_round(t["id"])
    api_client(operator).post(f"/api/tournaments/{t['id']}/cancel/", {"reason": "crash"}, format="json")
    got = sorted(balances(p)[0 if prize == "bonus" else 1] for p in people)
    assert got == [0] * 4 + [1250] * 4
    assert_ledger_ok()


def test_example_9_satellite(operator):
    target = create(operator, kind="scheduled", min_players=2, max_players=16, buy_in_cents=2500)
    sat = create(operator, max_players=4, prize="satellite", satellite_target=target["id"], payouts=None)
    people = players(4, cash=1000)
    register_all(sat["id"], people)
    detail = api_client(None).get(f"/api/tournaments/{sat['id']}/").json()
    assert detail["payouts_cents"] == [2500, 1500] and detail["seats"] == 1 and detail["leftover_cents"] == 1500
    play_to_end(sat["id"])
    rows = api_client(None).get(f"/api/tournaments/{sat['id']}/standings/").json()
    assert [(r["position"], r["prize_cents"]) for r in rows] == [(1, 2500), (2, 1500), (3, 0), (3, 0)]
    winner = next(p for p in people if Registration.objects.filter(tournament_id=target["id"], player=p).exists())
    assert balances(winner) == (0, 0)  # the seat moved escrow to escrow
    seat = Registration.objects.get(tournament_id=target["id"], player=winner)
    assert seat.paid_cash_cents == 2500 and seat.seat_from_id == sat["id"]
    assert sorted(balances(p)[1] for p in people) == [0, 0, 0, 1500]
    assert_ledger_ok()


def test_start_errors(operator):
    t = create(operator, kind="scheduled", min_players=3)
    api = api_client(operator)
    assert api.post(f"/api/tournaments/{t['id']}/start/").json()["code"] == "not_enough_players"
    sng = create(operator, max_players=2, payouts=[100])
    assert api.post(f"/api/tournaments/{sng['id']}/start/").json()["code"] == "not_scheduled"
    register_all(t["id"], players(3, cash=1000))
    assert api.post(f"/api/tournaments/{t['id']}/start/").json()["status"] == "running"
    assert api.post(f"/api/tournaments/{t['id']}/start/").json()["code"] == "already_started"
    assert TournamentMatch.objects.filter(tournament_id=t["id"], round=1).count() == 2  # 1 match + 1 bye


def test_fund_helper_is_cash(player):
    fund(player, cash=5)
    assert balances(player) == (0, 5)
