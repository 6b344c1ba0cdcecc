"""Solitario (Klondike) for one player (shared/spec/games/solitario.md).

Seven columns dealt 1..7 with the top card face up, a stock turned one or three cards
at a time onto the waste, four foundations built by suit from Ace to King. The score
(Windows "standard" points, never below zero) goes to the leaderboard. A shuffled
deal is reshuffled until its first layout allows a move (seed 000's promise).
"""

from __future__ import annotations

import random
from typing import Any

from . import cards
from .base import Action, Engine, Event, GameState

RANK = {r: i + 1 for i, r in enumerate(cards.FRENCH_RANKS)}  # A=1 .. K=13
SUITS = cards.FRENCH_SUITS  # h d c s
RED = {"h", "d"}
COLUMNS = tuple(f"t{i}" for i in range(7))
DECK = cards.french_deck()

OPTIONS: dict[str, dict[str, Any]] = {
    "draw": {"default": 1, "choices": [1, 3]},
    "recycles": {"default": -1, "min": -1, "max": 100},
    "max_moves": {"default": 1000, "min": 100, "max": 10000},
    "dealer": {"default": 0, "choices": [0]},
}

POINTS = {"waste_tableau": 5, "waste_foundation": 10, "tableau_foundation": 10, "turn": 5,
          "foundation_tableau": -15}
RECYCLE_COST = {1: -100, 3: -20}


def fits_on(card: str, target: str) -> bool:
    """``card`` may be built on ``target``: one rank lower, the other colour."""
    return RANK[card[0]] + 1 == RANK[target[0]] and (card[1] in RED) != (target[1] in RED)


