"""Shared tables for the French-deck trick-taking games (Hearts, Spades).

Why a helper: both games deal 52 cards 13 each, follow suit and need legal moves fast
(random playouts drive thousands of hands a second). Internally a card is an integer
``suit * 13 + rank`` with suits in the order ``c d s h`` (Hearts' canonical pass order)
and ranks ``2..A`` as ``0..12``, so sorting indices sorts cards canonically and "higher
card of the same suit" is "higher index". A hand is four 13-bit masks, one per suit:
legal moves are one suit bucket (or a few) read from precomputed code tuples.

Besides the tables, the module holds what the two games share as rules: :class:`TrickState`
(deal, follow suit, trick winner, hand and match end, JSON, view, explanations) and
:class:`TrickEngine`. A game adds its prelude (Hearts' pass, Spades' bidding), its lead and
discard restrictions, how a trick and a hand score, and when the match ends.
"""

from __future__ import annotations

import random
from abc import abstractmethod
from collections.abc import Iterable, Sequence
from typing import Any, ClassVar

from . import cards
from .base import Action, Engine, Event, GameState

SUITS = "cdsh"
RANKS = "23456789TJQKA"
CLUBS, DIAMONDS, SPADES, HEARTS = 0, 1, 2, 3
FULL_SUIT = (1 << 13) - 1

