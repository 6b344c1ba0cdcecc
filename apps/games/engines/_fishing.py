"""Shared mechanics of the fishing games: Scopa, Scopone, Asso Pigliatutto, Cirulla.

The four games share the 40-card deck, the capture rules (same value before a sum),
the end-of-hand scoring (carte, denari, settebello, primiera, scope), the match end in
points or hands mode with spareggi and the KO rule, the deal and the view. Each game
module subclasses :class:`FishingState` / :class:`FishingEngine` and states only its
differences through the class attributes and hooks below (shared/spec/games/scopa.md
is the base rules file).

Hot path: cards stay short strings, the table is kept in canonical order, capture
values and sort keys are precomputed dicts, the captures of a table depend only on its
values and are cached per process (:func:`table_captures`), the capture options of a
turn are computed once (cached by step) and a legal ``play`` dict is matched without
building the whole list of legal dicts.
"""

from __future__ import annotations

import random
from bisect import insort
from functools import lru_cache
from typing import Any, ClassVar

from . import cards
from .base import Action, Engine, Event, GameState, IllegalAction

# -- cards ----------------------------------------------------------------------

DECK: tuple[str, ...] = tuple(cards.italian_deck())
DECK_SET = frozenset(DECK)
SUITS = cards.ITALIAN_SUITS
#: capture value: A=1 ... 7=7, F=8, C=9, R=10
VALUE: dict[str, int] = {c: cards.ITALIAN_RANKS.index(c[0]) + 1 for c in DECK}
PRIMIERA_BY_RANK = {"7": 21, "6": 18, "A": 16, "5": 15, "4": 14, "3": 13, "2": 12, "F": 10, "C": 10, "R": 10}
PRIMIERA: dict[str, int] = {c: PRIMIERA_BY_RANK[c[0]] for c in DECK}
#: canonical order: ascending capture value, ties by suit d, c, s, b
ORDER: dict[str, int] = {c: VALUE[c] * 4 + SUITS.index(c[1]) for c in DECK}
SETTEBELLO = "7d"
DENARI = tuple(c for c in DECK if c[1] == "d")
_order = ORDER.__getitem__

Capture = tuple[str, ...]
Option = tuple[str, Capture]  # (card played, cards taken in canonical order)


def canonical(cards_: list[str] | tuple[str, ...]) -> list[str]:
    """Cards in canonical order (ascending value, ties ``d, c, s, b``)."""
    return sorted(cards_, key=_order)


#: the leaves of plain JSON: copied by reference (immutable), without a call per leaf
_ATOMIC = frozenset({str, int, float, bool, type(None)})


def _json_copy(value: Any) -> Any:
    """A fresh copy of a plain JSON value (only lists and dicts are containers).

    Leaves are recognised by their exact type and kept without a recursive call (a hand's
    breakdown is mostly lists of numbers); anything else goes through the general case."""
    cls = type(value)
    if cls in _ATOMIC:
        return value
    atomic = _ATOMIC
    if isinstance(value, list):
        return [v if type(v) in atomic else _json_copy(v) for v in value]
    if isinstance(value, dict):
        return {k: (v if type(v) in atomic else _json_copy(v)) for k, v in value.items()}
    return value


# -- capture options ------------------------------------------------------------


#: capture values 1..10, and sums up to 14 (15 minus the lowest card, Cirulla)
_VALUES = range(1, 11)
_MAX_SUM = 14
#: ``table_captures`` of an empty table: every card is laid down
NO_CAPTURES: tuple[tuple[tuple[int, ...], ...], ...] = ((),) * 11


