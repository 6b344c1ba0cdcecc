"""Routing by freeze is the wallet's own concern (platform.md §3.6, §7.4): ``ledger_post``
itself refuses a frozen spend and sends cash or bonus arriving for a reported player to
house:authority_frozen, whatever path the credit took. These tests fail if either rule is
dropped from the wallet, even when every caller is correct."""

from __future__ import annotations

import threading

import pytest
from django.db import connection
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from apps.common.errors import Conflict, InsufficientFunds
from apps.wallet import services
from apps.wallet.models import Entry
from apps.wallet.selectors import frozen_cents_many, ledger_check, wallet_get

from ..conftest import make_user, sanction_give

pytestmark = pytest.mark.django_db


def freeze(player, *, divert: bool, reference: str = "test:freeze"):
    return services.wallet_freeze_set(player_id=player.pk, reference=reference, divert=divert,
                                      starts_at=timezone.now(), ends_at=None, lifted_at=None)


def deposit(player, amount, currency="cash"):
    source = "house:cashier" if currency == "cash" else "house:promotions"
    services.wallet_credit(player=player, currency=currency, amount=amount, kind="adjustment",
                           reference="test", source=source)


@pytest.mark.parametrize("path", ["credit", "transfer", "raw_leg"])
def test_every_credit_path_to_a_reported_player_lands_in_authority_frozen(player, path):
    freeze(player, divert=True)
    if path == "credit":
        deposit(player, 700)
    elif path == "transfer":  # a path that never asks where player money lands
        services.wallet_transfer(source="house:cashier", destination=services.player_code(player),
                                 currency="cash", amount=700, kind="prize", reference="test")
    else:
        services.ledger_post(kind="stake_return", reference="test", legs=[
            services.Leg("house:cashier", "cash", -700), services.Leg(services.player_code(player), "cash", 700)])
    assert wallet_get(player=player)["cash_cents"] == 0
    assert frozen_cents_many(player_ids=[player.pk]) == {player.pk: 700}
    entry = Entry.objects.filter(account__code="house:authority_frozen").get()
    assert (entry.player_id, entry.amount) == (player.pk, 700)
    assert ledger_check() is None


def test_credits_and_other_players_are_not_diverted(player):
    other = make_user(nickname="Altro_1")
    freeze(player, divert=True)
    services.wallet_credit(player=player, currency="credits", amount=300, kind="credits_recharge",
                           reference="test", source="house:play_money")
    deposit(other, 500)
    assert wallet_get(player=player)["credits"] == 600  # 300 welcome + 300 recharge
    assert wallet_get(player=other)["cash_cents"] == 500


def test_a_suspension_refuses_every_spend_path_but_diverts_nothing(player):
    deposit(player, 1000)
    deposit(player, 200, currency="bonus")
    freeze(player, divert=False)
    for currency in ("cash", "bonus"):
        with pytest.raises(Conflict) as refused:
            services.wallet_transfer(source=services.player_code(player), destination="house:bank",
                                     currency=currency, amount=10, kind="stake", reference="t")
        assert refused.value.code == "account_frozen"
    assert services.stakes_collect(match_id=999, currency="cash", stakes={player.pk: 100}) == [player.pk]
    deposit(player, 50)  # arriving money stays the player's (frozen), only a report diverts it
    assert wallet_get(player=player) == {"cash_cents": 1050, "bonus_cents": 200, "credits": 300, "frozen": True,
                                          "withdrawals_pending_cents": 0}
    assert ledger_check() is None


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(moves=st.lists(st.tuples(st.sampled_from(["in", "out"]), st.sampled_from(["cash", "bonus"]),
                                st.integers(min_value=1, max_value=500)), min_size=1, max_size=12),
       divert=st.booleans())
def test_a_frozen_players_balances_never_drop_and_a_reported_ones_never_rise(player, moves, divert):
    reference = f"prop:{timezone.now().timestamp()}:{id(moves)}"
    deposit(player, 1000)
    deposit(player, 1000, currency="bonus")
    frozen = freeze(player, divert=divert, reference=reference)
    before = wallet_get(player=player)
    share_before = frozen_cents_many(player_ids=[player.pk]).get(player.pk, 0)
    arrived = 0
    for direction, currency, amount in moves:
        if direction == "in":
            deposit(player, amount, currency)
            arrived += amount
        else:
            with pytest.raises((Conflict, InsufficientFunds)):
                services.wallet_debit(player=player, currency=currency, amount=amount, kind="stake",
                                      reference="prop", destination="house:bank")
    after = wallet_get(player=player)
    if divert:
        assert (after["cash_cents"], after["bonus_cents"]) == (before["cash_cents"], before["bonus_cents"])
        assert frozen_cents_many(player_ids=[player.pk])[player.pk] == share_before + arrived
    else:
        assert after["cash_cents"] + after["bonus_cents"] == before["cash_cents"] + before["bonus_cents"] + arrived
    services.wallet_freeze_set(player_id=player.pk, reference=reference, divert=divert,
                               starts_at=frozen.starts_at, ends_at=None, lifted_at=timezone.now())


def _report_and_settle_at_once(player, match_id: int) -> list[Exception]:
    barrier = threading.Barrier(2)
    errors: list[Exception] = []

    def report():
        barrier.wait()
        try:
            sanction_give(player, "authority_report", reason="race")
        except Exception as exc:
            errors.append(exc)
        finally:
            connection.close()

    def settle():
        barrier.wait()
        try:
            services.escrow_settle(match_id=match_id, currency="cash", payouts={player.pk: 1000},
                                   paid={player.pk: 1000}, bank=0, kind="match_cancel")
        except Exception as exc:
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=report), threading.Thread(target=settle)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return errors


@pytest.mark.django_db(transaction=True)
@pytest.mark.postgres_only
def test_a_report_racing_a_stake_return_leaves_nothing_in_the_players_account():
    """The report (freeze, then authority_freeze) and a settlement credit run at once: whichever
    commits first, the returned stake ends in house:authority_frozen, never in the account."""
    for attempt in range(4):
        player = make_user(nickname=f"Corsa_{attempt}")
        deposit(player, 1000)
        services.stakes_collect(match_id=5000 + attempt, currency="cash", stakes={player.pk: 1000})
        assert _report_and_settle_at_once(player, 5000 + attempt) == []
        assert wallet_get(player=player)["cash_cents"] == 0
        assert frozen_cents_many(player_ids=[player.pk]) == {player.pk: 1000}
    assert ledger_check() is None