#: card index -> code, and back
CODES: tuple[str, ...] = tuple(rank + suit for suit in SUITS for rank in RANKS)
INDEX: dict[str, int] = {code: i for i, code in enumerate(CODES)}
SUIT_OF: tuple[int, ...] = tuple(i // 13 for i in range(52))
RANK_OF: tuple[int, ...] = tuple(i % 13 for i in range(52))
BIT_OF: tuple[int, ...] = tuple(1 << (i % 13) for i in range(52))


def _by_mask(items: Sequence[Any]) -> tuple[tuple[Any, ...], ...]:
    """``table[mask]``: the ``items`` (one per rank, low first) whose bit is in ``mask``, low to high."""
    table: list[tuple[Any, ...]] = [()] * (FULL_SUIT + 1)
    for r, item in enumerate(items):
        bit = 1 << r
        one = (item,)
        for low in range(bit):  # every mask whose highest rank is r
            table[bit | low] = table[low] + one
    return tuple(table)


#: MASK_CODES[suit][mask]: the codes of that suit's cards in ``mask``, low to high
MASK_CODES: tuple[tuple[tuple[str, ...], ...], ...] = tuple(
    _by_mask(CODES[suit * 13:suit * 13 + 13]) for suit in range(4)
)
#: one ``{"type": "play", "card": c}`` per card: legal moves are fresh copies of these
PLAY_TEMPLATES: tuple[dict[str, str], ...] = tuple({"type": "play", "card": c} for c in CODES)
#: MASK_PLAYS[suit][mask]: ``MASK_CODES[suit][mask]`` as templates (copy before handing out)
MASK_PLAYS: tuple[tuple[tuple[dict[str, str], ...], ...], ...] = tuple(
    _by_mask(PLAY_TEMPLATES[suit * 13:suit * 13 + 13]) for suit in range(4)
)
#: ``dict.copy`` clones a template's key table in C: quicker than building each dict anew
_copy = dict.copy

#: the French deck in the kit's order: the list every shuffle starts from
FRENCH_DECK: tuple[str, ...] = tuple(cards.french_deck())

SUIT_NAMES = {"c": "clubs (fiori)", "d": "diamonds (quadri)", "s": "spades (picche)", "h": "hearts (cuori)"}


def suit_name(suit: int) -> str:
    return SUIT_NAMES[SUITS[suit]]


def deal_masks(deck: Sequence[str], dealer: int) -> list[list[int]]:
    """Deal 52 cards one at a time from the seat after ``dealer``; hands as suit masks."""
    return _deal_indices([INDEX[code] for code in deck], dealer)


def _deal_indices(deck: Sequence[int], dealer: int) -> list[list[int]]:
    hands = [[0, 0, 0, 0] for _ in range(4)]
    suit_of, bit_of = SUIT_OF, BIT_OF
    for offset in range(4):
        hand = hands[(dealer + 1 + offset) % 4]
        for i in deck[offset::4]:
            hand[suit_of[i]] |= bit_of[i]
    return hands


def hand_codes(hand: Sequence[int]) -> list[str]:
    """A hand's codes in canonical order (c, d, s, h; 2..A)."""
    table = MASK_CODES
    return [*table[0][hand[0]], *table[1][hand[1]], *table[2][hand[2]], *table[3][hand[3]]]


def hand_count(hand: Sequence[int]) -> int:
    return hand[0].bit_count() + hand[1].bit_count() + hand[2].bit_count() + hand[3].bit_count()


def masks_from_codes(codes: Sequence[str]) -> list[int]:
    hand = [0, 0, 0, 0]
    for code in codes:
        i = INDEX[code]
        hand[SUIT_OF[i]] |= BIT_OF[i]
    return hand


def play_actions(hand: Sequence[int], suits: Sequence[int]) -> list[dict[str, str]]:
    """Fresh ``{"type": "play", "card": c}`` dicts for every card of ``suits`` in ``hand``."""
    table = MASK_PLAYS
    picked: tuple[dict[str, str], ...] = ()
    for s in suits:
        picked += table[s][hand[s]]
    return list(map(_copy, picked))


def all_plays(hand: Sequence[int]) -> list[dict[str, str]]:
    """``play_actions(hand, ALL_SUITS)``, unrolled: every lead once the restrictions are off."""
    table = MASK_PLAYS
    return list(map(_copy, table[0][hand[0]] + table[1][hand[1]] + table[2][hand[2]] + table[3][hand[3]]))


def is_code(value: object) -> bool:
    return type(value) is str and value in INDEX


#: the kit's French deck as card indices: shuffling it with ``cards.shuffled`` applies the
#: very permutation that shuffling the codes would, without a code lookup per card
_FRENCH_INDICES: tuple[int, ...] = tuple(INDEX[code] for code in FRENCH_DECK)


def shuffled_deck(seed: int, hand_no: int) -> list[str]:
    """The fresh shuffle of hand ``hand_no`` (0-based) of a match, as codes."""
    return cards.shuffled(FRENCH_DECK, cards.derive_rng(seed, "hand", hand_no))


def deal_shuffled(seed: int, hand_no: int, dealer: int) -> list[list[int]]:
    """Deal ``shuffled_deck(seed, hand_no)`` (same shuffle, same deal) straight to suit masks."""
    return _deal_indices(cards.shuffled(_FRENCH_INDICES, cards.derive_rng(seed, "hand", hand_no)), dealer)


# -- what Hearts and Spades share as rules ------------------------------------------------

#: the phases: the game's prelude (Hearts' pass, Spades' bidding), the tricks, the end
PRELUDE, PLAY, OVER = 0, 1, 2
SEATS = (0, 1, 2, 3)
ALL_SUITS = (0, 1, 2, 3)


def codes(indices: Iterable[int]) -> list[str]:
    return [CODES[i] for i in indices]


def copy_record(record: dict[str, Any]) -> dict[str, Any]:
    """A hand record of the history with its lists copied: callers may keep what they get."""
    return {k: (list(v) if type(v) is list else v) for k, v in record.items()}


#: a card play: its type, its other key, what to send instead of a move of another type
PLAY_MOVE = ("play", "card", 'It is your turn to play a card: {"type": "play", "card": <card>}.')


class TrickState(GameState):
    """One match of 13-trick hands for four seats: the state and rules both games share.

    Fields are private and integer-coded; ``to_json`` gives the plain form. The play phase
    (follow suit, trick winner, hand and match end), the JSON of the common fields, the
    common view keys and the explanations live here; a game sets the class attributes
    and fills the hooks: its prelude (``_prelude_actions``, ``_fast_prelude``,
    ``_apply_prelude``, ``_explain_prelude``), its lead and discard restrictions
    (``_leads``, ``_discards`` and their refusals), ``_trick_won``, ``_score_hand``,
    ``_match_winner``, ``_game_json`` / ``_load_game`` and ``view``.
    """

    #: the phases' names in views and JSON: (the prelude, "play", "over")
    PHASES: ClassVar[tuple[str, str, str]]
    TEAMS: ClassVar[tuple[tuple[int, ...], ...]]
    #: the suit that cannot be led before it is broken (first played in the hand)
    BREAKS: ClassVar[int]
    #: the JSON and view key of the "broken" flag
    BROKEN_KEY: ClassVar[str]
    #: the suit that beats the suit led (``None``: the highest card of the suit led takes)
    TRUMP: ClassVar[int | None] = None
    #: the prelude's move like ``PLAY_MOVE``: (type, other key, what to send instead)
    PRELUDE_MOVE: ClassVar[tuple[str, str, str]]
    #: ``to_json``'s keys in the order saved states have always had (the game's own included)
    JSON_KEYS: ClassVar[tuple[str, ...]]

    def __init__(self, engine: TrickEngine, seed: int, options: dict[str, Any]) -> None:
        self.engine = engine
        self.teams = [list(team) for team in self.TEAMS]
        # read on every card played: an instance attribute is quicker than a class one
        self._breaks = self.BREAKS
        self._trump = self.TRUMP
        self._seed = seed
        self._options = options
        self._hand_no = 0  # 0-based number of the hand being played
        self._dealer = 0
        self._phase = PRELUDE
        self._hands: list[list[int]] = [[0, 0, 0, 0] for _ in SEATS]
        self._trick: list[int] = []
        self._leader: int | None = None
        self._turn: int | None = None
        self._tricks_done = 0
        self._broken = False
        self._won: list[list[int]] = [[], [], [], []]
        self._last: tuple[int, list[int], int] | None = None
        #: a total per team (in Hearts each seat is a team): ``result()["scores"]``
        self._scores = [0] * len(self.TEAMS)
        self._history: list[dict[str, Any]] = []
        self._winner: int | None = None

    def _deal(self, hands: list[list[int]]) -> None:
        """A new hand: these cards, nothing played. Games reset their own counters too."""
        self._hands = hands
        self._phase = PRELUDE
        self._trick = []
        self._tricks_done = 0
        self._broken = False
        self._won = [[], [], [], []]
        self._last = None

    # -- protocol -------------------------------------------------------------------

    @property
    def to_act(self) -> list[int]:
        return [] if self._phase == OVER else [self._turn]  # type: ignore[list-item]

    @property
    def is_over(self) -> bool:
        return self._phase == OVER

    def legal_actions(self, seat: int | None) -> list[Action]:
        phase = self._phase
        if phase == PLAY:
            if seat != self._turn or type(seat) is not int:
                return []
            hand = self._hands[seat]
            trick = self._trick
            if trick:
                led = SUIT_OF[trick[0]]
                mask = hand[led]
                if mask:
                    return list(map(_copy, MASK_PLAYS[led][mask]))
                return self._discards(hand)
            return self._leads(hand)
        if phase == PRELUDE:
            return self._prelude_actions(seat)
        return []

    def _leads(self, hand: list[int]) -> list[Action]:
        """The cards ``hand`` may lead (the game's restrictions); fresh dicts."""
        return all_plays(hand)

    def _discards(self, hand: list[int]) -> list[Action]:
        """The cards ``hand``, void in the suit led, may play; fresh dicts."""
        return all_plays(hand)

    def _refusal(self, seat: int, i: int) -> str | None:
        """Why seat may not play card ``i`` now (``None``: it may). Mirrors ``legal_actions``."""
        hand = self._hands[seat]
        suit = SUIT_OF[i]
        if not hand[suit] & BIT_OF[i]:
            return f"The card {CODES[i]} is not in your hand."
        trick = self._trick
        if not trick:
            return self._lead_refusal(hand, i)
        led = SUIT_OF[trick[0]]
        if suit == led:
            return None
        if hand[led]:
            return f"You must follow suit: play a card of {suit_name(led)}."
        return self._discard_refusal(hand, i)

    def _lead_refusal(self, hand: list[int], i: int) -> str | None:
        """Why ``hand`` may not lead card ``i`` (held), mirroring ``_leads``."""
        return None

    def _discard_refusal(self, hand: list[int], i: int) -> str | None:
        """Why ``hand``, void in the suit led, may not play card ``i``, mirroring ``_discards``."""
        return None

    def apply(self, seat: int, action: Action) -> list[Event]:
        """Fast path for well-formed legal moves; everything else takes the kit's checks."""
        if type(action) is dict and len(action) == 2 and type(seat) is int:
            phase = self._phase
            if phase == PLAY:
                card = action.get("card")
                if seat == self._turn and type(card) is str and action.get("type") == "play":
                    i = INDEX.get(card)
                    if i is not None:
                        hand = self._hands[seat]
                        suit = SUIT_OF[i]
                        bit = BIT_OF[i]
                        if hand[suit] & bit:
                            trick = self._trick
                            # a held card of the suit led is always legal; a lead, or a discard
                            # when void in the suit led, asks the game's restrictions
                            if trick:
                                led = SUIT_OF[trick[0]]
                                allowed = led == suit or (
                                    not hand[led] and self._discard_refusal(hand, i) is None
                                )
                            else:
                                allowed = self._lead_refusal(hand, i) is None
                            if allowed:
                                # inline of ``_play`` for the common case (not the fourth card)
                                if len(trick) < 3:
                                    hand[suit] ^= bit
                                    trick.append(i)
                                    if suit == self._breaks:
                                        self._broken = True
                                    self._turn = (seat + 1) & 3
                                    return [{"type": "play", "seat": seat, "card": card}]
                                return self._play(seat, i)
            elif phase == PRELUDE:
                events = self._fast_prelude(seat, action)
                if events is not None:
                    return events
        return super().apply(seat, self._canonical(action))

    @staticmethod
    def _canonical(action: Any) -> Any:
        """The form ``legal_actions`` lists of an action a client may spell otherwise."""
        return action

    def _apply(self, seat: int, action: Action) -> list[Event]:
        if action["type"] == "play":
            return self._play(seat, INDEX[action["card"]])
        return self._apply_prelude(seat, action)

    # -- the prelude: the game's own ----------------------------------------------------

    @abstractmethod
    def _prelude_actions(self, seat: int | None) -> list[Action]:
        """``legal_actions`` before the first lead."""

    @abstractmethod
    def _fast_prelude(self, seat: int, action: Action) -> list[Event] | None:
        """Apply ``action`` if it is exactly a legal prelude move, else ``None`` (the kit checks)."""

    @abstractmethod
    def _apply_prelude(self, seat: int, action: Action) -> list[Event]:
        """Apply a prelude move already found in ``legal_actions``."""

    @abstractmethod
    def _explain_prelude(self, seat: int, action: Action) -> str:
        """Why a prelude move (of the right type and keys) was refused."""

    # -- tricks -----------------------------------------------------------------------

    def _start_tricks(self, leader: int) -> None:
        """The prelude is over: ``leader`` leads the first trick."""
        self._phase = PLAY
        self._leader = self._turn = leader

    def _play(self, seat: int, i: int) -> list[Event]:
        suit = SUIT_OF[i]
        self._hands[seat][suit] &= ~BIT_OF[i]
        trick = self._trick
        trick.append(i)
        if suit == self._breaks:
            self._broken = True
        events: list[Event] = [{"type": "play", "seat": seat, "card": CODES[i]}]
        if len(trick) < 4:
            self._turn = (seat + 1) & 3
            return events
        # the highest card of the suit led takes, or the highest trump once one is played
        top = trick[0]
        top_suit = SUIT_OF[top]
        trump = self._trump
        best = 0
        for pos in (1, 2, 3):
            c = trick[pos]
            s = SUIT_OF[c]
            if s == top_suit:
                if c > top:
                    top = c
                    best = pos
            elif s == trump:
                top = c
                top_suit = s
                best = pos
        leader = self._leader
        winner = (leader + best) & 3  # type: ignore[operator]
        events.append(self._trick_won(winner, trick))
        self._won[winner].extend(trick)
        self._last = (leader, trick, winner)  # type: ignore[assignment]
        self._trick = []
        self._tricks_done += 1
        if self._tricks_done == 13:
            events.extend(self._end_hand())
        else:
            self._leader = self._turn = winner
        return events

    @abstractmethod
    def _trick_won(self, winner: int, trick: list[int]) -> Event:
        """Credit the full ``trick`` to ``winner``; the ``trick`` event."""

    def _end_hand(self) -> list[Event]:
        events = [self._score_hand()]
        winner = self._match_winner()
        if winner is not None:
            self._winner = winner
            self._phase = OVER
            self._turn = None
            events.append({"type": "match_over", "winner": winner, "scores": list(self._scores)})
            return events
        self._hand_no += 1
        self._dealer = (self._dealer + 1) & 3
        self._deal(deal_shuffled(self._seed, self._hand_no, self._dealer))
        events.append({"type": "deal", "hand": self._hand_no + 1, "dealer": self._dealer})
        return events

    @abstractmethod
    def _score_hand(self) -> Event:
        """Score the hand just finished into ``_scores`` and ``_history``; the ``hand_over`` event."""

    @abstractmethod
    def _match_winner(self) -> int | None:
        """The winning team if the match ends after the hand just scored, else ``None``."""

    # -- reading --------------------------------------------------------------------

    def result(self) -> dict[str, Any]:
        return {
            "scores": list(self._scores),
            "winner": self._winner,
            "hands": [copy_record(h) for h in self._history],
        }

    @staticmethod
    def _trick_json(leader: int | None, trick: list[int]) -> list[dict[str, Any]]:
        return [
            {"seat": (leader + k) & 3, "card": CODES[c]}  # type: ignore[operator]
            for k, c in enumerate(trick)
        ]

    @staticmethod
    def _viewer(seat: int | None) -> int | None:
        """The seat a view is for; ``None`` (a spectator) for anything else."""
        return seat if type(seat) is int and 0 <= seat < 4 else None

    def _view_head(self, me: int | None) -> dict[str, Any]:
        """The view's first keys: phase, hand number, dealer, own hand, cards per hand."""
        return {
            "seat": me,
            "phase": self.PHASES[self._phase],
            "hand_number": self._hand_no + 1,
            "dealer": self._dealer,
            "hand": hand_codes(self._hands[me]) if me is not None else [],
            "hand_counts": [hand_count(h) for h in self._hands],
        }

    def _view_trick(self) -> dict[str, Any]:
        """The view's trick keys: the trick on the table, the last one, the broken flag."""
        last = None
        if self._last is not None:
            leader, trick, winner = self._last
            last = {"leader": leader, "cards": self._trick_json(leader, trick), "winner": winner}
        return {
            "trick": self._trick_json(self._leader, self._trick),
            "last_trick": last,
            "tricks_played": self._tricks_done,
            self.BROKEN_KEY: self._broken,
        }

    def to_json(self) -> dict[str, Any]:
        last = self._last
        data = {
            "game": self.engine.id,
            "seed": self._seed,
            "options": dict(self._options),
            "hand_no": self._hand_no,
            "dealer": self._dealer,
            "phase": self.PHASES[self._phase],
            "hands": [hand_codes(h) for h in self._hands],
            "trick": codes(self._trick),
            "leader": self._leader,
            "turn": self._turn,
            "tricks_done": self._tricks_done,
            self.BROKEN_KEY: self._broken,
            "won": [codes(w) for w in self._won],
            "last_trick": None if last is None else [last[0], codes(last[1]), last[2]],
            "history": [copy_record(h) for h in self._history],
            "winner": self._winner,
            **self._game_json(),
        }
        ordered = {key: data.pop(key) for key in self.JSON_KEYS}
        ordered.update(data)  # a key JSON_KEYS forgets still goes out (last)
        return ordered

    @abstractmethod
    def _game_json(self) -> dict[str, Any]:
        """The game's own fields for ``to_json``."""

    def _load(self, data: dict[str, Any]) -> None:
        """Restore the fields ``to_json`` wrote (the engine already set seed and options)."""
        self._hand_no = data["hand_no"]
        self._dealer = data["dealer"]
        self._phase = self.PHASES.index(data["phase"])
        self._hands = [masks_from_codes(h) for h in data["hands"]]
        self._trick = [INDEX[c] for c in data["trick"]]
        self._leader = data["leader"]
        self._turn = data["turn"]
        self._tricks_done = data["tricks_done"]
        self._broken = data[self.BROKEN_KEY]
        self._won = [[INDEX[c] for c in w] for w in data["won"]]
        last = data["last_trick"]
        self._last = None if last is None else (last[0], [INDEX[c] for c in last[1]], last[2])
        self._history = [copy_record(h) for h in data["history"]]
        self._winner = data["winner"]
        self._load_game(data)

    @abstractmethod
    def _load_game(self, data: dict[str, Any]) -> None:
        """Restore the game's own fields (what ``_game_json`` wrote)."""

    def card_zones(self) -> dict[str, list[str]]:
        zones = {f"hand_{s}": hand_codes(self._hands[s]) for s in SEATS}
        zones.update(self._aside_zones())
        zones["trick"] = codes(self._trick)
        for s in SEATS:
            zones[f"won_{s}"] = codes(self._won[s])
        return zones

    def _aside_zones(self) -> dict[str, list[str]]:
        """Cards neither in a hand, on the table nor won (Hearts' pending passes)."""
        return {}

    def hidden_from(self, seat: int | None) -> list[str]:
        """Every other hand, a partner's included."""
        return [c for s in SEATS if s != seat for c in hand_codes(self._hands[s])]

    def explain_illegal(self, seat: int, action: Action, legal: list[Action]) -> str:
        prelude = self._phase == PRELUDE
        kind, key, hint = self.PRELUDE_MOVE if prelude else PLAY_MOVE
        if action.get("type") != kind:
            return hint
        if set(action) != {"type", key}:
            return f'A {kind} takes exactly the keys "type" and "{key}".'
        if prelude:
            return self._explain_prelude(seat, action)
        card = action["card"]
        if not is_code(card):
            return f"{card!r} is not a card of the French deck."
        return self._refusal(seat, INDEX[card]) or "That card cannot be played now."


class TrickEngine(Engine):
    """The engine of a :class:`TrickState` game: four seats, the 52-card deck."""

    state_class: ClassVar[type[TrickState]]
    min_players = 4
    max_players = 4
    player_counts = (4,)

    def deck(self, players: int, options: dict[str, Any] | None = None) -> list[str]:
        return list(FRENCH_DECK)

    def new_game(self, players, options=None, seed=None, deck=None) -> TrickState:
        setup = self.setup(players, options, seed, deck)
        state = self.state_class(self, setup.seed, setup.options)
        state._dealer = setup.dealer
        if setup.deck is not None:
            state._deal(deal_masks(setup.deck, setup.dealer))
        else:
            state._deal(deal_shuffled(setup.seed, 0, setup.dealer))
        return state

    def from_json(self, data: dict[str, Any]) -> TrickState:
        state = self.state_class(self, data["seed"], dict(data["options"]))
        state._load(data)
        return state

    # -- robot ----------------------------------------------------------------------

    def robot_choice(self, view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
        if legal[0]["type"] != "play":
            return self.robot_prelude(view, legal)
        playable = [INDEX[a["card"]] for a in legal]
        choice = self.robot_card(view, playable)
        return next(a for a in legal if a["card"] == CODES[choice])

    @abstractmethod
    def robot_prelude(self, view: dict[str, Any], legal: list[Action]) -> Action:
        """The robot's prelude move (a pass, a bid) from its view."""

    @abstractmethod
    def robot_card(self, view: dict[str, Any], playable: list[int]) -> int:
        """The card index the robot plays among ``playable`` (its legal cards)."""
