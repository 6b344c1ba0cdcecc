"""The shared rummy combinations (apps/games/engines/_melds.py) for Burraco and Scala 40.

The enumeration is checked exhaustively against brute force: every ordered card list a
hand can make, kept when the validator accepts it, must be exactly what ``hand_melds``
lists — so no legal meld is missing and no illegal one is offered.
"""

from __future__ import annotations

from collections import Counter
from itertools import permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from apps.games.engines import cards
from apps.games.engines._melds import (
    HIGH,
    LOW,
    MeldRules,
    attach_options,
    attached,
    hand_melds,
    parse_meld,
    parse_run,
    parse_set,
    substituted,
)
from apps.games.engines.burraco import RULES as BURRACO
from apps.games.engines.scala40 import RULES as SCALA

B = BURRACO["chiuso"]  # sets, A…A allowed
B_SPORCO = BURRACO["aperto_sporco"]  # no two natural aces
B_RUNS = BURRACO["aperto"]  # runs only


# -- runs ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards_", "rules", "low", "wild"),
    [
        (["5h", "6h", "7h"], B, 5, None),
        (["5h", "2c", "7h"], B, 5, 1),  # 2c stands for 6h
        (["Ah", "2h", "3h"], B, 1, None),  # natural 2
        (["X", "2h", "3h"], B, 1, 0),  # X as Ah, 2h natural
        (["2h", "3h", "4h"], B, 2, None),
        (["2h", "2h", "3h"], B, 1, 0),  # a wild 2 as the ace, then the natural 2
        (["Qh", "Kh", "Ah"], B, 12, None),  # high ace
        (["X", "Kh", "Ah"], B, 12, 0),
        (["Ah", "2h", "3h"], SCALA, 1, None),
        (["Jc", "X", "Kc"], SCALA, 11, 1),
        (["9h", "X", "Jh", "Qh", "Kh"], SCALA, 9, 1),
    ],
)
def test_valid_runs(cards_, rules, low, wild):
    meld = parse_run(cards_, rules)
    assert meld is not None and meld["low"] == low and meld["wild"] == wild


@pytest.mark.parametrize(
    ("cards_", "rules"),
    [
        (["Kh", "Ah", "2h"], B),  # round the corner
        (["Kh", "Ah", "2h"], SCALA),
        (["7h", "6h", "5h"], B),  # not in position order
        (["5h", "X", "X"], B),  # two wilds
        (["5h", "2c", "X"], B),
        (["5h", "6h", "2c", "X"], B),
        (["5h", "6d", "7h"], B),  # mixed suits
        (["5h", "2c", "7h"], SCALA),  # a 2 is not wild in Scala 40
        (["5h", "6h"], B),  # too short
        (["X", "2c", "3h"], B),  # two wilds (2c is not the natural 2 of hearts)
    ],
)
def test_invalid_runs(cards_, rules):
    assert parse_meld(cards_, rules) is None


def full_run(suit: str) -> list[str]:
    return [r + suit for r in "A23456789TJQKA"]


def test_asso_ad_asso_and_the_two_natural_aces_rule():
    run = full_run("s")
    assert parse_run(run, B)["low"] == 1
    assert parse_run(run, B_SPORCO) is None  # Aperto sporco: not two natural aces
    assert parse_run(run, SCALA) is None
    with_wild = run[:-1] + ["X"]
    assert parse_run(with_wild, B_SPORCO)["wild"] == 13
    assert parse_run(with_wild, SCALA)["wild"] == 13
    assert parse_run(["X"] + run[1:], SCALA)["wild"] == 0
    assert parse_run(run + ["X"], B) is None  # 15 cards


# -- sets ----------------------------------------------------------------------------


def test_sets_burraco_and_scala():
    assert parse_set(["9h", "9d", "X"], B)["wild"] == 2
    assert parse_set(["9h", "9h", "9d"], B) is not None  # duplicates allowed in Burraco
    assert parse_set(["9h", "9h", "9d"], SCALA) is None  # Scala 40: different suits
    assert parse_set(["9d", "9h", "X"], B) is None  # not canonical order
    assert parse_set(["9h", "X", "9d"], B) is None
    assert parse_set(["9h", "9d", "2c"], B)["wild"] == 2  # a 2 is always wild in sets
    assert parse_set(["2h", "2d", "2c"], B) is None  # 2s are never naturals of a set
    assert parse_set(["2h", "2d", "2c"], SCALA) is not None  # plain cards in Scala 40
    assert parse_set(["7h", "7d", "7c", "7s"], SCALA) is not None
    assert parse_set(["7h", "7d", "7c", "7s", "X"], SCALA) is None  # four cards at most
    assert parse_set(["7h", "7d", "7c", "X"], SCALA) is not None
    assert parse_set(["7h", "X", "X"], SCALA) is None
    assert parse_set(["7h", "7d", "X", "X"], B) is None  # one wild at most
    assert parse_set(["9h", "9d", "9c"], B_RUNS) is None  # Aperto: runs only
    assert parse_set(["9h", "9h", "9d", "9d", "9c", "9c", "9s", "9s", "X"], B) is not None


# -- enumeration: brute force over every ordered card list ---------------------------


