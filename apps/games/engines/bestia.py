"""Bestia: three tricks for a pot, and whoever knocks and takes none pays the whole pot.

Rules: shared/spec/games/bestia.md (seed 000, section "BESTIA"). Money is abstract
integer units: the dealer antes 3, each trick is worth a third of the pot, and a seat
that knocked and took no trick "goes to the Bestia" and pays the whole pot into the
next one (or, in the last hand, straight to that hand's trick winners). The platform
multiplies the final balances by the table stake.
"""

from __future__ import annotations

import random
from typing import Any

from . import cards
from .base import Action, Engine, Event, GameState

ANTE = 3
TRICKS_PER_HAND = 3

#: strength within a suit, low to high (the Briscola order: A 3 R C F 7 6 5 4 2, high first)
_ORDER = ("2", "4", "5", "6", "7", "F", "C", "R", "3", "A")
STRENGTH: dict[str, int] = {
    rank + suit: i for suit in cards.ITALIAN_SUITS for i, rank in enumerate(_ORDER)
}
_DECK: tuple[str, ...] = tuple(cards.italian_deck())
_DECK_SET = frozenset(_DECK)

PHASE_NAMES = {
    "declare": "the declarations",
    "exchange": "the al buio choice",
    "play": "trick play",
    "over": "the end of the match",
}


def beats(card: str, best: str, trump: str) -> bool:
    """True if ``card`` beats ``best`` (the card winning the trick so far)."""
    if card[1] == best[1]:
        return STRENGTH[card] > STRENGTH[best]
    return card[1] == trump


def trick_winner(trick: list[list[Any]], trump: str) -> int:
    """Index in ``trick`` of the winning play: the highest trump, else the highest of the suit led."""
    best = 0
    best_card = trick[0][1]
    for i in range(1, len(trick)):
        card = trick[i][1]
        if beats(card, best_card, trump):
            best, best_card = i, card
    return best