@lru_cache(maxsize=4096)
def table_captures(
    values: tuple[int, ...], ace_takes_all: bool = False, fifteen: bool = False
) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """The captures of a card of each value on a table of these ``values`` (ascending).

    ``result[v]`` lists the captures of a card of value ``v`` as tuples of table positions,
    in the order :func:`capture_options` offers them (``result[0]`` is unused); ``()`` when
    the card can take nothing. The answer depends on the values alone, not the suits, and
    tables of the same values come back all the time, so it is computed once per process
    (a bounded cache of a few thousand small tuples) instead of once per turn.
    """
    n = len(values)
    sums: dict[int, list[tuple[int, ...]]] = {}
    limit = _MAX_SUM if fifteen else 10

    def walk(start: int, total: int, picked: tuple[int, ...]) -> None:
        # depth-first over the ascending values, cut once a partial sum passes the limit:
        # subsets come out in lexicographic order of the table, each in table order
        for i in range(start, n):
            t = total + values[i]
            if t > limit:
                return
            chosen = (*picked, i)
            if t in sums:
                sums[t].append(chosen)
            else:
                sums[t] = [chosen]
            walk(i + 1, t, chosen)

    walk(0, 0, ())
    same: dict[int, list[tuple[int, ...]]] = {}
    for i, v in enumerate(values):
        same.setdefault(v, []).append((i,))
    result: list[tuple[tuple[int, ...], ...]] = [()]
    for v in _VALUES:
        if v == 1 and ace_takes_all:
            caps = same.get(1) or [tuple(range(n))]
        else:
            # a subset summing to v has two or more cards when no single card has value v
            caps = same.get(v) or sums.get(v, [])
            if fifteen:
                caps = caps + sums.get(15 - v, [])
        result.append(tuple(caps))
    return tuple(result)


def capture_options(
    hand: list[str], table: list[str], *, ace_takes_all: bool = False, fifteen: bool = False
) -> list[Option]:
    """The legal plays of ``hand`` on ``table`` (both in canonical order), one per capture.

    Scopa rule: a same-value table card must be taken (exactly one, player's choice);
    only if there is none, any set of two or more cards adding up to the card's value.
    ``ace_takes_all`` (Asso Pigliatutto, Cirulla): an ace takes one ace from the table if
    there is one, else the whole table (laid down on an empty table). ``fifteen``
    (Cirulla): also any set of one or more cards that makes 15 with the card played.
    Capture is compulsory: a card with an option never appears with ``()``.
    """
    if not table:
        return [(card, ()) for card in hand]
    by_value = table_captures(tuple(map(VALUE.__getitem__, table)), ace_takes_all, fifteen)
    at = table.__getitem__
    # captures per played value, shared by cards of the same rank
    per_value: dict[int, list[Capture]] = {}
    options: list[Option] = []
    append = options.append
    for card in hand:
        v = VALUE[card]
        caps = per_value.get(v)
        if caps is None:
            caps = per_value[v] = [tuple(map(at, idx)) for idx in by_value[v]]
        if caps:
            for cap in caps:
                append((card, cap))
        else:
            append((card, ()))
    return options


# -- scoring --------------------------------------------------------------------


def primiera_total(pile: list[str]) -> int:
    """Best primiera value per suit, summed; 0 when a suit is missing (no primiera)."""
    best = dict.fromkeys(SUITS, 0)
    for c in pile:
        p = PRIMIERA[c]
        if p > best[c[1]]:
            best[c[1]] = p
    if not all(best.values()):
        return 0
    return sum(best.values())


def _majority(counts: list[int | float]) -> int | None:
    """The team with strictly more (of two teams), or ``None`` on a tie."""
    if counts[0] == counts[1]:
        return None
    return 0 if counts[0] > counts[1] else 1


def score_piles(piles: list[list[str]], scope: list[int]) -> dict[str, Any]:
    """Scopa's hand breakdown for two teams: carte, denari, settebello, primiera, scope."""
    carte = [len(p) for p in piles]
    denari = [sum(1 for c in p if c[1] == "d") for p in piles]
    prim = [primiera_total(p) for p in piles]
    settebello = 0 if SETTEBELLO in piles[0] else 1 if SETTEBELLO in piles[1] else None
    primiera = _majority(prim)  # a team without primiera has 0 and cannot win it
    points = list(scope)
    for team in (_majority(carte), _majority(denari), settebello, primiera):
        if team is not None:
            points[team] += 1
    return {
        "points": points,
        "carte": carte,
        "denari": denari,
        "settebello": settebello,
        "primiera": primiera,
        "primiera_values": prim,
        "scope": list(scope),
    }


