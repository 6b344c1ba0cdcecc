"""Freezes at the tables (platform.md §7.4, §8.5): a reported player's returned stake and
winnings go to house:authority_frozen, a suspended player's frozen cash cannot be staked."""

from __future__ import annotations

import pytest
from django.utils import timezone

from apps.matches.models import Match
from apps.matches.services import match_cancel_vote
from apps.tables.services import table_start_if_ready
from apps.wallet import services as wallet
from apps.wallet.models import Entry
from apps.wallet.selectors import frozen_cents_many, ledger_check, wallet_get

from ..conftest import api_client, make_user, sanction_give
from .conftest import briscola_table, current_match, fund, play_out

pytestmark = pytest.mark.django_db(transaction=True)


def staked_match(stake=500):
    a, b = make_user(nickname="Rosa_1"), make_user(nickname="Bice_2")
    fund(a, cash=1000)
    fund(b, cash=1000)
    table, _ = briscola_table(official=True, stake=stake, currency="cash", players=[a, b])
    match = current_match(table)
    assert match.status == Match.PLAYING and wallet_get(player=a)["cash_cents"] == 1000 - stake
    return table, match, a, b


def report(player):
    return sanction_give(player, "authority_report")


def divert(player, reference="test:report"):
    """The wallet's own divert freeze (what an authority report writes), without the sanction:
    the player stays seated, so the table's money paths are the wallet's alone to route."""
    wallet.wallet_freeze_set(player_id=player.pk, reference=reference, divert=True, starts_at=timezone.now(),
                             ends_at=None, lifted_at=None)


def test_a_cancelled_matchs_stake_returns_to_authority_frozen_for_a_reported_player():
    _, match, a, b = staked_match()
    divert(a)
    match_cancel_vote(match_id=match.pk, user=a, accept=True)
    match_cancel_vote(match_id=match.pk, user=b, accept=True)
    assert Match.objects.get(pk=match.pk).status == Match.CANCELLED
    assert wallet_get(player=a)["cash_cents"] == 500  # not 1000: the stake did not come back here
    assert frozen_cents_many(player_ids=[a.pk]) == {a.pk: 500}
    returned = Entry.objects.get(transaction__reference=f"match:{match.pk}", player_id=a.pk, amount__gt=0)
    assert (returned.account.code, returned.kind) == ("house:authority_frozen", "stake_return")
    assert wallet_get(player=b)["cash_cents"] == 1000


def test_winnings_of_a_reported_player_go_to_authority_frozen():
    _, match, a, b = staked_match()
    divert(a, "test:a")
    divert(b, "test:b")
    play_out(match.pk, {0: a, 1: b})
    assert wallet_get(player=a)["cash_cents"] == 500 and wallet_get(player=b)["cash_cents"] == 500
    shares = frozen_cents_many(player_ids=[a.pk, b.pk])
    assert sum(shares.values()) == 1000 - 100  # the bank keeps 10% of the 1000 pot (the cash regime's cap)


def test_an_authority_report_in_play_forfeits_the_match_and_freezes_everything():
    _, match, a, b = staked_match()
    report(a)
    assert Match.objects.get(pk=match.pk).status == Match.FINISHED  # forfeited (platform.md §7.4, §8.6)
    assert wallet_get(player=a)["cash_cents"] == 0
    assert frozen_cents_many(player_ids=[a.pk]) == {a.pk: 500}  # what was left in the account
    assert wallet_get(player=b)["cash_cents"] == 500 + 900  # the pot less the bank's 10% (the cash regime)
    assert ledger_check() is None


def test_a_frozen_player_cannot_stake_the_next_match_and_is_stood_up():
    """Only the wallet's freeze (no sanction): the table's own checks do not stop it, the wallet does."""
    table, match, a, b = staked_match(stake=200)
    match_cancel_vote(match_id=match.pk, user=a, accept=True)
    match_cancel_vote(match_id=match.pk, user=b, accept=True)
    wallet.wallet_freeze_set(player_id=a.pk, reference="test:freeze", divert=False, starts_at=timezone.now(),
                             ends_at=None, lifted_at=None)
    for user in (a, b):
        assert api_client(user).post(f"/api/tables/{table.pk}/ready/", {}, format="json").status_code == 200
    table_start_if_ready(table_id=table.pk)
    assert not table.matches.filter(status=Match.PLAYING).exists()
    assert not table.seats.filter(player=a).exists()
    assert wallet_get(player=a)["cash_cents"] == 1000  # nothing taken
    assert ledger_check() is None


def test_through_the_api_a_reported_players_deposit_is_frozen_and_listed(api, compliance):
    player = make_user(nickname="Dora_3")
    finance = make_user(group="finance")
    fund(player, cash=300)
    answer = api(compliance).post("/api/sanctions/", {"player": player.pk, "kind": "authority_report",
                                                      "duration": "permanent", "reason": "r"}, format="json")
    assert answer.status_code == 201, answer.json()
    deposit = api(finance).post(f"/api/players/{player.pk}/adjustments/",
                                {"currency": "cash", "amount": 200, "reason": "prize"}, format="json")
    assert deposit.status_code == 201
    assert api(player).get("/api/me/wallet/").json() == {"cash_cents": 0, "bonus_cents": 0, "credits": 300,
                                                         "frozen": True, "withdrawals_pending_cents": 0}
    row = api(finance).get(f"/api/players/?search={player.username}").json()["results"][0]
    assert (row["status"], row["frozen_cents"], row["cash_cents"]) == ("reported", 500, 0)
