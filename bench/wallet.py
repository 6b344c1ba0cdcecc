"""The wallet's cost per transaction against a bare ``bulk_create`` of the same entry rows
(a benchmark, not a test: it prints figures and never asserts).

Run from the project root::

    .venv/bin/python bench/wallet.py                      # a temporary SQLite file
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/mazziere_bench .venv/bin/python bench/wallet.py

With ``DATABASE_URL`` the bench migrates that database and writes to it (ledger rows are
append-only: they stay), so point it at a database made for it.

Each run plays ``--transactions`` wallet transactions (``wallet_credit`` of play-money
credits from house:play_money to one of ``--players`` players, no idempotency key, the
accounts already exist: the steady state of a running site) and a ``bulk_create`` of the
same entry rows (two entries a transaction), interleaved in slices of ``--slice``
transactions, the order flipping every slice. Time is CPU time: this process's
(``time.process_time``) plus, on PostgreSQL, the server backend's (``/proc/<pid>/stat`` of
``pg_backend_pid()``), because most of a statement's cost is the server's. The ratio
service/bulk is taken per run; the median and range of the runs are printed, with the
statements per transaction (every statement the connection executes, savepoints included).

``--against REV`` also plays the same transactions through the ``apps/wallet/services.py`` of git
revision ``REV`` (loaded beside the current one, on the same models and database), as a third
side of the same slices: then/bulk, now/bulk and now/then come from one run, one machine load.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def setup_django() -> None:
    if not os.environ.get("DATABASE_URL"):
        os.environ["MAZZIERE_VAR_DIR"] = tempfile.mkdtemp(prefix="bench-wallet-")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)


def load_baseline(rev: str):
    """``apps/wallet/services.py`` of git revision ``rev`` as the module
    ``apps.wallet.bench_baseline_services``: its relative imports are the current package's
    (models, selectors), its account-id cache its own. Returns (module, short commit)."""
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", rev], check=True,
                            capture_output=True, text=True).stdout.strip()
    source = subprocess.run(["git", "-C", str(ROOT), "show", f"{commit}:apps/wallet/services.py"], check=True,
                            capture_output=True, text=True).stdout
    name = "apps.wallet.bench_baseline_services"
    spec = importlib.util.spec_from_loader(name, loader=None)
    module = importlib.util.module_from_spec(spec)
    module.__package__ = "apps.wallet"
    sys.modules[name] = module  # dataclasses look their module up
    exec(compile(source, f"{commit}:apps/wallet/services.py", "exec"), module.__dict__)
    return module, commit


class Clock:
    """CPU seconds of this process plus, on PostgreSQL, of the connection's server backend."""

    def __init__(self) -> None:
        from django.db import connection

        connection.ensure_connection()
        self.stat: Path | None = None
        self.tick = os.sysconf("SC_CLK_TCK")
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_backend_pid()")
                pid = cursor.fetchone()[0]
            stat = Path(f"/proc/{pid}/stat")
            if stat.exists():
                self.stat = stat

    def server(self) -> float:
        if self.stat is None:
            return 0.0
        fields = self.stat.read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / self.tick  # utime, stime

    def now(self) -> tuple[float, float]:
        return time.process_time(), self.server()


