"""Spades ("Picche") for 4 players in fixed partnerships (shared/spec/games/spades.md).

One round of bids ``0..13`` (``0`` is Nil), spades always trumps and cannot be led
until broken, 10 points per bid trick plus one per overtrick ("bag"), every 10 bags
cost 100 with the surplus carried over, Nil worth ±100, match to 500 with the higher
score winning when both cross it, and a loss at -200 so that every match ends.

Cards are integers and hands suit masks (see ``_tricks_french``); ``apply`` has a fast
path accepting exactly what ``legal_actions`` lists, the kit's generic path handles
(and explains) everything else.
"""

from __future__ import annotations

import random
from typing import Any

from ._tricks_french import (
    BIT_OF,
    CODES,
    FRENCH_DECK,
    INDEX,
    MASK_CODES,
    RANK_OF,
    SPADES,
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

BID, PLAY, OVER = 0, 1, 2
PHASES = ("bid", "play", "over")
ALL_SUITS = (0, 1, 2, 3)
NO_SPADES = (0, 1, 3)
SEATS = (0, 1, 2, 3)
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


def _codes(indices: Any) -> list[str]:
    return [CODES[i] for i in indices]


def _copy_record(record: dict[str, Any]) -> dict[str, Any]:
    return {k: (list(v) if type(v) is list else v) for k, v in record.items()}


class SpadesState(GameState):
    """One match. Fields are private and integer-coded; ``to_json`` gives the plain form."""

    def __init__(self, engine: SpadesEngine, seed: int, options: dict[str, Any]) -> None:
        self.engine = engine
        self.teams = [[0, 2], [1, 3]]
        self._seed = seed
        self._options = options
        self._hand_no = 0
        self._dealer = 0
        self._phase = BID
        self._hands: list[list[int]] = [[0, 0, 0, 0] for _ in SEATS]
        self._bids: list[int | None] = [None, None, None, None]
        self._turn: int | None = None
        self._trick: list[int] = []
        self._leader: int | None = None
        self._tricks_done = 0
        self._tricks = [0, 0, 0, 0]
        self._broken = False
        self._won: list[list[int]] = [[], [], [], []]
        self._last: tuple[int, list[int], int] | None = None
        self._scores = [0, 0]
        self._bags = [0, 0]
        self._history: list[dict[str, Any]] = []
        self._winner: int | None = None

    def _deal(self, hands: list[list[int]]) -> None:
        self._hands = hands
        self._phase = BID
        self._bids = [None, None, None, None]
        self._turn = self._leader = (self._dealer + 1) & 3
        self._trick = []
        self._tricks_done = 0
        self._tricks = [0, 0, 0, 0]
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
        if seat != self._turn or type(seat) is not int:
            return []
        phase = self._phase
        if phase == PLAY:
            hand = self._hands[seat]
            trick = self._trick
            if trick:
                led = SUIT_OF[trick[0]]
                mask = hand[led]
                if mask:
                    return [{"type": "play", "card": c} for c in MASK_CODES[led][mask]]
                return play_actions(hand, ALL_SUITS)
            if not self._broken and (hand[0] or hand[1] or hand[3]):
                return play_actions(hand, NO_SPADES)
            return play_actions(hand, ALL_SUITS)
        if phase == BID:
            return [{"type": "bid", "bid": b} for b in range(14)]
        return []

    def _refusal(self, seat: int, i: int) -> str | None:
        """Why seat may not play card ``i`` now (``None``: it may). Mirrors ``legal_actions``."""
        hand = self._hands[seat]
        suit = SUIT_OF[i]
        if not hand[suit] & BIT_OF[i]:
            return f"The card {CODES[i]} is not in your hand."
        trick = self._trick
        if not trick:
            if suit == SPADES and not self._broken and (hand[0] or hand[1] or hand[3]):
                if self._tricks_done == 0:
                    return "The first trick cannot be led with a spade unless you hold only spades."
                return "Spades are not broken yet: you cannot lead a spade while you hold other suits."
            return None
        led = SUIT_OF[trick[0]]
        if suit != led and hand[led]:
            return f"You must follow suit: play a card of {suit_name(led)}."
        return None

    def apply(self, seat: int, action: Action) -> list[Event]:
        """Fast path for well-formed legal moves; everything else takes the kit's checks."""
        if type(action) is dict and len(action) == 2 and seat == self._turn and type(seat) is int:
            phase = self._phase
            if phase == PLAY:
                card = action.get("card")
                if type(card) is str and action.get("type") == "play":
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
                                if suit == SPADES:
                                    self._broken = True
                                self._turn = (seat + 1) & 3
                                return [{"type": "play", "seat": seat, "card": card}]
                            return self._play(seat, i)
            elif phase == BID and action.get("type") == "bid":
                bid = action.get("bid")
                if type(bid) is int and 0 <= bid <= 13:
                    return self._bid(seat, bid)
        return super().apply(seat, action)

    def _apply(self, seat: int, action: Action) -> list[Event]:
        if action["type"] == "bid":
            return self._bid(seat, action["bid"])
        return self._play(seat, INDEX[action["card"]])

    # -- moves ----------------------------------------------------------------------

    def _bid(self, seat: int, bid: int) -> list[Event]:
        bids = self._bids
        bids[seat] = bid
        events: list[Event] = [{"type": "bid", "seat": seat, "bid": bid}]
        nxt = (seat + 1) & 3
        if bids[nxt] is None:
            self._turn = nxt
            return events
        self._phase = PLAY
        self._turn = self._leader = nxt
        events.append({"type": "bidding_over", "bids": list(bids), "leader": nxt})
        return events

    def _play(self, seat: int, i: int) -> list[Event]:
        suit = SUIT_OF[i]
        self._hands[seat][suit] &= ~BIT_OF[i]
        trick = self._trick
        trick.append(i)
        if suit == SPADES:
            self._broken = True
        events: list[Event] = [{"type": "play", "seat": seat, "card": CODES[i]}]
        if len(trick) < 4:
            self._turn = (seat + 1) & 3
            return events
        top = trick[0]
        top_suit = SUIT_OF[top]
        best = 0
        for pos in (1, 2, 3):
            c = trick[pos]
            s = SUIT_OF[c]
            if s == top_suit:
                if c > top:
                    top = c
                    best = pos
            elif s == SPADES:
                top = c
                top_suit = SPADES
                best = pos
        leader = self._leader
        winner = (leader + best) & 3  # type: ignore[operator]
        self._tricks[winner] += 1
        self._won[winner].extend(trick)
        self._last = (leader, trick, winner)  # type: ignore[assignment]
        self._trick = []
        self._tricks_done += 1
        events.append({"type": "trick", "winner": winner})
        if self._tricks_done == 13:
            events.extend(self._end_hand())
        else:
            self._leader = self._turn = winner
        return events

    def _end_hand(self) -> list[Event]:
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
        events: list[Event] = [
            {"type": "hand_over", "tricks": list(tricks), "delta": list(delta),
             "scores": list(scores), "bags": list(bags)}
        ]
        if scores[0] != scores[1] and (
            max(scores) >= self._options["target"] or min(scores) <= FLOOR
        ):
            self._winner = 0 if scores[0] > scores[1] else 1
            self._phase = OVER
            self._turn = None
            events.append({"type": "match_over", "winner": self._winner, "scores": list(scores)})
            return events
        self._hand_no += 1
        self._dealer = (self._dealer + 1) & 3
        self._deal(deal_shuffled(self._seed, self._hand_no, self._dealer))
        events.append({"type": "deal", "hand": self._hand_no + 1, "dealer": self._dealer})
        return events

    # -- reading --------------------------------------------------------------------

    def result(self) -> dict[str, Any]:
        return {
            "scores": list(self._scores),
            "winner": self._winner,
            "hands": [_copy_record(h) for h in self._history],
        }

    @staticmethod
    def _trick_json(leader: int | None, trick: list[int]) -> list[dict[str, Any]]:
        return [{"seat": (leader + k) & 3, "card": CODES[c]} for k, c in enumerate(trick)]  # type: ignore[operator]

    def view(self, seat: int | None) -> dict[str, Any]:
        me = seat if type(seat) is int and 0 <= seat < 4 else None
        last = None
        if self._last is not None:
            leader, trick, winner = self._last
            last = {"leader": leader, "cards": self._trick_json(leader, trick), "winner": winner}
        return {
            "seat": me,
            "phase": PHASES[self._phase],
            "hand_number": self._hand_no + 1,
            "dealer": self._dealer,
            "hand": hand_codes(self._hands[me]) if me is not None else [],
            "hand_counts": [hand_count(h) for h in self._hands],
            "bids": list(self._bids),
            "tricks": list(self._tricks),
            "trick": self._trick_json(self._leader, self._trick),
            "last_trick": last,
            "tricks_played": self._tricks_done,
            "spades_broken": self._broken,
            "scores": list(self._scores),
            "bags": list(self._bags),
            "to_act": self.to_act,
            "winner": self._winner,
            "target": self._options["target"],
        }

    def to_json(self) -> dict[str, Any]:
        return {
            "game": "spades",
            "seed": self._seed,
            "options": dict(self._options),
            "hand_no": self._hand_no,
            "dealer": self._dealer,
            "phase": PHASES[self._phase],
            "hands": [hand_codes(h) for h in self._hands],
            "bids": list(self._bids),
            "turn": self._turn,
            "trick": _codes(self._trick),
            "leader": self._leader,
            "tricks_done": self._tricks_done,
            "tricks": list(self._tricks),
            "spades_broken": self._broken,
            "won": [_codes(w) for w in self._won],
            "last_trick": None if self._last is None else [self._last[0], _codes(self._last[1]), self._last[2]],
            "scores": list(self._scores),
            "bags": list(self._bags),
            "history": [_copy_record(h) for h in self._history],
            "winner": self._winner,
        }

    def card_zones(self) -> dict[str, list[str]]:
        zones = {f"hand_{s}": hand_codes(self._hands[s]) for s in SEATS}
        zones["trick"] = _codes(self._trick)
        for s in SEATS:
            zones[f"won_{s}"] = _codes(self._won[s])
        return zones

    def hidden_from(self, seat: int | None) -> list[str]:
        """Every other hand, the partner's included."""
        return [c for s in SEATS if s != seat for c in hand_codes(self._hands[s])]

    def explain_illegal(self, seat: int, action: Action, legal: list[Action]) -> str:
        kind = action.get("type")
        if self._phase == BID:
            if kind != "bid":
                return 'Now you bid: {"type": "bid", "bid": <0..13>} (0 is Nil).'
            if set(action) != {"type", "bid"}:
                return 'A bid takes exactly the keys "type" and "bid".'
            return f"A bid is a whole number of tricks from 0 (Nil) to 13, not {action['bid']!r}."
        if kind != "play":
            return 'It is your turn to play a card: {"type": "play", "card": <card>}.'
        if set(action) != {"type", "card"}:
            return 'A play takes exactly the keys "type" and "card".'
        card = action["card"]
        if not is_code(card):
            return f"{card!r} is not a card of the French deck."
        return self._refusal(seat, INDEX[card]) or "That card cannot be played now."


class SpadesEngine(Engine):
    id = "spades"
    name = "Spades"
    min_players = 4
    max_players = 4
    player_counts = (4,)
    options = {
        "target": {"default": 500, "choices": [200, 300, 500]},
        "dealer": {"default": None, "min": 0, "max": 3},
    }

    def deck(self, players: int, options: dict[str, Any] | None = None) -> list[str]:
        return list(FRENCH_DECK)

    def new_game(self, players, options=None, seed=None, deck=None) -> SpadesState:
        setup = self.setup(players, options, seed, deck)
        seed, deck = setup.seed, setup.deck
        state = SpadesState(self, seed, setup.options)
        state._dealer = setup.dealer
        if deck is not None:
            state._deal(deal_masks(deck, state._dealer))
        else:
            state._deal(deal_shuffled(seed, 0, state._dealer))
        return state

    def from_json(self, data: dict[str, Any]) -> SpadesState:
        state = SpadesState(self, data["seed"], dict(data["options"]))
        state._hand_no = data["hand_no"]
        state._dealer = data["dealer"]
        state._phase = PHASES.index(data["phase"])
        state._hands = [masks_from_codes(h) for h in data["hands"]]
        state._bids = list(data["bids"])
        state._turn = data["turn"]
        state._trick = [INDEX[c] for c in data["trick"]]
        state._leader = data["leader"]
        state._tricks_done = data["tricks_done"]
        state._tricks = list(data["tricks"])
        state._broken = data["spades_broken"]
        state._won = [[INDEX[c] for c in w] for w in data["won"]]
        last = data["last_trick"]
        state._last = None if last is None else (last[0], [INDEX[c] for c in last[1]], last[2])
        state._scores = list(data["scores"])
        state._bags = list(data["bags"])
        state._history = [_copy_record(h) for h in data["history"]]
        state._winner = data["winner"]
        return state

    # -- robot ----------------------------------------------------------------------

    def robot_choice(self, view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
        """The rules file's robot (section 11): count sure tricks, win cheaply, spare partner."""
        if legal[0]["type"] == "bid":
            bid = robot_bid(view["hand"])
            return next((a for a in legal if a["bid"] == bid), legal[0])
        playable = [INDEX[a["card"]] for a in legal]
        choice = _robot_play(view, playable)
        return next(a for a in legal if a["card"] == CODES[choice])


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
