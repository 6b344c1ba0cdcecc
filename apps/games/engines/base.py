"""The game-engine protocol (shared/spec/ENGINE.md).

Every hosted game is one module in this package that subclasses :class:`Engine` and
:class:`GameState`. Tables, tournaments, robots, the REST API and the tests drive
engines only through this protocol, so adding a game never touches anything else.

Nothing here may import Django: engines are pure rules, testable and benchmarkable on
their own. Randomness never comes from the global ``random`` module (see ``cards.py``).
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections import Counter
from dataclasses import dataclass
from typing import Any, ClassVar

from . import cards

Action = dict[str, Any]
Event = dict[str, Any]


class IllegalAction(Exception):
    """An action the rules refuse. The message is a sentence a player can read.

    Raised before anything changes: a refused action leaves the state untouched.
    """


class UnknownGame(LookupError):
    """``get_engine`` was asked for an id no module registers."""


def same_json(a: Any, b: Any) -> bool:
    """Equality of JSON values that also compares types (``True`` is not ``1``).

    Dict key order is irrelevant, list order matters: exactly the action comparison
    ENGINE.md asks for.
    """
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        if a.keys() != b.keys():
            return False
        pairs = ((v, b[k]) for k, v in a.items())
    elif isinstance(a, list):
        if len(a) != len(b):
            return False
        pairs = zip(a, b, strict=True)
    else:
        return a == b
    # leaves compared here rather than by a call each: every move of the kit's apply pays it
    for x, y in pairs:
        if type(x) is not type(y):
            return False
        if isinstance(x, (dict, list)):
            if not same_json(x, y):
                return False
        elif x != y:
            return False
    return True


def resolve_options(
    game_id: str, spec: dict[str, dict[str, Any]], given: dict[str, Any] | None, players: int
) -> dict[str, Any]:
    """Merge ``given`` over the defaults of ``spec``; ``ValueError`` names what is wrong.

    Choices are compared by type and value (``1`` is not accepted for ``True``); ranges
    need an int (not a bool). ``dealer`` must be ``None`` or a seat of this match.
    """
    if given is None:
        given = {}
    if not isinstance(given, dict):
        raise ValueError(f"{game_id}: options must be a dict, not {type(given).__name__}")
    resolved = {name: rule.get("default") for name, rule in spec.items()}
    for name, value in given.items():
        if name not in spec:
            known = ", ".join(sorted(spec))
            raise ValueError(f"{game_id}: unknown option '{name}' (known options: {known})")
        rule = spec[name]
        if name == "dealer" and value is None:
            resolved[name] = None
            continue
        if "choices" in rule:
            if not any(same_json(value, choice) for choice in rule["choices"]):
                raise ValueError(
                    f"{game_id}: option '{name}' must be one of {rule['choices']!r}, not {value!r}"
                )
        else:
            if type(value) is not int:
                raise ValueError(f"{game_id}: option '{name}' must be an integer, not {value!r}")
            low, high = rule.get("min"), rule.get("max")
            if (low is not None and value < low) or (high is not None and value > high):
                raise ValueError(
                    f"{game_id}: option '{name}' must be between {low} and {high}, not {value}"
                )
        resolved[name] = value
    dealer = resolved.get("dealer")
    if dealer is not None and not (0 <= dealer < players):
        raise ValueError(f"{game_id}: option 'dealer' must be a seat 0..{players - 1}, not {dealer}")
    return resolved


def check_deck(game_id: str, deck: Any, expected: list[str]) -> list[str]:
    """Return ``deck`` as a list if it is exactly the game's deck (as a multiset)."""
    if not isinstance(deck, list) or not all(isinstance(c, str) for c in deck):
        raise ValueError(f"{game_id}: deck must be a list of card codes")
    got, want = Counter(deck), Counter(expected)
    if got != want:
        missing = sorted((want - got).elements())
        extra = sorted((got - want).elements())
        raise ValueError(
            f"{game_id}: deck is not the game's deck of {len(expected)} cards"
            f" (missing {missing[:6]}, unexpected {extra[:6]})"
        )
    return list(deck)


