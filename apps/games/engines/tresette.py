"""Tresette (shared/spec/games/tresette.md): a vincere and a perdere, 2 players with the
stock or 4 players in partnerships.

Trick strength within a suit is ``3 2 A R C F 7 6 5 4``; there are no trumps. Points are
counted in thirds (Asso 3, 2/3/figure 1, last trick 3) and each team's hand total is
rounded down, so every hand is worth exactly 11 points. The state mutates in place and
keeps hands as plain lists so random playouts stay cheap.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from .base import Action, Engine, Event, GameState
from .cards import ITALIAN_SUIT_NAMES, card_name, derive_rng, is_card, italian_deck, shuffled

#: ranks from the weakest to the strongest in a trick
STRENGTH_ORDER = ("4", "5", "6", "7", "F", "C", "R", "A", "2", "3")
_RANK_STRENGTH = {rank: i for i, rank in enumerate(STRENGTH_ORDER)}
_RANK_THIRDS = {"A": 3, "2": 1, "3": 1, "R": 1, "C": 1, "F": 1, "7": 0, "6": 0, "5": 0, "4": 0}

DECK: tuple[str, ...] = tuple(italian_deck())
#: card code -> trick strength 0..9 (4 is 0, 3 is 9)
STRENGTH: dict[str, int] = {c: _RANK_STRENGTH[c[0]] for c in DECK}
#: card code -> value in thirds of a point
THIRDS: dict[str, int] = {c: _RANK_THIRDS[c[0]] for c in DECK}
_DECK_INDEX = {c: i for i, c in enumerate(DECK)}
#: cards of each suit from the strongest down
_SUIT_CARDS = {s: sorted((c for c in DECK if c[1] == s), key=lambda c: -STRENGTH[c]) for s in "dcsb"}

LAST_TRICK_THIRDS = 3


def hand_points(thirds: list[int]) -> list[int]:
    """Each team's thirds rounded down to whole points (D4: the leftover 2/3 is lost)."""
    return [t // 3 for t in thirds]


def _suit_name(suit: str) -> str:
    return ITALIAN_SUIT_NAMES[suit]


def _named(card: str) -> str:
    return f"{card_name(card, 'italian')} ({card})"


class TresetteState(GameState):
    """One Tresette match: every hand until the match is decided (ties are played off)."""

    def __init__(self, players: int, options: dict[str, Any], seed: int) -> None:
        self.n = players
        self.options = options
        self.seed = seed
        self.teams = [[0], [1]] if players == 2 else [[0, 2], [1, 3]]
        self.hand_index = 0  # 0-based index of the hand being played
        self.dealer = options["dealer"]
        self.hands: list[list[str]] = [[] for _ in range(players)]
        self.stock: list[str] = []
        self.trick: list[list[Any]] = []  # [[seat, card], ...] in playing order
        self.leader = (self.dealer + 1) % players
        self.turn = self.leader
        self.taken: list[list[str]] = [[], []]  # cards of completed tricks, per team
        self.tricks_taken = [0, 0]
        self.last_trick: dict[str, Any] | None = None
        self.totals = [0, 0]
        self.history: list[dict[str, Any]] = []
        self.winner: int | None = None

    # -- protocol ------------------------------------------------------------------

    @property
    def to_act(self) -> list[int]:
        return [] if self.winner is not None else [self.turn]

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    def legal_actions(self, seat: int | None) -> list[Action]:
        if self.winner is not None or type(seat) is not int or seat != self.turn:
            return []
        hand = self.hands[seat]
        if self.trick:
            suit = self.trick[0][1][1]
            follow = [{"type": "play", "card": c} for c in hand if c[1] == suit]
            if follow:
                return follow
        return [{"type": "play", "card": c} for c in hand]

    def _apply(self, seat: int, action: Action) -> list[Event]:
        card = action["card"]
        self.hands[seat].remove(card)
        self.trick.append([seat, card])
        events: list[Event] = [{"type": "play", "seat": seat, "card": card}]
        n = self.n
        if len(self.trick) < n:
            self.turn = (seat + 1) % n
            return events
        self._close_trick(events)
        return events

    def _close_trick(self, events: list[Event]) -> None:
        trick = self.trick
        suit = trick[0][1][1]
        winner, best = trick[0][0], STRENGTH[trick[0][1]]
        for s, c in trick[1:]:
            if c[1] == suit and STRENGTH[c] > best:
                winner, best = s, STRENGTH[c]
        team = winner % 2
        cards = [{"seat": s, "card": c} for s, c in trick]
        self.taken[team].extend(c for _, c in trick)
        self.tricks_taken[team] += 1
        self.last_trick = {"winner": winner, "cards": cards}
        self.trick = []
        events.append({"type": "trick", "winner": winner, "team": team, "cards": cards})
        if self.stock:  # 2 players only: the winner draws first
            other = 1 - winner
            self.hands[winner].append(self.stock.pop(0))
            self.hands[other].append(self.stock.pop(0))
            events.append({"type": "draw", "seat": winner})
            events.append({"type": "draw", "seat": other})
        if self.hands[winner]:
            self.leader = self.turn = winner
        else:
            self._end_hand(team, events)

    def _end_hand(self, last_team: int, events: list[Event]) -> None:
        thirds = [sum(THIRDS[c] for c in self.taken[0]), sum(THIRDS[c] for c in self.taken[1])]
        thirds[last_team] += LAST_TRICK_THIRDS
        points = hand_points(thirds)
        self.totals[0] += points[0]
        self.totals[1] += points[1]
        record = {
            "hand": self.hand_index + 1,
            "dealer": self.dealer,
            "thirds": thirds,
            "points": points,
            "last_trick": last_team,
            "tricks": list(self.tricks_taken),
        }
        self.history.append(record)
        events.append({"type": "hand_end", "result": dict(record), "scores": list(self.totals)})
        self.winner = self._decide()
        if self.winner is not None:
            events.append({"type": "match_end", "winner": self.winner, "scores": list(self.totals)})
            return
        self.hand_index += 1
        self.dealer = (self.dealer + 1) % self.n
        deck = shuffled(DECK, derive_rng(self.seed, "hand", self.hand_index))
        self._deal(deck)
        events.append(
            {"type": "new_hand", "hand": self.hand_index + 1, "dealer": self.dealer, "leader": self.leader}
        )

    def _decide(self) -> int | None:
        """The winning team if the match ends now, else None (a tie is played off, D6)."""
        a, b = self.totals
        opts = self.options
        if opts["mode"] == "points":
            decisive = max(a, b) >= opts["target"]
        else:
            decisive = len(self.history) >= opts["hands"]
        if not decisive or a == b:
            return None
        high = 0 if a > b else 1
        return high if opts["variant"] == "vincere" else 1 - high

    def _deal(self, deck: list[str]) -> None:
        """Deal one card at a time from the seat after the dealer; 2 players keep a stock."""
        n = self.n
        first = (self.dealer + 1) % n
        count = 40 if n == 4 else 20
        hands: list[list[str]] = [[] for _ in range(n)]
        for i in range(count):
            hands[(first + i) % n].append(deck[i])
        self.hands = hands
        self.stock = list(deck[count:])
        self.trick = []
        self.taken = [[], []]
        self.tricks_taken = [0, 0]
        self.last_trick = None
        self.leader = self.turn = first

    def result(self) -> dict[str, Any]:
        return {
            "scores": list(self.totals),
            "winner": self.winner,
            "hands": [dict(h, thirds=list(h["thirds"]), points=list(h["points"]), tricks=list(h["tricks"]))
                      for h in self.history],
        }

    def view(self, seat: int | None) -> dict[str, Any]:
        own = sorted(self.hands[seat], key=_DECK_INDEX.__getitem__) if seat is not None else []
        played = sorted(self.taken[0] + self.taken[1], key=_DECK_INDEX.__getitem__)
        last = self.last_trick
        return {
            "phase": "over" if self.winner is not None else "play",
            "seat": seat,
            "players": self.n,
            "teams": [list(t) for t in self.teams],
            "variant": self.options["variant"],
            "mode": self.options["mode"],
            "target": self.options["target"],
            "hands_to_play": self.options["hands"],
            "hand_number": self.hand_index + 1,
            "dealer": self.dealer,
            "leader": self.leader,
            "hand": own,
            "hand_counts": [len(h) for h in self.hands],
            "stock_count": len(self.stock),
            "trick": [{"seat": s, "card": c} for s, c in self.trick],
            "last_trick": None if last is None else {
                "winner": last["winner"], "cards": [dict(x) for x in last["cards"]]},
            "played": played,
            "tricks_taken": list(self.tricks_taken),
            "to_act": self.to_act,
            "totals": list(self.totals),
            "last_hand": dict(self.history[-1]) if self.history else None,
            "winner": self.winner,
        }

    def to_json(self) -> dict[str, Any]:
        last = self.last_trick
        return {
            "game": "tresette",
            "players": self.n,
            "options": dict(self.options),
            "seed": self.seed,
            "hand_index": self.hand_index,
            "dealer": self.dealer,
            "hands": [list(h) for h in self.hands],
            "stock": list(self.stock),
            "trick": [[s, c] for s, c in self.trick],
            "leader": self.leader,
            "turn": self.turn,
            "taken": [list(p) for p in self.taken],
            "tricks_taken": list(self.tricks_taken),
            "last_trick": None if last is None else {
                "winner": last["winner"], "cards": [dict(x) for x in last["cards"]]},
            "totals": list(self.totals),
            "history": [dict(h, thirds=list(h["thirds"]), points=list(h["points"]), tricks=list(h["tricks"]))
                        for h in self.history],
            "winner": self.winner,
        }

    def card_zones(self) -> dict[str, list[str]]:
        zones = {f"hand{s}": list(h) for s, h in enumerate(self.hands)}
        zones["stock"] = list(self.stock)
        zones["trick"] = [c for _, c in self.trick]
        zones["taken0"] = list(self.taken[0])
        zones["taken1"] = list(self.taken[1])
        return zones

    def hidden_from(self, seat: int | None) -> list[str]:
        hidden = [c for s, h in enumerate(self.hands) if s != seat for c in h]
        hidden.extend(self.stock)
        return hidden

    def explain_illegal(self, seat: int, action: Action, legal: list[Action]) -> str:
        """Say exactly why: wrong shape, unknown card, card not held, or suit not followed."""
        play = '{"type": "play", "card": "3d"}'
        if "type" not in action:
            return f"A move needs a 'type': in Tresette the only move is {play}."
        if action["type"] != "play":
            return f"Unknown move type {action['type']!r}: in Tresette the only move is {play}."
        extra = sorted(str(k) for k in action if k not in ("type", "card"))
        if extra:
            return f"A play move takes only the keys 'type' and 'card' (unexpected: {', '.join(extra)})."
        if "card" not in action:
            return f"A play move needs the 'card' to play, as in {play}."
        card = action["card"]
        if not is_card(card, "italian"):
            return (f"{card!r} is not a card of the Italian deck: a rank of A 2 3 4 5 6 7 F C R"
                    " followed by a suit of d c s b, such as '3d'.")
        if card not in self.hands[seat]:
            return f"You do not hold the {_named(card)}."
        if self.trick:
            suit = self.trick[0][1][1]
            if card[1] != suit:
                return (f"You must follow suit: {_suit_name(suit)} was led and you still hold"
                        f" {_suit_name(suit)}, so you cannot play the {_named(card)}.")
        return f"The {_named(card)} cannot be played now."


class TresetteEngine(Engine):
    """Tresette a vincere / a perdere for 2 (with stock) or 4 (partnerships) players."""

    id = "tresette"
    name = "Tresette"
    min_players = 2
    max_players = 4
    player_counts = (2, 4)
    options = {
        "variant": {"default": "vincere", "choices": ["vincere", "perdere"]},
        "mode": {"default": "points", "choices": ["points", "hands"]},
        "target": {"default": 21, "choices": [11, 21, 31, 41]},
        "hands": {"default": 3, "min": 1, "max": 10},
        "dealer": {"default": None, "min": 0, "max": 3},
    }

    def deck(self, players: int, options: dict[str, Any] | None = None) -> list[str]:
        self.check_players(players)
        return list(DECK)

    def new_game(
        self,
        players: int,
        options: dict[str, Any] | None = None,
        seed: int | None = None,
        deck: list[str] | None = None,
    ) -> TresetteState:
        setup = self.setup(players, options, seed, deck)
        opts = {**setup.options, "dealer": setup.dealer}
        state = TresetteState(setup.players, opts, setup.seed)
        deck = setup.deck
        state._deal(deck if deck is not None else shuffled(DECK, derive_rng(setup.seed, "hand", 0)))
        return state

    def from_json(self, data: dict[str, Any]) -> TresetteState:
        if not isinstance(data, dict) or data.get("game") != self.id:
            raise ValueError("tresette: not a saved Tresette match")
        state = TresetteState(data["players"], dict(data["options"]), data["seed"])
        state.hand_index = data["hand_index"]
        state.dealer = data["dealer"]
        state.hands = [list(h) for h in data["hands"]]
        state.stock = list(data["stock"])
        state.trick = [[s, c] for s, c in data["trick"]]
        state.leader = data["leader"]
        state.turn = data["turn"]
        state.taken = [list(p) for p in data["taken"]]
        state.tricks_taken = list(data["tricks_taken"])
        last = data["last_trick"]
        state.last_trick = None if last is None else {
            "winner": last["winner"], "cards": [dict(x) for x in last["cards"]]}
        state.totals = list(data["totals"])
        state.history = [dict(h, thirds=list(h["thirds"]), points=list(h["points"]), tricks=list(h["tricks"]))
                         for h in data["history"]]
        state.winner = data["winner"]
        return state

    # -- robot ---------------------------------------------------------------------

    def robot_choice(self, view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
        """The rules file's heuristics (section 11), from the seat's own view only."""
        cards = [a["card"] for a in legal]
        if len(cards) == 1:
            return legal[0]
        seat = view["seat"]
        n = view["players"]
        hand = view["hand"]
        trick = view["trick"]
        gone = set(view["played"])
        gone.update(hand)
        gone.update(t["card"] for t in trick)

        def master(card: str) -> bool:
            """No stronger card of its suit can still appear against it."""
            for higher in _SUIT_CARDS[card[1]]:
                if higher == card:
                    return True
                if higher not in gone:
                    return False
            return True

        perdere = view["variant"] == "perdere"
        if not trick:
            choice = _lead_perdere(cards) if perdere else _lead_vincere(cards, master)
        else:
            suit = trick[0]["card"][1]
            win_seat, win_card = trick[0]["seat"], trick[0]["card"]
            for t in trick[1:]:
                if t["card"][1] == suit and STRENGTH[t["card"]] > STRENGTH[win_card]:
                    win_seat, win_card = t["seat"], t["card"]
            last = len(trick) == n - 1
            partner_wins = n == 4 and win_seat % 2 == seat % 2
            if perdere:
                choice = _follow_perdere(cards, suit, win_card, last, partner_wins)
            else:
                safe = partner_wins and (last or master(win_card))
                choice = _follow_vincere(cards, suit, win_card, last, safe, master)
        return {"type": "play", "card": choice}


def _lead_vincere(cards: list[str], master: Callable[[str], bool]) -> str:
    """A sure winner if any (the most valuable first), else a low card of the longest suit."""
    masters = [c for c in cards if master(c)]
    if masters:
        return max(masters, key=lambda c: (THIRDS[c], -STRENGTH[c]))
    length = {s: 0 for s in "dcsb"}
    for c in cards:
        length[c[1]] += 1
    return min(cards, key=lambda c: (-length[c[1]], STRENGTH[c], THIRDS[c]))


def _follow_vincere(cards: list[str], suit: str, win_card: str, last: bool, safe: bool, master: Callable[[str], bool]) -> str:
    if safe:  # load the partner's sure trick
        return max(cards, key=lambda c: (THIRDS[c], -STRENGTH[c]))
    beaters = [c for c in cards if c[1] == suit and STRENGTH[c] > STRENGTH[win_card]]
    if beaters:
        if not last:
            sure = [c for c in beaters if master(c)]
            if sure:
                return min(sure, key=STRENGTH.__getitem__)
        return min(beaters, key=STRENGTH.__getitem__)
    return min(cards, key=lambda c: (THIRDS[c], STRENGTH[c]))


def _lead_perdere(cards: list[str]) -> str:
    return min(cards, key=lambda c: (STRENGTH[c], THIRDS[c]))


def _follow_perdere(cards: list[str], suit: str, win_card: str, last: bool, partner_wins: bool) -> str:
    if cards[0][1] == suit:  # following: legal cards are all of the suit led
        losers = [c for c in cards if STRENGTH[c] < STRENGTH[win_card]]
        if losers:
            return max(losers, key=STRENGTH.__getitem__)
        if last:  # the trick is ours anyway: get rid of the strongest card
            return max(cards, key=STRENGTH.__getitem__)
        return min(cards, key=STRENGTH.__getitem__)
    if partner_wins:  # void, but the points would land on our own side
        return min(cards, key=lambda c: (THIRDS[c], -STRENGTH[c]))
    return max(cards, key=lambda c: (THIRDS[c], STRENGTH[c]))


ENGINE = TresetteEngine()
