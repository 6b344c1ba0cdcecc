"""The cashier under concurrency, on real PostgreSQL row locks (regulation.md §5.4, §2.4)."""

from __future__ import annotations

import pytest

from apps.cashier import services as cashier
from apps.tournaments import services as tournaments
from apps.tournaments.models import Registration
from apps.wallet.models import Deposit, Withdrawal
from apps.wallet.selectors import ledger_check, wallet_get
from apps.wallet.services import wallet_credit
from tests.conftest import make_user
from tests.tournaments.conftest import create
from tests.wallet.test_concurrency import run_threads

from .helpers import cashier_player

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres_only]


def test_a_withdrawal_racing_a_registration_for_the_same_euros_never_spends_them_twice():
    operator = make_user(group="operator")
    tournament = create(operator, buy_in_cents=1000)
    player, card = cashier_player(nickname="RaceW1")
    wallet_credit(player=player, currency="cash", amount=1_500, kind="deposit_test", reference="t",
                  source="house:cashier")

    def act(index):
        if index == 0:
            return cashier.withdrawal_request(player=player, amount_cents=1_500, instrument=card.pk)
        return tournaments.tournament_register(user=player, tournament_id=tournament["id"])

    results = run_threads(2, act)
    refused = [r for r in results if isinstance(r, Exception)]
    assert len(refused) == 1, results
    assert getattr(refused[0], "code", None) in ("not_withdrawable", "insufficient_funds")
    withdrawals = Withdrawal.objects.filter(player=player).count()
    registrations = Registration.objects.filter(player=player, active=True).count()
    assert withdrawals + registrations == 1
    assert wallet_get(player=player)["cash_cents"] == (1_500 - 1_000 if registrations else 0)
    assert ledger_check() is None


def test_two_approvals_of_one_withdrawal_pay_it_once():
    player, card = cashier_player(nickname="RaceW2")
    wallet_credit(player=player, currency="cash", amount=5_000, kind="deposit_test", reference="t",
                  source="house:cashier")
    withdrawal = cashier.withdrawal_request(player=player, amount_cents=5_000, instrument=card.pk)
    finance = make_user(group="finance")

    results = run_threads(2, lambda _i: cashier.withdrawal_approve(actor=finance, withdrawal_id=withdrawal.pk,
                                                                   reason="ok"))
    codes = sorted(getattr(r, "code", "ok") for r in results)
    assert codes == ["invalid_transition", "ok"], results
    withdrawal.refresh_from_db()
    assert withdrawal.status == Withdrawal.PAID and ledger_check() is None


def test_two_deposits_racing_for_the_last_euros_of_a_deposit_limit_never_both_pass():
    player, card = cashier_player(nickname="RaceD1", limits={"deposit_day": 15_000, "deposit_week": 50_000,
                                                             "deposit_month": 90_000})
    results = run_threads(2, lambda _i: cashier.deposit_create(player=player, amount_cents=10_000,
                                                               instrument=card.pk))
    codes = sorted(getattr(r, "code", "ok") for r in results)
    assert codes == ["deposit_limit_exceeded", "ok"], results
    assert Deposit.objects.filter(player=player).count() == 1 and ledger_check() is None
