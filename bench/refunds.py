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

Time is CPU time, this process's plus its PostgreSQL backend's (``/proc``), so the other
processes of a shared machine do not count; the two sides run one after the other in every
run, the order flipping from run to run, and ``--runs`` (default 3) gives the median and the
range of the per-run ratios. The load average is printed before and after.
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
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--profile", action="store_true", help="cProfile one refund run per size (top 25)")
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
        print(f"load before: {Path('/proc/loadavg').read_text().strip()}")
        print("CPU seconds = this process + its PostgreSQL backend; ratio = refund / bulk, per run")
        print(f"{'entrants':>9} {'refund s':>9} {'queries':>8} {'bulk s':>8} {'ratio median [range]':>22} {'ledger':>7}")
        for n in [int(x) for x in args.entrants.split(",")]:
            rows = [_one(n, i, bulk_first=bool(i % 2), profile=args.profile and i == 0) for i in range(args.runs)]
            ratios = [r[0] / r[2] for r in rows]
            refund = statistics.median(r[0] for r in rows)
            bulk = statistics.median(r[2] for r in rows)
            queries = sorted({r[1] for r in rows})
            ledger = "OK" if all(r[3] == "OK" for r in rows) else "BROKEN"
            print(f"{n:>9} {refund:>9.3f} {'/'.join(map(str, queries)):>8} {bulk:>8.3f} "
                  f"{statistics.median(ratios):>6.2f} [{min(ratios):.2f}-{max(ratios):.2f}]{'':>5} {ledger:>7}",
                  flush=True)
        print(f"load after: {Path('/proc/loadavg').read_text().strip()}")
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


class Clock:
    """CPU seconds of this process plus those of the connection's PostgreSQL backend (most of a
    statement's cost is the server's), read from /proc: another process on the machine
    lengthens the wall clock, not these."""

    def __init__(self) -> None:
        from django.db import connection

        connection.ensure_connection()
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            pid = cursor.fetchone()[0]
        stat = Path(f"/proc/{pid}/stat")
        self.stat = stat if stat.exists() else None
        self.tick = os.sysconf("SC_CLK_TCK")

    def __call__(self) -> float:
        server = 0.0
        if self.stat is not None:
            fields = self.stat.read_text().rsplit(")", 1)[1].split()
            server = (int(fields[11]) + int(fields[12])) / self.tick  # utime, stime
        return time.process_time() + server


def _one(n: int, run: int, *, bulk_first: bool, profile: bool) -> tuple[float, int, float, str]:
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
    clock = Clock()

    def count(execute, sql, params, many, context):
        counted[0] += 1
        return execute(sql, params, many, context)

    def refund() -> float:
        with connection.execute_wrapper(count):  # a counter, not Django's debug cursor (which formats SQL)
            began = clock()
            if profile:
                import cProfile
                import pstats

                prof = cProfile.Profile()
                prof.runcall(services.tournament_cancel, actor=None, tournament_id=t.pk, reason="bench")
                pstats.Stats(prof).sort_stats("cumulative").print_stats(os.environ.get("BENCH_FILTER", ".*"), 40)
            else:
                services.tournament_cancel(actor=None, tournament_id=t.pk, reason="bench")
            return clock() - began

    # the same number of ledger rows (entries as the refund writes, see below), by bulk_create only
    expected_entries = sum(2 + 2 * bool(r.paid_bonus_cents) for r in regs)
    cashier = Account.objects.get(code="house:cashier", currency="cash")

    def bulk() -> float:
        began = clock()
        with transaction.atomic():
            txns = Transaction.objects.bulk_create([
                Transaction(kind="bench_bulk", reference=tag, idempotency_key=f"bulk:{tag}:{i}", created=now)
                for i in range(n)])
            Entry.objects.bulk_create([
                Entry(transaction=txns[(i // 2) % n], account=cashier, currency="cash", amount=1 if i % 2 else -1,
                      balance_after=0, created=now, kind="bench_bulk") for i in range(expected_entries)])
        return clock() - began

    if bulk_first:  # the order flips from run to run: neither side always gets the warm cache
        bulk_s = bulk()
        refund_s = refund()
    else:
        refund_s = refund()
        bulk_s = bulk()
    paid = Registration.objects.filter(tournament=t, refund_paid_at__isnull=False).count()
    assert paid == n, (paid, n)
    entries = Entry.objects.filter(transaction__reference=f"tournament:{t.pk}",
                                   transaction__kind="cancel_refund").count()
    assert entries == expected_entries, (entries, expected_entries)
    problem = ledger_check()
    # the bulk rows balance per transaction but do not move the cashier's cached balance: rule 2
    # is the only one they may break, and they sum to zero on the cashier, so it holds
    return refund_s, counted[0], bulk_s, "OK" if problem is None else "BROKEN"


if __name__ == "__main__":
    main()
