"""A cancel that comes just after a match ended, before the match's after-commit hook reached
the tournament (issue 25): the cancel sees the match, its loser is eliminated (a1/a2), its
winner goes on or, for the last match, wins the prize; never b1 for a match already decided."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from apps.matches.signals import match_finished
from apps.tournaments import play, receivers
from apps.tournaments.models import Registration, Tournament
from tests.conftest import api_client

from .conftest import assert_ledger_ok, balances, create, players, playing_matches, register_all

pytestmark = pytest.mark.django_db(transaction=True)

HOOK = "mazziere_tournament_match_finished"


def _winner_loser(match_id: int, people) -> tuple:
    from apps.matches.models import Match

    m = Match.objects.get(pk=match_id)
    seats = {ms.number: ms.player_id for ms in m.match_seats.all()}
    won = seats[m.result["winner"]]
    by_id = {p.pk: p for p in people}
    return by_id[won], by_id[next(pid for pid in seats.values() if pid != won)]


@pytest.mark.postgres_only
def test_cancel_racing_the_final_hook_pays_the_winner_the_prize(operator):
    t = create(operator, max_players=2, payouts=[70, 30])  # 2 × €10: 1400 / 600
    people = players(2, cash=1000)
    register_all(t["id"], people)
    [mid] = playing_matches(t["id"])
    committed, go_on = threading.Event(), threading.Event()

    def slow_hook(sender, match_id, outcome=None, **kwargs):
        committed.set()  # the match's end is committed; the tournament has not heard yet
        go_on.wait(20)
        receivers.on_match_finished(sender, match_id=match_id, outcome=outcome, **kwargs)

    def finish():
        try:
            play.match_play_out_by_robots(match_id=mid)
        finally:
            connection.close()

    match_finished.disconnect(dispatch_uid=HOOK)
    match_finished.connect(slow_hook, dispatch_uid="test_slow_hook")
    try:
        worker = threading.Thread(target=finish)
        worker.start()
        assert committed.wait(60)
        resp = api_client(operator).post(f"/api/tournaments/{t['id']}/cancel/", {"reason": "malfunction"},
                                         format="json")
        go_on.set()
        worker.join(60)
    finally:
        match_finished.disconnect(dispatch_uid="test_slow_hook")
        receivers.connect()
    assert resp.status_code == 409 and resp.json()["code"] == "already_finished", resp.json()
    tour = Tournament.objects.get(pk=t["id"])
    assert tour.status == "finished"
    winner, loser = _winner_loser(mid, people)
    assert balances(winner) == (0, 1400) and balances(loser) == (0, 600)
    assert_ledger_ok()


@pytest.mark.postgres_only
def test_cancel_waits_for_a_move_in_flight_then_sees_its_end(operator):
    """The cancel locks the match rows: a final move committing while the cancel runs is
    either before it (the tournament finishes, 409) or after it (match_over): never both."""
    t = create(operator, max_players=2, payouts=[70, 30])
    people = players(2, cash=1000)
    register_all(t["id"], people)
    [mid] = playing_matches(t["id"])
    results: dict = {}

    def finish():
        try:
            play.match_play_out_by_robots(match_id=mid)
        finally:
            connection.close()

    def cancel():
        try:
            results["cancel"] = api_client(operator).post(f"/api/tournaments/{t['id']}/cancel/",
                                                          {"reason": "malfunction"}, format="json").status_code
        finally:
            connection.close()

    threads = [threading.Thread(target=finish), threading.Thread(target=cancel)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(60)
    tour = Tournament.objects.get(pk=t["id"])
    if tour.status == "finished":
        assert results["cancel"] == 409
        winner, loser = _winner_loser(mid, people)
        assert balances(winner) == (0, 1400) and balances(loser) == (0, 600)
    else:
        assert tour.status == "cancelled" and results["cancel"] == 202
        assert sorted(balances(p)[1] for p in people) == [1000, 1000]  # b1: the match never ended
    assert_ledger_ok()


def test_cancel_after_a_semi_final_ended_unheard_eliminates_its_loser(operator):
    """4 players, €10 each, [50, 30, 20] → [2000, 1200, 800]: one semi-final ended but its hook
    never ran. Its loser is eliminated in the 3–4 group (a2: 800 / 2 = 400), the other three
    share the rest by b1 (3600 / 3 = 1200), not 1000 each for four players still in."""
    t = create(operator, max_players=4)
    people = players(4, cash=1000)
    register_all(t["id"], people)
    first, _second = playing_matches(t["id"])
    match_finished.disconnect(dispatch_uid=HOOK)
    try:
        play.match_play_out_by_robots(match_id=first)
    finally:
        receivers.connect()
    resp = api_client(operator).post(f"/api/tournaments/{t['id']}/cancel/", {"reason": "malfunction"},
                                     format="json")
    assert resp.status_code == 202, resp.json()
    winner, loser = _winner_loser(first, people)
    rows = {r.player_id: r for r in Registration.objects.filter(tournament_id=t["id"])}
    assert (rows[loser.pk].refund_rule, rows[loser.pk].refund_cents) == ("a2", 400)
    assert (rows[winner.pk].refund_rule, rows[winner.pk].refund_cents) == ("b1", 1200)
    assert balances(loser) == (0, 400)
    assert sorted(balances(p)[1] for p in people) == [400, 1200, 1200, 1200]
    assert Tournament.objects.get(pk=t["id"]).tmatches.filter(round=2).count() == 0  # not paired
    assert_ledger_ok()
