"""Asso Pigliatutto (Scopa d'Assi), 2 players or 4 in pairs (shared/spec/games/asso_pigliatutto.md).

Scopa with a special ace: it takes one ace from the table if there is one, otherwise the
whole table (laid down on an empty table), and a capture made with an ace is never a
scopa. Everything else comes from ``_fishing``.
"""

from __future__ import annotations

from ._fishing import WEIGHT, FishingEngine, FishingState, RobotContext
from .base import Action


class AssoPigliatuttoState(FishingState):
    ACE_TAKES_ALL = True
    ACE_SCOPA = False


class AssoPigliatuttoEngine(FishingEngine):
    id = "asso_pigliatutto"
    name = "Asso Pigliatutto"
    faces = ("italian", "french")  # seed 000: or French cards without jokers, 8, 9, 10
    state_class = AssoPigliatuttoState

    def robot_score(self, ctx: RobotContext, action: Action, legal: list[Action]) -> float:
        """Scopa's greedy score, keeping aces for rich tables and never trailing one."""
        score = super().robot_score(ctx, action, legal)
        card, capture = action["card"], action["capture"]
        if card[0] == "A":
            if not capture:
                if any(a["card"][0] != "A" for a in legal):
                    score -= 50
            elif len(capture) > 1 or capture[0][0] != "A":
                # a sweep spends the ace: worth it only when the table is rich
                score -= 4
        return score

    def robot_danger(self, ctx: RobotContext, left: list[str], played: str) -> float:
        """Scopa's sweep danger, plus an unseen ace that would take a table without aces."""
        danger = super().robot_danger(ctx, left, played)
        if ctx.unseen_values().get(1, 0) and not any(c[0] == "A" for c in left):
            danger += 0.3 * sum(WEIGHT[c] for c in left)
        return danger


ENGINE = AssoPigliatuttoEngine()
AssoPigliatuttoState.engine = ENGINE
