"""Freezes in tournaments (platform.md §7.4): a refund or a prize for a player under an
authority report lands in house:authority_frozen (the batch postings route it as ledger_post
does, under the players' locks), in the currencies it came from; once the report is lifted the
next one is the player's again."""

from __future__ import annotations

import pytest
from django.utils import timezone

from apps.wallet.models import Entry
from apps.wallet.selectors import frozen_cents_many
from apps.wallet.services import wallet_freeze_set
from tests.conftest import api_client

from .conftest import assert_ledger_ok, balances, create, play_to_end, players, register_all

pytestmark = pytest.mark.django_db(transaction=True)


def divert(player, *, lifted=False):
    """The wallet's own divert freeze (what an authority report writes), without the sanction:
    the registration stays, so the tournament's money paths are the wallet's alone to route."""
    wallet_freeze_set(player_id=player.pk, reference=f"test:report:{player.pk}", divert=True,
                      starts_at=timezone.now(), ends_at=None, lifted_at=timezone.now() if lifted else None)


def test_a_cancel_refund_for_a_reported_player_lands_in_authority_frozen(operator):
    t = create(operator, kind="scheduled", min_players=2)
    a, b = players(2, cash=1000, bonus=300)
    register_all(t["id"], [a, b])
    divert(a)
    answer = api_client(operator).post(f"/api/tournaments/{t['id']}/cancel/", {"reason": "test"}, format="json")
    assert answer.status_code == 202
    assert balances(a) == (0, 300) and balances(b) == (300, 1000)  # a's refund did not reach the wallet
    assert frozen_cents_many(player_ids=[a.pk]) == {a.pk: 1000}
    parts = Entry.objects.filter(account__code="house:authority_frozen", player_id=a.pk, kind="cancel_refund")
    assert sorted(parts.values_list("currency", "amount")) == [("bonus", 300), ("cash", 700)]
    assert_ledger_ok()


def test_a_prize_for_a_reported_player_lands_in_authority_frozen_and_a_lifted_one_is_paid(operator):
    t = create(operator, kind="scheduled", min_players=2, max_players=2, payouts=[100])
    a, b = players(2, cash=1000)
    register_all(t["id"], [a, b])
    divert(a)
    divert(b, lifted=True)  # lifted before the end: nothing of b's is held
    api_client(operator).post(f"/api/tournaments/{t['id']}/start/", format="json")
    finished = play_to_end(t["id"])
    assert finished.status == "finished"
    prize = Entry.objects.filter(kind="prize", amount__gt=0, player__in=[a, b]).get()
    if prize.player_id == a.pk:
        assert prize.account.code == "house:authority_frozen" and balances(a) == (0, 0)
        assert frozen_cents_many(player_ids=[a.pk]) == {a.pk: 2000}
    else:
        assert prize.account.code == f"player:{b.pk}" and balances(b) == (0, 2000)
        assert frozen_cents_many(player_ids=[b.pk]).get(b.pk, 0) == 0
    assert_ledger_ok()
