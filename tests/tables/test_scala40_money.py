"""Scala 40's money at a credits table (platform.md §8.5): every player pays the entry fee
(``entry_fee × stake``) at the start; a re-entry first debits ``reentry_fee × stake`` from
the player's wallet (refused with 402 ``insufficient_funds``, nothing changed, when the
wallet cannot pay); the pot is every fee paid and the winner takes all of it, no bank (seed 004,
§8.5 changed 2026-12-04)."""

from __future__ import annotations

import random

import pytest

from apps.games.engines import get_engine
from apps.matches.models import Match
from apps.matches.services import creation as match_creation  # where a match draws its seed
from apps.wallet.selectors import ledger_check, wallet_get

from ..conftest import make_user
from .conftest import fund

pytestmark = pytest.mark.django_db(transaction=True)
STAKE = 10


def credits(user) -> int:
    return wallet_get(player=user)["credits"]


def bank_credits() -> int:
    from apps.wallet.models import Account

    account = Account.objects.filter(code="house:bank", currency="credits").first()
    return account.balance if account is not None else 0


@pytest.fixture
def fixed_seed(monkeypatch):
    """A known deal, so that the match surely offers a re-entry (the moves are the robot's)."""
    monkeypatch.setattr(match_creation, "new_seed", lambda: 20261201)


def test_entry_and_reentry_fees_and_the_pot_to_the_winner(api, fixed_seed):
    players = [make_user(nickname=f"S40m_{n}") for n in range(3)]
    for user in players:
        fund(user, credits=100 - credits(user))
    bank = bank_credits()
    table = api(players[0]).post("/api/tables/", {
        "game": "scala40", "players": 3, "official": True, "stake": STAKE,
        "game_options": {"entry_fee": 2, "reentry_fee": 3}}, format="json").json()
    for user in players[1:]:
        assert api(user).post(f"/api/tables/{table['id']}/sit/", format="json").status_code == 200
    match = Match.objects.get(table_link__table_id=table["id"])
    seats = {ms.number: ms.player for ms in match.match_seats.all()}
    assert [credits(u) for u in players] == [100 - 2 * STAKE] * 3  # the entry fee at the start
    engine = get_engine("scala40")
    rng = random.Random(5)
    refused = reentered = 0
    for _ in range(5000):
        match.refresh_from_db()
        if match.status != Match.PLAYING:
            break
        state = engine.from_json(match.state)
        seat = state.to_act[0]
        user = seats[seat]
        url = f"/api/matches/{match.pk}/actions/"
        if state.view(seat)["phase"] == "reentry" and {"type": "reenter"} in state.legal_actions(seat):
            if not refused:  # first with a wallet that cannot pay the 30 credits
                keep = credits(user)
                fund(user, credits=29 - keep)
                answer = api(user).post(url, {"action": {"type": "reenter"}, "version": match.version}, format="json")
                assert answer.status_code == 402 and answer.json()["code"] == "insufficient_funds"
                after = Match.objects.get(pk=match.pk)
                assert after.version == match.version and after.state == match.state  # nothing changed
                assert credits(user) == 29
                fund(user, credits=keep - 29)
                refused += 1
            before = credits(user)
            answer = api(user).post(url, {"action": {"type": "reenter"}, "version": match.version}, format="json")
            assert answer.status_code == 200, answer.content
            assert credits(user) == before - 3 * STAKE
            reentered += 1
            continue
        action = engine.bot_action(state, seat, rng)
        if action["type"] == "reenter":
            action = {"type": "decline"}
        answer = api(user).post(url, {"action": action, "version": match.version}, format="json")
        assert answer.status_code == 200, answer.content
    assert match.status == Match.FINISHED and refused == 1 and reentered >= 1
    result = match.result
    fees = {ms.number: ms.stake_paid for ms in match.match_seats.all()}
    assert fees == {s: (2 + 3 * result["reentries"][s]) * STAKE for s in range(3)}
    assert sum(result["fees"]) == result["pot"] and result["pot"] * STAKE == sum(fees.values())
    pot = sum(fees.values())
    assert bank_credits() == bank  # no bank at Scala 40
    assert match.settlement["bank"] == 0 and match.settlement["pot"] == pot
    for seat, user in seats.items():
        won = pot if seat == result["winner"] else 0
        assert credits(user) == 100 - fees[seat] + won, (seat, result["winner"])
    assert ledger_check() is None


def test_sitting_needs_the_entry_fee(api):
    rich, poor = make_user(nickname="S40_rich"), make_user(nickname="S40_poor")
    fund(poor, credits=25 - credits(poor))
    table = api(rich).post("/api/tables/", {"game": "scala40", "official": True, "stake": STAKE,
                                            "game_options": {"entry_fee": 3}}, format="json").json()
    refused = api(poor).post(f"/api/tables/{table['id']}/sit/", format="json")
    assert refused.status_code == 402 and refused.json()["code"] == "insufficient_funds"
