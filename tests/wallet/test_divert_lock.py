"""The divert decision under concurrency (platform.md §7.4, issue 11): a credit to a player who
is not under an authority report takes no lock on house:authority_frozen, and a report, a
release or a forfeit that holds the player's accounts while a credit waits for them still
routes that credit exactly: never into the account of a reported player, never into
house:authority_frozen once the report is lifted, and no deadlock.

Each race is staged, not left to chance: one thread holds its locks and waits until the other
is seen waiting on a lock in pg_stat_activity, then commits."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection, transaction
from django.utils import timezone

from apps.compliance.models import Sanction
from apps.compliance.services import sanction_lift
from apps.wallet import services
from apps.wallet.models import Account, Entry
from apps.wallet.selectors import frozen_cents_many, ledger_check, wallet_get

from ..conftest import make_user, sanction_give

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres_only]


def deposit(player, amount, currency="cash", key=None):
    source = "house:cashier" if currency == "cash" else "house:promotions"
    return services.wallet_credit(player=player, currency=currency, amount=amount, kind="adjustment",
                                  reference="test", source=source, idempotency_key=key)


def _pids_waiting_on_a_lock() -> set[int]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pid FROM pg_stat_activity WHERE datname = current_database()"
                       " AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()")
        return {row[0] for row in cursor.fetchall()}


def _wait_until_blocked(pid_box: list, timeout: float = 10.0) -> bool:
    """True once the backend whose pid is in ``pid_box`` waits on a lock."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if pid_box and pid_box[0] in _pids_waiting_on_a_lock():
            return True
        time.sleep(0.02)
    return False


def _in_thread(target, pid_box: list, errors: list, results: list) -> threading.Thread:
    def run():
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_backend_pid()")
                pid_box.append(cursor.fetchone()[0])
            results.append(target())
        except Exception as exc:  # asserted by the test
            errors.append(exc)
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    return thread


def _stage(holder, waiter) -> tuple[list, list]:
    """``holder(release)`` runs in a thread, takes its locks, calls ``release()`` (which starts
    ``waiter`` in a second thread and returns once it waits on a lock), then commits."""
    errors: list = []
    results: list = []
    waiter_pid: list = []
    seen: list = []
    threads: list = []

    def release():
        threads.append(_in_thread(waiter, waiter_pid, errors, results))
        seen.append(_wait_until_blocked(waiter_pid))

    holder_thread = _in_thread(lambda: holder(release), [], errors, results)
    holder_thread.join(30)
    for t in threads:
        t.join(30)
    assert seen == [True], "the second transaction never waited on the first one's lock"
    return errors, results


def _report(player) -> Sanction:
    return sanction_give(player, "authority_report", reason="race")


def test_a_credit_waiting_on_a_report_in_progress_lands_in_authority_frozen(compliance):
    """The report holds the player's accounts (its freeze written, the balance moving) while a
    credit waits for them: once the report commits, the credit is diverted, not paid to the
    player (a decision read before the lock was granted would see no report)."""
    player = make_user(nickname="Attesa_1")
    deposit(player, 1000)

    def report(release):
        with transaction.atomic():
            sanction = _report(player)  # freeze + authority_freeze: the player's accounts are locked
            release()
        return sanction

    errors, _ = _stage(report, lambda: deposit(player, 250))
    assert errors == []
    assert wallet_get(player=player)["cash_cents"] == 0
    assert frozen_cents_many(player_ids=[player.pk]) == {player.pk: 1250}
    assert ledger_check() is None


def test_a_credit_waiting_on_a_release_lands_in_the_players_account(compliance):
    """The release holds the player's accounts and the authority account while a credit waits:
    once it commits the report is lifted, so the credit is the player's (nothing is left behind
    in house:authority_frozen), and neither transaction deadlocks."""
    player = make_user(nickname="Rilascio_1")
    deposit(player, 1000)
    sanction = _report(player)
    assert frozen_cents_many(player_ids=[player.pk]) == {player.pk: 1000}

    def lift(release):
        with transaction.atomic():
            lifted = sanction_lift(actor=compliance, sanction_id=sanction.pk, decision="release", reason="ok")
            release()
        return lifted

    errors, _ = _stage(lift, lambda: deposit(player, 250))
    assert errors == []
    assert wallet_get(player=player)["cash_cents"] == 1250
    assert frozen_cents_many(player_ids=[player.pk]).get(player.pk, 0) == 0
    assert ledger_check() is None


