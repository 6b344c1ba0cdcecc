"""What is due now (platform.md §0.2): every deadline stored in the database is fired here.

Celery beat calls ``tick_run`` every few seconds and ``manage.py tournaments_tick`` calls
it on demand. The tick knows no app: each app registers its periodic jobs in its own
``jobs`` module (``tick_job("name", function)``), found at start-up like Django finds
``admin`` modules. Each job re-reads its rows under a lock and does nothing unless the
deadline has passed and the state is still the one the deadline was set for, so a tick
may run twice, or concurrently, without doing anything twice.
"""

from __future__ import annotations

from collections.abc import Callable

from django.utils.module_loading import autodiscover_modules

#: name -> a function taking no arguments and returning how many things it did, in
#: registration order (the apps' order in INSTALLED_APPS)
_JOBS: dict[str, Callable[[], int | None]] = {}


def tick_job(name: str, job: Callable[[], int | None]) -> None:
    """Register ``job`` to run at every tick; registering the same name again replaces it."""
    _JOBS[name] = job


def tick_jobs() -> dict[str, Callable[[], int | None]]:
    return dict(_JOBS)


def tick_jobs_discover() -> None:
    """Import every installed app's ``jobs`` module (CommonConfig.ready does it once)."""
    autodiscover_modules("jobs")


def tick_run() -> dict[str, int]:
    return {name: job() or 0 for name, job in tick_jobs().items()}