class BestiaState(GameState):
    """One Bestia match: ``rounds × n`` hands, each settled into the running balances."""

    def __init__(self, n: int, options: dict[str, Any], seed: int) -> None:
        self.teams = [[s] for s in range(n)]
        self.n = n
        self.options = options
        self.seed = seed
        self.total_hands = options["rounds"] * n
        self.buio_on: bool = options["buio"]
        self.first_dealer: int = options["dealer"]
        self.hand_no = 0
        self.dealer = self.first_dealer
        self.phase = "declare"
        self.turn: int | None = None
        self.hands: list[list[str]] = [[] for _ in range(n)]
        self.trump_card = ""
        self.trump = ""
        self.stock: list[str] = []
        self.away: list[list[str]] = [[] for _ in range(n)]
        self.declared: list[str | None] = [None] * n
        self.choices: list[str | None] = [None] * n
        self.active: list[bool] = [False] * n
        self.trick: list[list[Any]] = []
        self.played: list[str] = []
        self.last_trick: dict[str, Any] | None = None
        self.tricks: list[int] = [0] * n
        self.pot = ANTE
        self.balances: list[int] = [0] * n
        self.history: list[dict[str, Any]] = []

    # -- dealing ------------------------------------------------------------------

    def _deal(self, deck: list[str]) -> None:
        """Deal one hand from ``deck`` (top first) as rules §4 says."""
        n = self.n
        hands: list[list[str]] = [[] for _ in range(n)]
        first = self.dealer + 1
        for i in range(3 * n):
            hands[(first + i) % n].append(deck[i])
        self.hands = hands
        self.trump_card = deck[3 * n]
        self.trump = self.trump_card[1]
        self.stock = deck[3 * n + 1:]
        self.away = [[] for _ in range(n)]
        self.declared = [None] * n
        self.choices = [None] * n
        self.active = [False] * n
        self.trick = []
        self.played = []
        self.last_trick = None
        self.tricks = [0] * n
        self.phase = "declare"
        self.turn = (self.dealer + 1) % n

    def _hand_deck(self, k: int) -> list[str]:
        return cards.shuffled(_DECK, cards.derive_rng(self.seed, "hand", k))

    # -- protocol -------------------------------------------------------------------

    @property
    def to_act(self) -> list[int]:
        return [] if self.turn is None else [self.turn]

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    def _dealer_must_knock(self) -> bool:
        """The dealer declares last and may not pass if every other seat passed (D4)."""
        if self.turn != self.dealer:
            return False
        declared = self.declared
        return all(declared[s] == "pass" for s in range(self.n) if s != self.dealer)

    def _playable(self, seat: int) -> list[str]:
        hand = self.hands[seat]
        if not self.trick:
            return hand
        led = self.trick[0][1][1]
        follow = [c for c in hand if c[1] == led]
        return follow or hand

    def legal_actions(self, seat: int | None) -> list[Action]:
        if seat is None or seat != self.turn:
            return []
        phase = self.phase
        if phase == "play":
            return [{"type": "play", "card": c} for c in self._playable(seat)]
        if phase == "declare":
            if self._dealer_must_knock():
                return [{"type": "knock"}]
            return [{"type": "knock"}, {"type": "pass"}]
        if phase == "exchange":
            return [{"type": "keep"}, {"type": "buio"}]
        return []

    def _next_active(self, seat: int) -> int:
        n, active = self.n, self.active
        s = (seat + 1) % n
        while not active[s]:
            s = (s + 1) % n
        return s

    def _first_active(self) -> int:
        """The first active seat in playing order from the seat after the dealer."""
        return self._next_active(self.dealer)

    def _apply(self, seat: int, action: Action) -> list[Event]:
        kind = action["type"]
        if kind == "play":
            return self._play(seat, action["card"])
        if kind == "knock" or kind == "pass":
            return self._declare(seat, kind)
        return self._exchange(seat, kind)

    def _declare(self, seat: int, kind: str) -> list[Event]:
        events: list[Event] = [{"type": "declare", "seat": seat, "declaration": kind}]
        self.declared[seat] = kind
        if kind == "pass":
            # the folded cards go face down out of play
            self.away[seat] = self.hands[seat]
            self.hands[seat] = []
        else:
            self.active[seat] = True
        if seat != self.dealer:
            self.turn = (seat + 1) % self.n
            return events
        active = [s for s in range(self.n) if self.active[s]]
        if len(active) == 1:
            lone = active[0]
            self.tricks[lone] = TRICKS_PER_HAND
            events.append({"type": "uncontested", "seat": lone, "pot": self.pot})
            events.extend(self._settle())
            return events
        if self.buio_on:
            self.phase = "exchange"
        else:
            self.phase = "play"
        self.turn = self._first_active()
        return events

    def _exchange(self, seat: int, kind: str) -> list[Event]:
        self.choices[seat] = kind
        if kind == "buio":
            self.away[seat] = self.hands[seat]
            self.hands[seat] = self.stock[:3]
            del self.stock[:3]
        events: list[Event] = [{"type": "exchange", "seat": seat, "choice": kind}]
        nxt = self._next_active(seat)
        if nxt == self._first_active():
            self.phase = "play"
        self.turn = nxt
        return events

    def _play(self, seat: int, card: str) -> list[Event]:
        self.hands[seat].remove(card)
        trick = self.trick
        trick.append([seat, card])
        events: list[Event] = [{"type": "play", "seat": seat, "card": card}]
        if len(trick) < sum(self.active):
            self.turn = self._next_active(seat)
            return events
        win = trick[trick_winner(trick, self.trump)][0]
        self.tricks[win] += 1
        plays = [{"seat": s, "card": c} for s, c in trick]
        self.last_trick = {"cards": plays, "winner": win}
        self.played.extend(c for _, c in trick)
        self.trick = []
        events.append({"type": "trick", "winner": win, "cards": plays})
        if len(self.played) == TRICKS_PER_HAND * len(plays):
            events.extend(self._settle())
        else:
            self.turn = win
        return events

    def _settle(self) -> list[Event]:
        """Pay the hand (rules §5.5), then deal the next hand or end the match."""
        n, pot, tricks = self.n, self.pot, self.tricks
        third = pot // 3
        last = self.hand_no == self.total_hands - 1
        bestia = [s for s in range(n) if self.active[s] and tricks[s] == 0]
        net = [0] * n
        for s in range(n):
            net[s] = tricks[s] * third
            if s in bestia:
                net[s] -= pot
            if last:
                net[s] += tricks[s] * third * len(bestia)
        net[self.dealer] -= ANTE
        for s in range(n):
            self.balances[s] += net[s]
        record = {
            "hand": self.hand_no,
            "dealer": self.dealer,
            "trump_card": self.trump_card,
            "pot": pot,
            "active": [s for s in range(n) if self.active[s]],
            "buio": [s for s in range(n) if self.choices[s] == "buio"],
            "tricks": list(tricks),
            "bestia": bestia,
            "net": net,
            "last": last,
        }
        self.history.append(record)
        # the event leaves out the old face-up card: it is shuffled into the next deal
        summary = {k: list(v) if isinstance(v, list) else v for k, v in record.items() if k != "trump_card"}
        events: list[Event] = [{"type": "hand_over", **summary, "balances": list(self.balances)}]
        if last:
            self.phase = "over"
            self.turn = None
            events.append({"type": "match_over", "scores": list(self.balances), "winner": self._winner()})
            return events
        self.hand_no += 1
        self.dealer = (self.dealer + 1) % n
        self.pot = ANTE + len(bestia) * pot
        self._deal(self._hand_deck(self.hand_no))
        events.append({
            "type": "deal", "hand": self.hand_no, "dealer": self.dealer,
            "trump_card": self.trump_card, "pot": self.pot,
        })
        return events

    def _winner(self) -> int | None:
        top = max(self.balances)
        leaders = [s for s, b in enumerate(self.balances) if b == top]
        return leaders[0] if len(leaders) == 1 else None

    def result(self) -> dict[str, Any]:
        return {
            "scores": list(self.balances),
            "winner": self._winner() if self.is_over else None,
            "hands": [{**h, "active": list(h["active"]), "buio": list(h["buio"]),
                       "tricks": list(h["tricks"]), "bestia": list(h["bestia"]), "net": list(h["net"])}
                      for h in self.history],
        }

    def view(self, seat: int | None) -> dict[str, Any]:
        own = seat is not None and 0 <= seat < self.n
        last_hand = None
        if self.history:
            # no card codes: last hand's face-up card may lie in a hand of this deal
            h = {k: v for k, v in self.history[-1].items() if k != "trump_card"}
            last_hand = {**h, "active": list(h["active"]), "buio": list(h["buio"]),
                         "tricks": list(h["tricks"]), "bestia": list(h["bestia"]), "net": list(h["net"])}
        return {
            "seat": seat if own else None,
            "phase": self.phase,
            "hand_number": self.hand_no,
            "hands_total": self.total_hands,
            "dealer": self.dealer,
            "hand": list(self.hands[seat]) if own else [],
            "put_away": list(self.away[seat]) if own else [],
            "hand_counts": [len(h) for h in self.hands],
            "put_away_counts": [len(a) for a in self.away],
            "trump_card": self.trump_card,
            "trump_suit": self.trump,
            "declared": list(self.declared),
            "choices": list(self.choices),
            "active": [s for s in range(self.n) if self.active[s]],
            "buio": [s for s in range(self.n) if self.choices[s] == "buio"],
            "stock_count": len(self.stock),
            "trick": [{"seat": s, "card": c} for s, c in self.trick],
            "last_trick": None if self.last_trick is None else {
                "cards": [dict(p) for p in self.last_trick["cards"]],
                "winner": self.last_trick["winner"],
            },
            "tricks": list(self.tricks),
            "pot": self.pot,
            "balances": list(self.balances),
            "last_hand": last_hand,
            "to_act": self.to_act,
        }

    def card_zones(self) -> dict[str, list[str]]:
        zones: dict[str, list[str]] = {}
        for s in range(self.n):
            zones[f"hand_{s}"] = list(self.hands[s])
            zones[f"away_{s}"] = list(self.away[s])
        zones["trump_card"] = [self.trump_card]
        zones["stock"] = list(self.stock)
        zones["trick"] = [c for _, c in self.trick]
        zones["played"] = list(self.played)
        return zones

    def hidden_from(self, seat: int | None) -> list[str]:
        hidden = list(self.stock)
        for s in range(self.n):
            if s != seat:
                hidden.extend(self.hands[s])
                hidden.extend(self.away[s])
        return hidden

    def to_json(self) -> dict[str, Any]:
        return {
            "game": "bestia",
            "players": self.n,
            "options": dict(self.options),
            "seed": self.seed,
            "hand_no": self.hand_no,
            "dealer": self.dealer,
            "phase": self.phase,
            "turn": self.turn,
            "hands": [list(h) for h in self.hands],
            "trump_card": self.trump_card,
            "stock": list(self.stock),
            "away": [list(a) for a in self.away],
            "declared": list(self.declared),
            "choices": list(self.choices),
            "trick": [[s, c] for s, c in self.trick],
            "played": list(self.played),
            "last_trick": None if self.last_trick is None else {
                "cards": [dict(p) for p in self.last_trick["cards"]],
                "winner": self.last_trick["winner"],
            },
            "tricks": list(self.tricks),
            "pot": self.pot,
            "balances": list(self.balances),
            "history": [{**h, "active": list(h["active"]), "buio": list(h["buio"]),
                         "tricks": list(h["tricks"]), "bestia": list(h["bestia"]), "net": list(h["net"])}
                        for h in self.history],
        }

    # -- refusals -------------------------------------------------------------------

    def explain_illegal(self, seat: int, action: Action, legal: list[Action]) -> str:
        kind = action.get("type")
        phase = self.phase
        possible = ", ".join(sorted({a["type"] for a in legal}))
        if not isinstance(kind, str):
            return f"A move needs a 'type' (possible now: {possible})."
        if kind in ("knock", "pass"):
            if phase != "declare":
                return f"Declarations are over: this is {PHASE_NAMES[phase]} (possible now: {possible})."
            if set(action) != {"type"}:
                return f"A '{kind}' move takes only the key 'type'."
            return ("The dealer may not pass when every other player has passed:"
                    " the dealer must knock and takes the pot alone.")
        if kind in ("keep", "buio"):
            if not self.buio_on:
                return "Playing al buio is not offered at this table (option buio is off)."
            if phase != "exchange":
                return (f"The keep/buio choice comes only after the declarations: this is"
                        f" {PHASE_NAMES[phase]} (possible now: {possible}).")
            return f"A '{kind}' move takes only the key 'type'."
        if kind == "play":
            if phase != "play":
                return f"Cards are played only in trick play: this is {PHASE_NAMES[phase]} (possible now: {possible})."
            if set(action) != {"type", "card"}:
                return "A 'play' move takes exactly the keys 'type' and 'card'."
            card = action["card"]
            if not isinstance(card, str):
                return f"The card must be a card code such as '7d', not {card!r}."
            if card not in _DECK_SET:
                return (f"The code {card!r} is not a card of the Italian deck: a rank of A 2 3 4 5 6 7 F C R"
                        " then a suit of d c s b.")
            if card not in self.hands[seat]:
                return f"You do not hold {cards.card_name(card, 'italian')} ({card})."
            led = self.trick[0][1][1] if self.trick else ""
            return (f"You must follow the suit led ({cards.ITALIAN_SUIT_NAMES.get(led, led)}):"
                    f" you hold {', '.join(a['card'] for a in legal)}.")
        return f"Unknown move type {kind!r}: possible now: {possible}."


