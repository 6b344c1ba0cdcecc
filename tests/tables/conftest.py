"""Helpers for table tests: seated players, a started match, moves through the API."""

from __future__ import annotations

import pytest

from apps.matches.models import Match
from apps.tables import services
from apps.wallet import services as wallet

from ..conftest import make_user


def fund(user, cash: int = 0, credits: int = 0, actor=None):
    actor = actor or make_user(group="finance")
    if cash:
        wallet.wallet_adjust(actor=actor, player=user, currency="cash", amount=cash, reason="test deposit")
    if credits:
        wallet.wallet_adjust(actor=actor, player=user, currency="credits", amount=credits, reason="test credits")


def briscola_table(*, official=False, stake=0, currency="credits", players=None, **extra):
    """A Briscola table with two human players seated: the match starts by itself."""
    players = players or [make_user(nickname=f"Bri{n}_{make_user.__code__.co_firstlineno}{id(object())%10000}")
                          for n in range(2)]
    table = services.table_create(user=players[0], data={"game": "briscola", "official": official, "stake": stake,
                                                         "currency": currency, **extra}, ip="10.0.0.1")
    services.table_sit(user=players[1], table_id=table.pk, ip="10.0.0.2")
    return table, players


def current_match(table) -> Match:
    return table.matches.order_by("-id").first()


def play_out(match_id: int, users_by_seat: dict[int, object], *, max_moves: int = 500):
    """Play the match to the end through the service, always the first legal action."""
    from apps.games.engines import get_engine
    from apps.matches.services import match_action_apply

    for _ in range(max_moves):
        match = Match.objects.get(pk=match_id)
        if match.status != Match.PLAYING:
            return match
        state = get_engine(match.game).from_json(match.state)
        seat = state.to_act[0]
        match_action_apply(match_id=match_id, action=state.legal_actions(seat)[0], version=match.version,
                           user=users_by_seat[seat])
    raise AssertionError("match did not end")


@pytest.fixture
def two_players(db):
    return [make_user(nickname="Alice_1"), make_user(nickname="Bruno_2")]
