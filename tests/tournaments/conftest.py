"""Helpers for the tournament tests: money in, tournaments made through the API, matches
played to the end by robots, the ledger checked."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from apps.tournaments import play, services
from apps.tournaments.models import Tournament, TournamentMatch
from apps.wallet.selectors import ledger_check, wallet_get
from apps.wallet.services import wallet_credit
from tests.conftest import api_client, make_user

GAME = "poker_italiana"


def fund(player, *, cash: int = 0, bonus: int = 0) -> None:
    if cash:
        wallet_credit(player=player, currency="cash", amount=cash, kind="adjustment", reference="test",
                      source="house:cashier")
    if bonus:
        wallet_credit(player=player, currency="bonus", amount=bonus, kind="adjustment", reference="test",
                      source="house:promotions")


def players(n: int, *, cash: int = 0, bonus: int = 0, prefix: str = "Pl") -> list:
    out = []
    for _ in range(n):
        p = make_user(nickname=f"{prefix}_{_seq()}")
        fund(p, cash=cash, bonus=bonus)
        out.append(p)
    return out


_counter = [0]


def _seq() -> int:
    _counter[0] += 1
    return _counter[0]


def body(**over) -> dict:
    data = {"name": "Coppa test", "game": GAME, "kind": "sit_and_go", "format": "knockout",
            "buy_in_cents": 1000, "fee_cents": 0, "guaranteed_cents": 0, "prize": "cash",
            "satellite_target": None, "max_players": 8, "starts_at": None, "payouts": [50, 30, 20],
            "game_options": {}}
    data.update(over)
    if data["kind"] == "scheduled" and data.get("starts_at") is None:
        data["starts_at"] = (timezone.now() + timedelta(hours=3)).isoformat()
    return data


def create(operator, **over) -> dict:
    resp = api_client(operator).post("/api/tournaments/", body(**over), format="json")
    assert resp.status_code == 201, resp.json()
    return resp.json()


def register_all(tid: int, people) -> None:
    for p in people:
        resp = api_client(p).post(f"/api/tournaments/{tid}/register/")
        assert resp.status_code == 201, resp.json()


def play_match(match_id: int) -> None:
    """Both seats away: the robot plays the match to its end (the same action service)."""
    play.match_play_out_by_robots(match_id=match_id)
    services.tournaments_due_work()  # records the result (the match_finished hook does it too)


def playing_matches(tid: int) -> list[int]:
    return list(TournamentMatch.objects.filter(tournament_id=tid, status="playing").order_by("id")
                .values_list("match_id", flat=True))


def play_round(tid: int) -> None:
    for mid in playing_matches(tid):
        play_match(mid)


def play_to_end(tid: int) -> Tournament:
    for _ in range(40):
        t = Tournament.objects.get(pk=tid)
        if t.status != "running":
            return t
        play_round(tid)
    raise AssertionError("the tournament did not finish")


def balances(p) -> tuple[int, int]:
    w = wallet_get(player=p)
    return w["bonus_cents"], w["cash_cents"]


def assert_ledger_ok() -> None:
    assert ledger_check() is None, ledger_check()


@pytest.fixture(autouse=True)
def _fast_robots(settings):
    settings.ROBOT_MOVE_DELAY = 0
