"""Game engines: one module per game, found by :func:`_discover`.

``from apps.games.engines import ENGINES, get_engine, IllegalAction`` is the whole
public surface (shared/spec/ENGINE.md). A module whose name starts with ``_`` is a
shared helper (e.g. ``_fishing``); ``base`` and ``cards`` are the kit; every other
module is a game and must define ``ENGINE`` (an :class:`Engine` instance) or ``ENGINES``
(a tuple of them). A duplicate id fails loudly at import.
"""

from __future__ import annotations

import importlib
import pkgutil

from .base import Engine, GameState, IllegalAction, UnknownGame

__all__ = ["ENGINES", "Engine", "GameState", "IllegalAction", "UnknownGame", "get_engine"]

_KIT = {"base", "cards"}


def _discover() -> dict[str, Engine]:
    found: dict[str, Engine] = {}
    origin: dict[str, str] = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if info.name in _KIT or info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        engines = getattr(module, "ENGINES", None)
        if engines is None:
            single = getattr(module, "ENGINE", None)
            engines = (single,) if single is not None else ()
        if not engines:
            raise RuntimeError(
                f"engine module {module.__name__} defines no ENGINE: game modules must,"
                " helper modules must start with '_'"
            )
        for engine in engines:
            if not isinstance(engine, Engine):
                raise RuntimeError(f"{module.__name__}: {engine!r} is not an Engine")
            if engine.id in found:
                raise RuntimeError(
                    f"duplicate engine id {engine.id!r}: defined by {origin[engine.id]}"
                    f" and by {module.__name__}"
                )
            found[engine.id] = engine
            origin[engine.id] = module.__name__
    return dict(sorted(found.items()))


ENGINES: dict[str, Engine] = _discover()


def get_engine(game_id: str) -> Engine:
    """The engine registered under ``game_id``; :class:`UnknownGame` otherwise."""
    try:
        return ENGINES[game_id]
    except (KeyError, TypeError):
        known = ", ".join(ENGINES) or "none"
        raise UnknownGame(f"unknown game {game_id!r} (known games: {known})") from None
