"""Burraco for 2 players or two teams of two (shared/spec/games/burraco.md).

Pozzetti (direct and indirect), draw or take the whole discard pile, runs and sets of
three laid at once then grown by attaching, one pinella a combination with the replaced
wild moving by seed 002's rule, burraco sporco / pulito / reale / asso-ad-asso, closing,
the stock running low, and the five variants of section 5.8. The combinations themselves
are ``_melds``' (shared with Scala 40).

The state is one plain JSON dict mutated in place, so ``to_json`` is a copy of it.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from . import cards
from ._melds import (
    HIGH,
    JOKER,
    LOW,
    Meld,
    MeldRules,
    attach_options,
    attached,
    hand_melds,
    high,
    is_wild,
    meld_refusal,
    parse_meld,
    parse_set,
    substituted,
    wild_card,
    wild_position,
)
from .base import Action, Engine, Event, GameState

VARIANTS = ("aperto", "aperto_sporco", "chiuso", "chiuso_stcl", "chiuso_sporco")
CLOSED = ("chiuso", "chiuso_stcl", "chiuso_sporco")
DIRTY_CLOSE = ("aperto_sporco", "chiuso_sporco")  # any burraco lets a team close
MAX_TURNS = 400
RULES = {
    v: MeldRules(wild_twos=True, two_natural_aces=v != "aperto_sporco", sets=v not in ("aperto", "chiuso_stcl"))
    for v in VARIANTS
}
BONUS = {"sporco": 100, "pulito": 200, "reale": 500, "asso_ad_asso": 1000}
CLEAN = ("pulito", "reale", "asso_ad_asso")


def card_value(code: str, variant: str) -> int:
    """Seed 002's values table: 3–7 5, 8–K 10, A 15, 2 10 (20), joker 20 (30 in Aperto sporco)."""
    rank = code[0]
    sporco = variant == "aperto_sporco"
    if code == JOKER:
        return 30 if sporco else 20
    if rank == "2":
        return 20 if sporco else 10
    if rank == "A":
        return 15
    if rank in "34567":
        return 5
    return 10


def burraco_kind(meld: Meld) -> str | None:
    """None under 7 cards; else sporco / pulito / reale (clean A…K) / asso_ad_asso (clean A…A)."""
    n = len(meld["cards"])
    if n < 7:
        return None
    if meld["wild"] is not None:
        return "sporco"
    if meld["kind"] == "run":
        if n == 14:
            return "asso_ad_asso"
        if n == 13:
            return "reale"
    return "pulito"


def team_can_close(melds: list[Meld], taken: bool, variant: str) -> bool:
    """Closing conditions (5.4): the pozzetto taken and a burraco (clean unless the variant is dirty)."""
    if not taken:
        return False
    kinds = [burraco_kind(m) for m in melds]
    if variant in DIRTY_CLOSE:
        return any(k is not None for k in kinds)
    return any(k in CLEAN for k in kinds)


def replaced(meld: Meld, code: str, rules: MeldRules) -> Meld | None:
    """A run after putting the natural ``code`` in its wild's place, the wild moved (5.2).

    (a) a 2 of the run's suit goes to position 2 as a natural if the run now starts with a 3;
    (b) otherwise to the high end; (c) at the high ace, to the low end; A…A: impossible.
    """
    if meld["kind"] != "run":
        return None
    wild = wild_card(meld)
    new = substituted(meld, code, rules)
    if new is None or wild is None:
        return None
    if wild == "2" + meld["suit"] and new["low"] == 3:
        moved = attached(new, wild, LOW, rules)
        if moved is not None:
            return moved
    if high(new) < 14:
        return attached(new, wild, HIGH, rules)
    if new["low"] > 1:
        return attached(new, wild, LOW, rules)
    return None


def match_winner(totals: list[int], burraco_made: list[bool], starting_team: int) -> int:
    """Section 5.7: a side that made a burraco beats one that made none, whatever the totals;
    otherwise the higher total wins, equal totals the starting team (seed 000: "maggior
    punteggio e realizzato almeno un Burraco")."""
    if burraco_made[0] != burraco_made[1]:
        return 0 if burraco_made[0] else 1
    a, b = totals
    return 0 if a > b else 1 if b > a else starting_team


