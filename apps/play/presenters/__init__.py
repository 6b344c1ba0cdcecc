"""The presenters of the game families, found like the engines (``apps.games.engines``).

Every module here other than ``base`` defines ``PRESENTER``, an instance of
:class:`~apps.play.presenters.base.Presenter` naming the games it draws; a game no presenter
names is drawn by the generic one. ``presenter_for(game)`` is the whole public surface;
``presenter_register`` adds one at run time (a test's toy game).
"""

from __future__ import annotations

import importlib
import pkgutil

from .base import Presenter

__all__ = ["PRESENTERS", "Presenter", "presenter_for", "presenter_register"]

GENERIC = Presenter()


def _discover() -> dict[str, Presenter]:
    found: dict[str, Presenter] = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if info.name == "base" or info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        presenter = getattr(module, "PRESENTER", None)
        if not isinstance(presenter, Presenter):
            raise RuntimeError(f"presenter module {module.__name__} defines no PRESENTER")
        for game in presenter.games:
            if game in found:
                raise RuntimeError(f"game {game!r} has two presenters: {module.__name__} and another")
            found[game] = presenter
    return found


PRESENTERS: dict[str, Presenter] = _discover()


def presenter_for(game: str) -> Presenter:
    """The presenter of ``game``: its family's, else the generic board's."""
    return PRESENTERS.get(game, GENERIC)


def presenter_register(presenter: Presenter) -> None:
    """Add a presenter for its games (a game added at run time, like a test's toy game)."""
    for game in presenter.games:
        PRESENTERS[game] = presenter
