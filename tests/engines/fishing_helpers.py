"""Helpers shared by the fishing-game tests (Scopa, Scopone, Asso Pigliatutto, Cirulla).

Stacked decks in the deal order of scopa.md §4, positions built through ``from_json``,
legal-action lookups and the robot-versus-random match runner.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter

from apps.games.engines import cards
from apps.games.engines._fishing import ORDER, VALUE
from apps.games.engines.base import same_json

DECK = cards.italian_deck()


def stack(n: int, dealer: int, rounds: list[list[list[str]]], table: list[str]) -> list[str]:
    """A full deck that deals ``rounds[r][seat]`` to each seat in round ``r`` and ``table``.

    Cards are dealt one at a time from seat ``dealer+1``; the table follows the first
    round; the cards not named fill the end of the stock in deck order.
    """
    deck: list[str] = []
    for r, hands in enumerate(rounds):
        per_seat = len(hands[0])
        assert all(len(h) == per_seat for h in hands)
        for i in range(n * per_seat):
            seat = (dealer + 1 + i) % n
            deck.append(hands[seat][i // n])
        if r == 0:
            deck.extend(table)
    rest = [c for c in DECK if c not in deck]
    deck.extend(rest)
    assert Counter(deck) == Counter(DECK), "stacked deck is not the 40 cards"
    return deck


def options_of(state, seat: int, card: str) -> list[list[str]]:
    """The capture lists offered for ``card`` (in the order listed)."""
    return [a["capture"] for a in state.legal_actions(seat) if a.get("card") == card]


def play(state, seat: int, card: str, capture: list[str]) -> list[dict]:
    return state.apply(seat, {"type": "play", "card": card, "capture": capture})


def position(engine, n: int, *, hands, table, piles=None, turn, dealer, stock=(), **fields):
    """A state built through ``from_json``: the given cards, the rest in ``piles``.

    ``piles`` maps a team to cards it already captured; any card not placed anywhere
    goes to team 0's pile unless ``rest_to`` (a team) says otherwise.
    """
    state = engine.new_game(n, seed=1, options=fields.pop("options", None))
    data = state.to_json()
    piles = [list(p) for p in (piles or [[], []])]
    placed = [c for h in hands for c in h] + list(table) + list(stock) + piles[0] + piles[1]
    assert len(placed) == len(set(placed)), "a card is placed twice"
    rest_to = fields.pop("rest_to", 0)
    piles[rest_to].extend(c for c in DECK if c not in placed)
    data.update(
        hands=[list(h) for h in hands], table=list(table), stock=list(stock), piles=piles,
        turn=turn, dealer=dealer,
    )
    data.update(fields)
    return engine.from_json(data)


def ko_position(engine, last_team: int, *, strong: list[str], scores: list[int], knockout: bool = True):
    """A 2-player 3rd spareggio with tied totals: the last two plays make a 1-1 hand and
    ``last_team`` makes the last capture (``strong`` is the other team's pile)."""
    capturer, trailer = (0, 1) if last_team == 0 else (1, 0)
    hands = [[], []]
    hands[capturer], hands[trailer] = ["5c"], ["5b"]
    piles = [[], []]
    piles[1 - last_team] = list(strong)
    return position(
        engine, 2, hands=hands, table=["5d", "Fc"], piles=piles, rest_to=last_team, turn=capturer,
        dealer=trailer, options={"mode": "hands", "hands": 1, "knockout": knockout},
        spareggio=3, regular_done=1, scores=scores,
    )


def is_listed(state, seat: int, action: dict) -> bool:
    return any(same_json(a, action) for a in state.legal_actions(seat))


def robot_vs_random(engine, n: int, matches: int, options=None) -> float:
    """Share of matches the robot team wins against uniform random play.

    The robot plays team ``seed % 2`` (both seats of it with 4 players), so it sits on
    each side in turn; the seeds fix the deals and the random player's choices.
    """
    wins = 0
    for seed in range(matches):
        robot_team = seed % 2
        rng = random.Random(10_000 + seed)
        state = engine.new_game(n, options=options, seed=seed)
        while not state.is_over:
            seat = state.to_act[0]
            if seat % 2 == robot_team:
                action = engine.bot_action(state, seat, rng)
            else:
                action = rng.choice(state.legal_actions(seat))
            state.apply(seat, action)
        wins += state.result()["winner"] == robot_team
    return wins / matches


def check_match_end(history: list[dict], options: dict, winner: int, scores: list[int]) -> None:
    """Recompute, from the hand breakdowns, that the match ended when and how the rules say."""
    totals = [0, 0]
    regular = 0
    for i, hand in enumerate(history):
        totals = [totals[0] + hand["points"][0], totals[1] + hand["points"][1]]
        last = i == len(history) - 1
        if hand.get("cappotto") is not None:
            assert last and winner == hand["cappotto"]
            return
        if hand["spareggio"] == 0:
            regular += 1
            if options["mode"] == "points":
                decided = max(totals) >= options["target"]
            else:
                decided = regular >= options["hands"]
            if not decided:
                assert not last, "the match ended before it was decided"
                continue
            assert i + 1 == len(history) or (totals[0] == totals[1] and history[i + 1]["spareggio"] == 1)
        else:
            assert hand["spareggio"] == history[i - 1]["spareggio"] + 1
        if totals[0] != totals[1]:
            assert last and winner == (0 if totals[0] > totals[1] else 1)
            break
        if options["knockout"] and hand["spareggio"] == 3:
            assert last and winner == 1 - hand["last_capture"] % 2
            break
        assert not last, "a tied match ended without the KO rule"
    assert totals == scores


def brute_force_options(
    hand: list[str], table: list[str], *, ace_takes_all: bool = False, fifteen: bool = False
) -> set[tuple[str, tuple[str, ...]]]:
    """The capture rules written the slow, obvious way (every subset of the table)."""
    subsets = [
        tuple(sorted(combo, key=ORDER.__getitem__))
        for size in range(1, len(table) + 1)
        for combo in itertools.combinations(table, size)
    ]
    out = set()
    for card in hand:
        v = VALUE[card]
        if ace_takes_all and v == 1:
            aces = [c for c in table if VALUE[c] == 1]
            caps = [(a,) for a in aces] if aces else [subsets[-1]] if table else []
        else:
            same = [c for c in table if VALUE[c] == v]
            if same:
                caps = [(c,) for c in same]
            else:
                caps = [s for s in subsets if len(s) >= 2 and sum(VALUE[c] for c in s) == v]
            if fifteen:
                caps += [s for s in subsets if sum(VALUE[c] for c in s) + v == 15]
        out.update((card, cap) for cap in caps or [()])
    return out


def random_states(engine, n: int, count: int, seed: int = 0):
    """States met along random playouts (a new match when one ends)."""
    rng = random.Random(seed)
    state = engine.new_game(n, seed=seed)
    for _ in range(count):
        if state.is_over:
            state = engine.new_game(n, seed=rng.randrange(10**6))
        yield state
        seat = state.to_act[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))


def check_options_against_brute_force(engine, n: int, count: int, seed: int, **rules) -> None:
    """Listed plays = the brute-force rule; canonical order; capture compulsory; no duplicates."""
    for state in random_states(engine, n, count, seed=seed):
        seat = state.to_act[0]
        legal = [a for a in state.legal_actions(seat) if a["type"] == "play"]
        got = [(a["card"], tuple(a["capture"])) for a in legal]
        assert len(got) == len(set(got))
        assert set(got) == brute_force_options(state.hands[seat], state.table, **rules)
        for a in legal:
            assert list(a) == ["type", "card", "capture"]
            assert a["capture"] == sorted(a["capture"], key=ORDER.__getitem__)
        capturing = {c for c, cap in got if cap}
        assert all(cap for c, cap in got if c in capturing), "a card that can take must take"
