"""Hearts for 4 players, each alone (shared/spec/games/hearts.md).

Simultaneous pass of three cards to the right-hand opponent ``(s+1) % 4`` (the cards
move only once all four have chosen), the 2 of clubs leads, no points on the first
trick, hearts broken, the Peppa (``Qs``) worth 13, shooting the moon, match to 100
with a single lowest total required to end.

Internally cards are integers and hands suit masks (see ``_tricks_french``) because
random playouts and robots run whole matches thousands of times a second; ``apply``
has a fast path that accepts exactly what ``legal_actions`` lists and leaves the
kit's generic path (and its messages) to everything else.
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any

from ._tricks_french import (
    BIT_OF,
    CODES,
    FRENCH_DECK,
    HEARTS,
    INDEX,
    MASK_CODES,
    RANK_OF,
    SUIT_OF,
    deal_masks,
    deal_shuffled,
    hand_codes,
    hand_count,
    is_code,
    masks_from_codes,
    play_actions,
    suit_name,
)
from .base import Action, Engine, Event, GameState

PASS, PLAY, OVER = 0, 1, 2
PHASES = ("pass", "play", "over")
QS = INDEX["Qs"]
QS_BIT = BIT_OF[QS]
TWO_CLUBS = INDEX["2c"]
#: hand points of each card: hearts 1, the Peppa 13
POINTS: tuple[int, ...] = tuple(13 if i == QS else (1 if SUIT_OF[i] == HEARTS else 0) for i in range(52))
#: the 286 position triples of a 13-card hand, in canonical order of the cards
COMBOS: tuple[tuple[int, int, int], ...] = tuple(combinations(range(13), 3))
ALL_SUITS = (0, 1, 2, 3)
NO_HEARTS = (0, 1, 2)
SEATS = (0, 1, 2, 3)


def _codes(indices: Any) -> list[str]:
    return [CODES[i] for i in indices]


def _copy_record(record: dict[str, Any]) -> dict[str, Any]:
    return {k: (list(v) if type(v) is list else v) for k, v in record.items()}


def match_winner(totals: list[int], hands_played: int, options: dict[str, Any]) -> int | None:
    """The winner if the match ends with these totals (rules file, section 8 and D6).

    The lowest total must be held by one seat alone; then ``points`` mode needs some
    total at ``target`` or more, ``hands`` mode needs ``hands`` hands played.
    """
    low = min(totals)
    if totals.count(low) != 1:
        return None
    if options["mode"] == "points":
        if max(totals) < options["target"]:
            return None
    elif hands_played < options["hands"]:
        return None
    return totals.index(low)


class HeartsState(GameState):
    """One match. Fields are private and integer-coded; ``to_json`` gives the plain form."""

    def __init__(self, engine: HeartsEngine, seed: int, options: dict[str, Any]) -> None:
        self.engine = engine
        self.teams = [[0], [1], [2], [3]]
        self._seed = seed
        self._options = options
        self._hand_no = 0  # 0-based number of the hand being played
        self._dealer = 0
        self._phase = PASS
        self._hands: list[list[int]] = [[0, 0, 0, 0] for _ in SEATS]
        self._passes: list[tuple[int, ...] | None] = [None, None, None, None]
        self._trick: list[int] = []
        self._leader: int | None = None
        self._turn: int | None = None
        self._tricks_done = 0
        self._broken = False
        self._taken = [0, 0, 0, 0]
        self._won: list[list[int]] = [[], [], [], []]
        self._last: tuple[int, list[int], int] | None = None
        self._totals = [0, 0, 0, 0]
        self._history: list[dict[str, Any]] = []
        self._winner: int | None = None

    # -- dealing ------------------------------------------------------------------

    def _deal(self, hands: list[list[int]]) -> None:
        self._hands = hands
        self._phase = PASS
        self._passes = [None, None, None, None]
        self._trick = []
        self._leader = self._turn = None
        self._tricks_done = 0
        self._broken = False
        self._taken = [0, 0, 0, 0]
        self._won = [[], [], [], []]
        self._last = None

    # -- protocol -------------------------------------------------------------------

    @property
    def to_act(self) -> list[int]:
        phase = self._phase
        if phase == PLAY:
            return [self._turn]
        if phase == PASS:
            passes = self._passes
            return [s for s in SEATS if passes[s] is None]
        return []

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
                    return [{"type": "play", "card": c} for c in MASK_CODES[led][mask]]
                if self._tricks_done == 0:
                    safe = [hand[0], hand[1], hand[2] & ~QS_BIT, 0]
                    if safe[0] or safe[1] or safe[2]:
                        return play_actions(safe, NO_HEARTS)
                return play_actions(hand, ALL_SUITS)
            if self._tricks_done == 0:
                return [{"type": "play", "card": "2c"}]
            if not self._broken and (hand[0] or hand[1] or hand[2]):
                return play_actions(hand, NO_HEARTS)
            return play_actions(hand, ALL_SUITS)
        if phase == PASS and type(seat) is int and 0 <= seat < 4 and self._passes[seat] is None:
            h = hand_codes(self._hands[seat])
            return [{"type": "pass", "cards": [h[i], h[j], h[k]]} for i, j, k in COMBOS]
        return []

    def _refusal(self, seat: int, i: int) -> str | None:
        """Why seat may not play card ``i`` now (``None``: it may). Mirrors ``legal_actions``."""
        hand = self._hands[seat]
        suit = SUIT_OF[i]
        if not hand[suit] & BIT_OF[i]:
            return f"The card {CODES[i]} is not in your hand."
        trick = self._trick
        if not trick:
            if self._tricks_done == 0:
                if i == TWO_CLUBS:
                    return None
                return "The first trick must be led with the 2 of clubs (2c)."
            if suit == HEARTS and not self._broken and (hand[0] or hand[1] or hand[2]):
                return "Hearts are not broken yet: you cannot lead a heart while you hold other suits."
            return None
        led = SUIT_OF[trick[0]]
        if suit == led:
            return None
        if hand[led]:
            return f"You must follow suit: play a card of {suit_name(led)}."
        if self._tricks_done == 0 and (suit == HEARTS or i == QS) and (
            hand[0] or hand[1] or hand[2] & ~QS_BIT
        ):
            return (
                "No points on the first trick: you cannot play a heart or the queen of spades"
                " while you hold other cards."
            )
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
                        trick = self._trick
                        # a held card of the suit led is always legal; anything else is checked
                        if hand[suit] & bit and (
                            (trick and SUIT_OF[trick[0]] == suit) or self._refusal(seat, i) is None
                        ):
                            # inline of ``_play`` for the common case (not the fourth card)
                            if len(trick) < 3:
                                hand[suit] ^= bit
                                trick.append(i)
                                if suit == HEARTS:
                                    self._broken = True
                                self._turn = (seat + 1) & 3
                                return [{"type": "play", "seat": seat, "card": card}]
                            return self._play(seat, i)
            elif phase == PASS and 0 <= seat < 4 and self._passes[seat] is None:
                chosen = self._pass_indices(seat, action)
                if chosen is not None:
                    return self._pass(seat, chosen)
        return super().apply(seat, self._canonical(action))

    def _pass_indices(self, seat: int, action: Action) -> tuple[int, ...] | None:
        """The three sorted card indices of a valid pass of ``seat``, else ``None``."""
        picked = action.get("cards")
        if action.get("type") != "pass" or type(picked) is not list or len(picked) != 3:
            return None
        hand = self._hands[seat]
        out = []
        for code in picked:
            if type(code) is not str:
                return None
            i = INDEX.get(code)
            if i is None or not hand[SUIT_OF[i]] & BIT_OF[i]:
                return None
            out.append(i)
        if out[0] == out[1] or out[0] == out[2] or out[1] == out[2]:
            return None
        out.sort()
        return tuple(out)

    @staticmethod
    def _canonical(action: Any) -> Any:
        """A pass lists its cards in canonical order; the client may send click order."""
        if type(action) is dict and action.get("type") == "pass":
            picked = action.get("cards")
            if (
                type(picked) is list and len(picked) == 3
                and all(is_code(c) for c in picked) and len(set(picked)) == 3
            ):
                return {**action, "cards": sorted(picked, key=INDEX.__getitem__)}
        return action

    def _apply(self, seat: int, action: Action) -> list[Event]:
        if action["type"] == "play":
            return self._play(seat, INDEX[action["card"]])
        return self._pass(seat, tuple(sorted(INDEX[c] for c in action["cards"])))

    # -- moves ----------------------------------------------------------------------

    def _pass(self, seat: int, chosen: tuple[int, ...]) -> list[Event]:
        hand = self._hands[seat]
        for i in chosen:
            hand[SUIT_OF[i]] &= ~BIT_OF[i]
        passes = self._passes
        passes[seat] = chosen
        events: list[Event] = [{"type": "pass", "seat": seat}]
        if passes[0] is None or passes[1] is None or passes[2] is None or passes[3] is None:
            return events
        hands = self._hands
        for s in SEATS:
            target = hands[(s + 1) & 3]
            for i in passes[s]:  # type: ignore[union-attr]
                target[SUIT_OF[i]] |= BIT_OF[i]
        leader = next(s for s in SEATS if hands[s][0] & 1)
        self._phase = PLAY
        self._leader = self._turn = leader
        events.append({"type": "exchange", "leader": leader})
        return events

    def _play(self, seat: int, i: int) -> list[Event]:
        self._hands[seat][SUIT_OF[i]] &= ~BIT_OF[i]
        trick = self._trick
        trick.append(i)
        if i >= 39:  # a heart
            self._broken = True
        events: list[Event] = [{"type": "play", "seat": seat, "card": CODES[i]}]
        if len(trick) < 4:
            self._turn = (seat + 1) & 3
            return events
        top = trick[0]
        led = SUIT_OF[top]
        best = 0
        for pos in (1, 2, 3):
            c = trick[pos]
            if c > top and SUIT_OF[c] == led:
                top = c
                best = pos
        leader = self._leader
        winner = (leader + best) & 3  # type: ignore[operator]
        points = POINTS[trick[0]] + POINTS[trick[1]] + POINTS[trick[2]] + POINTS[trick[3]]
        self._taken[winner] += points
        self._won[winner].extend(trick)
        self._last = (leader, trick, winner)  # type: ignore[assignment]
        self._trick = []
        self._tricks_done += 1
        events.append({"type": "trick", "winner": winner, "points": points})
        if self._tricks_done == 13:
            events.extend(self._end_hand())
        else:
            self._leader = self._turn = winner
        return events

    def _end_hand(self) -> list[Event]:
        taken = self._taken
        moon = next((s for s in SEATS if taken[s] == 26), None)
        points = list(taken) if moon is None else [0 if s == moon else 26 for s in SEATS]
        totals = self._totals
        for s in SEATS:
            totals[s] += points[s]
        self._history.append({
            "hand": self._hand_no + 1, "dealer": self._dealer, "taken": list(taken),
            "points": points, "moon": moon, "totals": list(totals),
        })
        events: list[Event] = [
            {"type": "hand_over", "points": list(points), "moon": moon, "totals": list(totals)}
        ]
        winner = self._decided()
        if winner is not None:
            self._winner = winner
            self._phase = OVER
            self._turn = None
            events.append({"type": "match_over", "winner": winner, "scores": list(totals)})
            return events
        self._hand_no += 1
        self._dealer = (self._dealer + 1) & 3
        self._deal(deal_shuffled(self._seed, self._hand_no, self._dealer))
        events.append({"type": "deal", "hand": self._hand_no + 1, "dealer": self._dealer})
        return events

    def _decided(self) -> int | None:
        return match_winner(self._totals, len(self._history), self._options)

    # -- reading --------------------------------------------------------------------

    def result(self) -> dict[str, Any]:
        return {
            "scores": list(self._totals),
            "winner": self._winner,
            "hands": [_copy_record(h) for h in self._history],
        }

    def _trick_json(self, leader: int | None, trick: list[int]) -> list[dict[str, Any]]:
        return [{"seat": (leader + k) & 3, "card": CODES[c]} for k, c in enumerate(trick)]  # type: ignore[operator]

    def _last_json(self) -> dict[str, Any] | None:
        if self._last is None:
            return None
        leader, trick, winner = self._last
        return {"leader": leader, "cards": self._trick_json(leader, trick), "winner": winner}

    def view(self, seat: int | None) -> dict[str, Any]:
        me = seat if type(seat) is int and 0 <= seat < 4 else None
        passes = self._passes
        passed = received = None
        if me is not None:
            if passes[me] is not None:
                passed = _codes(passes[me])
            giver = passes[(me + 3) & 3]
            if self._phase != PASS and giver is not None:
                received = _codes(giver)
        return {
            "seat": me,
            "phase": PHASES[self._phase],
            "hand_number": self._hand_no + 1,
            "dealer": self._dealer,
            "hand": hand_codes(self._hands[me]) if me is not None else [],
            "hand_counts": [hand_count(h) for h in self._hands],
            "passed": passed,
            "received": received,
            "pass_done": [p is not None for p in passes],
            "trick": self._trick_json(self._leader, self._trick),
            "last_trick": self._last_json(),
            "tricks_played": self._tricks_done,
            "hearts_broken": self._broken,
            "taken_points": list(self._taken),
            "totals": list(self._totals),
            "to_act": self.to_act,
            "winner": self._winner,
            "mode": self._options["mode"],
            "target": self._options["target"],
            "hands_planned": self._options["hands"],
        }

    def to_json(self) -> dict[str, Any]:
        return {
            "game": "hearts",
            "seed": self._seed,
            "options": dict(self._options),
            "hand_no": self._hand_no,
            "dealer": self._dealer,
            "phase": PHASES[self._phase],
            "hands": [hand_codes(h) for h in self._hands],
            "passes": [None if p is None else _codes(p) for p in self._passes],
            "trick": _codes(self._trick),
            "leader": self._leader,
            "turn": self._turn,
            "tricks_done": self._tricks_done,
            "hearts_broken": self._broken,
            "taken": list(self._taken),
            "won": [_codes(w) for w in self._won],
            "last_trick": None if self._last is None else [self._last[0], _codes(self._last[1]), self._last[2]],
            "totals": list(self._totals),
            "history": [_copy_record(h) for h in self._history],
            "winner": self._winner,
        }

    def card_zones(self) -> dict[str, list[str]]:
        zones = {f"hand_{s}": hand_codes(self._hands[s]) for s in SEATS}
        if self._phase == PASS:
            for s in SEATS:
                zones[f"passing_{s}"] = _codes(self._passes[s] or ())
        zones["trick"] = _codes(self._trick)
        for s in SEATS:
            zones[f"won_{s}"] = _codes(self._won[s])
        return zones

    def hidden_from(self, seat: int | None) -> list[str]:
        """Other hands and others' pending passes; a seat knows where its passed cards went."""
        hidden: list[str] = []
        pending = self._phase == PASS
        for s in SEATS:
            if s == seat:
                continue
            hidden.extend(hand_codes(self._hands[s]))
            if pending and self._passes[s] is not None:
                hidden.extend(_codes(self._passes[s]))
        mine = self._passes[seat] if type(seat) is int and 0 <= seat < 4 else None
        if not pending and mine is not None:
            known = set(_codes(mine))
            hidden = [c for c in hidden if c not in known]
        return hidden

    def explain_illegal(self, seat: int, action: Action, legal: list[Action]) -> str:
        kind = action.get("type")
        if self._phase == PASS:
            if kind != "pass":
                return 'Now every player passes three cards: {"type": "pass", "cards": [c1, c2, c3]}.'
            if set(action) != {"type", "cards"}:
                return 'A pass takes exactly the keys "type" and "cards".'
            picked = action["cards"]
            if type(picked) is not list:
                return "The cards to pass must be a list of three card codes."
            if len(picked) != 3:
                return f"You must pass exactly three cards, not {len(picked)}."
            for code in picked:
                if not is_code(code):
                    return f"{code!r} is not a card of the French deck."
            if len(set(picked)) != 3:
                return "You cannot pass the same card twice."
            hand = self._hands[seat]
            for code in picked:
                i = INDEX[code]
                if not hand[SUIT_OF[i]] & BIT_OF[i]:
                    return f"The card {code} is not in your hand."
            return "That pass is not allowed now."
        if kind != "play":
            return 'It is your turn to play a card: {"type": "play", "card": <card>}.'
        if set(action) != {"type", "card"}:
            return 'A play takes exactly the keys "type" and "card".'
        card = action["card"]
        if not is_code(card):
            return f"{card!r} is not a card of the French deck."
        return self._refusal(seat, INDEX[card]) or "That card cannot be played now."


