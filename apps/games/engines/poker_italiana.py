"""Poker all'italiana: five-card draw with a short deck (shared/spec/games/poker_italiana.md).

The deck grows with the players dealt in (32 cards up to four, four more a player
beyond); ante, two betting rounds around one change of cards, opening with a pair of
Jacks (or blind by the buiante), showdown with the ranking of that deck size. Every
chip a player puts in is counted, so the settlement can return an uncovered bet and
split side pots: nobody receives more than he covered (seed 001's fair-play rule).
Chips are abstract integer units; the platform maps them to credits.
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any

from . import _poker_eval as pe
from . import cards
from .base import Action, Engine, Event, GameState, IllegalAction, resolve_options

BET1, DRAW, BET2, OVER = "bet1", "draw", "bet2", "over"
LOWEST = {2: "7", 3: "7", 4: "7", 5: "6", 6: "5", 7: "4", 8: "3"}
JACKS_PAIR = {"J", "Q", "K", "A"}
#: the platform's out-of-turn fold of a player who left (``PokerState.forfeit``), as logged
FORFEIT = {"type": "forfeit"}

OPTIONS: dict[str, dict[str, Any]] = {
    "ante": {"default": 10, "min": 1},
    "min_bet": {"default": 10, "min": 1},
    "max_bet": {"default": 100, "min": 0},
    "stack": {"default": 1000, "min": 1},
    "stacks": {"default": None},
    "opening": {"default": "jacks", "choices": ["jacks", "free"]},
    "blind_open": {"default": True, "choices": [True, False]},
    "max_draw": {"default": 4, "choices": [3, 4, 5]},
    "mode": {"default": "hands", "choices": ["hands", "freezeout"]},
    "hands": {"default": 1, "min": 1, "max": 1000},
    "ante_doubling": {"default": 10, "min": 1, "max": 1000},
    "dealer": {"default": None},
}


def deck_for(k: int) -> list[str]:
    """The short deck for ``k`` players dealt in (§3)."""
    return cards.short_french_deck(LOWEST[max(k, 2)])


def opens_jacks(hand: list[str], k: int) -> bool:
    """A pair of Jacks or better: the opening requirement of seed 000."""
    name = pe.hand_name(hand, k)
    if name == "Carta alta":
        return False
    if name != "Coppia":
        return True
    ranks = [c[0] for c in hand]
    return any(ranks.count(r) == 2 for r in JACKS_PAIR)


class PokerState(GameState):
    def __init__(self, engine: PokerEngine, data: dict[str, Any]) -> None:
        self.engine = engine
        self.n: int = data["players"]
        self.options: dict[str, Any] = data["options"]
        self.seed: int = data["seed"]
        self.start_stacks: list[int] = data["start_stacks"]
        self.stacks: list[int] = data["stacks"]  # chips behind (not yet put in this hand)
        self.hand_no: int = data["hand_no"]
        self.deal_no: int = data["deal_no"]  # void deals so far in this hand
        self.restocks: int = data["restocks"]
        self.dealer: int = data["dealer"]
        self.buiante: int = data["buiante"]
        self.opener: int | None = data["opener"]
        self.dealt: list[int] = data["dealt"]  # seats dealt in, from the buiante
        self.k: int = data["k"]
        self.factor: int = data["factor"]
        self.hands: list[list[str]] = data["hands"]
        self.stock: list[str] = data["stock"]
        self.discards: list[str] = data["discards"]
        self.folded: list[bool] = data["folded"]
        self.total: list[int] = data["total"]  # ante + bets of this hand
        self.round_c: list[int] = data["round_c"]
        self.current_bet: int = data["current_bet"]
        self.pending: list[int] = data["pending"]  # seats that must still act in this round
        self.phase: str = data["phase"]
        self.turn: int | None = data["turn"]
        self.blind_pending: bool = data["blind_pending"]  # the buiante has not acted yet
        self.changed: list[int | None] = data["changed"]
        self.draw_queue: list[int] = data["draw_queue"]
        self.shown: dict[str, list[str]] | None = data["shown"]
        self.finished: list[dict[str, Any]] = data["finished"]
        self.teams = [[s] for s in range(self.n)]

    # -- protocol -------------------------------------------------------------------

    @property
    def to_act(self) -> list[int]:
        return [] if self.phase == OVER or self.turn is None else [self.turn]

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    @property
    def level(self) -> dict[str, int]:
        o = self.options
        return {"ante": o["ante"] * self.factor, "min_bet": o["min_bet"] * self.factor,
                "max_bet": o["max_bet"] * self.factor}

    def legal_actions(self, seat: int | None) -> list[Action]:
        if self.phase == OVER or seat is None or seat != self.turn:
            return []
        if self.phase == DRAW:
            hand = self.hands[seat]
            return [{"type": "draw", "cards": list(combo)}
                    for size in range(self.options["max_draw"] + 1) for combo in combinations(hand, size)]
        return self._bet_actions(seat)

    def _bet_actions(self, seat: int) -> list[Action]:
        to_call = self.current_bet - self.round_c[seat]
        chips = self.stacks[seat]
        others_can_answer = any(not self.folded[s] and self.stacks[s] > 0 for s in self.dealt if s != seat)
        actions: list[Action] = []
        if to_call == 0:
            actions.append({"type": "check"})
            if others_can_answer and self._may_open(seat):
                actions += [{"type": "bet", "amount": a} for a in self._amounts(chips)]
        else:
            actions += [{"type": "fold"}, {"type": "call"}]
            if others_can_answer and chips > to_call:
                actions += [{"type": "raise", "amount": r} for r in self._amounts(chips - to_call)]
        return actions

    def _may_open(self, seat: int) -> bool:
        """Jacks or better to make the first bet of round 1, unless the buiante opens blind."""
        if self.phase != BET1 or self.opener is not None or self.options["opening"] == "free":
            return True
        if self.options["blind_open"] and seat == self.buiante and self.blind_pending:
            return True
        return opens_jacks(self.hands[seat], self.k)

    def _amounts(self, room: int) -> list[int]:
        """Bet amounts or raise increments: multiples of min_bet up to max_bet and ``room``, plus all-in."""
        level = self.level
        step, cap = level["min_bet"], level["max_bet"] or room
        top = min(cap, room)
        amounts = list(range(step, top + 1, step))
        if room <= cap and (not amounts or amounts[-1] != room):
            amounts.append(room)
        return amounts

    def apply(self, seat: int, action: Action) -> list[Event]:
        """A draw may name its cards in any order (a page sends them as ticked). A logged
        ``{"type": "forfeit"}`` (out of turn, the platform's) replays as ``forfeit``."""
        if type(action) is dict and action == FORFEIT:
            return self.forfeit(seat)
        if (type(action) is dict and action.get("type") == "draw" and type(action.get("cards")) is list
                and type(seat) is int and 0 <= seat < self.n and self.phase == DRAW):
            picked = action["cards"]
            hand = self.hands[seat]
            if all(type(c) is str for c in picked) and len(set(picked)) == len(picked) and set(picked) <= set(hand):
                action = {**action, "cards": [c for c in hand if c in picked]}
        return super().apply(seat, action)

    def forfeit(self, seat: int) -> list[Event]:
        """Seed 001's fair play (platform.md §8.5): a player who leaves or drops is folded at
        once, in turn or not; the uncovered part of his bet comes back at the hand's end, and
        the hand goes on among the others, or ends when one is left."""
        if self.phase == OVER:
            raise IllegalAction("The match is over: no more moves can be made.")
        if type(seat) is not int or not 0 <= seat < self.n:
            raise IllegalAction(f"There is no seat {seat!r} at this table.")
        if seat not in self.dealt or self.folded[seat]:
            raise IllegalAction(f"Seat {seat} is not in this hand any more.")
        self.folded[seat] = True
        self.discards.extend(self.hands[seat])
        self.hands[seat] = []
        events: list[Event] = [{"type": "fold", "seat": seat, "forfeit": True}]
        if len([s for s in self.dealt if not self.folded[s]]) == 1:
            return events + self._end_hand()
        if self.phase == DRAW:
            was_turn = self.draw_queue[0] == seat
            if seat in self.draw_queue:
                self.draw_queue.remove(seat)
            if was_turn:
                if self.draw_queue:
                    self.turn = self.draw_queue[0]
                    return events
                return events + self._start_round(BET2)
            return events
        if seat in self.pending:
            self.pending.remove(seat)
        if seat == self.buiante:
            self.blind_pending = False
        if self.turn != seat:
            return events
        if self.pending:
            self.turn = self._next_in(seat, self.pending)
            return events
        return events + self._end_round()

    def explain_illegal(self, seat: int, action: Action, legal: list[Action]) -> str:
        kind = action.get("type")
        kinds = sorted({a["type"] for a in legal})
        if kind not in kinds:
            return f"A {kind!r} move is not possible now; possible: {', '.join(kinds)}."
        shapes = {tuple(sorted(a)) for a in legal if a["type"] == kind}
        if tuple(sorted(action)) not in shapes:
            wanted = " or ".join(", ".join(shape) for shape in sorted(shapes))
            return f"A {kind!r} move takes exactly the keys: {wanted}."
        if kind in ("bet", "raise"):
            amounts = [a["amount"] for a in legal if a["type"] == kind]
            return (f"The amount {action.get('amount')!r} is not allowed: choose one of"
                    f" {', '.join(str(a) for a in amounts)}.")
        if kind == "draw":
            picked = action.get("cards")
            if not isinstance(picked, list):
                return "The cards to change must be a list of cards of your hand."
            if len(picked) > self.options["max_draw"]:
                return f"You may change at most {self.options['max_draw']} cards."
            if len(set(map(str, picked))) != len(picked):
                return "Each card to change must be named once."
            return "You may change only cards of your hand."
        return f"That move is not allowed now: {action!r}."

    def _apply(self, seat: int, action: Action) -> list[Event]:
        kind = action["type"]
        if kind == "draw":
            return self._draw(seat, action["cards"])
        events: list[Event] = []
        if seat == self.buiante and self.phase == BET1:
            self.blind_pending = False
        to_call = self.current_bet - self.round_c[seat]
        if kind == "check":
            self.pending.remove(seat)
            events.append({"type": "check", "seat": seat})
        elif kind == "fold":
            self.folded[seat] = True
            self.discards.extend(self.hands[seat])
            self.hands[seat] = []
            self.pending.remove(seat)
            events.append({"type": "fold", "seat": seat})
            alive = [s for s in self.dealt if not self.folded[s]]
            if len(alive) == 1:
                return events + self._end_hand()
        elif kind == "call":
            put = min(to_call, self.stacks[seat])
            self._put(seat, put)
            self.pending.remove(seat)
            events.append({"type": "call", "seat": seat, "amount": put, "all_in": self.stacks[seat] == 0})
        else:  # bet or raise
            put = action["amount"] + (to_call if kind == "raise" else 0)
            self._put(seat, put)
            self.current_bet = self.round_c[seat]
            if self.phase == BET1 and self.opener is None:
                self.opener = seat
            self.pending = [s for s in self.dealt if s != seat and not self.folded[s] and self.stacks[s] > 0]
            events.append({"type": kind, "seat": seat, "amount": action["amount"], "put": put,
                           "all_in": self.stacks[seat] == 0})
        if self.pending:
            self.turn = self._next_in(seat, self.pending)
            return events
        return events + self._end_round()

    def _put(self, seat: int, chips: int) -> None:
        self.stacks[seat] -= chips
        self.round_c[seat] += chips
        self.total[seat] += chips

    def _next_in(self, seat: int, seats: list[int]) -> int:
        """The first seat after ``seat`` (in playing order) that is in ``seats``."""
        for i in range(1, self.n + 1):
            s = (seat + i) % self.n
            if s in seats:
                return s
        raise AssertionError("no seat to act")  # pragma: no cover

    # -- hand flow -----------------------------------------------------------------

    def _start_hand(self, deck: list[str] | None) -> list[Event]:
        self.dealt_in_order()
        self.factor = 2 ** ((self.hand_no - 1) // self.options["ante_doubling"]) \
            if self.options["mode"] == "freezeout" else 1
        ante = self.level["ante"]
        self.total = [0] * self.n
        self.folded = [False] * self.n
        posted = {}
        for s in self.dealt:
            put = min(ante, self.stacks[s])
            self.stacks[s] -= put
            self.total[s] = put
            posted[str(s)] = put
        self.deal_no = 0
        self.shown = None
        return [{"type": "new_hand", "hand": self.hand_no, "dealer": self.dealer, "buiante": self.buiante,
                 "k": self.k, "antes": posted}] + self._deal(deck)

    def dealt_in_order(self) -> None:
        """Seats with chips, from the first after the dealer (the buiante)."""
        with_chips = [(self.dealer + i) % self.n for i in range(1, self.n + 1)
                      if self.stacks[(self.dealer + i) % self.n] > 0]
        self.dealt = with_chips
        self.buiante = with_chips[0]
        self.k = len(with_chips)

    def _deal(self, deck: list[str] | None) -> list[Event]:
        if deck is None:
            deck = cards.shuffled(deck_for(self.k), cards.derive_rng(self.seed, "hand", self.hand_no, self.deal_no))
        k = self.k
        self.hands = [[] for _ in range(self.n)]
        for p, s in enumerate(self.dealt):
            self.hands[s] = [deck[p + i * k] for i in range(5)]
        self.stock = deck[5 * k:]
        self.discards = []
        for s in self.dealt:  # a void deal: a seat that forfeited stays out (its cards face down)
            if self.folded[s]:
                self.discards.extend(self.hands[s])
                self.hands[s] = []
        self.changed = [None] * self.n
        self.draw_queue = []
        self.opener = None
        self.blind_pending = True
        events: list[Event] = [{"type": "deal", "dealer": self.dealer, "buiante": self.buiante,
                                "stock_count": len(self.stock)}]
        return events + self._start_round(BET1)

    def _start_round(self, phase: str) -> list[Event]:
        self.phase = phase
        self.round_c = [0] * self.n
        self.current_bet = 0
        can_act = [s for s in self.dealt if not self.folded[s] and self.stacks[s] > 0]
        if len(can_act) < 2:  # nobody could answer a bet: no round, no opening requirement
            self.pending = []
            skipped: list[Event] = [{"type": "round_skipped", "phase": phase}]
            return skipped + (self._start_draw() if phase == BET1 else self._end_hand())
        self.pending = can_act
        if phase == BET1:
            first = self.buiante if self.buiante in can_act else self._next_in(self.buiante, can_act)
        elif self.opener is not None:
            first = self.opener if self.opener in can_act else self._next_in(self.opener, can_act)
        else:
            first = self._next_in(self.dealer, can_act)
        self.turn = first
        return [{"type": "round", "phase": phase, "first": first}]

    def _end_round(self) -> list[Event]:
        """A played round is over (its skipping is handled where it starts)."""
        if self.phase == BET1:
            if self.options["opening"] == "jacks" and self.opener is None:
                return self._void_deal()
            return self._start_draw()
        return self._end_hand()

    def _void_deal(self) -> list[Event]:
        """Nobody opened: cards collected, antes stay, the deal passes, five new cards each."""
        self.dealer = self._next_in(self.dealer, self.dealt)
        self.buiante = self._next_in(self.dealer, self.dealt)
        self.dealt = self._rotation(self.buiante)
        self.deal_no += 1
        return [{"type": "void_deal", "dealer": self.dealer, "buiante": self.buiante}] + self._deal(None)

    def _rotation(self, start: int) -> list[int]:
        return [(start + i) % self.n for i in range(self.n) if (start + i) % self.n in self.dealt]

    def _start_draw(self) -> list[Event]:
        self.phase = DRAW
        self.round_c = [0] * self.n
        self.current_bet = 0
        self.pending = []
        first = self._next_in(self.dealer, self.dealt)
        self.draw_queue = [s for s in self._rotation(first) if not self.folded[s]]
        self.turn = self.draw_queue[0]
        return [{"type": "draw_phase", "first": self.turn}]

    def _draw(self, seat: int, thrown: list[str]) -> list[Event]:
        hand = self.hands[seat]
        kept = [c for c in hand if c not in thrown]
        need = len(thrown)
        taken = self.stock[:need]
        del self.stock[:need]
        restocked = False
        if len(taken) < need:
            self.restocks += 1
            self.stock = cards.shuffled(self.discards, cards.derive_rng(self.seed, "restock", self.restocks))
            self.discards = []
            more = need - len(taken)
            taken += self.stock[:more]
            del self.stock[:more]
            restocked = True
        self.hands[seat] = kept + taken
        self.discards.extend(thrown)
        self.changed[seat] = need
        self.draw_queue.pop(0)
        events: list[Event] = [{"type": "draw", "seat": seat, "count": need, "restocked": restocked,
                                "stock_count": len(self.stock)}]
        if self.draw_queue:
            self.turn = self.draw_queue[0]
            return events
        return events + self._start_round(BET2)

    def _end_hand(self) -> list[Event]:
        """Return the uncovered excess, split the pots, record the hand, deal the next one."""
        alive = [s for s in self.dealt if not self.folded[s]]
        contrib = list(self.total)
        returned: dict[str, int] = {}
        ordered = sorted(range(self.n), key=lambda s: contrib[s], reverse=True)
        top, second = ordered[0], ordered[1]
        if contrib[top] > contrib[second]:
            returned[str(top)] = contrib[top] - contrib[second]
            contrib[top] = contrib[second]
        values = {s: pe.hand_value(self.hands[s], self.k) for s in alive} if len(alive) > 1 else {}
        levels = sorted({contrib[s] for s in alive})
        pots = []
        received = [0] * self.n
        previous = 0
        for j, level in enumerate(levels):
            last = j == len(levels) - 1
            amount = sum((c if last else min(c, level)) - min(c, previous) for c in contrib if c > previous)
            eligible = sorted(s for s in alive if contrib[s] >= level)
            winner = max(eligible, key=values.__getitem__) if len(eligible) > 1 else eligible[0]
            if amount:
                pots.append({"amount": amount, "winner": winner, "eligible": eligible})
                received[winner] += amount
            previous = level
        net = [received[s] + returned.get(str(s), 0) - self.total[s] for s in range(self.n)]
        for s in range(self.n):
            self.stacks[s] += received[s] + returned.get(str(s), 0)
        showdown = {str(s): list(self.hands[s]) for s in alive} if len(alive) > 1 else None
        self.shown = showdown
        summary = {
            "hand": self.hand_no, "net": net, "pots": pots, "returned": returned, "showdown": showdown,
            "contributions": list(self.total),
            "names": {str(s): pe.hand_name(self.hands[s], self.k) for s in alive} if showdown else None,
            "dealer": self.dealer, "k": self.k,
        }
        self.finished.append(summary)
        self.total = [0] * self.n
        self.round_c = [0] * self.n
        self.current_bet = 0
        self.pending = []
        events: list[Event] = [{"type": "hand_end", "result": _copy_summary(summary),
                                "stacks": list(self.stacks)}]
        with_chips = [s for s in range(self.n) if self.stacks[s] > 0]
        if len(with_chips) < 2 or (self.options["mode"] == "hands" and self.hand_no >= self.options["hands"]):
            self.phase = OVER
            self.turn = None
            events.append({"type": "match_end", "scores": self.result()["scores"], "winner": self._winner()})
            return events
        # the previous hand's cards go back into the deck for the fresh shuffle
        self.hand_no += 1
        self.dealer = self._next_in(self.dealer, with_chips)
        return events + self._start_hand(None)

    def _winner(self) -> int | None:
        best = max(self.stacks)
        top = [s for s in range(self.n) if self.stacks[s] == best]
        return top[0] if len(top) == 1 else None

    # -- reading -------------------------------------------------------------------

    def result(self) -> dict[str, Any]:
        current = [self.stacks[s] + self.total[s] for s in range(self.n)]
        return {
            "scores": [current[s] - self.start_stacks[s] for s in range(self.n)],
            "winner": self._winner() if self.phase == OVER else None,
            "stacks": current,
            "hands": [_copy_summary(h) for h in self.finished],
        }

    def view(self, seat: int | None) -> dict[str, Any]:
        hand = list(self.hands[seat]) if seat is not None else []
        showing = self.phase == OVER and self.shown is not None
        view: dict[str, Any] = {
            "phase": self.phase,
            "players": self.n,
            "seat": seat,
            "hand": hand,
            "hand_name": pe.hand_name(hand, self.k) if len(hand) == 5 else None,
            "to_act": self.to_act,
            "dealer": self.dealer,
            "buiante": self.buiante,
            "opener": self.opener,
            "hand_no": self.hand_no,
            "k": self.k,
            "colore_beats_poker": pe.colore_beats_poker(self.k),
            "level": self.level,
            "pot": sum(self.total),
            "current_bet": self.current_bet,
            "to_call": (self.current_bet - self.round_c[seat]) if seat is not None else 0,
            "chips": list(self.stacks),
            "bets": list(self.round_c),
            "contributions": list(self.total),
            "folded": list(self.folded),
            "all_in": [s in self.dealt and self.stacks[s] == 0 and not self.folded[s] for s in range(self.n)],
            "dealt_in": [s in self.dealt for s in range(self.n)],
            "changed": list(self.changed),
            "hand_counts": [len(h) for h in self.hands],
            "stock_count": len(self.stock),
            "showdown": {s: list(c) for s, c in self.shown.items()} if showing else None,
            # the same facts, seat by seat, for boards that draw one row per seat
            "seat_info": [{"seat": s, "chips": self.stacks[s], "bet": self.round_c[s], "total": self.total[s],
                           "folded": self.folded[s], "dealt_in": s in self.dealt, "changed": self.changed[s],
                           "all_in": s in self.dealt and self.stacks[s] == 0 and not self.folded[s],
                           "cards": len(self.hands[s])} for s in range(self.n)],
            "shown": [{"seat": int(s), "cards": list(c), "name": pe.hand_name(c, self.k)}
                      for s, c in self.shown.items()] if showing else None,
            "last_pots": [dict(p, eligible=list(p["eligible"])) for p in self.finished[-1]["pots"]]
            if self.finished else None,
            "hands": [_copy_summary(h) for h in self.finished],
        }
        return view

    def to_json(self) -> dict[str, Any]:
        return {
            "game": "poker_italiana", "players": self.n, "options": _copy_options(self.options),
            "seed": self.seed, "start_stacks": list(self.start_stacks), "stacks": list(self.stacks),
            "hand_no": self.hand_no, "deal_no": self.deal_no, "restocks": self.restocks,
            "dealer": self.dealer, "buiante": self.buiante, "opener": self.opener, "dealt": list(self.dealt),
            "k": self.k, "factor": self.factor, "hands": [list(h) for h in self.hands],
            "stock": list(self.stock), "discards": list(self.discards), "folded": list(self.folded),
            "total": list(self.total), "round_c": list(self.round_c), "current_bet": self.current_bet,
            "pending": list(self.pending), "phase": self.phase, "turn": self.turn,
            "blind_pending": self.blind_pending, "changed": list(self.changed),
            "draw_queue": list(self.draw_queue),
            "shown": {s: list(c) for s, c in self.shown.items()} if self.shown is not None else None,
            "finished": [_copy_summary(h) for h in self.finished],
        }

    def card_zones(self) -> dict[str, list[str]]:
        zones = {f"hand_{s}": list(h) for s, h in enumerate(self.hands)}
        zones["stock"] = list(self.stock)
        zones["discards"] = list(self.discards)
        return zones

    def hidden_from(self, seat: int | None) -> list[str]:
        visible = set(self.hands[seat]) if seat is not None else set()
        if self.phase == OVER and self.shown:
            for shown in self.shown.values():
                visible.update(shown)
        every = [c for h in self.hands for c in h] + self.stock + self.discards
        return [c for c in every if c not in visible]


def _copy_summary(summary: dict[str, Any]) -> dict[str, Any]:
    out = dict(summary)
    out["net"] = list(summary["net"])
    out["contributions"] = list(summary["contributions"])
    out["pots"] = [{"amount": p["amount"], "winner": p["winner"], "eligible": list(p["eligible"])}
                   for p in summary["pots"]]
    out["returned"] = dict(summary["returned"])
    out["showdown"] = {s: list(c) for s, c in summary["showdown"].items()} if summary["showdown"] else None
    out["names"] = dict(summary["names"]) if summary["names"] else None
    return out


def _copy_options(options: dict[str, Any]) -> dict[str, Any]:
    out = dict(options)
    if out.get("stacks") is not None:
        out["stacks"] = list(out["stacks"])
    return out


class PokerEngine(Engine):
    id = "poker_italiana"
    name = "Poker all'italiana"
    settlement = "nets"
    min_players = 2
    max_players = 8
    options = OPTIONS
    forfeits_hand = True
    passive_moves = ({"type": "check"}, {"type": "draw", "cards": []}, {"type": "fold"})  # seed 001
    continuous_hands = True  # platform.md §8.5: hand after hand, the chips carried over
    xp = 0
    currencies = ("credits",)  # seed 001: poker is played for play-money credits only

    def resolve_options(self, players: int, options: dict[str, Any] | None) -> dict[str, Any]:
        """The kit's checks, plus ``stacks`` (a list the kit does not know how to check)."""
        given = dict(options) if isinstance(options, dict) else options
        stacks = None
        if isinstance(given, dict) and "stacks" in given:
            stacks = given.pop("stacks")
            if stacks is not None and (type(stacks) is not list or len(stacks) != players
                    or not all(type(x) is int and x >= 1 for x in stacks)):
                raise ValueError(f"{self.id}: option 'stacks' must be None or a list of {players}"
                                 f" integers >= 1, not {stacks!r}")
        resolved = resolve_options(self.id, self.options, given, players)
        resolved["stacks"] = list(stacks) if stacks is not None else None
        return resolved

    def deck(self, players: int, options: dict[str, Any] | None = None) -> list[str]:
        return deck_for(players)

    def new_game(self, players: int, options: dict[str, Any] | None = None, seed: int | None = None,
                 deck: list[str] | None = None) -> PokerState:
        setup = self.setup(players, options, seed, deck)
        n, opts = setup.players, setup.options
        stacks = list(opts["stacks"]) if opts["stacks"] is not None else [opts["stack"]] * n
        state = PokerState(self, {
            "players": n, "options": opts, "seed": setup.seed, "start_stacks": list(stacks),
            "stacks": list(stacks), "hand_no": 1, "deal_no": 0, "restocks": 0, "dealer": setup.dealer,
            "buiante": 0, "opener": None, "dealt": [], "k": n, "factor": 1, "hands": [[] for _ in range(n)],
            "stock": [], "discards": [], "folded": [False] * n, "total": [0] * n, "round_c": [0] * n,
            "current_bet": 0, "pending": [], "phase": BET1, "turn": None, "blind_pending": True,
            "changed": [None] * n, "draw_queue": [], "shown": None, "finished": [],
        })
        state._start_hand(setup.deck)
        return state

    def from_json(self, data: dict[str, Any]) -> PokerState:
        if not isinstance(data, dict) or data.get("game") != self.id:
            raise ValueError("not a Poker all'italiana state")
        copy = dict(data)
        copy["options"] = _copy_options(data["options"])
        for key in ("start_stacks", "stacks", "dealt", "stock", "discards", "folded", "total", "round_c",
                    "pending", "changed", "draw_queue"):
            copy[key] = list(data[key])
        copy["hands"] = [list(h) for h in data["hands"]]
        copy["shown"] = {s: list(c) for s, c in data["shown"].items()} if data["shown"] is not None else None
        copy["finished"] = [_copy_summary(h) for h in data["finished"]]
        return PokerState(self, copy)

    def robot_choice(self, view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
        return robot_choice(view, legal, rng)


# -- robot ---------------------------------------------------------------------------

def _pick(legal: list[Action], kind: str, size: str = "min") -> Action | None:
    options = [a for a in legal if a["type"] == kind]
    if not options:
        return None
    if kind in ("bet", "raise"):
        options.sort(key=lambda a: a["amount"])
        return options[-1] if size == "max" else options[len(options) // 2] if size == "mid" else options[0]
    return options[0]


def _first(legal: list[Action], *choices: tuple[str, str]) -> Action:
    for kind, size in choices:
        action = _pick(legal, kind, size)
        if action is not None:
            return action
    return legal[0]


def _draw_choice(hand: list[str], k: int, legal: list[Action]) -> Action:
    """Keep the made combination; with nothing, four to a flush or straight, else the high cards."""
    max_draw = max(len(a["cards"]) for a in legal)
    value = pe.hand_value(hand, k)
    name = pe.category_name(value, k)
    ranks = [c[0] for c in hand]
    order = {r: i for i, r in enumerate(pe.RANKS)}
    if name not in ("Carta alta", "Coppia", "Doppia coppia", "Tris"):
        throw: list[str] = []
    elif name != "Carta alta":
        throw = [c for c in hand if ranks.count(c[0]) == 1]
    else:
        suits = [c[1] for c in hand]
        flush_suit = next((s for s in set(suits) if suits.count(s) == 4), None)
        straight_gap = _four_to_straight(hand, k)
        if flush_suit is not None:
            throw = [c for c in hand if c[1] != flush_suit]
        elif straight_gap is not None:
            throw = [straight_gap]
        else:
            keep = max(hand, key=lambda c: order[c[0]])
            throw = [c for c in hand if c != keep]
    if len(throw) > max_draw:  # keep the highest of the cards to throw
        throw = sorted(throw, key=lambda c: order[c[0]])[:max_draw]
    wanted = set(throw)
    for action in legal:
        if set(action["cards"]) == wanted and len(action["cards"]) == len(wanted):
            return action
    return legal[0]  # pragma: no cover - every subset within max_draw is listed


def _four_to_straight(hand: list[str], k: int) -> str | None:
    """The card to throw when the other four are four consecutive deck ranks."""
    deck_ranks = "A" + pe.RANKS[pe.RANKS.index(LOWEST[max(min(k, 8), 2)]):]
    for card in hand:
        rest = sorted({deck_ranks.rfind(c[0]) for c in hand if c != card})
        if len(rest) == 4 and rest[3] - rest[0] == 3:
            return card
    return None


def robot_choice(view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
    """§11: bet and raise on made hands, call pairs, fold rubbish to bets; draw to the combination."""
    hand, k = view["hand"], view["k"]
    if legal[0]["type"] == "draw":
        return _draw_choice(hand, k, legal)
    value = pe.hand_value(hand, k)
    name = pe.category_name(value, k)
    strength = pe.CATEGORIES_SMALL.index(name) if name not in ("Poker", "Colore") else 7
    jacks = opens_jacks(hand, k)
    to_call = view["to_call"]
    pot = view["pot"]
    facing = any(a["type"] == "call" for a in legal)
    if view["phase"] == BET1:
        if not facing:
            if strength >= 2:
                return _first(legal, ("bet", "max"), ("check", ""))
            if jacks:
                return _first(legal, ("bet", "min"), ("check", ""))
            if view["seat"] == view["buiante"] and view["opener"] is None and rng.random() < 0.25:
                return _first(legal, ("bet", "min"), ("check", ""))
            return _first(legal, ("check", ""))
        if strength >= 3:
            return _first(legal, ("raise", "max"), ("call", ""))
        if strength == 2:
            return _first(legal, ("raise", "min"), ("call", ""))
        if strength == 1 or to_call * 2 <= pot:
            return _first(legal, ("call", ""))
        return _first(legal, ("fold", ""))
    # second round, after the draw
    if not facing:
        if strength >= 3:
            return _first(legal, ("bet", "max"), ("check", ""))
        if strength == 2 or jacks:
            return _first(legal, ("bet", "min"), ("check", ""))
        return _first(legal, ("check", ""))
    if strength >= 3:
        return _first(legal, ("raise", "max"), ("call", ""))
    if strength == 2:
        return _first(legal, ("call", ""))
    if strength == 1 and (jacks or to_call * 3 <= pot):
        return _first(legal, ("call", ""))
    return _first(legal, ("fold", ""))


ENGINE = PokerEngine()

__all__ = ["ENGINE", "IllegalAction", "PokerEngine", "PokerState", "deck_for", "opens_jacks", "robot_choice"]
