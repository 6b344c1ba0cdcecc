"""Cancel-and-refund of a big tournament, timed beside a plain ``bulk_create`` of the same
ledger rows (a benchmark, not a test: it prints figures and never asserts).

Run from the project root, on PostgreSQL (it builds and drops its own scratch database,
``bench_refunds_<name>``)::

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/mazziere_bench \\
        .venv/bin/python bench/refunds.py                  # 1,000 and 10,000 entrants
    .venv/bin/python bench/refunds.py --entrants 2000,20000 --runs 3

For each size: N players (accounts already holding nothing, as after paying), a scheduled
tournament with N registrations whose buy-ins (€10, part bonus for one player in ten) are in
its escrow, then ``tournament_cancel`` with eager Celery: the status change in the request,
and the refund run (``tournament_refunds_pay``) on commit, in at most ``REFUND_SLICES``
committed slices. Beside it, in the same run: ``Transaction.objects.bulk_create`` of N rows
and ``Entry.objects.bulk_create`` of the same number of entries, with nothing else. The
ratio is refund time / bulk time (target at most 2); the refund's query count is printed
for every size and does not grow with N.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
os.environ["CELERY_TASK_ALWAYS_EAGER"] = "1"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entrants", default="1000,10000")
    parser.add_argument("--runs", type=int, default=1)
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        sys.exit("bench/refunds.py measures PostgreSQL: set DATABASE_URL=postgres://...")

    import django

    django.setup()
    from django.db import connection

    old_name = connection.settings_dict["NAME"]
    connection.settings_dict.setdefault("TEST", {})["NAME"] = f"bench_refunds_{old_name}"  # never the tests' db
    connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        print(f"PostgreSQL {connection.pg_version}, database {connection.settings_dict['NAME']}")
        print(f"{'entrants':>9} {'refund s':>9} {'queries':>8} {'bulk s':>8} {'ratio':>6} {'ledger':>7}")
        for n in [int(x) for x in args.entrants.split(",")]:
            rows = [_one(n, i) for i in range(args.runs)]
            refund = statistics.median(r[0] for r in rows)
            bulk = statistics.median(r[2] for r in rows)
            print(f"{n:>9} {refund:>9.3f} {rows[0][1]:>8} {bulk:>8.3f} {refund / bulk:>6.2f} {rows[0][3]:>7}")
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


def _one(n: int, run: int) -> tuple[float, int, float, str]:
    from django.contrib.auth import get_user_model
    from django.db import connection, transaction
    from django.utils import timezone

    from apps.tournaments import services
    from apps.tournaments.models import Registration, Tournament
    from apps.wallet.models import Account, Entry, Transaction
    from apps.wallet.selectors import ledger_check
    from apps.wallet.services import Leg, ledger_post

    User = get_user_model()
    tag = f"b{n}r{run}t{int(time.time())}"
    users = User.objects.bulk_create([User(username=f"{tag}_{i}") for i in range(n)])
    Account.objects.bulk_create([Account(code=f"player:{u.pk}", currency=c, player_id=u.pk)
                                 for u in users for c in ("cash", "bonus")])
    start = timezone.now() + timezone.timedelta(days=1)
    t = Tournament.objects.create(name=f"bench {tag}", game="scopa", kind="scheduled", format="knockout",
                                  buy_in_cents=1000, min_players=2, max_players=max(n, 2), payouts=[100],
                                  starts_at=start, registrations_close_at=start - timezone.timedelta(minutes=2))
    now = timezone.now()
    regs = Registration.objects.bulk_create([
        Registration(tournament=t, player=u, nickname=f"N{i}", created=now,
                     paid_bonus_cents=300 if i % 10 == 0 else 0, paid_cash_cents=700 if i % 10 == 0 else 1000)
        for i, u in enumerate(users)])
    bonus = sum(r.paid_bonus_cents for r in regs)
    cash = sum(r.paid_cash_cents for r in regs)
    ledger_post(kind="bench_buy_ins", reference=f"tournament:{t.pk}", legs=[
        Leg("house:cashier", "cash", -cash), Leg(t.escrow, "cash", cash),
        Leg("house:promotions", "bonus", -bonus), Leg(t.escrow, "bonus", bonus)])

    counted = [0]

    def count(execute, sql, params, many, context):
        counted[0] += 1
        return execute(sql, params, many, context)

    with connection.execute_wrapper(count):  # a counter, not Django's debug cursor (which formats SQL)
        began = time.perf_counter()
        services.tournament_cancel(actor=None, tournament_id=t.pk, reason="bench")
        refund_s = time.perf_counter() - began
    paid = Registration.objects.filter(tournament=t, refund_paid_at__isnull=False).count()
    assert paid == n, (paid, n)
    entries = Entry.objects.filter(transaction__reference=f"tournament:{t.pk}",
                                   transaction__kind="cancel_refund").count()

    # the same number of ledger rows, written by bulk_create and nothing else
    cashier = Account.objects.get(code="house:cashier", currency="cash")
    began = time.perf_counter()
    with transaction.atomic():
        txns = Transaction.objects.bulk_create([
            Transaction(kind="bench_bulk", reference=tag, idempotency_key=f"bulk:{tag}:{i}", created=now)
            for i in range(n)])
        Entry.objects.bulk_create([
            Entry(transaction=txns[(i // 2) % n], account=cashier, currency="cash", amount=1 if i % 2 else -1,
                  balance_after=0, created=now, kind="bench_bulk") for i in range(entries)])
    bulk_s = time.perf_counter() - began
    problem = ledger_check()
    # the bulk rows balance per transaction but do not move the cashier's cached balance: rule 2
    # is the only one they may break, and they sum to zero on the cashier, so it holds
    return refund_s, counted[0], bulk_s, "OK" if problem is None else "BROKEN"


if __name__ == "__main__":
    main()
