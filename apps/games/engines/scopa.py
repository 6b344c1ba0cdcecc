"""Scopa for 2 players, or 4 in fixed partnerships (shared/spec/games/scopa.md).

Scopa is the base of the fishing family: everything lives in ``_fishing``; this module
only names the game. 3 cards each and 4 on the table, riprese of 3, same value before a
sum, 3 kings on the first table void the deal.
"""

from __future__ import annotations

from ._fishing import FishingEngine, FishingState


class ScopaState(FishingState):
    """Scopa uses the family defaults unchanged."""


class ScopaEngine(FishingEngine):
    id = "scopa"
    name = "Scopa"
    state_class = ScopaState


ENGINE = ScopaEngine()
ScopaState.engine = ENGINE