def test_a_release_waiting_on_a_diverted_credit_gives_it_back_too(compliance):
    """The other order: a diverted credit holds its locks while the release waits; the release
    then returns the credit with the rest."""
    player = make_user(nickname="Rilascio_2")
    deposit(player, 1000)
    sanction = _report(player)

    def credit(release):
        with transaction.atomic():
            txn = deposit(player, 250)
            release()
        return txn

    errors, _ = _stage(credit, lambda: sanction_lift(actor=compliance, sanction_id=sanction.pk,
                                                     decision="release", reason="ok"))
    assert errors == []
    assert wallet_get(player=player)["cash_cents"] == 1250
    assert frozen_cents_many(player_ids=[player.pk]).get(player.pk, 0) == 0
    assert ledger_check() is None


def test_a_forfeit_waiting_on_a_diverted_credit_remits_it_too(compliance):
    player = make_user(nickname="Confisca_1")
    deposit(player, 1000)
    sanction = _report(player)

    def credit(release):
        with transaction.atomic():
            txn = deposit(player, 250)
            release()
        return txn

    errors, _ = _stage(credit, lambda: sanction_lift(actor=compliance, sanction_id=sanction.pk,
                                                     decision="forfeit", reason="ruling"))
    assert errors == []
    assert wallet_get(player=player)["cash_cents"] == 0
    assert frozen_cents_many(player_ids=[player.pk]).get(player.pk, 0) == 0
    remitted = Account.objects.get(code="house:authority_remitted", currency="cash").balance
    assert remitted == 1250
    assert ledger_check() is None


def test_a_report_waiting_on_a_credit_moves_it_with_the_rest(compliance):
    """A credit holds the player's account while the report waits: the report then moves the
    balance with the credit in it."""
    player = make_user(nickname="Attesa_2")
    deposit(player, 1000)

    def credit(release):
        with transaction.atomic():
            txn = deposit(player, 250)
            release()
        return txn

    errors, _ = _stage(credit, lambda: _report(player))
    assert errors == []
    assert wallet_get(player=player)["cash_cents"] == 0
    assert frozen_cents_many(player_ids=[player.pk]) == {player.pk: 1250}
    assert ledger_check() is None


def test_a_credit_to_a_player_not_reported_takes_no_lock_on_the_authority_account():
    """While another transaction holds house:authority_frozen (a report being settled), credits
    to other players go through at once: they neither lock nor wait for that row."""
    reported = make_user(nickname="Segnalato_1")
    others = [make_user(nickname=f"Libero_{i}") for i in range(3)]
    deposit(reported, 100)
    services.wallet_freeze_set(player_id=reported.pk, reference="test:divert", divert=True,
                               starts_at=timezone.now(), ends_at=None, lifted_at=None)
    deposit(reported, 100)  # diverted: the authority account exists
    frozen_id = Account.objects.get(code="house:authority_frozen", currency="cash").pk
    held = threading.Event()
    done = threading.Event()
    finished: list = []

    def hold():
        try:
            with transaction.atomic():
                list(Account.objects.select_for_update().filter(pk=frozen_id))
                held.set()
                done.wait(15)
        finally:
            connection.close()

    holder = threading.Thread(target=hold)
    holder.start()
    assert held.wait(10)
    try:
        def credits():
            try:
                for i, other in enumerate(others):
                    deposit(other, 100 + i)
                finished.append(True)
            finally:
                connection.close()

        worker = threading.Thread(target=credits)
        worker.start()
        worker.join(5)
        assert finished == [True], "a credit to a player who is not reported waited on house:authority_frozen"
    finally:
        done.set()
        holder.join(15)
    assert [wallet_get(player=o)["cash_cents"] for o in others] == [100, 101, 102]
    assert Entry.objects.filter(account_id=frozen_id).count() == 1
    assert ledger_check() is None
