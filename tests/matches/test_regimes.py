"""Game regimes (regulation.md §8): the spec's examples, the cash regime at table creation and
settings changes, the bank's capped share, the torneo limits, the lobby's display, the page."""

from __future__ import annotations

import pytest
from django.test import Client

from apps.common.errors import ValidationFailed
from apps.matches.regimes import bank_share, session_max_paid
from apps.matches.settlement import pot_settlement
from apps.tables import services as tables
from apps.tournaments.services import tournament_validate
from tests.conftest import make_user
from tests.tables.conftest import fund
from tests.tournaments.conftest import body

pytestmark = pytest.mark.django_db


def test_the_spec_examples_of_the_bank_share():
    assert bank_share("briscola", "cash") == 10  # min(20, 10)
    outcome = pot_settlement({0: 100, 1: 100}, [0], bank_percent=bank_share("briscola", "cash"))
    assert (outcome.bank, outcome.payouts[0]) == (20, 180)
    credits = pot_settlement({0: 100, 1: 100}, [1], bank_percent=bank_share("burraco", "credits"))
    assert (credits.bank, credits.payouts[1]) == (40, 160)  # 20% of 200, uncapped play money
    assert bank_share("scala40", "cash") == 0 and bank_share("bestia", "cash") == 0


def test_the_spec_examples_of_the_per_session_cap():
    assert session_max_paid("scala40", 10_000, {"entry_fee": 5, "reentry_fee": 1, "max_reentries": 5}) == 100_000
    assert session_max_paid("scala40", 10_000, {"entry_fee": 6, "reentry_fee": 1, "max_reentries": 5}) == 110_000
    assert session_max_paid("bestia", 3_300) == 99_000 and session_max_paid("bestia", 3_350) == 100_500


@pytest.mark.parametrize(("game", "stake", "options", "ok"), [
    ("briscola", 100, {}, True), ("briscola", 120, {}, False), ("briscola", 10_050, {}, False),
    ("bestia", 3_300, {}, True), ("bestia", 3_350, {}, False),
    ("scala40", 10_000, {"entry_fee": 5, "reentry_fee": 1, "max_reentries": 5}, True),
    ("scala40", 10_000, {"entry_fee": 6, "reentry_fee": 1, "max_reentries": 5}, False),
])
def test_a_money_table_is_refused_outside_the_cash_regime(settings, game, stake, options, ok):
    player = make_user(nickname=f"Reg{stake}{game[:3]}{len(options)}")
    fund(player, cash=200_000)
    data = {"game": game, "official": True, "currency": "cash", "stake": stake, "game_options": options}
    if game == "bestia":
        data["players"] = 3
    if ok:
        assert tables.table_create(user=player, data=data).stake == stake
    else:
        with pytest.raises(ValidationFailed) as refused:
            tables.table_create(user=player, data=data)
        assert "stake" in refused.value.extra["fields"]


def test_a_settings_change_is_held_to_the_cash_regime_and_credits_are_not():
    player = make_user(nickname="RegChange")
    fund(player, cash=5_000, credits=1_000)
    table = tables.table_create(user=player, data={"game": "briscola", "official": True, "currency": "cash",
                                                   "stake": 100})
    with pytest.raises(ValidationFailed):
        tables.table_settings_update(user=player, table_id=table.pk, data={"stake": 75})
    credits = tables.table_create(user=make_user(nickname="RegCred"), data={"game": "briscola", "official": True,
                                                                             "currency": "credits", "stake": 7})
    assert credits.stake == 7


def test_the_torneo_regime_reads_its_settings(settings):
    base = body(max_players=4, payouts=[100])
    with pytest.raises(ValidationFailed) as refused:
        tournament_validate({**base, "buy_in_cents": 1_000, "fee_cents": 250})
    assert "20" in refused.value.extra["fields"]["fee_cents"][0]
    settings.REGIME_TORNEO_MIN_POOL_PERCENT = 70
    assert tournament_validate({**base, "buy_in_cents": 1_000, "fee_cents": 250})["fee_cents"] == 250
    settings.REGIME_TORNEO_ENTRY_MAX_CENTS = 5_000
    with pytest.raises(ValidationFailed) as too_much:
        tournament_validate({**base, "buy_in_cents": 6_000, "fee_cents": 0})
    assert "50" in too_much.value.extra["fields"]["buy_in_cents"][0]


def test_the_lobby_shows_a_money_stake_split_and_the_page_the_payouts():
    player = make_user(nickname="RegLobby")
    fund(player, cash=5_000)
    tables.table_create(user=player, data={"game": "briscola", "official": True, "currency": "cash", "stake": 100})
    page = Client(HTTP_ACCEPT_LANGUAGE="it").get("/tables/").content.decode()
    assert "€1,00 (0,90+0,10)" in page
    info = Client(HTTP_ACCEPT_LANGUAGE="it").get("/responsible-gaming/").content.decode()
    assert "Briscola" in info and "90%" in info and "Scala 40" in info
