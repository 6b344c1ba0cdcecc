"""Scopone classico for 4 players in two pairs (shared/spec/games/scopone.md).

Scopa's rules with the seed's 9 + 4 deal: 9 cards to each seat one at a time, then 4 on
the table, no stock and no later round. Everything else comes from ``_fishing``.
"""

from __future__ import annotations

from ._fishing import FishingEngine, FishingState


class ScoponeState(FishingState):
    FIRST_ROUND = 9


class ScoponeEngine(FishingEngine):
    id = "scopone"
    xp = 15  # platform.md §9
    name = "Scopone"
    faces = ("italian", "french")  # seed 000: also with French cards without jokers, 8, 9, 10
    min_players = 4
    max_players = 4
    player_counts = (4,)
    state_class = ScoponeState


ENGINE = ScoponeEngine()
ScoponeState.engine = ENGINE
