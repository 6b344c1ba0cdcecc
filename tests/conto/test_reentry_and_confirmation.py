"""The conto at a Scala 40 re-entry and at the next-match confirmation of a money table
(regulation.md §4.4): refused with account_not_open, the engine's state and the wallet as they were."""

from __future__ import annotations

import random

import pytest

from apps.common.errors import DomainError
from apps.conto import states as S
from apps.conto.models import Conto
from apps.conto.services import conto_ensure
from apps.games.engines import get_engine
from apps.matches.models import Match
from apps.matches.services import creation as match_creation  # where a match draws its seed
from apps.tables import services as tables
from apps.tables.models import Seat
from apps.wallet.selectors import wallet_get
from tests.conftest import api_client, make_user
from tests.tables.conftest import fund

STAKE = 100


def _suspend(user) -> None:
    conto = conto_ensure(user=user)
    Conto.objects.filter(pk=conto.pk).update(state=S.SOSPESO, state_reason=S.OPERATORE)


@pytest.mark.django_db(transaction=True)
def test_a_reentry_at_a_money_table_is_refused_for_a_suspended_conto(monkeypatch):
    monkeypatch.setattr(match_creation, "new_seed", lambda: 20261201)  # a deal that offers a re-entry
    players = [make_user(nickname=f"S40c_{n}") for n in range(3)]
    for user in players:
        fund(user, cash=10_000)
    table = api_client(players[0]).post("/api/tables/", {
        "game": "scala40", "players": 3, "official": True, "stake": STAKE, "currency": "cash",
        "game_options": {"entry_fee": 2, "reentry_fee": 3}}, format="json").json()
    for user in players[1:]:
        assert api_client(user).post(f"/api/tables/{table['id']}/sit/", format="json").status_code == 200
    match = Match.objects.get(table_link__table_id=table["id"])
    seats = {ms.number: ms.player for ms in match.match_seats.all()}
    engine, rng = get_engine("scala40"), random.Random(5)
    for _ in range(5000):
        match.refresh_from_db()
        assert match.status == Match.PLAYING, "the deal offered no re-entry"
        state = engine.from_json(match.state)
        seat = state.to_act[0]
        user = seats[seat]
        url = f"/api/matches/{match.pk}/actions/"
        if state.view(seat)["phase"] == "reentry" and {"type": "reenter"} in state.legal_actions(seat):
            _suspend(user)
            cash = wallet_get(player=user)["cash_cents"]
            answer = api_client(user).post(url, {"action": {"type": "reenter"}, "version": match.version},
                                           format="json")
            assert answer.status_code == 403 and answer.json()["code"] == "account_not_open"
            after = Match.objects.get(pk=match.pk)
            assert after.version == match.version and after.state == match.state  # the engine as it was
            assert wallet_get(player=user)["cash_cents"] == cash  # nothing charged
            return
        action = engine.bot_action(state, seat, rng)
        if action["type"] == "reenter":
            action = {"type": "decline"}
        answer = api_client(user).post(url, {"action": action, "version": match.version}, format="json")
        assert answer.status_code == 200, answer.content
    raise AssertionError("no re-entry reached")


@pytest.mark.django_db
def test_the_next_match_confirmation_at_a_money_table_is_refused_for_a_suspended_conto():
    leader = make_user(nickname="Confirm1")
    fund(leader, cash=10_000)
    table = tables.table_create(user=leader, data={"game": "briscola", "official": True, "stake": 500,
                                                   "currency": "cash"}, ip="10.0.0.1")
    Seat.objects.filter(table=table, player=leader).update(ready=False)  # between matches, not yet confirmed
    _suspend(leader)
    with pytest.raises(DomainError) as refused:
        tables.table_ready(user=leader, table_id=table.pk)
    assert refused.value.code == "account_not_open"
    assert Seat.objects.get(table=table, player=leader).ready is False
