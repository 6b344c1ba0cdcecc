"""Spades ("Picche") for 4 players in fixed partnerships (shared/spec/games/spades.md).

One round of bids ``0..13`` (``0`` is Nil), spades always trumps and cannot be led
until broken, 10 points per bid trick plus one per overtrick ("bag"), every 10 bags
cost 100 with the surplus carried over, Nil worth ±100, match to 500 with the higher
score winning when both cross it, and a loss at -200 so that every match ends.

The trick play, the JSON and the views are shared with Hearts (``_tricks_french``: cards
as integers, hands as suit masks, a fast ``apply``); this module states Spades' own
rules: bidding, spades trump and broken, Nil, bags and the match end.
"""

from __future__ import annotations

from typing import Any

from ._tricks_french import (
    INDEX,
    RANK_OF,
    SPADES,
    SUIT_OF,
    TrickEngine,
    TrickState,
    all_plays,
    play_actions,
)
from .base import Action, Event

NO_SPADES = (0, 1, 3)
#: the 14 bids, Nil first: ``legal_actions`` hands out fresh copies (``dict.copy`` is quick)
BIDS: tuple[dict[str, Any], ...] = tuple({"type": "bid", "bid": b} for b in range(14))
_copy = dict.copy
#: a team at or below this score loses (decision D3)
FLOOR = -200
BAG_LIMIT = 10
BAG_PENALTY = 100
NIL_VALUE = 100


def score_team(bids: list[int], tricks: list[int], score: int, bags: int) -> tuple[int, int, int]:
    """Score one team's hand (rules file 5.3): ``(delta, new_score, new_bags)``.

    ``bids`` and ``tricks`` are the two partners'. ``delta`` includes bag penalties.
    """
    contract = sum(b for b in bids if b > 0)
    made = sum(t for b, t in zip(bids, tricks, strict=True) if b > 0)
    gain = 0
    new_bags = 0
    if contract > 0:
        if made >= contract:
            gain += 10 * contract + (made - contract)
            new_bags += made - contract
        else:
            gain -= 10 * contract
    for b, t in zip(bids, tricks, strict=True):
        if b == 0:
            if t == 0:
                gain += NIL_VALUE
            else:
                gain += t - NIL_VALUE
                new_bags += t
    new_score = score + gain
    bags += new_bags
    while bags >= BAG_LIMIT:
        new_score -= BAG_PENALTY
        bags -= BAG_LIMIT
    return new_score - score, new_score, bags


class SpadesState(TrickState):
    """One match: bids, spades trump, Nil, bags. ``_scores`` are the two teams' scores."""

    PHASES = ("bid", "play", "over")
    TEAMS = ((0, 2), (1, 3))
    BREAKS = SPADES
    BROKEN_KEY = "spades_broken"
    PRELUDE_MOVE = ("bid", "bid", 'Now you bid: {"type": "bid", "bid": <0..13>} (0 is Nil).')
    TRUMP = SPADES
    JSON_KEYS = (
        "game", "seed", "options", "hand_no", "dealer", "phase", "hands", "bids", "turn", "trick", "leader",
        "tricks_done", "tricks", "spades_broken", "won", "last_trick", "scores", "bags", "history", "winner",
    )

    def __init__(self, engine: SpadesEngine, seed: int, options: dict[str, Any]) -> None:
        super().__init__(engine, seed, options)
        self._bids: list[int | None] = [None, None, None, None]
        self._tricks = [0, 0, 0, 0]  # tricks taken in this hand, by seat
        self._bags = [0, 0]

    def _deal(self, hands: list[list[int]]) -> None:
        super()._deal(hands)
        self._bids = [None, None, None, None]
        self._turn = self._leader = (self._dealer + 1) & 3
        self._tricks = [0, 0, 0, 0]

    # -- bidding --------------------------------------------------------------------

    def _prelude_actions(self, seat: int | None) -> list[Action]:
        if seat != self._turn or type(seat) is not int:
            return []
        return list(map(_copy, BIDS))

    def _fast_prelude(self, seat: int, action: Action) -> list[Event] | None:
        if seat == self._turn and action.get("type") == "bid":
            bid = action.get("bid")
            if type(bid) is int and 0 <= bid <= 13:
                return self._bid(seat, bid)
        return None

    def _apply_prelude(self, seat: int, action: Action) -> list[Event]:
        return self._bid(seat, action["bid"])

    def _bid(self, seat: int, bid: int) -> list[Event]:
        bids = self._bids
        bids[seat] = bid
        events: list[Event] = [{"type": "bid", "seat": seat, "bid": bid}]
        nxt = (seat + 1) & 3
        if bids[nxt] is None:
            self._turn = nxt
            return events
        self._start_tricks(nxt)
        events.append({"type": "bidding_over", "bids": list(bids), "leader": nxt})
        return events

    def _explain_prelude(self, seat: int, action: Action) -> str:
        return f"A bid is a whole number of tricks from 0 (Nil) to 13, not {action['bid']!r}."

    # -- tricks: spades trump and cannot be led until broken ---------------------------

    def _leads(self, hand: list[int]) -> list[Action]:
        if not self._broken and (hand[0] or hand[1] or hand[3]):
            return play_actions(hand, NO_SPADES)
        return all_plays(hand)

    def _lead_refusal(self, hand: list[int], i: int) -> str | None:
        if SUIT_OF[i] == SPADES and not self._broken and (hand[0] or hand[1] or hand[3]):
            if self._tricks_done == 0:
                return "The first trick cannot be led with a spade unless you hold only spades."
            return "Spades are not broken yet: you cannot lead a spade while you hold other suits."
        return None

    def _trick_won(self, winner: int, trick: list[int]) -> Event:
        self._tricks[winner] += 1
        return {"type": "trick", "winner": winner}

    # -- scoring ----------------------------------------------------------------------

    def _score_hand(self) -> Event:
        bids = self._bids
        tricks = self._tricks
        delta = [0, 0]
        for team in (0, 1):
            d, score, bags = score_team(
                [bids[team], bids[team + 2]],  # type: ignore[list-item]
                [tricks[team], tricks[team + 2]],
                self._scores[team],
                self._bags[team],
            )
            delta[team] = d
            self._scores[team] = score
            self._bags[team] = bags
        scores, bags = self._scores, self._bags
        self._history.append({
            "hand": self._hand_no + 1, "dealer": self._dealer, "bids": list(bids),
            "tricks": list(tricks), "delta": delta, "scores": list(scores), "bags": list(bags),
        })
        return {"type": "hand_over", "tricks": list(tricks), "delta": list(delta),
                "scores": list(scores), "bags": list(bags)}

    def _match_winner(self) -> int | None:
        """Over the target or at the floor, the higher score wins; equal scores play on."""
        scores = self._scores
        if scores[0] != scores[1] and (max(scores) >= self._options["target"] or min(scores) <= FLOOR):
            return 0 if scores[0] > scores[1] else 1
        return None

    # -- reading --------------------------------------------------------------------

    def view(self, seat: int | None) -> dict[str, Any]:
        return {
            **self._view_head(self._viewer(seat)),
            "bids": list(self._bids),
            "tricks": list(self._tricks),
            **self._view_trick(),
            "scores": list(self._scores),
            "bags": list(self._bags),
            "to_act": self.to_act,
            "winner": self._winner,
            "target": self._options["target"],
            "floor": FLOOR,  # a team at or below it loses: the table says so beside the target
        }

    def _game_json(self) -> dict[str, Any]:
        return {
            "bids": list(self._bids),
            "tricks": list(self._tricks),
            "scores": list(self._scores),
            "bags": list(self._bags),
        }

    def _load_game(self, data: dict[str, Any]) -> None:
        self._bids = list(data["bids"])
        self._tricks = list(data["tricks"])
        self._scores = list(data["scores"])
        self._bags = list(data["bags"])