def brute_force(hand: list[str], rules: MeldRules, sizes) -> set[tuple[str, ...]]:
    found = set()
    for k in sizes:
        if k > len(hand):
            continue
        for perm in set(permutations(hand, k)):
            if parse_meld(list(perm), rules) is not None:
                found.add(perm)
    return found


HANDS = [
    ["5h", "6h", "7h", "8h", "X", "2c", "2h", "Ah", "9d", "9c"],
    ["3h", "3d", "3c", "3s", "3h", "X", "2s", "4h", "5h"],
    ["Qs", "Ks", "As", "2s", "3s", "X", "Js", "Jd"],
    ["Ah", "2h", "3h", "4h", "Ad", "Ac", "2d", "X"],
]


@pytest.mark.parametrize("hand", HANDS)
@pytest.mark.parametrize("rules", [B, B_SPORCO, B_RUNS])
def test_burraco_three_card_melds_are_exactly_the_valid_lists(hand, rules):
    listed = hand_melds(Counter(hand), rules, (3,))
    assert len(listed) == len({tuple(m) for m in listed}), "duplicates"
    assert {tuple(m) for m in listed} == brute_force(hand, rules, (3,))


@pytest.mark.parametrize("hand", [h[:7] for h in HANDS])
def test_scala_melds_of_every_length_are_exactly_the_valid_lists(hand):
    sizes = range(3, 8)
    listed = hand_melds(Counter(hand), SCALA, sizes)
    assert {tuple(m) for m in listed} == brute_force(hand, SCALA, sizes)


FRENCH = cards.double_french_deck(4)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(FRENCH), min_size=3, max_size=8))
def test_property_enumeration_matches_brute_force(hand):
    counts = Counter(hand)
    if any(counts[c] > FRENCH.count(c) for c in counts):
        return
    for rules, sizes in ((B, (3,)), (SCALA, range(3, 6))):
        listed = hand_melds(counts, rules, sizes)
        assert {tuple(m) for m in listed} == brute_force(hand, rules, sizes)
        for meld in listed:
            assert all(counts[c] >= k for c, k in Counter(meld).items())


# -- attaching and substituting --------------------------------------------------------


def test_attach_to_runs_both_ends_and_wild_limit():
    run = parse_run(["5h", "6h", "7h"], B)
    opts = set(attach_options(run, {"4h", "8h", "X", "2c", "9h", "4d"}, B))
    assert opts == {("4h", LOW), ("8h", HIGH), ("X", LOW), ("X", HIGH), ("2c", LOW), ("2c", HIGH)}
    dirty = attached(run, "X", HIGH, B)
    assert dirty["cards"] == ["5h", "6h", "7h", "X"] and dirty["wild"] == 3
    # a second wild is refused, a natural 2 in its place is not a wild
    assert set(attach_options(dirty, {"2c", "X", "4h", "9h"}, B)) == {("4h", LOW), ("9h", HIGH)}
    three = parse_run(["3h", "4h", "5h"], B)
    natural = attached(attached(three, "2h", LOW, B), "X", LOW, B)
    assert natural["cards"] == ["X", "2h", "3h", "4h", "5h"] and natural["wild"] == 0


def test_attach_two_natural_aces_and_ends():
    run = parse_run(full_run("c")[1:], B)  # 2…A, 13 cards
    assert ("Ac", LOW) in attach_options(run, {"Ac"}, B)
    run_s = parse_run(full_run("c")[1:], B_SPORCO)
    assert attach_options(run_s, {"Ac"}, B_SPORCO) == []
    top = parse_run(["Qh", "Kh", "Ah"], SCALA)
    assert attach_options(top, {"2h", "Jh"}, SCALA) == [("Jh", LOW)]


def test_attach_to_sets():
    s = parse_set(["9h", "9d", "9c"], B)
    assert set(attach_options(s, {"9h", "X", "2d", "8h"}, B)) == {("9h", None), ("X", None), ("2d", None)}
    assert attached(s, "X", None, B)["cards"] == ["9h", "9d", "9c", "X"]
    assert attached(s, "9s", None, B)["cards"] == ["9h", "9d", "9c", "9s"]
    sc = parse_set(["7h", "7c", "X"], SCALA)
    assert attach_options(sc, {"7h", "7d", "7s", "X"}, SCALA) == [("7d", None), ("7s", None)]
    assert attached(sc, "7d", None, SCALA)["cards"] == ["7h", "7d", "7c", "X"]
    full = parse_set(["7h", "7d", "7c", "7s"], SCALA)
    assert attach_options(full, {"X", "7h"}, SCALA) == []


def test_substitute_a_wild():
    run = parse_run(["9h", "X", "Jh", "Qh", "Kh"], SCALA)
    assert substituted(run, "Th", SCALA)["cards"] == ["9h", "Th", "Jh", "Qh", "Kh"]
    assert substituted(run, "Td", SCALA) is None
    s = parse_set(["7h", "7c", "X"], SCALA)
    assert substituted(s, "7d", SCALA)["cards"] == ["7h", "7d", "7c"]
    assert substituted(s, "7h", SCALA) is None  # a suit the set already holds
    assert substituted(parse_run(["5h", "6h", "7h"], B), "6h", B) is None  # no wild
