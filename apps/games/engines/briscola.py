"""Briscola for 2 players, or 4 in fixed partnerships (shared/spec/games/briscola.md).

No obligation to follow suit; the face-up briscola card is drawn last; 61 of 120 card
points wins a hand, 60-60 is a drawn hand that never ends the match.
"""

from __future__ import annotations

import copy
import random
from typing import Any

from . import cards
from .base import Action, Engine, Event, GameState

#: trick strength inside a suit (higher wins): A 3 R C F 7 6 5 4 2
STRENGTH = {rank: s for s, rank in enumerate(reversed(("A", "3", "R", "C", "F", "7", "6", "5", "4", "2")))}
POINTS = {"A": 11, "3": 10, "R": 4, "C": 3, "F": 2, "7": 0, "6": 0, "5": 0, "4": 0, "2": 0}
DECK = cards.italian_deck()


def trick_winner(trick: list[tuple[int, str]], trump: str) -> int:
    """Index in ``trick`` of the winning card: highest trump, else highest of the suit led."""
    best = 0
    for i in range(1, len(trick)):
        card, top = trick[i][1], trick[best][1]
        if card[1] == top[1]:
            if STRENGTH[card[0]] > STRENGTH[top[0]]:
                best = i
        elif card[1] == trump:
            best = i
    return best