class Statements:
    """Counts every statement the connection executes (an execute wrapper: no query log)."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, execute, sql, params, many, context):
        self.count += 1
        return execute(sql, params, many, context)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--transactions", type=int, default=10_000, help="transactions per side and run")
    parser.add_argument("--slice", type=int, default=500, help="transactions per slice")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--players", type=int, default=100)
    parser.add_argument("--against", metavar="REV", help="also play the wallet services of this git revision")
    args = parser.parse_args()
    if args.runs < 3:
        parser.error("--runs must be at least 3 (median and range)")

    setup_django()
    from django.contrib.auth import get_user_model
    from django.db import connection, transaction
    from django.utils import timezone

    from apps.wallet import services
    from apps.wallet.models import Entry, Transaction

    baseline, commit = load_baseline(args.against) if args.against else (None, None)

    User = get_user_model()
    prefix = f"benchw{int(time.time())}"
    players = User.objects.bulk_create([User(username=f"{prefix}_{i}") for i in range(args.players)])
    for module in (services, baseline) if baseline else (services,):
        for player in players:  # accounts exist, as on a running site (and the ids are cached)
            module.wallet_credit(player=player, currency="credits", amount=1, kind="bench", reference="warm",
                                 source="house:play_money")
    house = services.account_get("house:play_money", "credits")
    accounts = {p.pk: services.account_get(services.player_code(p), "credits") for p in players}
    anchor = Transaction.objects.create(kind="bench_bulk", reference="bulk", created=timezone.now())
    clock = Clock()
    counter = Statements()

    def service_slice(start: int, count: int, module=services) -> None:
        for i in range(start, start + count):
            module.wallet_credit(player=players[i % len(players)], currency="credits", amount=1 + i % 7,
                                   kind="bench", reference=f"b{i}", source="house:play_money")

    def bulk_slice(start: int, count: int) -> None:
        now = timezone.now()
        rows = []
        for i in range(start, start + count):
            amount = 1 + i % 7
            account = accounts[players[i % len(players)].pk]
            rows.append(Entry(transaction=anchor, account=house, currency="credits", amount=-amount,
                              balance_after=0, kind="bench", created=now))
            rows.append(Entry(transaction=anchor, account=account, currency="credits", amount=amount,
                              balance_after=0, player_id=account.player_id, kind="bench", created=now))
        with transaction.atomic():
            Entry.objects.bulk_create(rows, batch_size=1000)

    print(f"wallet bench: {platform.python_version()}, {os.cpu_count()} cpus, {platform.platform()}")
    print(f"database {connection.vendor}"
          f"{' (server backend CPU counted)' if clock.stat else ''}; load average {os.getloadavg()}")
    print(f"{args.runs} runs x {args.transactions} transactions a side, slices of {args.slice}, "
          f"{args.players} players")
    if baseline:
        print(f"against {commit}: its apps/wallet/services.py, a third side of the same slices")
    sides = ["service", "bulk"] + (["then"] if baseline else [])
    rates: dict[str, list[float]] = {side: [] for side in sides}
    ratios: dict[str, list[float]] = {"service": [], "then": [], "now/then": []}
    per_txn: dict[str, list[float]] = {"service": [], "then": []}
    done = 0
    with connection.execute_wrapper(counter):
        for run in range(args.runs):
            spent = dict.fromkeys(sides, 0.0)
            server = dict.fromkeys(sides, 0.0)
            statements = dict.fromkeys(sides, 0)
            for s, start in enumerate(range(0, args.transactions, args.slice)):
                count = min(args.slice, args.transactions - start)
                k = (s + run) % len(sides)  # every side first in turn, the order flipping every slice
                order = sides[k:] + sides[:k]
                if (s + run) % 2:
                    order.reverse()
                for side in order:
                    c0, s0 = clock.now()
                    n0 = counter.count
                    if side == "bulk":
                        bulk_slice(done + start, count)
                    else:
                        service_slice(done + start, count, services if side == "service" else baseline)
                    c1, s1 = clock.now()
                    spent[side] += (c1 - c0) + (s1 - s0)
                    server[side] += s1 - s0
                    statements[side] += counter.count - n0
            done += args.transactions
            for side in sides:
                rates[side].append(args.transactions / spent[side])
            for side in ("service", "then") if baseline else ("service",):
                ratios[side].append(spent[side] / spent["bulk"])
                per_txn[side].append(statements[side] / args.transactions)
            line = (f"  run {run + 1}: service {spent['service']:.2f} s (server {server['service']:.2f}),"
                    f" bulk {spent['bulk']:.2f} s (server {server['bulk']:.2f}) CPU,"
                    f" ratio {ratios['service'][-1]:.1f}x, {per_txn['service'][-1]:.2f} statements a transaction")
            if baseline:
                ratios["now/then"].append(spent["service"] / spent["then"])
                line += (f"; then {spent['then']:.2f} s (server {server['then']:.2f}), ratio"
                         f" {ratios['then'][-1]:.1f}x, {per_txn['then'][-1]:.2f} statements")
            print(f"{line}, load {os.getloadavg()[0]:.2f}")

    def summary(values: list[float], fmt: str) -> str:
        return f"{fmt.format(statistics.median(values))} [{fmt.format(min(values))}-{fmt.format(max(values))}]"

    print(f"service transactions/s (CPU): {summary(rates['service'], '{:,.0f}')}")
    print(f"bulk_create, transactions' entries/s (CPU): {summary(rates['bulk'], '{:,.0f}')}")
    print(f"statements a transaction: {summary(per_txn['service'], '{:.2f}')}")
    print(f"service / bulk_create: {summary(ratios['service'], '{:.1f}x')}  (target: at most 15x)")
    if baseline:
        print(f"then ({commit}) transactions/s (CPU): {summary(rates['then'], '{:,.0f}')},"
              f" statements a transaction: {summary(per_txn['then'], '{:.2f}')}")
        print(f"then ({commit}) / bulk_create: {summary(ratios['then'], '{:.1f}x')}")
        print(f"now / then CPU per transaction: {summary(ratios['now/then'], '{:.2f}x')}  (below 1: now is cheaper)")


if __name__ == "__main__":
    main()
