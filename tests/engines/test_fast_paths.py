"""The engines' fast paths give exactly what the plain rules give (issue 15).

Each speed-up is held to a slow reference written from the rules: the cached capture
enumeration of the fishing games to a brute force over every subset of the table, the
fishing ``apply`` (which checks a play by table positions) to a search of the listed legal
actions, the kit's action comparison to the recursive ``same_json`` it replaced, and
Hearts' passes to the 286 three-card subsets of the hand.
"""

from __future__ import annotations

import copy
import json
import random
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from apps.games.engines import IllegalAction, get_engine
from apps.games.engines._fishing import DECK, ORDER, VALUE, capture_options
from apps.games.engines.base import same_json

# -- capture enumeration -----------------------------------------------------------------


def reference_captures(hand, table, ace_takes_all, fifteen):
    """The rules by brute force: every subset of the table, in lexicographic order of positions."""
    if not table:
        return [(card, ()) for card in hand]
    subsets = sorted(
        (idx for size in range(1, len(table) + 1) for idx in combinations(range(len(table)), size)),
    )

    def summing(total, min_size=1):
        return [tuple(table[i] for i in idx) for idx in subsets
                if len(idx) >= min_size and sum(VALUE[table[i]] for i in idx) == total]

    out = []
    for card in hand:
        v = VALUE[card]
        if v == 1 and ace_takes_all:
            aces = [(c,) for c in table if VALUE[c] == 1]
            caps = aces or [tuple(table)]
        else:
            same = [(c,) for c in table if VALUE[c] == v]
            caps = same or summing(v, min_size=2)
            if fifteen:
                caps = caps + summing(15 - v)
        out.extend((card, cap) for cap in caps) if caps else out.append((card, ()))
    return out


@st.composite
def hand_and_table(draw):
    cards = draw(st.permutations(DECK))
    table_size = draw(st.integers(0, 10))
    hand_size = draw(st.integers(1, 9))
    table = sorted(cards[:table_size], key=ORDER.__getitem__)
    hand = sorted(cards[table_size:table_size + hand_size], key=ORDER.__getitem__)
    return hand, table


@settings(max_examples=400, deadline=None)
@given(hand_and_table(), st.booleans(), st.booleans())
def test_capture_options_match_the_brute_force(case, ace_takes_all, fifteen):
    hand, table = case
    got = capture_options(hand, table, ace_takes_all=ace_takes_all, fifteen=fifteen)
    assert got == reference_captures(hand, table, ace_takes_all, fifteen)
    # the cache answers by values only: a second call (a cache hit) is the same
    assert capture_options(hand, table, ace_takes_all=ace_takes_all, fifteen=fifteen) == got


# -- fishing apply: positions instead of the list -----------------------------------------


def variants(action, table):
    """Near misses of a legal play: reordered, shortened, lengthened, other types."""
    card, capture = action["card"], action["capture"]
    out = [copy.deepcopy(action), dict(reversed(list(action.items())))]
    if len(capture) > 1:
        out.append({**action, "capture": list(reversed(capture))})
        out.append({**action, "capture": capture + capture[:1]})
    if capture:
        out.append({**action, "capture": capture[:-1]})
        out.append({**action, "capture": tuple(capture)})
    out.append({**action, "capture": capture + [c for c in table if c not in capture][:1]})
    out.append({**action, "capture": [*capture, 7]})
    out.append({**action, "card": "Rd" if card != "Rd" else "Ad"})
    out.append({**action, "extra": 1})
    out.append({"type": "play", "card": card})
    return out


@pytest.mark.parametrize(("game", "players"), [("scopa", 2), ("scopone", 4), ("asso_pigliatutto", 4), ("cirulla", 2)])
def test_fishing_apply_accepts_exactly_the_listed_plays(game, players):
    engine = get_engine(game)
    for seed in range(3):
        rng = random.Random(seed)
        state = engine.new_game(players, seed=seed)
        while not state.is_over:
            seat = state.to_act[0]
            legal = state.legal_actions(seat)
            data = state.to_json()
            for action in legal:
                if action["type"] != "play":
                    continue
                for candidate in variants(action, state.table):
                    probe = engine.from_json(json.loads(json.dumps(data)))
                    listed = any(same_json(a, candidate) for a in legal)
                    try:
                        probe.apply(seat, candidate)
                        accepted = True
                    except IllegalAction:
                        accepted = False
                    assert accepted == listed, (candidate, legal)
            state.apply(seat, rng.choice(legal))


# -- the kit's comparison ----------------------------------------------------------------


def reference_same_json(a, b):
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(reference_same_json(v, b[k]) for k, v in a.items())
    if isinstance(a, list):
        return len(a) == len(b) and all(reference_same_json(x, y) for x, y in zip(a, b, strict=True))
    return a == b


leaves = st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.sampled_from([0.0, 1.0, float("nan")]),
                   st.sampled_from(["", "a", "7d", "play"]))
values = st.recursive(leaves, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
    st.sampled_from(["type", "card", "cards", "bid"]), inner, max_size=3), max_leaves=8)


@settings(max_examples=500, deadline=None)
@given(values, values)
def test_same_json_is_the_recursive_definition(a, b):
    assert same_json(a, b) == reference_same_json(a, b)
    assert same_json(a, copy.deepcopy(a)) == reference_same_json(a, copy.deepcopy(a))


def test_same_json_examples():
    assert same_json({"type": "bid", "bid": 1}, {"bid": 1, "type": "bid"})
    assert not same_json({"type": "bid", "bid": True}, {"type": "bid", "bid": 1})
    assert not same_json({"cards": ["a", "b"]}, {"cards": ["b", "a"]})
    assert not same_json({"cards": ["a"]}, {"cards": ("a",)})
    assert not same_json([1], [1.0])


# -- Hearts' passes -------------------------------------------------------------------------


def test_hearts_passes_are_every_three_card_subset_in_canonical_order():
    engine = get_engine("hearts")
    for seed in range(5):
        state = engine.new_game(4, seed=seed)
        for seat in range(4):
            hand = state.view(seat)["hand"]
            expected = [{"type": "pass", "cards": list(t)} for t in combinations(hand, 3)]
            got = state.legal_actions(seat)
            assert got == expected and len(got) == 286
            assert len({id(a["cards"]) for a in got}) == 286, "every pass has its own list"