def match_decision(
    options: dict[str, Any],
    scores: list[int],
    spareggio: int,
    regular_hands: int,
    last_capture_team: int | None,
) -> tuple[int | None, int]:
    """After a hand: ``(winner, spareggio of the next hand)``; winner ``None`` = play on.

    ``spareggio`` is the number of the hand just finished (0 = regular). Points mode:
    decided once a team reaches ``target``; hands mode: after ``hands`` regular hands.
    A tie then starts spareggi, one hand at a time, until the totals differ; with
    ``knockout`` at most three, after which the team that made the last capture of the
    3rd spareggio loses.
    """
    if spareggio == 0:
        if options["mode"] == "points":
            decided = max(scores) >= options["target"]
        else:
            decided = regular_hands >= options["hands"]
        if not decided:
            return None, 0
    if scores[0] != scores[1]:
        return (0 if scores[0] > scores[1] else 1), spareggio
    if options["knockout"] and spareggio >= 3:
        loser = last_capture_team if last_capture_team is not None else 0
        return 1 - loser, spareggio
    return None, spareggio + 1


def fishing_options(target: int = 11, target_max: int = 101) -> dict[str, dict[str, Any]]:
    """``engine.options`` of the family (Cirulla only changes the target)."""
    return {
        "mode": {"default": "points", "choices": ["points", "hands"]},
        "target": {"default": target, "min": 1, "max": target_max},
        "hands": {"default": 3, "min": 1, "max": 20},
        "knockout": {"default": False, "choices": [False, True]},
        "dealer": {"default": None, "min": 0, "max": 3},
    }


# -- the state ------------------------------------------------------------------

#: the saved fields of every fishing match (``to_json`` / ``from_json``)
_FIELDS: tuple[str, ...] = (
    "options", "seed", "dealer", "hand_index", "attempt", "hands", "stock", "table", "piles",
    "scope", "last_capture", "turn", "scores", "history", "spareggio", "regular_done", "winner", "step",
)


