"""Scala 40 for 2 to 5 players (shared/spec/games/scala40.md).

The 40-point opening with provisional melds and ``cancel``, attaching to anybody's melds
and taking the discard only after opening, jokers swapped back, no closing in the first
round, penalty points (joker 25, a lone ace 1), sballo above the limit with the paid
rientro offered as an action, and the pot in abstract units in ``result()``. The runs,
sets and jokers are ``_melds``' (shared with Burraco).

The state is one plain JSON dict mutated in place, so ``to_json`` is a copy of it.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from . import cards
from ._melds import (
    JOKER,
    Meld,
    MeldRules,
    attach_options,
    attached,
    hand_melds,
    meld_refusal,
    natural_code,
    parse_meld,
    substituted,
    wild_position,
)
from .base import Action, Engine, Event, GameState

RULES = MeldRules(wild_twos=False, two_natural_aces=False, set_distinct_suits=True, set_max=4)
SUITS = ("h", "d", "c", "s")
MAX_REBUILDS = 2


def position_value(pos: int) -> int:
    """Opening value of the card of run position ``pos``: low ace 1, high ace 11, J Q K 10."""
    if pos == 1:
        return 1
    if pos == 14:
        return 11
    return min(pos, 10)


def rank_value(rank: str) -> int:
    if rank == "A":
        return 11
    if rank in "TJQK":
        return 10
    return int(rank)


def meld_value(meld: Meld) -> int:
    """5.1: the value of a combination for the opening (a joker is worth what it stands for)."""
    if meld["kind"] == "run":
        return sum(position_value(meld["low"] + i) for i in range(len(meld["cards"])))
    return rank_value(meld["rank"]) * len(meld["cards"])


def penalty(hand: list[str]) -> int:
    """5.1: cards in hand, joker 25, ace 11; a hand of one single ace pays 1."""
    if len(hand) == 1 and hand[0][0] == "A":
        return 1
    return sum(25 if c == JOKER else rank_value(c[0]) for c in hand)


class Scala40State(GameState):
    """One match. ``self.d`` is the whole state as plain JSON."""

    def __init__(self, engine: Scala40Engine, data: dict[str, Any]) -> None:
        self.engine = engine
        self.d = data
        self.teams = [[s] for s in range(data["players"])]

    # -- protocol -------------------------------------------------------------------

    @property
    def to_act(self) -> list[int]:
        d = self.d
        if d["winner"] is not None or d["phase"] == "over":
            return []
        return [d["turn"]]

    @property
    def is_over(self) -> bool:
        return self.d["phase"] == "over"

    def _first_round(self) -> bool:
        d = self.d
        return d["turn_no"] < len(d["in_hand"])

    def _keep(self) -> int:
        """Cards a meld or attach must leave in hand (5.6)."""
        return 2 if self._first_round() else 1

    def legal_actions(self, seat: int | None) -> list[Action]:
        d = self.d
        if d["phase"] == "over" or seat != d["turn"]:
            return []
        phase = d["phase"]
        if phase == "reentry":
            return [{"type": "reenter"}, {"type": "decline"}]
        if phase == "draw":
            out: list[Action] = [{"type": "draw"}]
            if d["opened"][seat] and d["pile"] and self._playable(seat, d["hands"][seat] + [d["pile"][-1]],
                                                                d["pile"][-1]):
                out.append({"type": "take"})
            return out
        hand = d["hands"][seat]
        must = d["must_play"]
        plays = self._plays(seat, hand)
        if must is not None:
            return [a for a in plays if must in a.get("cards", ()) or a.get("card") == must]
        provisional = any(m["provisional"] for m in d["melds"])
        if provisional:
            return plays + [{"type": "cancel"}]
        return plays + self._discards(hand)

    def explain_illegal(self, seat: int, action: Action, legal: list[Action]) -> str:
        d = self.d
        kind = action.get("type")
        phase = d["phase"]
        if phase == "play" and d["must_play"] is not None and kind in ("discard", "meld", "attach", "swap"):
            return f"You took the {d['must_play']}: play it first (in a meld, an attach or a swap)."
        if kind == "take" and phase == "draw":
            if not d["opened"][seat]:
                return "You may take the discard only after opening (40 points)."
            return "You may take the discard only if you can play it at once."
        if kind in ("attach", "swap") and phase == "play" and not d["opened"][seat]:
            return "You may attach or swap a joker only after opening (40 points)."
        if kind == "discard" and phase == "play":
            if any(m["provisional"] for m in d["melds"]):
                return "Your melds are below 40 points: add melds to reach 40 or cancel them before discarding."
            if action.get("card") == JOKER:
                return "A joker may be discarded only as your last card."
        if kind == "meld" and phase == "play" and set(action) == {"type", "cards"}:
            reason = meld_refusal(action["cards"], d["hands"][seat], RULES)
            if reason is not None:
                return reason
            if self._first_round():
                return "In the first round a meld must leave you at least two cards (nobody closes yet)."
            return "A meld must leave you at least one card to discard."
        return super().explain_illegal(seat, action, legal)

    def _plays(self, seat: int, hand: list[str]) -> list[Action]:
        d = self.d
        counts = Counter(hand)
        room = len(hand) - self._keep()
        out: list[Action] = []
        if room >= 3:
            out += [{"type": "meld", "cards": c} for c in hand_melds(counts, RULES, range(3, room + 1))]
        if not d["opened"][seat]:
            return out
        for i, meld in enumerate(d["melds"]):
            if room >= 1:
                for code, side in attach_options(meld, counts, RULES):
                    action: Action = {"type": "attach", "meld": i, "card": code}
                    if side is not None:
                        action["side"] = side
                    out.append(action)
            if meld["wild"] is not None:
                for code in _swap_cards(meld):
                    if code in counts and substituted(meld, code, RULES) is not None:
                        out.append({"type": "swap", "meld": i, "card": code})
        return out

    def _playable(self, seat: int, hand: list[str], card: str) -> bool:
        saved = self.d["hands"][seat]
        self.d["hands"][seat] = hand
        try:
            return any(card in a.get("cards", ()) or a.get("card") == card for a in self._plays(seat, hand))
        finally:
            self.d["hands"][seat] = saved

    def _discards(self, hand: list[str]) -> list[Action]:
        codes = sorted(set(hand))
        if len(hand) > 1 and any(c != JOKER for c in hand):
            codes = [c for c in codes if c != JOKER]
        return [{"type": "discard", "card": c} for c in codes]

    # -- applying -------------------------------------------------------------------

    def _apply(self, seat: int, action: Action) -> list[Event]:
        d = self.d
        kind = action["type"]
        hand = d["hands"][seat]
        if kind == "reenter" or kind == "decline":
            return self._decide(seat, kind == "reenter")
        if kind == "draw":
            hand.append(d["stock"].pop(0))
            d["phase"] = "play"
            return [{"type": "draw", "seat": seat}]
        if kind == "take":
            card = d["pile"].pop()
            hand.append(card)
            d["must_play"] = card
            d["phase"] = "play"
            return [{"type": "take", "seat": seat, "card": card}]
        if kind == "cancel":
            back = [m for m in d["melds"] if m["provisional"]]
            d["melds"] = [m for m in d["melds"] if not m["provisional"]]
            for m in back:
                hand.extend(m["cards"])
            d["provisional_value"] = 0
            return [{"type": "cancel", "seat": seat, "cards": [c for m in back for c in m["cards"]]}]
        if kind == "discard":
            card = action["card"]
            hand.remove(card)
            d["pile"].append(card)
            events: list[Event] = [{"type": "discard", "seat": seat, "card": card}]
            if not hand:
                return events + self._end_hand(closer=seat)
            return events + self._next_turn()
        d["must_play"] = None
        melds = d["melds"]
        if kind == "meld":
            for c in action["cards"]:
                hand.remove(c)
            meld = parse_meld(list(action["cards"]), RULES)
            assert meld is not None
            meld["owner"] = seat
            events = [{"type": "meld", "seat": seat, "cards": list(meld["cards"]), "meld": len(melds)}]
            if d["opened"][seat]:
                meld["provisional"] = False
                melds.append(meld)
                return events
            meld["provisional"] = True
            melds.append(meld)
            d["provisional_value"] += meld_value(meld)
            if d["provisional_value"] >= 40:
                d["opened"][seat] = True
                for m in melds:
                    m["provisional"] = False
                events.append({"type": "opened", "seat": seat, "value": d["provisional_value"]})
                d["provisional_value"] = 0
            return events
        i = action["meld"]
        code = action["card"]
        old = melds[i]
        hand.remove(code)
        if kind == "attach":
            new = attached(old, code, action.get("side"), RULES)
        else:
            new = substituted(old, code, RULES)
            hand.append(JOKER)
        assert new is not None
        new["owner"] = old["owner"]
        new["provisional"] = False
        melds[i] = new
        return [{**action, "seat": seat, "cards_now": list(new["cards"])}]

    def _start_turn(self, seat: int) -> list[Event]:
        """Give ``seat`` the turn; an empty stock is rebuilt from the pile, twice at most (5.7)."""
        d = self.d
        d["turn"] = seat
        d["phase"] = "draw"
        d["must_play"] = None
        d["provisional_value"] = 0
        if d["stock"]:
            return [{"type": "turn", "seat": seat}]
        if d["rebuilds"] >= MAX_REBUILDS or len(d["pile"]) < 2:
            return self._end_hand(closer=None)
        d["rebuilds"] += 1
        top = d["pile"].pop()
        rng = cards.derive_rng(d["seed"], "rebuild", len(d["history"]), d["rebuilds"])
        d["stock"] = cards.shuffled(d["pile"], rng)
        d["pile"] = [top]
        return [{"type": "stock_rebuilt", "cards": len(d["stock"])}, {"type": "turn", "seat": seat}]

    def _next_turn(self) -> list[Event]:
        d = self.d
        d["turn_no"] += 1
        return self._start_turn(self._next_alive(d["turn"], d["in_hand"]))

    @staticmethod
    def _next_alive(seat: int, alive: list[int]) -> int:
        later = [s for s in alive if s > seat]
        return later[0] if later else alive[0]

    def _end_hand(self, closer: int | None) -> list[Event]:
        d = self.d
        n = d["players"]
        penalties = [0] * n
        for s in d["in_hand"]:
            if s != closer:
                penalties[s] = penalty(d["hands"][s])
                d["totals"][s] += penalties[s]
        if closer is not None:
            d["hands_won"][closer] += 1
        d["history"].append({"closer": closer, "penalties": penalties, "totals": list(d["totals"])})
        events: list[Event] = [{"type": "hand_over", "closer": closer, "penalties": penalties,
                                "totals": list(d["totals"])}]
        opts = d["options"]
        if opts["mode"] == "hands":
            played = len(d["history"])
            wins = sorted(d["hands_won"], reverse=True)
            left = opts["hands"] - played
            if played >= opts["hands"] or (n > 1 and wins[0] > wins[1] + left):
                return events + self._finish(self._hands_winner())
            return events + self._deal_next()
        limit = opts["limit"]
        alive = d["in_hand"]
        standing = [s for s in alive if d["totals"][s] <= limit]
        if len(standing) == 1:
            return events + self._finish(standing[0])
        if not standing:
            low = min(d["totals"][s] for s in alive)
            order = self._order_after(d["dealer"], alive)
            return events + self._finish(next(s for s in order if d["totals"][s] == low))
        out = [s for s in self._order_after(d["dealer"], alive) if d["totals"][s] > limit]
        d["reentry_score"] = max(d["totals"][s] for s in standing)
        queue = []
        for s in out:
            if d["reentries"][s] < opts["max_reentries"]:
                queue.append(s)
            else:
                d["alive"].remove(s)
                events.append({"type": "eliminated", "seat": s})
        d["queue"] = queue
        return events + self._next_decision()

    def _order_after(self, dealer: int, seats: list[int]) -> list[int]:
        n = self.d["players"]
        return sorted(seats, key=lambda s: (s - dealer - 1) % n)

    def _next_decision(self) -> list[Event]:
        d = self.d
        if d["queue"]:
            d["turn"] = d["queue"][0]
            d["phase"] = "reentry"
            return [{"type": "reentry_offer", "seat": d["turn"], "fee": d["options"]["reentry_fee"],
                     "score": d["reentry_score"]}]
        return self._deal_next()

    def _decide(self, seat: int, reenter: bool) -> list[Event]:
        d = self.d
        d["queue"].pop(0)
        if reenter:
            d["reentries"][seat] += 1
            d["fees"][seat] += d["options"]["reentry_fee"]
            d["totals"][seat] = d["reentry_score"]
            events: list[Event] = [{"type": "reenter", "seat": seat, "fee": d["options"]["reentry_fee"],
                                    "total": d["totals"][seat]}]
        else:
            d["alive"].remove(seat)
            events = [{"type": "eliminated", "seat": seat}]
        return events + self._next_decision()

    def _hands_winner(self) -> int | None:
        d = self.d
        best = max(d["hands_won"])
        tied = [s for s in range(d["players"]) if d["hands_won"][s] == best]
        low = min(d["totals"][s] for s in tied)
        tied = [s for s in tied if d["totals"][s] == low]
        return tied[0] if len(tied) == 1 else None

    def _finish(self, winner: int | None) -> list[Event]:
        d = self.d
        d["winner"] = winner
        d["phase"] = "over"
        return [{"type": "match_over", "winner": winner, "scores": list(d["totals"]), "pot": sum(d["fees"])}]

    def _deal_next(self) -> list[Event]:
        d = self.d
        alive = d["alive"]
        dealer = self._next_alive(d["dealer"], alive)
        deck = cards.shuffled(cards.double_french_deck(4), cards.derive_rng(d["seed"], "hand", len(d["history"])))
        deal(d, deck, dealer)
        return [{"type": "deal", "dealer": dealer}, {"type": "turn", "seat": d["turn"]}]

    # -- reading --------------------------------------------------------------------

    def result(self) -> dict[str, Any]:
        d = self.d
        winner = d["winner"]
        if d["phase"] != "over":
            winner = None
        return {
            "scores": list(d["totals"]),
            "winner": winner,
            "hands": _copy(d["history"]),
            "fees": list(d["fees"]),
            "pot": sum(d["fees"]),
            "reentries": list(d["reentries"]),
        }

    def view(self, seat: int | None) -> dict[str, Any]:
        d = self.d
        me = seat if type(seat) is int and 0 <= seat < d["players"] else None
        return {
            "hand": [] if me is None else sorted(d["hands"][me], key=_sort_key),
            "hand_counts": [len(h) for h in d["hands"]],
            "melds": [{"kind": m["kind"], "cards": list(m["cards"]), "owner": m["owner"],
                       "provisional": m["provisional"]} for m in d["melds"]],
            "pile_top": d["pile"][-1] if d["pile"] else None,
            "pile_size": len(d["pile"]),
            "stock": len(d["stock"]),
            "opened": list(d["opened"]),
            "provisional_value": d["provisional_value"],
            "totals": list(d["totals"]),
            "alive": list(d["alive"]),
            "in_hand": list(d["in_hand"]),
            "reentries": list(d["reentries"]),
            "fees": list(d["fees"]),
            "pot": sum(d["fees"]),
            "dealer": d["dealer"],
            "turn": d["turn"],
            "phase": d["phase"],
            # the taken card is in the taker's hand now: only he is shown its code
            "must_play": d["must_play"] if me == d["turn"] else None,
            "must_play_pending": d["must_play"] is not None,
            "turn_no": d["turn_no"],
            "first_round": self._first_round(),
            "mode": d["options"]["mode"],
            "limit": d["options"]["limit"],
            "to_act": self.to_act,
            "winner": d["winner"],
        }

    def to_json(self) -> dict[str, Any]:
        return _copy(self.d)

    def card_zones(self) -> dict[str, list[str]]:
        d = self.d
        zones = {f"hand_{s}": list(h) for s, h in enumerate(d["hands"])}
        zones["stock"] = list(d["stock"])
        zones["pile"] = list(d["pile"])
        zones["melds"] = [c for m in d["melds"] for c in m["cards"]]
        return zones

    def hidden_from(self, seat: int | None) -> list[str]:
        d = self.d
        hidden = [c for s, h in enumerate(d["hands"]) if s != seat for c in h]
        return hidden + d["stock"] + d["pile"][:-1]


def _swap_cards(meld: Meld) -> list[str]:
    """The naturals that may take a joker's place: its run position, or a suit the set lacks."""
    if meld["kind"] == "run":
        return [natural_code(meld["suit"], wild_position(meld))]
    have = {c[1] for c in meld["cards"] if c != JOKER}
    return [meld["rank"] + s for s in SUITS if s not in have]