def face_up_indexes() -> list[int]:
    """Positions in the deck of the seven cards dealt face up (column c: c(c+3)/2)."""
    return [c * (c + 3) // 2 for c in range(7)]


def playable(deck: list[str]) -> bool:
    """The first layout allows a move: an Ace face up, or a face-up card fits on another."""
    up = [deck[i] for i in face_up_indexes()]
    return any(c[0] == "A" for c in up) or any(fits_on(a, b) for a in up for b in up if a != b)


class SolitarioState(GameState):
    def __init__(self, engine: SolitarioEngine, data: dict[str, Any]) -> None:
        self.engine = engine
        self.options: dict[str, Any] = data["options"]
        self.seed: int = data["seed"]
        self.deal: list[str] = data["deal"]  # the dealt order, for replay and dispute review
        self.down: list[list[str]] = data["down"]
        self.up: list[list[str]] = data["up"]
        self.stock: list[str] = data["stock"]  # index 0 is the top, drawn first
        self.waste: list[str] = data["waste"]  # bottom -> top
        self.foundations: dict[str, list[str]] = data["foundations"]
        self.score: int = data["score"]
        self.moves: int = data["moves"]
        self.recycles_used: int = data["recycles_used"]
        self.pass_moves: int = data["pass_moves"]  # card moves since the last recycle
        self.last_pass_moves: int | None = data["last_pass_moves"]
        self.over: bool = data["over"]
        self.teams = [[0]]

    # -- protocol ---------------------------------------------------------------------

    @property
    def to_act(self) -> list[int]:
        return [] if self.over else [0]

    @property
    def is_over(self) -> bool:
        return self.over

    @property
    def won(self) -> bool:
        return sum(len(f) for f in self.foundations.values()) == 52

    def legal_actions(self, seat: int | None) -> list[Action]:
        if self.over or seat != 0:
            return []
        return self._moves() + [{"type": "end"}]

    def _recycle_allowed(self) -> bool:
        limit = self.options["recycles"]
        return not self.stock and bool(self.waste) and (limit == -1 or self.recycles_used < limit)

    def _moves(self) -> list[Action]:
        """Every legal action but ``end``."""
        out: list[Action] = []
        if self.stock:
            out.append({"type": "draw"})
        elif self._recycle_allowed():
            out.append({"type": "recycle"})
        tops = [u[-1] if u else None for u in self.up]
        empty = [not self.up[j] and not self.down[j] for j in range(7)]

        def to_columns(card: str, source: int | None) -> None:
            king = card[0] == "K"
            for j in range(7):
                if j == source:
                    continue
                top = tops[j]
                if (top is not None and fits_on(card, top)) or (king and empty[j]):
                    out.append({"type": "move", "card": card, "to": COLUMNS[j]})

        if self.waste:
            card = self.waste[-1]
            if self._to_foundation_ok(card):
                out.append({"type": "move", "card": card, "to": "f"})
            to_columns(card, None)
        for i in range(7):
            up = self.up[i]
            for k, card in enumerate(up):
                if k == len(up) - 1 and self._to_foundation_ok(card):
                    out.append({"type": "move", "card": card, "to": "f"})
                to_columns(card, i)
        for suit in SUITS:
            pile = self.foundations[suit]
            if pile:
                to_columns(pile[-1], None)
        return out

    def _to_foundation_ok(self, card: str) -> bool:
        return len(self.foundations[card[1]]) + 1 == RANK[card[0]]

    def explain_illegal(self, seat: int, action: Action, legal: list[Action]) -> str:
        kind = action.get("type")
        if kind not in ("draw", "recycle", "move", "end"):
            return f"A {kind!r} move does not exist in Solitario: draw, recycle, move or end."
        wanted = {"draw": {"type"}, "recycle": {"type"}, "end": {"type"}, "move": {"type", "card", "to"}}[kind]
        if set(action) != wanted:
            return f"A {kind!r} move takes exactly the keys: {', '.join(sorted(wanted))}."
        if kind == "draw":
            return "The stock is empty: recycle the waste or make another move."
        if kind == "recycle":
            if self.stock:
                return "The waste can be turned back only when the stock is empty."
            if not self.waste:
                return "The waste is empty: there is nothing to recycle."
            return "No recycles are left in this game."
        card, to = action["card"], action["to"]
        if to not in (*COLUMNS, "f"):
            return f"{to!r} is not a destination: t0 to t6 or f (foundation)."
        if not cards.is_card(card, "french"):
            return f"{card!r} is not a card of the French deck."
        if not self._movable(card):
            return f"The card {card} cannot be moved: it is face down, buried or in the stock."
        if to == "f":
            return f"The card {card} does not go on its foundation now."
        return f"The card {card} does not fit on column {to}."

    def _movable(self, card: str) -> bool:
        return ((bool(self.waste) and self.waste[-1] == card) or any(card in u for u in self.up)
                or any(f and f[-1] == card for f in self.foundations.values()))

    def _apply(self, seat: int, action: Action) -> list[Event]:
        kind = action["type"]
        events: list[Event]
        delta = 0
        if kind == "end":
            self.moves += 1
            self.over = True
            return [{"type": "end", "score": self.score}] + self._finish_events()
        if kind == "draw":
            count = min(self.options["draw"], len(self.stock))
            drawn = self.stock[:count]
            del self.stock[:count]
            self.waste.extend(drawn)
            events = [{"type": "draw", "cards": drawn, "stock_count": len(self.stock)}]
        elif kind == "recycle":
            self.stock = self.waste
            self.waste = []
            self.recycles_used += 1
            self.last_pass_moves = self.pass_moves
            self.pass_moves = 0
            delta = RECYCLE_COST[self.options["draw"]]
            events = [{"type": "recycle", "stock_count": len(self.stock)}]
        else:
            delta, events = self._move(action["card"], action["to"])
            self.pass_moves += 1
        self.score = max(0, self.score + delta)
        self.moves += 1
        events[-1]["score"] = self.score
        if self.won or self.moves >= self.options["max_moves"] or not self._moves():
            self.over = True
            events += self._finish_events()
        return events

    def _move(self, card: str, to: str) -> tuple[int, list[Event]]:
        moving: list[str]
        source: str
        delta = 0
        turned = None
        if self.waste and self.waste[-1] == card:
            moving, source = [self.waste.pop()], "waste"
        elif self.foundations[card[1]] and self.foundations[card[1]][-1] == card:
            moving, source = [self.foundations[card[1]].pop()], "f"
        else:
            i = next(i for i in range(7) if card in self.up[i])
            k = self.up[i].index(card)
            moving, source = self.up[i][k:], COLUMNS[i]
            del self.up[i][k:]
            if not self.up[i] and self.down[i]:
                turned = self.down[i].pop()
                self.up[i].append(turned)
                delta += POINTS["turn"]
        if to == "f":
            self.foundations[card[1]].append(moving[0])
            delta += POINTS["waste_foundation"] if source == "waste" else POINTS["tableau_foundation"]
        else:
            self.up[COLUMNS.index(to)].extend(moving)
            if source == "waste":
                delta += POINTS["waste_tableau"]
            elif source == "f":
                delta += POINTS["foundation_tableau"]
        event: Event = {"type": "move", "card": card, "from": source, "to": to, "cards": moving}
        if turned is not None:
            event["turned"] = turned
        return delta, [event]

    def _finish_events(self) -> list[Event]:
        return [{"type": "match_end", "scores": [self.score], "winner": 0 if self.won else None}]

    # -- reading ------------------------------------------------------------------------

    def result(self) -> dict[str, Any]:
        won = self.won
        return {"scores": [self.score], "winner": 0 if won else None,
                "hands": [{"score": self.score, "won": won, "moves": self.moves}]}

    def view(self, seat: int | None) -> dict[str, Any]:
        limit = self.options["recycles"]
        return {
            "phase": "over" if self.over else "play",
            "players": 1,
            "hand": [],
            "to_act": self.to_act,
            "dealer": 0,
            "columns": [{"down": len(self.down[i]), "up": list(self.up[i])} for i in range(7)],
            "stock_count": len(self.stock),
            "waste": list(self.waste),
            "foundations": {s: list(self.foundations[s]) for s in SUITS},
            "score": self.score,
            "moves": self.moves,
            "recycles_used": self.recycles_used,
            "recycles_left": None if limit == -1 else limit - self.recycles_used,
            "pass_moves": self.pass_moves,
            "last_pass_moves": self.last_pass_moves,
            "draw": self.options["draw"],
            "over": self.over,
            "won": self.won,
        }

    def to_json(self) -> dict[str, Any]:
        return {
            "game": "solitario", "options": dict(self.options), "seed": self.seed, "deal": list(self.deal),
            "down": [list(d) for d in self.down], "up": [list(u) for u in self.up],
            "stock": list(self.stock), "waste": list(self.waste),
            "foundations": {s: list(self.foundations[s]) for s in SUITS},
            "score": self.score, "moves": self.moves, "recycles_used": self.recycles_used,
            "pass_moves": self.pass_moves, "last_pass_moves": self.last_pass_moves, "over": self.over,
        }

    def card_zones(self) -> dict[str, list[str]]:
        zones: dict[str, list[str]] = {}
        for i in range(7):
            zones[f"t{i}_down"] = list(self.down[i])
            zones[f"t{i}_up"] = list(self.up[i])
        zones["stock"] = list(self.stock)
        zones["waste"] = list(self.waste)
        for s in SUITS:
            zones[f"f_{s}"] = list(self.foundations[s])
        return zones

    def hidden_from(self, seat: int | None) -> list[str]:
        return [c for d in self.down for c in d] + list(self.stock)


class SolitarioEngine(Engine):
    id = "solitario"
    xp = 5  # platform.md §9
    leaderboard_score = True
    name = "Solitario"
    min_players = 1
    max_players = 1
    options = OPTIONS

    def deck(self, players: int, options: dict[str, Any] | None = None) -> list[str]:
        return list(DECK)

    def new_game(self, players: int, options: dict[str, Any] | None = None, seed: int | None = None,
                 deck: list[str] | None = None) -> SolitarioState:
        setup = self.setup(players, options, seed, deck)
        if setup.deck is not None:
            dealt = list(setup.deck)
        else:
            rng = cards.derive_rng(setup.seed, "deal")
            dealt = cards.shuffled(DECK, rng)
            while not playable(dealt):
                dealt = cards.shuffled(dealt, rng)
        down, up = [], []
        for c in range(7):
            start = c * (c + 1) // 2
            column = dealt[start:start + c + 1]
            down.append(column[:-1])
            up.append(column[-1:])
        return SolitarioState(self, {
            "options": setup.options, "seed": setup.seed, "deal": dealt, "down": down, "up": up,
            "stock": dealt[28:], "waste": [], "foundations": {s: [] for s in SUITS}, "score": 0,
            "moves": 0, "recycles_used": 0, "pass_moves": 0, "last_pass_moves": None, "over": False,
        })

    def from_json(self, data: dict[str, Any]) -> SolitarioState:
        if not isinstance(data, dict) or data.get("game") != self.id:
            raise ValueError("not a Solitario state")
        return SolitarioState(self, {
            **data, "options": dict(data["options"]), "deal": list(data["deal"]),
            "down": [list(d) for d in data["down"]], "up": [list(u) for u in data["up"]],
            "stock": list(data["stock"]), "waste": list(data["waste"]),
            "foundations": {s: list(data["foundations"][s]) for s in SUITS},
        })

    def robot_choice(self, view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
        return robot_choice(view, legal)


#: most recycles the robot spends, by draw mode (a pass must also have moved a card)
ROBOT_RECYCLES = {1: 2, 3: 6}


def robot_choice(view: dict[str, Any], legal: list[Action]) -> Action:
    """§11's greedy order: foundations, moves that turn a card, waste to tableau, draw, recycle."""
    columns = view["columns"]
    waste_top = view["waste"][-1] if view["waste"] else None
    foundation_tops = {f[-1] for f in view["foundations"].values() if f}
    moves = [a for a in legal if a["type"] == "move"]
    for action in moves:  # (1) to a foundation, not from one
        if action["to"] == "f":
            return action
    for action in moves:  # (2) the whole face-up part of a column onto another, turning a card
        if action["to"] == "f" or action["card"] in foundation_tops or action["card"] == waste_top:
            continue
        column = next(c for c in columns if action["card"] in c["up"])
        if column["down"] > 0 and column["up"][0] == action["card"]:
            return action
    for action in moves:  # (3) waste to tableau
        if action["card"] == waste_top and action["to"] != "f":
            return action
    for action in legal:  # (4) draw
        if action["type"] == "draw":
            return action
    for action in legal:  # (5) recycle when the last pass was worth it
        if action["type"] == "recycle":
            useful = view["pass_moves"] > 0
            if useful and view["recycles_used"] < ROBOT_RECYCLES[view["draw"]]:
                return action
    return {"type": "end"}


ENGINE = SolitarioEngine()
