"""Python's garbage collector in a long-running server process (issue 15).

A full (generation 2) collection walks every tracked object of the process and holds the
GIL while it does: in daphne, with Django, DRF, the templates and a hundred sockets, that was
a 90-160 ms pause every few seconds, the whole of the move round-trip's p99 at a player's
pace (``bench/moves.py --think``). What a process builds to serve (modules, URL patterns,
message catalogues, compiled templates) lives as long as the process: built before the
first request and frozen (``gc.freeze``), no collection walks it again. Full collections of
what is left come a tenth as often: cyclic garbage waits longer to be freed (memory), and
no pause is longer.
"""

from __future__ import annotations

import gc
from pathlib import Path

from django.conf import settings
from django.template import engines
from django.urls import get_resolver
from django.utils import translation

#: a full collection after this many generation-1 collections (CPython's default: 10)
FULL_EVERY = 100


def server_warm() -> None:
    """Build now what a server would otherwise build on its first requests and keep:
    every view module (the URL patterns import them, and DRF imports much more), each
    language's message catalogue, every template of the project's template folders."""
    get_resolver().url_patterns  # noqa: B018 - the import of every view is the point
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            translation.gettext("Lobby")
    for engine in engines.all():
        for folder in getattr(engine, "dirs", ()):
            root = Path(folder)
            for path in sorted(root.rglob("*.html")):
                engine.get_template(path.relative_to(root).as_posix())


def collector_settle(*, full_every: int = FULL_EVERY) -> int:
    """Collect once, freeze what is left (it is the process's own), and make full
    collections rarer. Returns the number of objects frozen."""
    gc.collect()
    gc.freeze()
    first, second, _ = gc.get_threshold()
    gc.set_threshold(first, second, full_every)
    return gc.get_freeze_count()