def _sort_key(code: str) -> tuple[int, int]:
    if code == JOKER:
        return (9, 0)
    return (SUITS.index(code[1]), "A23456789TJQK".index(code[0]))


def _copy(value: Any) -> Any:
    if type(value) is dict:
        return {k: _copy(v) for k, v in value.items()}
    if type(value) is list:
        return [_copy(v) for v in value]
    return value


def deal(d: dict[str, Any], deck: list[str], dealer: int) -> None:
    """Section 4: 13 cards each from the first live seat after the dealer, one face up."""
    n = d["players"]
    alive = list(d["alive"])
    d["dealer"] = dealer
    later = [s for s in alive if s > dealer]
    first = later[0] if later else alive[0]
    order = alive[alive.index(first):] + alive[: alive.index(first)]
    m = len(order)
    d["hands"] = [[] for _ in range(n)]
    for i in range(13 * m):
        d["hands"][order[i % m]].append(deck[i])
    d["pile"] = [deck[13 * m]]
    d["stock"] = deck[13 * m + 1:]
    d["melds"] = []
    d["in_hand"] = alive
    d["turn"] = first
    d["turn_no"] = 0
    d["phase"] = "draw"
    d["must_play"] = None
    d["provisional_value"] = 0
    d["rebuilds"] = 0
    d["opened"] = [False] * n
    d["queue"] = []