class BriscolaState(GameState):
    def __init__(self, engine: BriscolaEngine, data: dict[str, Any]) -> None:
        self.engine = engine
        self.n: int = data["players"]
        self.options: dict[str, Any] = data["options"]
        self.seed: int = data["seed"]
        self.dealer: int = data["dealer"]
        self.hand_no: int = data["hand_no"]
        self.hands: list[list[str]] = data["hands"]
        self.stock: list[str] = data["stock"]  # face-down, drawn from the front
        self.trump_card: str = data["trump_card"]
        self.trump_under_stock: bool = data["trump_under_stock"]
        self.trick: list[tuple[int, str]] = [(s, c) for s, c in data["trick"]]
        self.turn: int = data["turn"]
        self.piles: list[list[str]] = data["piles"]
        self.last_trick: dict[str, Any] | None = data["last_trick"]
        self.finished: list[dict[str, Any]] = data["finished"]
        self.hands_won: list[int] = data["hands_won"]
        self.winner: int | None = data["winner"]
        self.teams = [[0], [1]] if self.n == 2 else [[0, 2], [1, 3]]

    # -- protocol ---------------------------------------------------------------

    @property
    def to_act(self) -> list[int]:
        return [] if self.winner is not None else [self.turn]

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    def legal_actions(self, seat: int | None) -> list[Action]:
        if self.winner is not None or seat != self.turn:
            return []
        return [{"type": "play", "card": card} for card in self.hands[seat]]

    def explain_illegal(self, seat: int, action: Action, legal: list[Action]) -> str:
        if set(action) != {"type", "card"} or action.get("type") != "play":
            return 'A Briscola move is exactly {"type": "play", "card": <card>}.'
        card = action["card"]
        if not cards.is_card(card, "italian"):
            return f"{card!r} is not a card of the Italian deck."
        return f"The card {card} is not in your hand."

    def _apply(self, seat: int, action: Action) -> list[Event]:
        card = action["card"]
        self.hands[seat].remove(card)
        self.trick.append((seat, card))
        events: list[Event] = [{"type": "play", "seat": seat, "card": card}]
        if len(self.trick) < self.n:
            self.turn = (seat + 1) % self.n
            return events
        return events + self._close_trick()

    def _close_trick(self) -> list[Event]:
        trump = self.trump_card[1]
        won_by = self.trick[trick_winner(self.trick, trump)][0]
        taken = [c for _, c in self.trick]
        self.piles[won_by % 2].extend(taken)
        points = sum(POINTS[c[0]] for c in taken)
        self.last_trick = {"cards": [{"seat": s, "card": c} for s, c in self.trick], "winner": won_by}
        self.trick = []
        self.turn = won_by
        events: list[Event] = [{"type": "trick", "winner": won_by, "cards": taken, "points": points}]
        if self.stock or self.trump_under_stock:
            order = [(won_by + i) % self.n for i in range(self.n)]
            event: Event = {"type": "draw", "seats": order}
            for s in order:
                if self.stock:
                    self.hands[s].append(self.stock.pop(0))
                else:  # the face-up briscola card goes to the last drawer
                    self.hands[s].append(self.trump_card)
                    self.trump_under_stock = False
                    event["trump_card_to"] = s
            event["stock_count"] = self.stock_count
            events.append(event)
        if not any(self.hands):
            events.extend(self._close_hand())
        return events

    def _close_hand(self) -> list[Event]:
        points = [sum(POINTS[c[0]] for c in pile) for pile in self.piles]
        winner = 0 if points[0] >= 61 else 1 if points[1] >= 61 else None
        hand = {"points": points, "winner": winner, "dealer": self.dealer, "trump_suit": self.trump_card[1]}
        self.finished.append(hand)
        events: list[Event] = []
        if winner is not None:
            self.hands_won[winner] += 1
        if self.options["mode"] == "points":
            match_over = winner is not None
        else:
            match_over = winner is not None and self.hands_won[winner] >= self.options["hands"] // 2 + 1
        events.append({"type": "hand_end", "result": hand, "scores": self.result()["scores"]})
        if match_over:
            self.winner = winner
            events.append({"type": "match_end", "winner": winner, "scores": self.result()["scores"]})
            return events
        self.dealer = (self.dealer + 1) % self.n
        self.hand_no += 1
        self._deal(cards.shuffled(DECK, cards.derive_rng(self.seed, "hand", self.hand_no)))
        events.append({"type": "new_hand", "dealer": self.dealer, "trump_card": self.trump_card})
        return events

    def _deal(self, deck: list[str]) -> None:
        n = self.n
        self.hands = cards.deal_round_robin(deck, (self.dealer + 1) % n, n, 3)
        self.trump_card = deck[3 * n]
        self.trump_under_stock = True
        self.stock = deck[3 * n + 1:]
        self.piles = [[], []]
        self.trick = []
        self.last_trick = None
        self.turn = (self.dealer + 1) % n

    @property
    def stock_count(self) -> int:
        return len(self.stock) + (1 if self.trump_under_stock else 0)

    def result(self) -> dict[str, Any]:
        if self.options["mode"] == "points":
            scores = list(self.finished[-1]["points"]) if self.finished else [0, 0]
        else:
            scores = list(self.hands_won)
        return {"scores": scores, "winner": self.winner, "hands": [dict(h) for h in self.finished]}

    def view(self, seat: int | None) -> dict[str, Any]:
        return {
            "phase": "over" if self.winner is not None else "play",
            "players": self.n,
            "seat": seat,
            "dealer": self.dealer,
            "hand": list(self.hands[seat]) if seat is not None else [],
            "hand_counts": [len(h) for h in self.hands],
            "trump_suit": self.trump_card[1],
            "trump_card": self.trump_card if self.trump_under_stock else None,
            "stock_count": self.stock_count,
            "trick": [{"seat": s, "card": c} for s, c in self.trick],
            "last_trick": self.last_trick and {
                "cards": [dict(x) for x in self.last_trick["cards"]], "winner": self.last_trick["winner"]},
            "captured_counts": [len(p) for p in self.piles],
            # every taken card was face up on the table: the points each side holds are public
            "points_taken": [sum(POINTS[c[0]] for c in pile) for pile in self.piles],
            "to_act": self.to_act,
            "mode": self.options["mode"],
            "hands_won": list(self.hands_won),
            "hands": [dict(h) for h in self.finished],
            "winner": self.winner,
        }

    def to_json(self) -> dict[str, Any]:
        return {
            "game": "briscola",
            "players": self.n,
            "options": dict(self.options),
            "seed": self.seed,
            "dealer": self.dealer,
            "hand_no": self.hand_no,
            "hands": [list(h) for h in self.hands],
            "stock": list(self.stock),
            "trump_card": self.trump_card,
            "trump_under_stock": self.trump_under_stock,
            "trick": [[s, c] for s, c in self.trick],
            "turn": self.turn,
            "piles": [list(p) for p in self.piles],
            "last_trick": self.last_trick and {
                "cards": [dict(x) for x in self.last_trick["cards"]], "winner": self.last_trick["winner"]},
            "finished": [dict(h, points=list(h["points"])) for h in self.finished],
            "hands_won": list(self.hands_won),
            "winner": self.winner,
        }

    def card_zones(self) -> dict[str, list[str]]:
        zones = {f"hand_{s}": list(h) for s, h in enumerate(self.hands)}
        zones["stock"] = list(self.stock)
        zones["trump_card"] = [self.trump_card] if self.trump_under_stock else []
        zones["trick"] = [c for _, c in self.trick]
        zones["pile_0"], zones["pile_1"] = list(self.piles[0]), list(self.piles[1])
        return zones

    def hidden_from(self, seat: int | None) -> list[str]:
        hidden = list(self.stock)
        for s, hand in enumerate(self.hands):
            if s != seat:
                hidden.extend(hand)
        return hidden


