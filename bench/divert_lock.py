"""Parallel cash credits to different players, with and without a lock on house:authority_frozen
(issue 11; a benchmark, not a test: it prints figures and never asserts).

Until issue 11 ``ledger_post`` added house:authority_frozen to the locks of every cash or bonus
credit, so every credit in the house waited on that one row. Now a credit locks it only when the
player's account says it is diverted. The reference is the old lock set, measured in the same
run: the same credits, each transaction also locking house:authority_frozen first (what the old
lock set did). Slices of the two sides alternate, the order flipping every slice.

Each of ``--threads`` threads credits its own player from its own match escrow
(``wallet_credit`` of cash from ``escrow:match:{n}``, funded first: parallel settlements at
different tables; a shared source such as house:cashier would serialise both sides on its own
row), one database transaction a credit, holding it ``--hold-ms`` more after the
credit (``pg_sleep``: the rest of a caller's transaction, such as a match settling its rows);
``--hold-ms 0`` measures bare credits. The figure is credits per second of wall time (lock
waits cost wall time, not CPU), the ratio new/reference per run, median and range of the runs.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/mazziere_bench .venv/bin/python bench/divert_lock.py

It migrates that database and writes to it (ledger rows are append-only: point it at a
database made for it). PostgreSQL only: SQLite has no row locks.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--credits", type=int, default=40, help="credits per thread and slice")
    parser.add_argument("--slices", type=int, default=4, help="slices per side and run")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--hold-ms", type=float, default=2.0)
    args = parser.parse_args()
    if args.runs < 3:
        parser.error("--runs must be at least 3 (median and range)")
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        parser.error("set DATABASE_URL to a PostgreSQL database made for the bench")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection, transaction

    from apps.wallet import services
    from apps.wallet.models import Account

    call_command("migrate", verbosity=0, interactive=False)
    User = get_user_model()
    prefix = f"benchd{int(time.time())}"
    players = User.objects.bulk_create([User(username=f"{prefix}_{i}") for i in range(args.threads)])
    base_id = int(time.time())
    escrows = {p.pk: f"escrow:match:bench{base_id}{i}" for i, p in enumerate(players)}
    for player in players:  # the accounts exist and their ids are cached, as on a running site
        services.wallet_transfer(source="house:cashier", destination=escrows[player.pk], currency="cash",
                                 amount=10**9, kind="bench", reference="warm")
        services.wallet_credit(player=player, currency="cash", amount=1, kind="bench", reference="warm",
                               source=escrows[player.pk])
    frozen_id = services.account_get(services.AUTHORITY_FROZEN, "cash").pk
    hold = args.hold_ms / 1000

    def credit(player, i: int, reference_side: bool) -> None:
        with transaction.atomic():
            if reference_side:  # the old lock set: house:authority_frozen with every credit
                list(Account.objects.select_for_update().filter(pk=frozen_id).values_list("pk", flat=True))
            services.wallet_credit(player=player, currency="cash", amount=1 + i % 7, kind="bench",
                                   reference=f"d{i}", source=escrows[player.pk])
            if hold:
                with connection.cursor() as cursor:
                    cursor.execute("SELECT pg_sleep(%s)", [hold])

    def side(reference_side: bool) -> float:
        """One slice: every thread makes ``--credits`` credits; wall seconds."""
        barrier = threading.Barrier(len(players) + 1)
        errors: list[Exception] = []

        def work(player) -> None:
            try:
                barrier.wait()
                for i in range(args.credits):
                    credit(player, i, reference_side)
            except Exception as exc:  # reported below
                errors.append(exc)
            finally:
                connection.close()

        threads = [threading.Thread(target=work, args=(p,)) for p in players]
        for t in threads:
            t.start()
        barrier.wait()
        start = time.perf_counter()
        for t in threads:
            t.join()
        if errors:
            raise errors[0]
        return time.perf_counter() - start

    n = args.threads * args.credits
    print(f"divert lock bench: {args.threads} threads, {args.credits} credits a thread a slice, "
          f"{args.slices} slices a side, hold {args.hold_ms} ms, {os.cpu_count()} cpus")
    print(f"load before: {Path('/proc/loadavg').read_text().strip()}")
    ratios, new_rates, ref_rates = [], [], []
    for run in range(args.runs):
        wall = {True: 0.0, False: 0.0}
        for s in range(args.slices):
            order = (False, True) if (s + run) % 2 == 0 else (True, False)
            for reference_side in order:
                wall[reference_side] += side(reference_side)
        new_rate, ref_rate = n * args.slices / wall[False], n * args.slices / wall[True]
        new_rates.append(new_rate)
        ref_rates.append(ref_rate)
        ratios.append(new_rate / ref_rate)
        print(f"  run {run + 1}: now {new_rate:,.0f} credits/s, reference {ref_rate:,.0f} credits/s,"
              f" ratio {ratios[-1]:.2f}x, load {Path('/proc/loadavg').read_text().split()[0]}")

    def summary(values: list[float], fmt: str) -> str:
        return f"{fmt.format(statistics.median(values))} [{fmt.format(min(values))}-{fmt.format(max(values))}]"

    print(f"now (authority account locked only for a diverted credit): {summary(new_rates, '{:,.0f}')} credits/s")
    print(f"reference (every credit locks house:authority_frozen): {summary(ref_rates, '{:,.0f}')} credits/s")
    print(f"throughput now / reference: {summary(ratios, '{:.2f}x')}")
    print(f"load after: {Path('/proc/loadavg').read_text().strip()}")


if __name__ == "__main__":
    main()