def burraco_made(history: list[dict[str, Any]]) -> list[bool]:
    """Per team, whether it ended any hand of the match with a burraco (its bonus is the
    burracos' only source, and a combination never shrinks within a hand)."""
    return [any(h["teams"][t]["bonus"] > 0 for h in history) for t in (0, 1)]


class BurracoState(GameState):
    """One match. ``self.d`` is the whole state as plain JSON."""

    def __init__(self, engine: BurracoEngine, data: dict[str, Any]) -> None:
        self.engine = engine
        self.d = data
        n = data["players"]
        self.teams = [[0], [1]] if n == 2 else [[0, 2], [1, 3]]
        self.variant: str = data["options"]["variant"]
        self.rules = RULES[self.variant]

    # -- protocol -------------------------------------------------------------------

    @property
    def to_act(self) -> list[int]:
        return [] if self.d["winner"] is not None else [self.d["turn"]]

    @property
    def is_over(self) -> bool:
        return self.d["winner"] is not None

    def legal_actions(self, seat: int | None) -> list[Action]:
        d = self.d
        if d["winner"] is not None or seat != d["turn"]:
            return []
        if d["phase"] == "draw":
            out: list[Action] = [{"type": "draw"}]
            if self._may_take(seat):
                out.append({"type": "take"})
            return out
        hand = d["hands"][seat]
        team = seat % 2
        plays = [a for a in self._plays(seat, hand, d["melds"][team]) if self._no_dead_end(seat, hand, a)]
        must = d["must_play"]
        if must is not None:
            return [a for a in plays if must in a.get("cards", ()) or a.get("card") == must]
        return plays + self._discards(seat, hand)

    def explain_illegal(self, seat: int, action: Action, legal: list[Action]) -> str:
        d = self.d
        kind = action.get("type")
        if d["phase"] == "play" and d["must_play"] is not None and kind in ("discard", "meld", "attach", "replace"):
            return f"You took the discard pile: first play the {d['must_play']} in a meld, attach or replace."
        if kind == "meld" and d["phase"] == "play" and set(action) == {"type", "cards"}:
            cards_ = action["cards"]
            if type(cards_) is list and len(cards_) != 3:
                return "A new combination has exactly three cards; add more cards by attaching."
            hand = d["hands"][seat]
            held = type(cards_) is list and all(type(c) is str for c in cards_) and not Counter(cards_) - Counter(hand)
            if held and not self.rules.sets and parse_set(cards_, RULES["chiuso"]) is not None:
                return "Sets are not allowed in this variant: runs only."
            reason = meld_refusal(cards_, hand, self.rules)
            if reason is not None:
                return reason
            return ("That meld would leave you unable to finish the turn: you may empty your hand only"
                    " to take a pozzetto or to close.")
        if kind == "discard" and d["phase"] == "play" and len(d["hands"][seat]) == 1:
            return ("You may discard your last card only to take a pozzetto or to close (with a burraco,"
                    " and never a wild).")
        if kind == "take" and d["phase"] == "draw":
            return "You may take the discard pile only if you can play its top card at once (closed discards)."
        return super().explain_illegal(seat, action, legal)

    def _plays(self, seat: int, hand: list[str], melds: list[Meld]) -> list[Action]:
        """Meld / attach / replace moves by shape, before the dead-end rule (5.2)."""
        counts = Counter(hand)
        out: list[Action] = [{"type": "meld", "cards": c} for c in hand_melds(counts, self.rules, (3,))]
        rules = self.rules
        for i, meld in enumerate(melds):
            for code, side in attach_options(meld, counts, rules):
                action: Action = {"type": "attach", "meld": i, "card": code}
                if side is not None:
                    action["side"] = side
                out.append(action)
        for i, meld in enumerate(melds):
            if meld["kind"] == "run" and meld["wild"] is not None:
                code = _natural_for(meld)
                if code in counts and replaced(meld, code, rules) is not None:
                    out.append({"type": "replace", "meld": i, "card": code})
        return out

    def _pozzetto_open(self, team: int) -> bool:
        d = self.d
        return d["pozzetto"][team] is None and any(p is not None for p in d["pozzetti"])

    def _no_dead_end(self, seat: int, hand: list[str], action: Action) -> bool:
        """5.4: after this play the player can still finish the turn legally."""
        used = 3 if action["type"] == "meld" else 1
        left = len(hand) - used
        if left >= 2:
            return True
        team = seat % 2
        if self._pozzetto_open(team):
            return True
        taken = self.d["pozzetto"][team] is not None
        melds = self._after(team, action)
        meld_close = self.variant != "aperto_sporco"
        if left == 0:
            return meld_close and team_can_close(melds, taken, self.variant)
        rest = Counter(hand)
        rest.subtract(action["cards"] if action["type"] == "meld" else [action["card"]])
        last = next(c for c, k in rest.items() if k > 0)
        if not is_wild(last, self.rules) and team_can_close(melds, taken, self.variant):
            return True
        if not meld_close:
            return False
        for follow in self._plays(seat, [last], melds):
            if team_can_close(self._after(team, follow, melds), taken, self.variant):
                return True
        return False

    def _after(self, team: int, action: Action, melds: list[Meld] | None = None) -> list[Meld]:
        """The team's combinations once ``action`` is played (the list is a new one)."""
        melds = list(self.d["melds"][team] if melds is None else melds)
        kind = action["type"]
        if kind == "meld":
            melds.append(parse_meld(action["cards"], self.rules))  # type: ignore[arg-type]
        elif kind == "attach":
            i = action["meld"]
            melds[i] = attached(melds[i], action["card"], action.get("side"), self.rules)  # type: ignore[assignment]
        elif kind == "replace":
            i = action["meld"]
            melds[i] = replaced(melds[i], action["card"], self.rules)  # type: ignore[assignment]
        return melds

    def _discards(self, seat: int, hand: list[str]) -> list[Action]:
        codes = sorted(set(hand))
        if len(hand) >= 2:
            return [{"type": "discard", "card": c} for c in codes]
        team = seat % 2
        if self._pozzetto_open(team):
            return [{"type": "discard", "card": c} for c in codes]
        if team_can_close(self.d["melds"][team], self.d["pozzetto"][team] is not None, self.variant):
            return [{"type": "discard", "card": c} for c in codes if not is_wild(c, self.rules)]
        return []

    def _may_take(self, seat: int) -> bool:
        pile = self.d["pile"]
        if not pile:
            return False
        if self.variant not in CLOSED:
            return True
        top = pile[-1]
        hand = self.d["hands"][seat] + pile
        melds = self.d["melds"][seat % 2]
        for a in self._plays(seat, hand, melds):
            if (top in a.get("cards", ()) or a.get("card") == top) and self._no_dead_end(seat, hand, a):
                return True
        return False

    # -- applying -------------------------------------------------------------------

    def _apply(self, seat: int, action: Action) -> list[Event]:
        d = self.d
        kind = action["type"]
        hand = d["hands"][seat]
        team = seat % 2
        if kind == "draw":
            card = d["stock"].pop(0)
            hand.append(card)
            d["phase"] = "play"
            return [{"type": "draw", "seat": seat}]
        if kind == "take":
            pile = d["pile"]
            taken = list(pile)
            if self.variant in CLOSED:
                d["must_play"] = pile[-1]
            hand.extend(pile)
            pile.clear()
            d["phase"] = "play"
            return [{"type": "take", "seat": seat, "cards": taken}]
        if kind == "discard":
            card = action["card"]
            hand.remove(card)
            d["pile"].append(card)
            events: list[Event] = [{"type": "discard", "seat": seat, "card": card}]
            if not hand:
                if self._pozzetto_open(team):
                    events.append(self._take_pozzetto(seat, direct=False))
                else:
                    return events + self._end_hand(closer=seat)
            return events + self._next_turn()
        # meld, attach, replace
        d["must_play"] = None
        melds = d["melds"][team]
        if kind == "meld":
            for c in action["cards"]:
                hand.remove(c)
            melds.append(parse_meld(list(action["cards"]), self.rules))
            index = len(melds) - 1
        else:
            index = action["meld"]
            hand.remove(action["card"])
            melds[index] = self._after(team, action)[index]
        events = [{**action, "seat": seat, "meld": index, "cards_now": list(melds[index]["cards"]),
                   "burraco": burraco_kind(melds[index])}]
        if not hand:
            if self._pozzetto_open(team):
                events.append(self._take_pozzetto(seat, direct=True))
            else:
                events += self._end_hand(closer=seat)
        return events

    def _take_pozzetto(self, seat: int, *, direct: bool) -> Event:
        d = self.d
        number = next(i for i, p in enumerate(d["pozzetti"]) if p is not None)
        d["hands"][seat].extend(d["pozzetti"][number])
        d["pozzetti"][number] = None
        d["pozzetto"][seat % 2] = {"number": number + 1, "seat": seat, "played": direct}
        return {"type": "pozzetto", "seat": seat, "number": number + 1, "direct": direct}

    def _next_turn(self) -> list[Event]:
        d = self.d
        events: list[Event] = []
        d["turns"] += 1
        if len(d["stock"]) <= 2:
            left = [i for i, p in enumerate(d["pozzetti"]) if p is not None]
            if not left:
                return self._end_hand(closer=None)
            last = left[-1]
            d["stock"].extend(d["pozzetti"][last])
            d["pozzetti"][last] = None
            events.append({"type": "pozzetto_to_stock", "number": last + 1})
        if d["turns"] >= MAX_TURNS:
            return events + self._end_hand(closer=None)
        n = d["players"]
        d["turn"] = (d["turn"] + 1) % n
        d["phase"] = "draw"
        d["must_play"] = None
        for info in d["pozzetto"]:
            if info is not None and info["seat"] == d["turn"]:
                info["played"] = True
        events.append({"type": "turn", "seat": d["turn"]})
        return events

    def _end_hand(self, closer: int | None) -> list[Event]:
        d = self.d
        variant = self.variant
        teams = []
        for t in (0, 1):
            melded = sum(card_value(c, variant) for m in d["melds"][t] for c in m["cards"])
            bonus = sum(BONUS[k] for m in d["melds"][t] if (k := burraco_kind(m)) is not None)
            closing = 100 if closer is not None and closer % 2 == t else 0
            in_hand = -sum(card_value(c, variant) for s in self.teams[t] for c in d["hands"][s])
            info = d["pozzetto"][t]
            missed = info is None or not info["played"]
            pozzetto = -100 if missed and variant != "aperto_sporco" else 0
            total = melded + bonus + closing + in_hand + pozzetto
            teams.append({"melded": melded, "bonus": bonus, "closing": closing, "hand": in_hand,
                          "pozzetto": pozzetto, "total": total})
        points = [teams[0]["total"], teams[1]["total"]]
        d["history"].append({"closer": closer, "points": points, "teams": teams})
        for t in (0, 1):
            d["totals"][t] += points[t]
        events: list[Event] = [{"type": "hand_over", "closer": closer, "points": points,
                                "totals": list(d["totals"])}]
        target = d["options"]["target"]
        hands = len(d["history"])
        if target == 0 or max(d["totals"]) >= target or hands >= d["options"]["max_hands"]:
            d["winner"] = match_winner(d["totals"], burraco_made(d["history"]), d["starting_team"])
            d["phase"] = "over"
            events.append({"type": "match_over", "winner": d["winner"], "scores": list(d["totals"])})
            return events
        deal(d, cards.shuffled(self.engine.deck(d["players"], d["options"]),
                               cards.derive_rng(d["seed"], "hand", hands)), (d["dealer"] + 1) % d["players"])
        events.append({"type": "deal", "dealer": d["dealer"], "turn": d["turn"]})
        return events

    # -- reading --------------------------------------------------------------------

    def result(self) -> dict[str, Any]:
        d = self.d
        winner = d["winner"]
        if winner is None:
            winner = match_winner(d["totals"], burraco_made(d["history"]), d["starting_team"])
        return {"scores": list(d["totals"]), "winner": winner, "hands": _copy(d["history"])}

    def view(self, seat: int | None) -> dict[str, Any]:
        d = self.d
        me = seat if type(seat) is int and 0 <= seat < d["players"] else None
        return {
            "hand": [] if me is None else sorted(d["hands"][me], key=_sort_key),
            "hand_counts": [len(h) for h in d["hands"]],
            "melds": [[{"kind": m["kind"], "cards": list(m["cards"]), "burraco": burraco_kind(m)}
                       for m in d["melds"][t]] for t in (0, 1)],
            "pile": list(d["pile"]),
            "stock": len(d["stock"]),
            "pozzetti_left": sum(p is not None for p in d["pozzetti"]),
            "pozzetto": _copy(d["pozzetto"]),
            "totals": list(d["totals"]),
            "hand_points": [h["points"] for h in d["history"]],
            # the count of the hand just over, per team: public once the hand is over (the cards
            # left in hand are shown and counted at the table), so a player can check the total
            "last_hand": _copy(d["history"][-1]["teams"]) if d["history"] else None,
            "dealer": d["dealer"],
            "turn": d["turn"],
            "phase": d["phase"],
            # the taken card is in the taker's hand now: only he is shown its code
            "must_play": d["must_play"] if me == d["turn"] else None,
            "must_play_pending": d["must_play"] is not None,
            "variant": self.variant,
            "target": d["options"]["target"],
            "hand_no": len(d["history"]) + (0 if d["winner"] is not None else 1),
            "team": None if me is None else me % 2,
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
        for i, p in enumerate(d["pozzetti"]):
            zones[f"pozzetto_{i + 1}"] = list(p or [])
        for t in (0, 1):
            zones[f"melds_{t}"] = [c for m in d["melds"][t] for c in m["cards"]]
        return zones

    def hidden_from(self, seat: int | None) -> list[str]:
        d = self.d
        hidden = [c for s, h in enumerate(d["hands"]) if s != seat for c in h]
        hidden += d["stock"]
        for p in d["pozzetti"]:
            hidden += p or []
        return hidden


def _natural_for(meld: Meld) -> str:
    pos = wild_position(meld)
    return ("A" if pos in (1, 14) else "23456789TJQK"[pos - 2]) + meld["suit"]


def _sort_key(code: str) -> tuple[int, int]:
    if code == JOKER:
        return (9, 0)
    return ("hdcs".index(code[1]), "A23456789TJQK".index(code[0]))


def _copy(value: Any) -> Any:
    """A copy of plain JSON (much faster than ``copy.deepcopy``)."""
    if type(value) is dict:
        return {k: _copy(v) for k, v in value.items()}
    if type(value) is list:
        return [_copy(v) for v in value]
    return value


def deal(d: dict[str, Any], deck: list[str], dealer: int) -> None:
    """Section 4: 11 cards each from the seat after the dealer, two pozzetti, one face up."""
    n = d["players"]
    first = (dealer + 1) % n
    d["dealer"] = dealer
    d["hands"] = cards.deal_round_robin(deck, first, n, 11)
    d["pozzetti"] = [deck[11 * n: 11 * n + 11], deck[11 * n + 11: 11 * n + 22]]
    d["pile"] = [deck[11 * n + 22]]
    d["stock"] = deck[11 * n + 23:]
    d["melds"] = [[], []]
    d["pozzetto"] = [None, None]
    d["turn"] = first
    d["phase"] = "draw"
    d["must_play"] = None
    d["turns"] = 0


class BurracoEngine(Engine):
    id = "burraco"
    xp = 20  # platform.md §9
    name = "Burraco"
    min_players = 2
    max_players = 4
    player_counts = (2, 4)
    options = {
        "variant": {"default": "aperto_sporco", "choices": list(VARIANTS)},
        "target": {"default": 2000, "choices": [0, 2000, 3000]},
        "max_hands": {"default": 30, "min": 1, "max": 100},
        "dealer": {"default": None},
    }

    def deck(self, players: int, options: dict[str, Any] | None = None) -> list[str]:
        variant = (options or {}).get("variant", "aperto_sporco")
        return cards.double_french_deck(0 if variant == "aperto" else 4)

    def new_game(self, players: int, options: dict[str, Any] | None = None, seed: int | None = None,
                 deck: list[str] | None = None) -> BurracoState:
        setup = self.setup(players, options, seed, deck)
        d: dict[str, Any] = {
            "game": self.id, "players": setup.players, "options": dict(setup.options), "seed": setup.seed,
            "starting_team": (setup.dealer + 1) % setup.players % 2, "totals": [0, 0], "history": [],
            "winner": None,
        }
        first = setup.deck
        if first is None:
            first = cards.shuffled(self.deck(setup.players, setup.options), cards.derive_rng(setup.seed, "hand", 0))
        deal(d, first, setup.dealer)
        return BurracoState(self, d)

    def from_json(self, data: dict[str, Any]) -> BurracoState:
        return BurracoState(self, _copy(data))

    def robot_choice(self, view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
        return robot(view, legal)


# -- robot (section 11) --------------------------------------------------------------


def _useful(code: str, hand: list[str]) -> int:
    """How much ``code`` helps the rest of the hand: pairs of rank, neighbours in suit."""
    if code == JOKER or code[0] == "2":
        return 100
    order = "A23456789TJQK"
    r = order.index(code[0])
    score = 0
    for other in hand:
        if other == JOKER or other[0] == "2":
            continue
        if other[0] == code[0]:
            score += 3
        elif other[1] == code[1] and abs(order.index(other[0]) - r) <= 2:
            score += 2
    return score


def robot(view: dict[str, Any], legal: list[Action]) -> Action:
    """Forced plays, replace, attach naturals, clean melds, wilds late; discard the least useful."""
    hand: list[str] = view["hand"]
    if view["phase"] == "draw":
        take = next((a for a in legal if a["type"] == "take"), None)
        if take is not None:
            if view["variant"] in CLOSED or len(view["pile"]) >= 3:
                return take
            top = view["pile"][-1]
            if _useful(top, hand) >= 4 and top != JOKER:
                return take
        return legal[0]
    variant = view["variant"]
    team = view["team"]
    melds = view["melds"][team] if team is not None else []
    small = len(hand) <= 5

    def wild(code: str) -> bool:
        return code == JOKER or code[0] == "2"

    def rank(a: Action) -> tuple[int, ...] | None:
        kind = a["type"]
        if kind == "replace":
            return (9,)
        if kind == "attach":
            if not wild(a["card"]):
                return (8, len(melds[a["meld"]]["cards"]))
            n = len(melds[a["meld"]]["cards"])
            if n == 6 or small:
                return (5, n)
            return None
        if kind == "meld":
            wilds = sum(wild(c) for c in a["cards"] if not _natural_two(a["cards"], c))
            if wilds == 0:
                return (7, sum(card_value(c, variant) for c in a["cards"]))
            if small or len(hand) >= 14:
                return (4,)
            return None
        return None

    plays = [(r, i) for i, a in enumerate(legal) if (r := rank(a)) is not None]
    if plays:
        return legal[max(plays)[1]]
    discards = [a for a in legal if a["type"] == "discard"]
    if not discards:
        return legal[0]
    opp = view["melds"][1 - team] if team is not None else []

    def fits_opponent(code: str) -> bool:
        for m in opp:
            cs = m["cards"]
            if m["kind"] == "set" and any(c[0] == code[0] for c in cs if not wild(c)):
                return True
            if m["kind"] == "run" and any(c[1:] == code[1:] for c in cs if not wild(c)):
                ends = [c for c in (cs[0], cs[-1]) if not wild(c)]
                if any(abs("A23456789TJQK".index(e[0]) - "A23456789TJQK".index(code[0])) == 1 for e in ends):
                    return True
        return False

    def cost(a: Action) -> tuple[int, int, int]:
        code = a["card"]
        return (int(wild(code)), int(fits_opponent(code)), _useful(code, hand) * 10 - card_value(code, variant))

    return min(discards, key=cost)


def _natural_two(meld_cards: list[str], code: str) -> bool:
    parsed = parse_meld(meld_cards, RULES["chiuso"])
    if parsed is None or parsed["kind"] != "run" or code[0] != "2":
        return False
    return parsed["wild"] is None or meld_cards[parsed["wild"]] != code


ENGINE = BurracoEngine()