class FishingState(GameState):
    """One match of a fishing game. Subclasses set the class attributes / hooks."""

    engine: ClassVar[FishingEngine]
    #: cards per seat in the first deal (Scopone: 9); later rounds always deal 3
    FIRST_ROUND: ClassVar[int] = 3
    ROUND: ClassVar[int] = 3
    #: an ace takes an ace from the table, or the whole table (Asso Pigliatutto, Cirulla)
    ACE_TAKES_ALL: ClassVar[bool] = False
    #: a capture made with an ace may score a scopa (not in Asso Pigliatutto)
    ACE_SCOPA: ClassVar[bool] = True
    #: fifteen captures (Cirulla)
    FIFTEEN: ClassVar[bool] = False
    #: game-specific JSON fields (lists/ints) saved and restored as they are
    EXTRA_FIELDS: ClassVar[tuple[str, ...]] = ()

    n: int
    options: dict[str, Any]
    seed: int
    dealer: int
    hand_index: int
    attempt: int
    hands: list[list[str]]
    stock: list[str]
    table: list[str]
    piles: list[list[str]]
    scope: list[int]
    last_capture: int | None
    turn: int
    scores: list[int]
    history: list[dict[str, Any]]
    spareggio: int
    regular_done: int
    winner: int | None
    step: int

    # -- construction ------------------------------------------------------------

    @classmethod
    def start(cls, n: int, options: dict[str, Any], seed: int, deck: list[str] | None) -> FishingState:
        self = cls.__new__(cls)
        self.n = n
        self.teams = [[0], [1]] if n == 2 else [[0, 2], [1, 3]]
        self.options = options
        self.seed = seed
        dealer = options.get("dealer")
        self.dealer = dealer if dealer is not None else cards.derive_rng(seed, "dealer").randrange(n)
        self.hand_index = 0
        self.attempt = 0
        self.scores = [0, 0]
        self.history = []
        self.spareggio = 0
        self.regular_done = 0
        self.winner = None
        self.step = 0
        self._cache_step = self._caps_step = -1
        self.init_extra()
        self._deal_hand(deck)
        return self

    @classmethod
    def load(cls, data: dict[str, Any]) -> FishingState:
        if not isinstance(data, dict) or data.get("game") != cls.engine.id:
            raise ValueError(f"{cls.engine.id}: this is not a saved {cls.engine.name} match")
        self = cls.__new__(cls)
        try:
            self.n = data["players"]
            for key in _FIELDS + cls.EXTRA_FIELDS:
                setattr(self, key, _json_copy(data[key]))
        except KeyError as missing:
            raise ValueError(f"{cls.engine.id}: the saved match lacks {missing}") from None
        self.teams = [[0], [1]] if self.n == 2 else [[0, 2], [1, 3]]
        self._cache_step = self._caps_step = -1
        return self

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"game": self.engine.id, "players": self.n}
        for key in _FIELDS + self.EXTRA_FIELDS:
            data[key] = _json_copy(getattr(self, key))
        return data

    # -- hooks for the games -------------------------------------------------------

    def init_extra(self) -> None:
        """Set the game's own match fields (listed in ``EXTRA_FIELDS``)."""

    def void_deal(self, table: list[str]) -> bool:
        """Scopa, Scopone, Asso Pigliatutto: 3 or 4 kings on the first table void the deal."""
        return sum(1 for c in table if c[0] == "R") >= 3

    def after_first_deal(self) -> list[Event]:
        """Events of whatever happens right after a valid deal (Cirulla's table bonus)."""
        return []

    def after_round_deal(self) -> None:
        """Reset per-round fields after every deal of 3 cards (Cirulla's declarations)."""

    def extra_breakdown(self, breakdown: dict[str, Any]) -> None:
        """Add the game's own scoring to a hand breakdown (and to its ``points``)."""

    def forced_winner(self, breakdown: dict[str, Any]) -> int | None:
        """A team that wins the match at once after this hand (Cirulla's cappotto)."""
        return None

    def extra_actions(self, seat: int) -> list[Action]:
        """Actions besides ``play`` offered now (Cirulla's declarations)."""
        return []

    def apply_extra(self, seat: int, action: Action) -> list[Event]:
        raise IllegalAction(f"Unknown move type {action.get('type')!r}.")

    def on_card_played(self, seat: int, card: str) -> None:
        """Bookkeeping when a card leaves a hand (Cirulla's revealed cards)."""

    def visible_hand_cards(self, seat: int) -> list[str]:
        """Cards of ``seat``'s hand that everybody may see (Cirulla's declared cards)."""
        return []

    def scopa_counts(self, card: str) -> bool:
        """Whether a capture made with ``card`` that empties the table is a scopa."""
        return self.ACE_SCOPA or card[0] != "A"

    def extra_view(self, view: dict[str, Any], seat: int | None) -> None:
        """Add the game's own view keys."""

    # -- dealing -----------------------------------------------------------------

    def _deal_hand(self, deck: list[str] | None) -> list[Event]:
        """Deal a new hand (redealing void deals from fresh shuffles of the seed)."""
        events: list[Event] = []
        n, k = self.n, self.FIRST_ROUND
        first = (self.dealer + 1) % n
        while True:
            if deck is None:
                rng = cards.derive_rng(self.seed, "hand", self.hand_index, "deal", self.attempt)
                deck = cards.shuffled(DECK, rng)
            table = deck[n * k : n * k + 4]
            if not self.void_deal(table):
                break
            events.append({"type": "void_deal", "dealer": self.dealer, "table": canonical(table)})
            self.attempt += 1
            deck = None
        hands: list[list[str]] = [[] for _ in range(n)]
        for i in range(n * k):
            hands[(first + i) % n].append(deck[i])
        self.hands = [canonical(h) for h in hands]
        self.table = canonical(table)
        self.stock = list(deck[n * k + 4 :])
        self.piles = [[], []]
        self.scope = [0, 0]
        self.last_capture = None
        self.turn = first
        self._cache_step = self._caps_step = -1
        self.after_round_deal()
        events.append(
            {
                "type": "deal",
                "dealer": self.dealer,
                "hand_counts": [len(h) for h in self.hands],
                "table": list(self.table),
                "stock_count": len(self.stock),
            }
        )
        events.extend(self.after_first_deal())
        return events

    def _deal_round(self) -> Event:
        """A later round (ripresa): 3 cards each, one at a time from ``dealer+1``."""
        n, k = self.n, self.ROUND
        first = (self.dealer + 1) % n
        chunk = self.stock[: n * k]
        del self.stock[: n * k]
        for i, c in enumerate(chunk):
            self.hands[(first + i) % n].append(c)
        for h in self.hands:
            h.sort(key=_order)
        self.turn = first
        self.after_round_deal()
        return {"type": "deal", "hand_counts": [len(h) for h in self.hands], "stock_count": len(self.stock)}

    # -- protocol ------------------------------------------------------------------

    @property
    def to_act(self) -> list[int]:
        return [] if self.winner is not None else [self.turn]

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    def play_options(self) -> list[Option]:
        """Capture options of the seat to act, computed once per step."""
        if self._cache_step != self.step:
            self._cache = capture_options(
                self.hands[self.turn], self.table, ace_takes_all=self.ACE_TAKES_ALL, fifteen=self.FIFTEEN
            )
            self._cache_step = self.step
        return self._cache

    def table_captures(self) -> tuple[tuple[tuple[int, ...], ...], ...]:
        """:func:`table_captures` of the table now: per played value, the captures as positions.

        Cached by ``step`` like :meth:`play_options` (the table changes only with a move or
        a deal, and a deal resets both caches).
        """
        if self._caps_step != self.step:
            table = self.table
            self._caps = (
                table_captures(tuple(map(VALUE.__getitem__, table)), self.ACE_TAKES_ALL, self.FIFTEEN)
                if table else NO_CAPTURES
            )
            self._caps_step = self.step
        return self._caps

    def legal_actions(self, seat: int | None) -> list[Action]:
        if self.winner is not None or type(seat) is not int or seat != self.turn:
            return []
        actions = self.extra_actions(seat)
        append = actions.append
        by_value = self.table_captures()
        at = self.table.__getitem__
        # the order of capture_options: hand order, then each card's captures in table order
        for card in self.hands[seat]:
            caps = by_value[VALUE[card]]
            if caps:
                for positions in caps:
                    append({"type": "play", "card": card, "capture": list(map(at, positions))})
            else:
                append({"type": "play", "card": card, "capture": []})
        return actions

    def apply(self, seat: int, action: Action) -> list[Event]:
        """Fast path for a legal ``play`` dict (same checks as the kit's ``same_json``).

        A play is legal when its card is in the hand and its capture, read as table
        positions, is one of :meth:`table_captures` for the card's value (so it is listed
        in canonical order, without repeats); anything else takes the kit's checks.
        """
        if (
            self.winner is None
            and type(seat) is int
            and seat == self.turn
            and type(action) is dict
            and len(action) == 3
            and action.get("type") == "play"
            and type(action["type"]) is str
        ):
            card, capture = action.get("card"), action.get("capture")
            if type(card) is str and type(capture) is list and card in self.hands[seat]:
                caps = self.table_captures()[VALUE[card]]
                if not capture:
                    if not caps:  # laid down: the card can take nothing
                        return self._play(seat, card, ())
                elif caps:
                    index = self.table.index
                    positions = []
                    for c in capture:
                        if type(c) is not str:
                            break
                        try:
                            positions.append(index(c))
                        except ValueError:  # not on the table
                            break
                    else:
                        if tuple(positions) in caps:
                            return self._play(seat, card, tuple(capture))
        return super().apply(seat, action)

    def _apply(self, seat: int, action: Action) -> list[Event]:
        if action["type"] == "play":
            return self._play(seat, action["card"], tuple(action["capture"]))
        return self.apply_extra(seat, action)

    def _play(self, seat: int, card: str, capture: Capture) -> list[Event]:
        hands = self.hands
        hands[seat].remove(card)
        self.on_card_played(seat, card)
        self.step += 1
        last_play = not self.stock and not any(hands)
        scopa = False
        if capture:
            table = self.table
            for c in capture:
                table.remove(c)
            pile = self.piles[seat % 2]
            pile.extend(capture)
            pile.append(card)
            self.last_capture = seat
            if not table and not last_play and self.scopa_counts(card):
                scopa = True
                self.scope[seat % 2] += 1
        else:
            insort(self.table, card, key=_order)
        events: list[Event] = [
            {"type": "play", "seat": seat, "card": card, "capture": list(capture), "scopa": scopa}
        ]
        if last_play:
            events.extend(self._end_hand())
        else:
            self.turn = (seat + 1) % self.n
            if not hands[self.turn] and not any(hands):
                events.append(self._deal_round())
        return events

    def _end_hand(self) -> list[Event]:
        remaining = self.table
        taker = self.last_capture if self.last_capture is not None else self.dealer
        self.piles[taker % 2].extend(remaining)
        self.table = []
        breakdown = score_piles(self.piles, self.scope)
        self.extra_breakdown(breakdown)
        breakdown["last_capture"] = self.last_capture
        breakdown["dealer"] = self.dealer
        breakdown["spareggio"] = self.spareggio
        breakdown["hand"] = self.hand_index + 1
        for t in (0, 1):
            self.scores[t] += breakdown["points"][t]
        self.history.append(breakdown)
        if self.spareggio == 0:
            self.regular_done += 1
        events: list[Event] = [
            {
                "type": "hand_end",
                "result": _json_copy(breakdown),
                "scores": list(self.scores),
                "last_cards": list(remaining),
                "last_capture": self.last_capture,
            }
        ]
        winner = self.forced_winner(breakdown)
        next_spareggio = self.spareggio
        if winner is None:
            last_team = None if self.last_capture is None else self.last_capture % 2
            winner, next_spareggio = match_decision(
                self.options, self.scores, self.spareggio, self.regular_done, last_team
            )
        if winner is not None:
            self.winner = winner
            events.append({"type": "match_end", "winner": winner, "scores": list(self.scores)})
            return events
        self.spareggio = next_spareggio
        self.dealer = (self.dealer + 1) % self.n
        self.hand_index += 1
        self.attempt = 0
        events.append({"type": "new_hand", "dealer": self.dealer, "spareggio": self.spareggio})
        events.extend(self._deal_hand(None))
        return events

    def result(self) -> dict[str, Any]:
        return {"scores": list(self.scores), "winner": self.winner, "hands": _json_copy(self.history)}

    def view(self, seat: int | None) -> dict[str, Any]:
        if type(seat) is not int or not 0 <= seat < self.n:
            seat = None
        view: dict[str, Any] = {
            "game": self.engine.id,
            "seat": seat,
            "players": self.n,
            "teams": [list(t) for t in self.teams],
            "hand": [] if seat is None else list(self.hands[seat]),
            "table": list(self.table),
            "hand_counts": [len(h) for h in self.hands],
            "stock_count": len(self.stock),
            "captured_counts": [len(p) for p in self.piles],
            "captured": [list(p) for p in self.piles],
            "scope": list(self.scope),
            "scores": list(self.scores),
            "dealer": self.dealer,
            "to_act": self.to_act,
            "spareggio": self.spareggio,
            "hand_number": self.hand_index + 1,
            "last_capture": self.last_capture,
            # the sheet of the hand just scored (carte, denari, settebello, primiera, scope): public
            "last_hand": _json_copy(self.history[-1]) if self.history else None,
            "options": dict(self.options),
            "winner": self.winner,
        }
        self.extra_view(view, seat)
        return view

    def card_zones(self) -> dict[str, list[str]]:
        zones = {f"hand{s}": list(h) for s, h in enumerate(self.hands)}
        zones["stock"] = list(self.stock)
        zones["table"] = list(self.table)
        zones["pile0"] = list(self.piles[0])
        zones["pile1"] = list(self.piles[1])
        return zones

    def hidden_from(self, seat: int | None) -> list[str]:
        hidden = list(self.stock)
        for s, hand in enumerate(self.hands):
            if s != seat:
                shown = self.visible_hand_cards(s)
                hidden.extend(c for c in hand if c not in shown)
        return hidden

    # -- readable refusals -------------------------------------------------------------

    def explain_illegal(self, seat: int, action: Action, legal: list[Action]) -> str:
        kind = action.get("type")
        kinds = sorted({a["type"] for a in legal})
        if "type" not in action:
            return f'A move needs a "type" key; the possible moves now are: {", ".join(kinds)}.'
        if kind != "play":
            if kind in self.engine.action_types:
                return self.explain_extra(seat, action)
            return f"Unknown move type {kind!r}: the possible moves now are {', '.join(kinds)}."
        if set(action) != {"type", "card", "capture"}:
            return (
                'A play move has exactly the keys type, card and capture, e.g. '
                '{"type": "play", "card": "7d", "capture": ["3c", "4s"]}.'
            )
        card, capture = action["card"], action["capture"]
        if type(card) is not str or card not in DECK_SET:
            return f"{card!r} is not a card of the Italian deck (a rank of A234567FCR then a suit of dcsb)."
        if card not in self.hands[seat]:
            return f"The card {card} is not in your hand."
        if type(capture) is not list or any(type(c) is not str for c in capture):
            return "capture must be a list of table cards, [] to lay the card on the table."
        for c in capture:
            if c not in self.table:
                return f"The card {c!r} is not on the table."
        options = [list(cap) for c, cap in self.play_options() if c == card]
        if options == [[]]:
            return f"The {card} cannot take anything on this table: play it with capture []."
        shown = " or ".join(str(o) for o in options)
        if not capture:
            return f"The {card} can take cards, and capture is compulsory: take {shown}."
        for option in options:
            if option != capture and sorted(option) == sorted(capture):
                return f"List the captured cards in canonical order (ascending value, suits d c s b): {option}."
        return f"Playing the {card} you cannot take {capture}: the possible captures are {shown}."

    def explain_extra(self, seat: int, action: Action) -> str:
        return f"That move is not possible now: {action!r}."