class Scala40Engine(Engine):
    id = "scala40"
    name = "Scala 40"
    min_players = 2
    max_players = 5
    lower_score_wins = True
    settlement = "fees"
    bank_percent = 0  # seed 004: the winner takes every entry and re-entry
    escrow_units_option = "entry_fee"
    paid_actions = {"reenter": "reentry_fee"}  # seed 004: a re-entry pays its fee
    paid_actions_limit = "max_reentries"
    paid_action_refusal = {"type": "decline"}
    xp = 15
    options = {
        "mode": {"default": "points", "choices": ["points", "hands"]},
        "limit": {"default": 100, "choices": [100, 200, 500]},
        "hands": {"default": 3, "min": 1, "max": 15},
        "entry_fee": {"default": 1, "min": 0, "max": 10**9},
        "reentry_fee": {"default": 1, "min": 0, "max": 10**9},
        "max_reentries": {"default": 1, "min": 0, "max": 5},
        "dealer": {"default": None},
    }

    def deck(self, players: int, options: dict[str, Any] | None = None) -> list[str]:
        return cards.double_french_deck(4)

    def new_game(self, players: int, options: dict[str, Any] | None = None, seed: int | None = None,
                 deck: list[str] | None = None) -> Scala40State:
        setup = self.setup(players, options, seed, deck)
        n = setup.players
        d: dict[str, Any] = {
            "game": self.id, "players": n, "options": dict(setup.options), "seed": setup.seed,
            "totals": [0] * n, "history": [], "winner": None, "alive": list(range(n)),
            "fees": [setup.options["entry_fee"]] * n, "reentries": [0] * n, "hands_won": [0] * n,
            "reentry_score": 0,
        }
        first = setup.deck
        if first is None:
            first = cards.shuffled(self.deck(n), cards.derive_rng(setup.seed, "hand", 0))
        deal(d, first, setup.dealer)
        return Scala40State(self, d)

    def from_json(self, data: dict[str, Any]) -> Scala40State:
        return Scala40State(self, _copy(data))

    def robot_choice(self, view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
        return robot(view, legal)


# -- robot (section 11) --------------------------------------------------------------


def _value_of(cards_: list[str]) -> int:
    meld = parse_meld(cards_, RULES)
    return 0 if meld is None else meld_value(meld)


def _opening_plan(melds: list[list[str]], hand: list[str], target: int, keep: int) -> list[str] | None:
    """A first meld of a disjoint group worth ``target`` or more leaving ``keep`` cards (bounded search)."""
    scored = sorted(((_value_of(m), ("X" in m), m) for m in melds), key=lambda t: (t[1], -t[0]))
    budget = [3000]
    counts = Counter(hand)

    def search(start: int, need: int, left: int, pool: Counter[str]) -> list[str] | None:
        for i in range(start, len(scored)):
            budget[0] -= 1
            if budget[0] <= 0:
                return None
            value, _, m = scored[i]
            if left - len(m) < keep or any(pool[c] < k for c, k in Counter(m).items()):
                continue
            if value >= need:
                return m
            pool.subtract(m)
            found = search(i + 1, need - value, left - len(m), pool)
            pool.update(m)
            if found is not None:
                return m
        return None

    return search(0, target, len(hand), counts)


def robot(view: dict[str, Any], legal: list[Action]) -> Action:
    """Open when 40 is reachable, then lay, attach and swap; keep jokers; shed high lone cards."""
    hand: list[str] = view["hand"]
    types = {a["type"] for a in legal}
    if "reenter" in types:
        return {"type": "reenter"}
    if view["phase"] == "draw":
        return next((a for a in legal if a["type"] == "take"), legal[0])
    me = view["turn"]
    melds = [a for a in legal if a["type"] == "meld"]
    if view["must_play"] is not None:
        return max(legal, key=lambda a: len(a.get("cards", ())))
    if not view["opened"][me]:
        keep = 2 if view["first_round"] else 1
        plan = _opening_plan([a["cards"] for a in melds], hand, 40 - view["provisional_value"], keep)
        if plan is not None:
            return next(a for a in melds if a["cards"] == plan)
        cancel = next((a for a in legal if a["type"] == "cancel"), None)
        if cancel is not None:
            return cancel
    else:
        swaps = [a for a in legal if a["type"] == "swap"]
        if swaps:
            return swaps[0]
        if melds:
            clean = [a for a in melds if JOKER not in a["cards"]] or melds
            return max(clean, key=lambda a: (len(a["cards"]), _value_of(a["cards"])))
        attaches = [a for a in legal if a["type"] == "attach" and a["card"] != JOKER]
        if attaches:
            return attaches[0]
        jokers = [a for a in legal if a["type"] == "attach"]
        if jokers and len(hand) <= 3:
            return jokers[0]
    discards = [a for a in legal if a["type"] == "discard"]
    if not discards:
        return legal[0]
    return min(discards, key=lambda a: _keep_score(a["card"], hand))


def _keep_score(code: str, hand: list[str]) -> tuple[int, int]:
    """Lower = better to throw: no pair, no neighbour in suit, high penalty."""
    if code == JOKER:
        return (1000, 0)
    order = "A23456789TJQK"
    r = order.index(code[0])
    links = 0
    seen_self = False
    for other in hand:
        if other == code and not seen_self:
            seen_self = True
            continue
        if other == JOKER:
            continue
        if other[0] == code[0] and other[1] != code[1]:
            links += 3
        elif other[1] == code[1] and abs(order.index(other[0]) - r) <= 2:
            links += 2
    return (links, -rank_value(code[0]))


ENGINE = Scala40Engine()