class BriscolaEngine(Engine):
    id = "briscola"
    name = "Briscola"
    min_players = 2
    max_players = 4
    player_counts = (2, 4)
    running_points_hidden = True  # §7: counting is part of the skill
    options = {
        "mode": {"default": "points", "choices": ["points", "hands"]},
        "hands": {"default": 3, "choices": [1, 3, 5, 7]},
        "dealer": {"default": None, "min": 0, "max": 3},
    }

    def deck(self, players: int, options: dict[str, Any] | None = None) -> list[str]:
        return list(DECK)

    def new_game(self, players, options=None, seed=None, deck=None) -> BriscolaState:
        setup = self.setup(players, options, seed, deck)
        seed, deck = setup.seed, setup.deck
        state = BriscolaState(self, {
            "players": setup.players, "options": setup.options, "seed": seed, "dealer": setup.dealer, "hand_no": 0,
            "hands": [], "stock": [], "trump_card": "", "trump_under_stock": False, "trick": [],
            "turn": 0, "piles": [[], []], "last_trick": None, "finished": [], "hands_won": [0, 0],
            "winner": None,
        })
        state._deal(deck if deck is not None else cards.shuffled(DECK, cards.derive_rng(seed, "hand", 0)))
        return state

    def from_json(self, data: dict[str, Any]) -> BriscolaState:
        return BriscolaState(self, copy.deepcopy(data))

    def robot_choice(self, view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
        """The rules file's heuristic: lead cheap, take valuable tricks, trump only when worth it."""
        trump = view["trump_suit"]
        hand = [a["card"] for a in legal]

        def cheap(card: str) -> tuple[int, int, int, float]:
            return (card[1] == trump, POINTS[card[0]], STRENGTH[card[0]], rng.random())

        trick = [(t["seat"], t["card"]) for t in view["trick"]]
        if not trick:
            return {"type": "play", "card": min(hand, key=cheap)}
        players, seat = view["players"], view["seat"]
        best = trick[trick_winner(trick, trump)]
        win_seat, win_card = best
        trick_points = sum(POINTS[c[0]] for _, c in trick)
        if players == 4 and win_seat % 2 == seat % 2:
            plays_last = len(trick) == players - 1
            high_trump = win_card[1] == trump and win_card[0] in ("A", "3", "R")
            if plays_last or high_trump:
                plain = [c for c in hand if c[1] != trump]
                pool = plain or hand
                return {"type": "play", "card": max(pool, key=lambda c: (POINTS[c[0]], -STRENGTH[c[0]]))}
        beats = [c for c in hand if trick_winner([*trick, (seat, c)], trump) == len(trick)]
        same_suit = [c for c in beats if c[1] == win_card[1] and c[1] != trump]
        if same_suit:
            return {"type": "play", "card": max(same_suit, key=lambda c: (POINTS[c[0]], STRENGTH[c[0]]))}
        trumps = sorted((c for c in beats if c[1] == trump), key=lambda c: (POINTS[c[0]], STRENGTH[c[0]]))
        if trumps:
            cheapest = trumps[0]
            if trick_points >= 10 or (trick_points >= 4 and cheapest[0] not in ("A", "3")):
                return {"type": "play", "card": cheapest}
        return {"type": "play", "card": min(hand, key=cheap)}


ENGINE = BriscolaEngine()