class GameState(ABC):
    """One whole match. Mutable: ``apply`` changes it in place after validating.

    Subclasses implement the rules in ``_apply`` (which receives an action already
    known to be legal) and the reading methods. ``apply`` here does the checks every
    game shares, so no engine can apply an action that ``legal_actions`` does not list.
    """

    engine: ClassVar[Engine]
    teams: list[list[int]]

    # -- the protocol -----------------------------------------------------------

    @property
    @abstractmethod
    def to_act(self) -> list[int]:
        """Seats that must act now; ``[]`` once the match is over."""

    @property
    @abstractmethod
    def is_over(self) -> bool: ...

    @abstractmethod
    def legal_actions(self, seat: int | None) -> list[Action]: ...

    @abstractmethod
    def result(self) -> dict[str, Any]: ...

    @abstractmethod
    def view(self, seat: int | None) -> dict[str, Any]: ...

    @abstractmethod
    def to_json(self) -> dict[str, Any]: ...

    # -- what the platform and the conformance suite also need -----------------

    @abstractmethod
    def card_zones(self) -> dict[str, list[str]]:
        """Every card of the deck, by where it lies now (hands, stock, table, piles).

        The concatenation of all zones is the game's deck as a multiset at every step:
        the conformance suite checks it (cards are conserved).
        """

    @abstractmethod
    def hidden_from(self, seat: int | None) -> list[str]:
        """The cards ``seat`` cannot see now (``None``: a spectator, who sees no hidden card).

        The conformance suite checks that no such card appears in ``view(seat)``.
        """

    @property
    def players(self) -> int:
        return sum(map(len, self.teams))

    def apply(self, seat: int, action: Action) -> list[Event]:
        """Apply ``action`` for ``seat`` or raise :class:`IllegalAction`, changing nothing."""
        legal = self._checked_legal_actions(seat, action)
        for candidate in legal:
            # ``==`` (in C) first: ``same_json`` implies it, so only an equal candidate pays
            # for the strict, type-checking comparison (it was most of a move's time)
            if candidate == action and same_json(candidate, action):
                return self._apply(seat, candidate)
        raise IllegalAction(self.explain_illegal(seat, action, legal))

    def _checked_legal_actions(self, seat: Any, action: Any) -> list[Action]:
        if self.is_over:
            raise IllegalAction("The match is over: no more moves can be made.")
        if type(seat) is not int or not 0 <= seat < self.players:
            raise IllegalAction(f"There is no seat {seat!r} at this table.")
        if seat not in self.to_act:
            raise IllegalAction(f"It is not seat {seat}'s turn.")
        if not isinstance(action, dict):
            raise IllegalAction("A move must be a JSON object such as {\"type\": \"play\", ...}.")
        return self.legal_actions(seat)

    def explain_illegal(self, seat: int, action: Action, legal: list[Action]) -> str:
        """A readable sentence for a refused action. Engines may say more."""
        kind = action.get("type")
        types = sorted({a.get("type") for a in legal if isinstance(a.get("type"), str)})
        if not any(a.get("type") == kind for a in legal):
            return f"A move of type {kind!r} is not possible now; possible: {', '.join(types)}."
        shapes = {tuple(sorted(a)) for a in legal if a.get("type") == kind}
        if tuple(sorted(action)) not in shapes:
            wanted = " or ".join(", ".join(shape) for shape in sorted(shapes))
            return f"A {kind!r} move takes exactly the keys: {wanted}."
        card = action.get("card")
        if isinstance(card, str):
            hand = self.view(seat).get("hand")
            if isinstance(hand, list) and card not in hand:
                return f"The card {card!r} is not in your hand."
        return f"That {kind!r} move is not allowed now: {action!r}."

    @abstractmethod
    def _apply(self, seat: int, action: Action) -> list[Event]:
        """Apply a legal action (already checked) and return its events."""

    def forfeit(self, seat: int) -> list[Event]:
        """The seat's player left the hand out of turn (engines with ``forfeits_hand``):
        the rules go on without them. Others have no such move."""
        raise IllegalAction("In this game a player cannot leave the hand out of turn.")


@dataclass(frozen=True)
class Setup:
    """``new_game``'s arguments, checked: what every engine starts a match from."""

    players: int
    options: dict[str, Any]  # resolved: every option, defaults filled in
    seed: int
    deck: list[str] | None  # the stacked deck for the first deal, checked, or None
    dealer: int  # the ``dealer`` option, or drawn from the seed


