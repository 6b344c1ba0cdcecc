"""Hearts for 4 players, each alone (shared/spec/games/hearts.md).

Simultaneous pass of three cards to the right-hand opponent ``(s+1) % 4`` (the cards
move only once all four have chosen), the 2 of clubs leads, no points on the first
trick, hearts broken, the Peppa (``Qs``) worth 13, shooting the moon, match to 100
with a single lowest total required to end.

The trick play, the JSON and the views are shared with Spades (``_tricks_french``: cards
as integers, hands as suit masks, a fast ``apply``); this module states Hearts' own
rules: the pass, the first-trick restrictions, hearts broken, points and the match end.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from ._tricks_french import (
    BIT_OF,
    HEARTS,
    INDEX,
    PLAY,
    PRELUDE,
    RANK_OF,
    SEATS,
    SUIT_OF,
    TrickEngine,
    TrickState,
    all_plays,
    codes,
    hand_codes,
    is_code,
    play_actions,
)
from .base import Action, Event

PASS = PRELUDE  # Hearts' prelude: the pass
QS = INDEX["Qs"]
QS_BIT = BIT_OF[QS]
TWO_CLUBS = INDEX["2c"]
#: hand points of each card: hearts 1, the Peppa 13
POINTS: tuple[int, ...] = tuple(13 if i == QS else (1 if SUIT_OF[i] == HEARTS else 0) for i in range(52))
NO_HEARTS = (0, 1, 2)


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


class HeartsState(TrickState):
    """One match: the pass, the first-trick rules, points, the moon. ``_scores`` are the totals."""

    PHASES = ("pass", "play", "over")
    TEAMS = ((0,), (1,), (2,), (3,))
    BREAKS = HEARTS
    BROKEN_KEY = "hearts_broken"
    PRELUDE_MOVE = (
        "pass", "cards", 'Now every player passes three cards: {"type": "pass", "cards": [c1, c2, c3]}.'
    )
    JSON_KEYS = (
        "game", "seed", "options", "hand_no", "dealer", "phase", "hands", "passes", "trick", "leader",
        "turn", "tricks_done", "hearts_broken", "taken", "won", "last_trick", "totals", "history", "winner",
    )

    def __init__(self, engine: HeartsEngine, seed: int, options: dict[str, Any]) -> None:
        super().__init__(engine, seed, options)
        self._passes: list[tuple[int, ...] | None] = [None, None, None, None]
        self._taken = [0, 0, 0, 0]  # points taken in this hand

    def _deal(self, hands: list[list[int]]) -> None:
        super()._deal(hands)
        self._passes = [None, None, None, None]
        self._leader = self._turn = None  # the 2c holder leads, once the cards are passed
        self._taken = [0, 0, 0, 0]

    @property
    def to_act(self) -> list[int]:
        phase = self._phase
        if phase == PLAY:
            return [self._turn]  # type: ignore[list-item]
        if phase == PASS:
            passes = self._passes
            return [s for s in SEATS if passes[s] is None]
        return []

    # -- the pass -------------------------------------------------------------------

    def _prelude_actions(self, seat: int | None) -> list[Action]:
        if type(seat) is int and 0 <= seat < 4 and self._passes[seat] is None:
            # fresh dicts and lists (callers may keep or change them), built as cheaply as
            # Python allows: the triples come from ``combinations`` in C, in canonical order
            return [
                {"type": "pass", "cards": [a, b, c]} for a, b, c in combinations(hand_codes(self._hands[seat]), 3)
            ]
        return []

    def _fast_prelude(self, seat: int, action: Action) -> list[Event] | None:
        if 0 <= seat < 4 and self._passes[seat] is None:
            chosen = self._pass_indices(seat, action)
            if chosen is not None:
                return self._pass(seat, chosen)
        return None

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

    def _apply_prelude(self, seat: int, action: Action) -> list[Event]:
        return self._pass(seat, tuple(sorted(INDEX[c] for c in action["cards"])))

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
        self._start_tricks(leader)
        events.append({"type": "exchange", "leader": leader})
        return events

    def _explain_prelude(self, seat: int, action: Action) -> str:
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

    # -- tricks: the 2c lead, no points on the first trick, hearts broken -------------

    def _leads(self, hand: list[int]) -> list[Action]:
        if self._tricks_done == 0:
            return [{"type": "play", "card": "2c"}]
        if not self._broken and (hand[0] or hand[1] or hand[2]):
            return play_actions(hand, NO_HEARTS)
        return all_plays(hand)

    def _lead_refusal(self, hand: list[int], i: int) -> str | None:
        if self._tricks_done == 0:
            if i == TWO_CLUBS:
                return None
            return "The first trick must be led with the 2 of clubs (2c)."
        if SUIT_OF[i] == HEARTS and not self._broken and (hand[0] or hand[1] or hand[2]):
            return "Hearts are not broken yet: you cannot lead a heart while you hold other suits."
        return None

    def _discards(self, hand: list[int]) -> list[Action]:
        if self._tricks_done == 0:
            safe = [hand[0], hand[1], hand[2] & ~QS_BIT, 0]
            if safe[0] or safe[1] or safe[2]:
                return play_actions(safe, NO_HEARTS)
        return all_plays(hand)

    def _discard_refusal(self, hand: list[int], i: int) -> str | None:
        if self._tricks_done == 0 and (SUIT_OF[i] == HEARTS or i == QS) and (
            hand[0] or hand[1] or hand[2] & ~QS_BIT
        ):
            return (
                "No points on the first trick: you cannot play a heart or the queen of spades"
                " while you hold other cards."
            )
        return None

    def _trick_won(self, winner: int, trick: list[int]) -> Event:
        points = POINTS[trick[0]] + POINTS[trick[1]] + POINTS[trick[2]] + POINTS[trick[3]]
        self._taken[winner] += points
        return {"type": "trick", "winner": winner, "points": points}

    # -- scoring ----------------------------------------------------------------------

    def _score_hand(self) -> Event:
        taken = self._taken
        moon = next((s for s in SEATS if taken[s] == 26), None)
        points = list(taken) if moon is None else [0 if s == moon else 26 for s in SEATS]
        totals = self._scores
        for s in SEATS:
            totals[s] += points[s]
        self._history.append({
            "hand": self._hand_no + 1, "dealer": self._dealer, "taken": list(taken),
            "points": points, "moon": moon, "totals": list(totals),
        })
        return {"type": "hand_over", "points": list(points), "moon": moon, "totals": list(totals)}

    def _match_winner(self) -> int | None:
        return match_winner(self._scores, len(self._history), self._options)

    # -- reading --------------------------------------------------------------------

    def view(self, seat: int | None) -> dict[str, Any]:
        me = self._viewer(seat)
        passes = self._passes
        passed = received = None
        if me is not None:
            if passes[me] is not None:
                passed = codes(passes[me])
            giver = passes[(me + 3) & 3]
            if self._phase != PASS and giver is not None:
                received = codes(giver)
        return {
            **self._view_head(me),
            "passed": passed,
            "received": received,
            "pass_done": [p is not None for p in passes],
            # every hand passes to the right-hand opponent, seat (s + 1) % 4 (hearts.md)
            "pass_direction": "right",
            **self._view_trick(),
            "taken_points": list(self._taken),
            "totals": list(self._scores),
            "to_act": self.to_act,
            "winner": self._winner,
            "mode": self._options["mode"],
            "target": self._options["target"],
            "hands_planned": self._options["hands"],
        }

    def _game_json(self) -> dict[str, Any]:
        return {
            "passes": [None if p is None else codes(p) for p in self._passes],
            "taken": list(self._taken),
            "totals": list(self._scores),
        }

    def _load_game(self, data: dict[str, Any]) -> None:
        self._passes = [None if p is None else tuple(INDEX[c] for c in p) for p in data["passes"]]
        self._taken = list(data["taken"])
        self._scores = list(data["totals"])

    def _aside_zones(self) -> dict[str, list[str]]:
        if self._phase != PASS:
            return {}
        return {f"passing_{s}": codes(self._passes[s] or ()) for s in SEATS}

    def hidden_from(self, seat: int | None) -> list[str]:
        """Other hands and others' pending passes; a seat knows where its passed cards went."""
        hidden: list[str] = []
        pending = self._phase == PASS
        for s in SEATS:
            if s == seat:
                continue
            hidden.extend(hand_codes(self._hands[s]))
            if pending and self._passes[s] is not None:
                hidden.extend(codes(self._passes[s]))
        mine = self._passes[seat] if type(seat) is int and 0 <= seat < 4 else None
        if not pending and mine is not None:
            known = set(codes(mine))
            hidden = [c for c in hidden if c not in known]
        return hidden


class HeartsEngine(TrickEngine):
    id = "hearts"
    xp = 15  # platform.md §9
    name = "Hearts"
    lower_score_wins = True
    options = {
        "mode": {"default": "points", "choices": ["points", "hands"]},
        "target": {"default": 100, "choices": [50, 100]},
        "hands": {"default": 4, "min": 1, "max": 20},
        "dealer": {"default": None, "min": 0, "max": 3},
    }
    state_class = HeartsState

    # -- robot: the rules file's (section 11): shed danger, duck under the winning card --

    def robot_prelude(self, view: dict[str, Any], legal: list[Action]) -> Action:
        worst = sorted(view["hand"], key=_pass_danger, reverse=True)[:3]
        want = sorted(worst, key=INDEX.__getitem__)
        return next((a for a in legal if a["cards"] == want), legal[0])

    def robot_card(self, view: dict[str, Any], playable: list[int]) -> int:
        return _robot_play(view, playable)


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
