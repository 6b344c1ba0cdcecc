"""Cirulla, 2 players or 4 in pairs (shared/spec/games/cirulla.md).

Scopa plus: fifteen captures, the sweeping ace (a scopa here), two or more aces on the
first table void the deal, the dealer's table bonus (15 or 30, the matta ``7c`` wild),
the declarations cirulla/decino, Grande and Piccola, and the cappotto that ends the
match. The shared mechanics come from ``_fishing``; this module states the rest.
"""

from __future__ import annotations

from typing import Any

from ._fishing import VALUE, FishingEngine, FishingState, RobotContext, fishing_options
from .base import Action, Event

MATTA = "7c"
ACCUSO_POINTS = {"cirulla": 3, "decino": 10}
GRANDE = ("Fd", "Cd", "Rd")
PICCOLA = ("Ad", "2d", "3d")
PICCOLA_RUN = ("4d", "5d", "6d", "7d")


def accuso_kind(hand: list[str]) -> str | None:
    """The best declaration three cards allow: ``decino``, ``cirulla`` or ``None``.

    Decino: three cards of one rank, or the matta with two cards of one rank. Cirulla:
    a total of 9 or less with the matta counting 1. Decino wins when both apply.
    """
    if len(hand) != 3:
        return None
    ranks = {c[0] for c in hand if c != MATTA}
    if len(ranks) <= 1:
        return "decino"
    if sum(1 if c == MATTA else VALUE[c] for c in hand) <= 9:
        return "cirulla"
    return None


def table_bonus(table: list[str]) -> int:
    """Scope the dealer scores for the first table: 1 for 15, 2 for 30 (matta wild 1..10)."""
    if len(table) != 4:
        return 0
    if MATTA in table:
        rest = sum(VALUE[c] for c in table if c != MATTA)
        if 1 <= 15 - rest <= 10:
            return 1
        if 1 <= 30 - rest <= 10:
            return 2
        return 0
    total = sum(VALUE[c] for c in table)
    return 1 if total == 15 else 2 if total == 30 else 0


def piccola_points(pile: list[str]) -> int:
    """3 for Ad 2d 3d, +1 for each of 4d 5d 6d 7d continuing the run; 0 without the three."""
    if not all(c in pile for c in PICCOLA):
        return 0
    points = 3
    for c in PICCOLA_RUN:
        if c not in pile:
            break
        points += 1
    return points


class CirullaState(FishingState):
    ACE_TAKES_ALL = True
    ACE_SCOPA = True
    FIFTEEN = True
    EXTRA_FIELDS = ("accusi", "revealed", "declared")

    accusi: list[int]
    revealed: list[list[str]]
    declared: list[bool]

    def init_extra(self) -> None:
        self.accusi = [0, 0]
        self.revealed = [[] for _ in range(self.n)]
        self.declared = [False] * self.n

    def void_deal(self, table: list[str]) -> bool:
        """Two or more aces on the first table void the deal."""
        return sum(1 for c in table if c[0] == "A") >= 2

    def after_first_deal(self) -> list[Event]:
        self.accusi = [0, 0]
        bonus = table_bonus(self.table)
        if not bonus:
            return []
        team = self.dealer % 2
        taken = self.table
        self.piles[team].extend(taken)
        self.scope[team] += bonus
        self.last_capture = self.dealer
        self.table = []
        return [{"type": "table_bonus", "seat": self.dealer, "cards": list(taken), "scope": bonus}]

    def after_round_deal(self) -> None:
        self.revealed = [[] for _ in range(self.n)]
        self.declared = [False] * self.n

    def extra_actions(self, seat: int) -> list[Action]:
        hand = self.hands[seat]
        if len(hand) == 3 and not self.declared[seat]:
            kind = accuso_kind(hand)
            if kind is not None:
                return [{"type": "accuso", "accuso": kind}]
        return []

    def apply_extra(self, seat: int, action: Action) -> list[Event]:
        kind = action["accuso"]
        points = ACCUSO_POINTS[kind]
        self.declared[seat] = True
        self.revealed[seat] = list(self.hands[seat])
        self.accusi[seat % 2] += points
        self.step += 1
        return [
            {"type": "accuso", "seat": seat, "accuso": kind, "cards": list(self.hands[seat]), "points": points}
        ]

    def on_card_played(self, seat: int, card: str) -> None:
        shown = self.revealed[seat]
        if card in shown:
            shown.remove(card)

    def visible_hand_cards(self, seat: int) -> list[str]:
        return self.revealed[seat]

    def extra_breakdown(self, breakdown: dict[str, Any]) -> None:
        points = breakdown["points"]
        grande = None
        piccola = [0, 0]
        cappotto = None
        for team, pile in enumerate(self.piles):
            if all(c in pile for c in GRANDE):
                grande = team
                points[team] += 5
            piccola[team] = piccola_points(pile)
            points[team] += piccola[team] + self.accusi[team]
            if breakdown["denari"][team] == 10:
                cappotto = team
        breakdown["accusi"] = list(self.accusi)
        breakdown["grande"] = grande
        breakdown["piccola"] = piccola
        breakdown["cappotto"] = cappotto

    def forced_winner(self, breakdown: dict[str, Any]) -> int | None:
        return breakdown["cappotto"]

    def extra_view(self, view: dict[str, Any], seat: int | None) -> None:
        view["accusi"] = list(self.accusi)
        view["revealed"] = [list(r) for r in self.revealed]

    def explain_extra(self, seat: int, action: Action) -> str:
        if set(action) != {"type", "accuso"}:
            return 'A declaration has exactly the keys type and accuso, e.g. {"type": "accuso", "accuso": "decino"}.'
        asked = action["accuso"]
        if asked not in ACCUSO_POINTS:
            return f"{asked!r} is not a declaration: the accusi are 'cirulla' and 'decino'."
        if self.declared[seat]:
            return "You have already declared in this round."
        if len(self.hands[seat]) != 3:
            return "Declarations are made before playing the first card of a round."
        kind = accuso_kind(self.hands[seat])
        if kind is None:
            return (
                "Your hand makes no declaration: cirulla needs a total of 9 or less (7c counts 1),"
                " decino three cards of one rank (7c is wild)."
            )
        return f"Your hand makes a {kind}, so only the {kind} may be declared."


class CirullaEngine(FishingEngine):
    id = "cirulla"
    name = "Cirulla"
    faces = ("italian", "french")  # rules §3: Genoese/French faces use the same codes
    state_class = CirullaState
    options = fishing_options(target=51, target_max=201)
    action_types = ("play", "accuso")

    def robot_score(self, ctx: RobotContext, action: Action, legal: list[Action]) -> float:
        """Always declare; otherwise Scopa's greedy score, never trailing an ace."""
        if action["type"] == "accuso":
            return 1000.0
        score = super().robot_score(ctx, action, legal)
        if (
            action["card"][0] == "A"
            and not action["capture"]
            and any(a["type"] == "play" and a["card"][0] != "A" for a in legal)
        ):
            score -= 50
        return score

    def robot_danger(self, ctx: RobotContext, left: list[str], played: str) -> float:
        """−6 when an unseen card could sweep the table left: equal total, fifteen or ace."""
        total = sum(VALUE[c] for c in left)
        aces = sum(1 for c in left if c[0] == "A")
        for value in ctx.unseen_values():
            if value == 1:
                if aces == 0 or (aces == 1 and len(left) == 1):
                    return 6.0
            elif total == value or total + value == 15:
                return 6.0
        return 0.0


ENGINE = CirullaEngine()
CirullaState.engine = ENGINE