def option_units(options: dict[str, Any] | None, name: str, default: int = 1) -> int:
    """A whole-number option counted in units of the stake (a fee), ``default`` when unset or bad."""
    value = (options or {}).get(name, default)
    return value if type(value) is int and value >= 0 else default


class Engine(ABC):
    """A game: its identity, options, and the factory of its states."""

    id: ClassVar[str]
    name: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options: ClassVar[dict[str, dict[str, Any]]]
    #: the player counts actually offered (Scopa: 2 or 4, not 3)
    player_counts: ClassVar[tuple[int, ...]] = ()
    #: True when a lower ``result()["scores"]`` entry is better (Hearts): the platform ranks
    #: sides with it (e.g. the best-placed side without an abandonment, platform.md §8.6)
    lower_score_wins: ClassVar[bool] = False
    #: how a staked match's money is divided (platform.md §8.5): "pot" (the winning side takes
    #: the stakes less the bank's 20%), "fees" (the winner takes every fee paid, no bank:
    #: Scala 40), "units" (the engine's balances × stake from a 30-unit escrow: Bestia),
    #: "nets" (the engine's zero-sum nets, no bank: Poker all'italiana)
    settlement: ClassVar[str] = "pot"
    #: the bank's share of a "pot" match (seeds 002 and 004: 20 per cent), before the cash
    #: regime's cap (regulation.md §8); the operator's TABLE_BANK_PERCENT may set another
    bank_percent: ClassVar[int] = 20
    #: the card faces a table of this game may be drawn with, its own deck's first: an Italian
    #: game the seeds allow with French cards declares ``("italian", "french")``; empty means
    #: its own deck's alone (see :meth:`card_faces`)
    faces: ClassVar[tuple[str, ...]] = ()
    #: True when a player who leaves (or drops) forfeits only the hand in play, folded out of
    #: turn by ``state.forfeit(seat)`` (logged and replayed as ``{"type": "forfeit"}``), and
    #: the hand goes on among the others (poker, seed 001; platform.md §8.5)
    forfeits_hand: ClassVar[bool] = False
    #: what a table of this game may be played for (platform.md §8.1): poker is credits only
    #: (seed 001), so its tables never offer cash
    currencies: ClassVar[tuple[str, ...]] = ("credits", "cash")
    #: True when the sides' running points stay hidden during a hand (counting is part of the
    #: skill, Briscola §7): the table shows them at the hand's end, or always with ``show_points``
    running_points_hidden: ClassVar[bool] = False
    #: the stakes a human puts in escrow at the start, in units of the table's stake
    #: (platform.md §8.5): 1, or the option named here (Scala 40's ``entry_fee``);
    #: ``escrow_units_fixed`` overrides it (Bestia's 30-unit escrow)
    escrow_units_option: ClassVar[str] = ""
    escrow_units_fixed: ClassVar[int] = 0
    #: moves that cost a fee when played, action type -> the option giving the fee in units of
    #: the stake (Scala 40's re-entry: ``{"reenter": "reentry_fee"}``); the most of them a
    #: player may pay in one match is ``paid_actions_limit``'s option (``max_reentries``)
    paid_actions: ClassVar[dict[str, str]] = {}
    paid_actions_limit: ClassVar[str] = ""
    #: the move a human seat that cannot pay a paid action's fee makes instead (Scala 40 declines)
    paid_action_refusal: ClassVar[dict[str, Any] | None] = None
    #: a human's seat the platform plays (away, timed out, leaving) only makes the moves in
    #: ``passive_moves`` (check, stand pat, fold): never a chip in for an absent player (poker,
    #: seed 001); empty: the engine's robot plays it
    passive_moves: ClassVar[tuple[dict[str, Any], ...]] = ()
    #: a table of this game deals hand after hand, each hand a match of its own with the chips
    #: carried over and no confirmation between them; who sits out is not dealt in (poker, §8.5)
    continuous_hands: ClassVar[bool] = False
    #: the XP a won official match gives (platform.md §9)
    xp: ClassVar[int] = 10
    #: every finished official match's score goes to the game's leaderboard (each player's best
    #: game), XP only for a win; its tables are ranked unless made practice (Solitario)
    leaderboard_score: ClassVar[bool] = False

    def escrow_units(self, options: dict[str, Any] | None = None) -> int:
        """How many stakes a human seat puts in escrow at the start (platform.md §8.5)."""
        if self.escrow_units_fixed:
            return self.escrow_units_fixed
        return option_units(options, self.escrow_units_option) if self.escrow_units_option else 1

    def paid_action_units(self, action: Any, options: dict[str, Any] | None = None) -> int:
        """The fee of ``action`` in units of the stake (0: it costs nothing)."""
        kind = action.get("type") if isinstance(action, dict) else None
        option = self.paid_actions.get(kind) if isinstance(kind, str) else None
        return option_units(options, option) if option else 0

    def max_paid_units(self, options: dict[str, Any] | None = None) -> int:
        """The most one player can pay into one match, in units of the stake: the escrow and
        every paid action allowed (the cash regime's per-session cap, regulation.md §8)."""
        extra = sum(option_units(options, o) for o in set(self.paid_actions.values()))
        times = option_units(options, self.paid_actions_limit) if self.paid_actions_limit else 1
        return self.escrow_units(options) + (extra * times if self.paid_actions else 0)

    def passive_action(self, state: GameState, seat: int) -> Action:
        """The move of a human seat the platform plays in a game with ``passive_moves``: the
        first of them that is legal, else the first legal move."""
        legal = state.legal_actions(seat)
        for wanted in self.passive_moves:
            if wanted in legal:
                return wanted
        return legal[0]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if not cls.player_counts and hasattr(cls, "min_players") and hasattr(cls, "max_players"):
            cls.player_counts = tuple(range(cls.min_players, cls.max_players + 1))

    def check_players(self, players: Any) -> int:
        if type(players) is not int or players not in self.player_counts:
            counts = ", ".join(str(n) for n in self.player_counts)
            raise ValueError(f"{self.id}: {players!r} players is not possible (allowed: {counts})")
        return players

    def card_faces(self) -> tuple[str, ...]:
        """The faces a table may choose (``"italian"``, ``"french"``), the game's own first."""
        if self.faces:
            return self.faces
        own = all(cards.is_card(code, "italian") for code in self.deck(self.min_players))
        return ("italian",) if own else ("french",)

    def resolve_options(self, players: int, options: dict[str, Any] | None) -> dict[str, Any]:
        return resolve_options(self.id, self.options, options, players)

    def setup(self, players: Any, options: dict[str, Any] | None, seed: Any, deck: Any) -> Setup:
        """Check ``new_game``'s arguments the way every engine must (ValueError naming what is
        wrong); draw a seed when none is given and the first dealer when not chosen."""
        n = self.check_players(players)
        resolved = self.resolve_options(n, options)
        if seed is None:
            seed = cards.new_seed()
        elif type(seed) is not int:
            raise ValueError(f"{self.id}: seed must be an integer, not {seed!r}")
        if deck is not None:
            deck = check_deck(self.id, deck, self.deck(n, resolved))
        dealer = resolved.get("dealer")
        if dealer is None:
            dealer = cards.derive_rng(seed, "dealer").randrange(n)
        return Setup(players=n, options=resolved, seed=seed, deck=deck, dealer=dealer)

    @abstractmethod
    def deck(self, players: int, options: dict[str, Any] | None = None) -> list[str]:
        """The full deck a match of ``players`` seats uses (what ``new_game(deck=...)`` takes)."""

    @abstractmethod
    def new_game(
        self,
        players: int,
        options: dict[str, Any] | None = None,
        seed: int | None = None,
        deck: list[str] | None = None,
    ) -> GameState: ...

    @abstractmethod
    def from_json(self, data: dict[str, Any]) -> GameState: ...

    def bot_action(self, state: GameState, seat: int, rng: random.Random) -> Action:
        """The robot's move. It sees what the seat sees (``view(seat)``) and nothing else."""
        legal = state.legal_actions(seat)
        if not legal:
            raise IllegalAction(f"Seat {seat} has no move to make now.")
        return self.robot_choice(state.view(seat), legal, rng)

    def robot_choice(self, view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
        """Pick one of ``legal`` from the seat's own view. Engines override with a strategy."""
        return rng.choice(legal)

    def __repr__(self) -> str:
        return f"<Engine {self.id}>"