class SpadesEngine(TrickEngine):
    id = "spades"
    xp = 20  # platform.md §9
    name = "Spades"
    options = {
        "target": {"default": 500, "choices": [200, 300, 500]},
        "dealer": {"default": None, "min": 0, "max": 3},
    }
    state_class = SpadesState

    # -- robot: the rules file's (section 11): count sure tricks, win cheaply, spare partner --

    def robot_prelude(self, view: dict[str, Any], legal: list[Action]) -> Action:
        bid = robot_bid(view["hand"])
        return next((a for a in legal if a["bid"] == bid), legal[0])

    def robot_card(self, view: dict[str, Any], playable: list[int]) -> int:
        return _robot_play(view, playable)


def robot_bid(hand: list[str]) -> int:
    """Estimate sure tricks (rules file section 11); never Nil, at most 13."""
    by_suit: dict[int, list[int]] = {0: [], 1: [], 2: [], 3: []}
    for code in hand:
        i = INDEX[code]
        by_suit[SUIT_OF[i]].append(RANK_OF[i])
    estimate = 0.0
    for suit, ranks in by_suit.items():
        if suit == SPADES:
            estimate += sum(1 for r in ranks if r >= 10)  # Q, K, A
            estimate += max(0, len(ranks) - 3)
            continue
        if 12 in ranks:
            estimate += 1
        if 11 in ranks and len(ranks) >= 2:
            estimate += 0.8
        if 10 in ranks and len(ranks) >= 3:
            estimate += 0.3
    return min(13, max(1, int(estimate + 0.5)))


def _cheap_key(i: int) -> tuple[bool, int, int]:
    """Lowest first, non-spades before spades."""
    return (SUIT_OF[i] == SPADES, RANK_OF[i], i)


def _beats(card: int, top: int) -> bool:
    if SUIT_OF[card] == SUIT_OF[top]:
        return card > top
    return SUIT_OF[card] == SPADES


def _robot_play(view: dict[str, Any], playable: list[int]) -> int:
    trick = view["trick"]
    if not trick:
        aces = [i for i in playable if RANK_OF[i] == 12 and SUIT_OF[i] != SPADES]
        if aces:
            return aces[0]
        return min(playable, key=_cheap_key)
    top = INDEX[trick[0]["card"]]
    top_seat = trick[0]["seat"]
    for t in trick[1:]:
        c = INDEX[t["card"]]
        if _beats(c, top):
            top, top_seat = c, t["seat"]
    seat = view["seat"]
    partner_wins = top_seat == (seat + 2) % 4
    if partner_wins and (RANK_OF[top] >= 11 or len(trick) == 3):
        return min(playable, key=_cheap_key)
    winners = [i for i in playable if _beats(i, top)]
    if winners:
        return min(winners, key=_cheap_key)
    return min(playable, key=_cheap_key)


ENGINE = SpadesEngine()