class BestiaEngine(Engine):
    """Factory and robot for Bestia."""

    id = "bestia"
    name = "Bestia"
    settlement = "units"
    escrow_units_fixed = 30  # seed 001: each player covers 30 units of the stake
    min_players = 3
    max_players = 6
    player_counts = (3, 4, 5, 6)
    options = {
        "rounds": {"default": 1, "min": 1, "max": 10},
        "buio": {"default": True, "choices": [True, False]},
        "dealer": {"default": None, "min": 0, "max": 5},
    }

    def deck(self, players: int, options: dict[str, Any] | None = None) -> list[str]:
        return list(_DECK)

    def new_game(
        self,
        players: int,
        options: dict[str, Any] | None = None,
        seed: int | None = None,
        deck: list[str] | None = None,
    ) -> BestiaState:
        setup = self.setup(players, options, seed, deck)
        deck = setup.deck
        state = BestiaState(setup.players, {**setup.options, "dealer": setup.dealer}, setup.seed)
        state._deal(deck if deck is not None else state._hand_deck(0))
        return state

    def from_json(self, data: dict[str, Any]) -> BestiaState:
        state = BestiaState(data["players"], dict(data["options"]), data["seed"])
        state.hand_no = data["hand_no"]
        state.dealer = data["dealer"]
        state.phase = data["phase"]
        state.turn = data["turn"]
        state.hands = [list(h) for h in data["hands"]]
        state.trump_card = data["trump_card"]
        state.trump = state.trump_card[1]
        state.stock = list(data["stock"])
        state.away = [list(a) for a in data["away"]]
        state.declared = list(data["declared"])
        state.choices = list(data["choices"])
        state.active = [d == "knock" for d in state.declared]
        state.trick = [[s, c] for s, c in data["trick"]]
        state.played = list(data["played"])
        last = data["last_trick"]
        state.last_trick = None if last is None else {
            "cards": [dict(p) for p in last["cards"]], "winner": last["winner"],
        }
        state.tricks = list(data["tricks"])
        state.pot = data["pot"]
        state.balances = list(data["balances"])
        state.history = [{**h, "active": list(h["active"]), "buio": list(h["buio"]),
                          "tricks": list(h["tricks"]), "bestia": list(h["bestia"]), "net": list(h["net"])}
                         for h in data["history"]]
        return state

    def robot_choice(self, view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
        """Rules §11, from the seat's own view only."""
        if len(legal) == 1:
            return legal[0]
        trump = view["trump_suit"]
        hand = view["hand"]
        phase = view["phase"]
        if phase in ("declare", "exchange"):
            strong = any(c[1] == trump or c[0] in "A3" for c in hand)
            want = ("knock" if strong else "pass") if phase == "declare" else ("keep" if strong else "buio")
            for a in legal:
                if a["type"] == want:
                    return a
            return legal[0]

        def key(c: str) -> tuple[bool, int]:
            return (c[1] == trump, STRENGTH[c])

        playable = [a["card"] for a in legal]
        trick = view["trick"]
        if not trick:
            seat = view["seat"]
            safe = seat is not None and view["tricks"][seat] > 0
            choice = min(playable, key=key) if safe else max(playable, key=key)
        else:
            best = trick[0]["card"]
            for p in trick[1:]:
                if beats(p["card"], best, trump):
                    best = p["card"]
            beaters = [c for c in playable if beats(c, best, trump)]
            choice = min(beaters or playable, key=key)
        return {"type": "play", "card": choice}


ENGINE = BestiaEngine()