class HeartsEngine(Engine):
    id = "hearts"
    name = "Hearts"
    min_players = 4
    max_players = 4
    player_counts = (4,)
    lower_score_wins = True
    options = {
        "mode": {"default": "points", "choices": ["points", "hands"]},
        "target": {"default": 100, "choices": [50, 100]},
        "hands": {"default": 4, "min": 1, "max": 20},
        "dealer": {"default": None, "min": 0, "max": 3},
    }

    def deck(self, players: int, options: dict[str, Any] | None = None) -> list[str]:
        return list(FRENCH_DECK)

    def new_game(self, players, options=None, seed=None, deck=None) -> HeartsState:
        setup = self.setup(players, options, seed, deck)
        seed, deck = setup.seed, setup.deck
        state = HeartsState(self, seed, setup.options)
        state._dealer = setup.dealer
        if deck is not None:
            state._deal(deal_masks(deck, state._dealer))
        else:
            state._deal(deal_shuffled(seed, 0, state._dealer))
        return state

    def from_json(self, data: dict[str, Any]) -> HeartsState:
        state = HeartsState(self, data["seed"], dict(data["options"]))
        state._hand_no = data["hand_no"]
        state._dealer = data["dealer"]
        state._phase = PHASES.index(data["phase"])
        state._hands = [masks_from_codes(h) for h in data["hands"]]
        state._passes = [None if p is None else tuple(INDEX[c] for c in p) for p in data["passes"]]
        state._trick = [INDEX[c] for c in data["trick"]]
        state._leader = data["leader"]
        state._turn = data["turn"]
        state._tricks_done = data["tricks_done"]
        state._broken = data["hearts_broken"]
        state._taken = list(data["taken"])
        state._won = [[INDEX[c] for c in w] for w in data["won"]]
        last = data["last_trick"]
        state._last = None if last is None else (last[0], [INDEX[c] for c in last[1]], last[2])
        state._totals = list(data["totals"])
        state._history = [_copy_record(h) for h in data["history"]]
        state._winner = data["winner"]
        return state

    # -- robot ----------------------------------------------------------------------

    def robot_choice(self, view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
        """The rules file's robot (section 11): shed danger, duck under the winning card."""
        if legal[0]["type"] == "pass":
            worst = sorted(view["hand"], key=_pass_danger, reverse=True)[:3]
            want = sorted(worst, key=INDEX.__getitem__)
            return next((a for a in legal if a["cards"] == want), legal[0])
        playable = [INDEX[a["card"]] for a in legal]
        choice = _robot_play(view, playable)
        return next(a for a in legal if a["card"] == CODES[choice])


BIG_SPADES = (INDEX["Ks"], INDEX["As"])


def _pass_danger(code: str) -> int:
    """Qs, Ks, As first, then the highest hearts, then the highest other cards."""
    i = INDEX[code]
    if i == QS or i in BIG_SPADES:
        return 100 + RANK_OF[i]
    if SUIT_OF[i] == HEARTS:
        return 50 + RANK_OF[i]
    return RANK_OF[i]


def _discard_danger(i: int) -> int:
    """Void in the suit led: the Peppa, then high spades, high hearts, high cards."""
    if i == QS:
        return 1000
    if i in BIG_SPADES:
        return 100 + RANK_OF[i]
    if SUIT_OF[i] == HEARTS:
        return 50 + RANK_OF[i]
    return RANK_OF[i]


def _robot_play(view: dict[str, Any], playable: list[int]) -> int:
    trick = [INDEX[t["card"]] for t in view["trick"]]
    if not trick:
        safe = [i for i in playable if i != QS and i not in BIG_SPADES] or playable
        return min(safe, key=lambda i: (RANK_OF[i], i))
    led = SUIT_OF[trick[0]]
    if SUIT_OF[playable[0]] != led:  # void: every playable card is off-suit
        return max(playable, key=lambda i: (_discard_danger(i), i))
    winning = max(c for c in trick if SUIT_OF[c] == led)
    below = [i for i in playable if i < winning]
    if below:
        return max(below)
    if len(trick) == 3 and not any(POINTS[c] for c in trick):
        return max([i for i in playable if i != QS] or playable)
    return min([i for i in playable if i != QS] or playable)


ENGINE = HeartsEngine()
