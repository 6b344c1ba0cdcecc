"""Statements per wallet transaction (issue 15): at most six, so they cannot creep back.

With the accounts' ids known (the process cache fills when a transaction that read or made
them commits), a transaction is one ``SELECT ... FOR UPDATE`` of its accounts, the
transaction row (``INSERT ... ON CONFLICT DO NOTHING`` with an idempotency key: no
savepoint), one insert of its entries and one update of the balances; a credit diverted to
house:authority_frozen adds the lock of that account (taken after the others). The tests
run inside the test's transaction, so ``ledger_post`` opens no savepoint of its own.
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from apps.common.errors import Conflict, InsufficientFunds
from apps.wallet import services
from apps.wallet.models import Transaction
from apps.wallet.selectors import ledger_check, wallet_get

pytestmark = pytest.mark.django_db


@pytest.fixture
def warm(django_capture_on_commit_callbacks):
    """Post one transaction touching these accounts and run its on-commit hooks, as its commit
    would: the ids are then cached, the steady state of a running site. The cache starts
    empty: ids cached by earlier tests belong to rows their rollback removed."""
    services._ACCOUNT_IDS.clear()

    def warm(*legs: tuple[str, str, int]) -> None:
        with django_capture_on_commit_callbacks(execute=True):
            services.ledger_post(kind="warm", reference="warm",
                                 legs=[services.Leg(code, currency, amount) for code, currency, amount in legs])

    return warm


def statements(run) -> list[str]:
    with CaptureQueriesContext(connection) as captured:
        run()
    return [q["sql"] for q in captured.captured_queries]


def test_a_credits_credit_is_four_statements(player, warm, django_assert_num_queries):
    code = services.player_code(player)
    warm(("house:play_money", "credits", -1), (code, "credits", 1))
    before = wallet_get(player=player)["credits"]
    with django_assert_num_queries(4):
        services.wallet_credit(player=player, currency="credits", amount=50, kind="credits_recharge",
                               reference="r", source="house:play_money")
    assert wallet_get(player=player)["credits"] == before + 50


def test_the_four_statements_are_lock_transaction_entries_balances(player, warm):
    code = services.player_code(player)
    warm(("house:play_money", "credits", -1), (code, "credits", 1))
    sql = statements(lambda: services.wallet_credit(player=player, currency="credits", amount=5, kind="k",
                                                    reference="r", source="house:play_money"))
    assert len(sql) == 4
    assert sql[0].startswith("SELECT") and "ORDER BY" in sql[0]
    assert "FOR UPDATE" in sql[0] or not connection.features.has_select_for_update
    assert sql[1].startswith('INSERT INTO "wallet_transaction"')
    assert sql[2].startswith('INSERT INTO "wallet_entry"')
    assert sql[3].startswith('UPDATE "wallet_account"')
    assert not any("SAVEPOINT" in s for s in sql)


def test_a_cash_credit_is_four_statements_and_locks_no_authority_account(player, warm, django_assert_num_queries):
    """The divert decision is the player's account's own flag, read with its lock (issue 11):
    no read before, and house:authority_frozen is neither locked nor read."""
    code = services.player_code(player)
    warm(("house:cashier", "cash", -1), (code, "cash", 1))
    with django_assert_num_queries(4) as captured:
        services.wallet_credit(player=player, currency="cash", amount=500, kind="adjustment",
                               reference="r", source="house:cashier")
    locks = [q["sql"] for q in captured.captured_queries if "FOR UPDATE" in q["sql"]]
    assert len(locks) == (1 if connection.features.has_select_for_update else 0)
    assert wallet_get(player=player)["cash_cents"] == 501


def test_a_diverted_credit_adds_the_lock_of_the_authority_account(player, warm, django_assert_num_queries,
                                                                 django_capture_on_commit_callbacks):
    code = services.player_code(player)
    warm(("house:cashier", "cash", -1), (code, "cash", 1))
    services.wallet_freeze_set(player_id=player.pk, reference="test:divert", divert=True,
                               starts_at=timezone.now(), ends_at=None, lifted_at=None)
    warm(("house:cashier", "cash", -1), (code, "cash", 1))  # diverted: the authority account is made
    with django_assert_num_queries(5):
        services.wallet_credit(player=player, currency="cash", amount=500, kind="adjustment",
                               reference="r", source="house:cashier")
    assert wallet_get(player=player)["cash_cents"] == 1


def test_a_cash_debit_checks_the_freeze_in_the_lock(player, warm, django_assert_num_queries):
    code = services.player_code(player)
    warm(("house:cashier", "cash", -101), (code, "cash", 100), ("house:bank", "cash", 1))
    with django_assert_num_queries(4):
        services.wallet_debit(player=player, currency="cash", amount=30, kind="stake", reference="r",
                              destination="house:bank")
    with django_assert_num_queries(1), pytest.raises(InsufficientFunds):  # refused: the lock, nothing written
        services.wallet_debit(player=player, currency="cash", amount=71, kind="stake", reference="r",
                              destination="house:bank")
    assert wallet_get(player=player)["cash_cents"] == 70


def test_a_transfer_between_players(user_factory, warm, django_assert_num_queries):
    a, b = user_factory(nickname="Uno"), user_factory(nickname="Due")
    warm(("house:cashier", "bonus", -20), (services.player_code(a), "bonus", 10),
         (services.player_code(b), "bonus", 10))
    with django_assert_num_queries(4):
        services.wallet_transfer(source=services.player_code(a), destination=services.player_code(b),
                                 currency="bonus", amount=7, kind="transfer", reference="r")
    assert (wallet_get(player=a)["bonus_cents"], wallet_get(player=b)["bonus_cents"]) == (3, 17)


def test_an_idempotency_key_adds_no_savepoint_and_a_replay_moves_nothing(player, warm,
                                                                          django_assert_num_queries):
    warm(("house:play_money", "credits", -1), (services.player_code(player), "credits", 1))
    before = wallet_get(player=player)["credits"]
    key = f"passport:{player.pk}"

    def grant():
        return services.wallet_credit(player=player, currency="credits", amount=1000, kind="credits_passport",
                                      reference="p", source="house:play_money", idempotency_key=key)

    sql = statements(grant)
    assert len(sql) == 4 and not any("SAVEPOINT" in s for s in sql)
    assert "ON CONFLICT" in sql[1]
    with django_assert_num_queries(3):  # the lock, the insert that finds the key, the first transaction
        replay = grant()
    assert replay.kind == "credits_passport"
    assert wallet_get(player=player)["credits"] == before + 1000
    with pytest.raises(Conflict):
        services.wallet_credit(player=player, currency="credits", amount=300, kind="other",
                               reference="x", source="house:play_money", idempotency_key=key)


def test_a_new_players_first_transaction_makes_its_account_within_six(user_factory, warm,
                                                                       django_assert_max_num_queries):
    warm(("house:play_money", "credits", -1), ("house:bank", "credits", 1))
    newcomer = user_factory()
    with django_assert_max_num_queries(6):  # a read, the account's insert, then the four
        services.wallet_credit(player=newcomer, currency="credits", amount=7, kind="k", reference="r",
                               source="house:play_money")
    assert wallet_get(player=newcomer)["credits"] == 7
    assert ledger_check() is None


def test_stakes_and_settlement(user_factory, warm, django_assert_num_queries, django_assert_max_num_queries):
    players = [user_factory(nickname=f"Stake{i}") for i in range(4)]
    legs = [("house:cashier", "cash", -400)] + [(services.player_code(p), "cash", 100) for p in players]
    warm(*legs)
    escrow = services.match_escrow_code(991)
    warm(("house:cashier", "cash", -1), (escrow, "cash", 1))
    warm(("house:cashier", "cash", -1), ("house:bank", "cash", 1))
    # four stakes, each its own keyed transaction of four statements
    with django_assert_num_queries(16):
        short = services.stakes_collect(match_id=991, currency="cash", stakes={p.pk: 50 for p in players})
    assert short == []
    with django_assert_max_num_queries(6):  # diversion read, lock, transaction, entries, balances, close
        services.escrow_settle(match_id=991, currency="cash", payouts={players[0].pk: 150, players[1].pk: 40},
                               paid={p.pk: 50 for p in players}, bank=11)
    assert wallet_get(player=players[0])["cash_cents"] == 200
    assert Transaction.objects.filter(reference="match:991", kind="match_settlement").count() == 1
    assert ledger_check() is None


def test_a_play_money_settlement_reads_no_freeze(user_factory, warm, django_assert_num_queries):
    players = [user_factory(nickname=f"Cred{i}") for i in range(2)]
    escrow = services.match_escrow_code(992)
    warm(("house:play_money", "credits", -24), (escrow, "credits", 20), ("house:bank", "credits", 2),
         *[(services.player_code(p), "credits", 1) for p in players])
    before = wallet_get(player=players[0])["credits"]
    with django_assert_num_queries(5):  # lock, transaction, entries, balances, close
        services.escrow_settle(match_id=992, currency="credits", payouts={players[0].pk: 20},
                               paid={p.pk: 10 for p in players}, bank=0)
    assert wallet_get(player=players[0])["credits"] == before + 20


def test_a_stale_cached_id_is_read_again(player, warm):
    """A cached id whose row is gone (a rolled-back test, a restored database) costs a second
    lock, never a wrong account."""
    code = services.player_code(player)
    warm(("house:play_money", "credits", -1), (code, "credits", 1))
    before = wallet_get(player=player)["credits"]
    services._ACCOUNT_IDS[(code, "credits")] = 10**12
    services.wallet_credit(player=player, currency="credits", amount=5, kind="k", reference="r",
                           source="house:play_money")
    assert wallet_get(player=player)["credits"] == before + 5
    assert ledger_check() is None


@pytest.mark.parametrize("players", [3, 3 * services.ARRAY_ROWS])
def test_a_batch_is_the_same_statements_and_ledger_below_and_above_the_array_size(players):
    """A batch of refunds (``ledger_post_many``) below and above ``ARRAY_ROWS``: on PostgreSQL
    the larger one sends its rows as arrays; either way the statements do not grow with the
    batch, every balance and running ``balance_after`` is right, and a rerun pays nothing."""
    from django.contrib.auth import get_user_model

    from apps.wallet.models import Account, Entry

    people = get_user_model().objects.bulk_create([get_user_model()(username=f"batch{i}") for i in range(players)])
    users = [services.player_code(u) for u in people]
    escrow = "escrow:batch-test"
    services.ledger_post(kind="fund", reference="batch", legs=[
        services.Leg("house:cashier", "cash", -100 * players), services.Leg(escrow, "cash", 100 * players)])
    postings = [services.Posting(kind="cancel_refund", reference="batch", idempotency_key=f"batch:{code}",
                                 legs=(services.Leg(escrow, "cash", -100), services.Leg(code, "cash", 100)))
                for code in users]
    sql = statements(lambda: services.ledger_post_many(postings=postings))
    writes = [q for q in sql if q.lstrip().upper().startswith(("INSERT", "UPDATE"))]
    assert len(writes) <= 4, writes  # accounts made, transactions, entries, balances
    if connection.vendor == "postgresql":
        assert any("unnest" in q for q in sql) == (players > services.ARRAY_ROWS), sql
    balances = dict(Account.objects.filter(code__in=users, currency="cash").values_list("code", "balance"))
    assert balances == dict.fromkeys(users, 100)
    assert Account.objects.get(code=escrow, currency="cash").balance == 0
    running = list(Entry.objects.filter(account__code=escrow, transaction__kind="cancel_refund")
                   .order_by("id").values_list("balance_after", flat=True))
    assert running == [100 * (players - 1 - i) for i in range(players)]  # in the postings' order
    assert services.ledger_post_many(postings=postings) == {}
    assert Transaction.objects.filter(kind="cancel_refund", reference="batch").count() == players
    assert ledger_check() is None, ledger_check()
