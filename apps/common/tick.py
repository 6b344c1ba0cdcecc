"""What is due now (platform.md §0.2): every deadline stored in the database is fired here.

Celery beat calls ``tick_run`` every few seconds and ``manage.py tournaments_tick`` calls
it on demand. Each step re-reads its rows under a lock and does nothing unless the
deadline has passed and the state is still the one the deadline was set for, so a tick
may run twice, or concurrently, without doing anything twice.
"""

from __future__ import annotations

from collections.abc import Callable

#: (name, dotted path of a function taking no arguments and returning a count)
TICK_STEPS: list[tuple[str, str]] = [
    ("credits_recharges", "apps.wallet.services.credits_recharges_credit_due"),
    ("match_deadlines", "apps.tables.play.match_deadlines_fire"),
    ("tables", "apps.tables.services.tables_due_work"),
]


def _resolve(path: str) -> Callable[[], int]:
    module, name = path.rsplit(".", 1)
    return getattr(__import__(module, fromlist=[name]), name)


def tick_run() -> dict[str, int]:
    return {name: _resolve(path)() or 0 for name, path in TICK_STEPS}