# -- the engine -------------------------------------------------------------------------


class FishingEngine(Engine):
    """Common engine of the family; games set ``state_class`` and their identity."""

    state_class: ClassVar[type[FishingState]]
    min_players = 2
    max_players = 4
    player_counts = (2, 4)
    options = fishing_options()
    action_types: ClassVar[tuple[str, ...]] = ("play",)

    def deck(self, players: int, options: dict[str, Any] | None = None) -> list[str]:
        self.check_players(players)
        return list(DECK)

    def new_game(
        self,
        players: int,
        options: dict[str, Any] | None = None,
        seed: int | None = None,
        deck: list[str] | None = None,
    ) -> FishingState:
        setup = self.setup(players, options, seed, deck)
        return self.state_class.start(setup.players, setup.options, setup.seed, setup.deck)

    def from_json(self, data: dict[str, Any]) -> FishingState:
        return self.state_class.load(data)

    # -- robot -------------------------------------------------------------------------

    def robot_choice(self, view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
        """Greedy: score every legal action from the seat's view, best wins, ties by ``rng``."""
        ctx = RobotContext(view)
        best: list[Action] = []
        best_score = float("-inf")
        for action in legal:
            score = self.robot_score(ctx, action, legal)
            if score > best_score + 1e-9:
                best, best_score = [action], score
            elif abs(score - best_score) <= 1e-9:
                best.append(action)
        return best[0] if len(best) == 1 else rng.choice(best)

    def robot_score(self, ctx: RobotContext, action: Action, legal: list[Action]) -> float:
        """Scopa's greedy value of a play: cards taken, scopa, trail cost, sweep danger."""
        card, capture = action["card"], action["capture"]
        if capture:
            score = 2 + WEIGHT[card] + sum(WEIGHT[c] for c in capture)
            left = [c for c in ctx.table if c not in capture]
            if not left and not ctx.last_play and self.robot_scopa_counts(card):
                score += 10
        else:
            score = -1.5 * WEIGHT[card]
            left = [*ctx.table, card]
        if left and not ctx.last_play:
            score -= self.robot_danger(ctx, left, card)
        return score

    def robot_scopa_counts(self, card: str) -> bool:
        return self.state_class.ACE_SCOPA or card[0] != "A"

    def robot_danger(self, ctx: RobotContext, left: list[str], played: str) -> float:
        """Scopa: −6 when an unseen card has the value of the whole table left (a sweep)."""
        total = sum(VALUE[c] for c in left)
        return 6.0 if total <= 10 and ctx.unseen_values().get(total, 0) else 0.0


def _weight(card: str) -> float:
    w = 1.0
    if card == SETTEBELLO:
        w += 6
    if card[1] == "d":
        w += 1.2
    w += {"7": 1.5, "6": 0.8, "A": 0.5}.get(card[0], 0.0)
    return w


WEIGHT: dict[str, float] = {c: _weight(c) for c in DECK}


class RobotContext:
    """What the robot reads from one view, computed once per decision."""

    def __init__(self, view: dict[str, Any]) -> None:
        self.view = view
        self.hand: list[str] = view["hand"]
        self.table: list[str] = view["table"]
        self.last_play = view["stock_count"] == 0 and sum(view["hand_counts"]) == 1
        self._seen: set[str] | None = None
        self._unseen: dict[int, int] | None = None

    def seen(self) -> set[str]:
        """Cards whose place this seat knows: own hand, table, captured piles, declared cards."""
        if self._seen is None:
            seen = set(self.hand) | set(self.table)
            for pile in self.view.get("captured", ()):
                seen.update(pile)
            for shown in self.view.get("revealed", ()):
                seen.update(shown)
            self._seen = seen
        return self._seen

    def unseen_values(self) -> dict[int, int]:
        """How many cards this seat has not seen (other hands, stock) have each value."""
        if self._unseen is None:
            seen = self.seen()
            counts: dict[int, int] = {}
            for c in DECK:
                if c not in seen:
                    counts[VALUE[c]] = counts.get(VALUE[c], 0) + 1
            self._unseen = counts
        return self._unseen
