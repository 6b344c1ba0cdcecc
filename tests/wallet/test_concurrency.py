"""Money under concurrency, on real PostgreSQL row locks."""

from __future__ import annotations

import threading

import pytest
from django.db import connection
from rest_framework.test import APIClient

from apps.common.errors import InsufficientFunds
from apps.wallet import services
from apps.wallet.models import Adjustment, Entry, Transaction
from apps.wallet.selectors import ledger_check, wallet_get

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres_only]


def run_threads(count, target):
    barrier = threading.Barrier(count)
    results: list = [None] * count

    def worker(index):
        barrier.wait()
        try:
            results[index] = target(index)
        except Exception as exc:  # recorded and asserted by the caller
            results[index] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


def test_fifty_debits_of_ten_from_a_hundred(player, finance):
    services.wallet_adjust(actor=finance, player=player, currency="cash", amount=100 - 0, reason="deposit")
    before_txns = Transaction.objects.count()

    def debit(_):
        return services.wallet_debit(player=player, currency="cash", amount=10, kind="stake",
                                     reference="race", destination="house:bank")

    results = run_threads(50, debit)
    successes = [r for r in results if isinstance(r, Transaction)]
    refusals = [r for r in results if isinstance(r, InsufficientFunds)]
    assert len(successes) == 10 and len(refusals) == 40, results
    assert all(r.code == "insufficient_funds" for r in refusals)
    assert wallet_get(player=player)["cash_cents"] == 0
    assert Transaction.objects.count() == before_txns + 10
    balances_after = sorted(Entry.objects.filter(account__code=f"player:{player.pk}", currency="cash",
                                                 transaction__reference="race").values_list("balance_after", flat=True))
    assert balances_after == list(range(0, 100, 10))
    assert ledger_check() is None


def test_same_idempotency_key_twenty_times_at_once(player, finance):
    from rest_framework.authtoken.models import Token

    token = Token.objects.create(user=finance)
    body = {"currency": "cash", "amount": 700, "reason": "deposit"}

    def post(_):
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}", HTTP_IDEMPOTENCY_KEY="deposit-42")
        answer = client.post(f"/api/players/{player.pk}/adjustments/", body, format="json")
        return answer.status_code, answer.content

    results = run_threads(20, post)
    assert all(not isinstance(r, Exception) for r in results), results
    assert {r[0] for r in results} == {201}
    assert len({r[1] for r in results}) == 1, "every answer must be byte-identical to the first one"
    assert Adjustment.objects.filter(player=player).count() == 1
    assert wallet_get(player=player)["cash_cents"] == 700
    assert ledger_check() is None


def test_concurrent_transfers_in_opposite_directions_do_not_deadlock(user_factory, finance):
    a, b = user_factory(nickname="Alpha"), user_factory(nickname="Bravo")
    for p in (a, b):
        services.wallet_adjust(actor=finance, player=p, currency="cash", amount=1000, reason="deposit")

    def move(i):
        src, dst = (a, b) if i % 2 else (b, a)
        return services.wallet_transfer(source=services.player_code(src), destination=services.player_code(dst),
                                         currency="cash", amount=7, kind="transfer", reference="swap")

    results = run_threads(30, move)
    assert all(isinstance(r, Transaction) for r in results), results
    assert wallet_get(player=a)["cash_cents"] + wallet_get(player=b)["cash_cents"] == 2000
    assert ledger_check() is None
