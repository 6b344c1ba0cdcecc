"""Scopone (shared/spec/games/scopone.md): the 9 + 4 deal, worked examples, differences.

The capture rules, scoring and match end are Scopa's (tested in ``test_scopa.py``); here
they are checked again where Scopone's deal changes something.
"""

from __future__ import annotations

import json
import random

import pytest

from apps.games.engines import IllegalAction, get_engine
from apps.games.engines.base import same_json

from .fishing_helpers import (
    DECK,
    check_match_end,
    check_options_against_brute_force,
    options_of,
    play,
    position,
    robot_vs_random,
    stack,
)

ENGINE = get_engine("scopone")

#: example 4: pair 1's blocks (seat 0 trails the first card, seat 3 takes with the second)
A_PAIRS = [("7s", "7b"), ("6d", "6c"), ("Cd", "Cc"), ("Rd", "Rc"), ("Cs", "Cb"), ("Rs", "Rb"), ("3c", "3b"),
           ("4c", "4b")]
#: pair 0's blocks (seat 1 trails the first card, seat 2 takes with the second)
B_PAIRS = [("6s", "6b"), ("7d", "7c"), ("5d", "5c"), ("Fd", "Fc"), ("5s", "5b"), ("Fs", "Fb"), ("Ac", "Ab"),
           ("2c", "2b")]


def example4_deck() -> list[str]:
    seat0 = ["As"] + [a for a, _ in A_PAIRS]
    seat1 = ["2s"] + [b for b, _ in B_PAIRS]
    seat2 = ["3s"] + [b for _, b in B_PAIRS]
    seat3 = ["4s"] + [a for _, a in A_PAIRS]
    return stack(4, 3, [[seat0, seat1, seat2, seat3]], ["Ad", "2d", "3d", "4d"])


def test_identity_players_and_options():
    assert ENGINE.id == "scopone" and ENGINE.name == "Scopone"
    assert (ENGINE.min_players, ENGINE.max_players, ENGINE.player_counts) == (4, 4, (4,))
    assert ENGINE.options == get_engine("scopa").options
    assert ENGINE.new_game(4, seed=1).teams == [[0, 2], [1, 3]]
    for bad in (2, 3, 5):
        with pytest.raises(ValueError):
            ENGINE.new_game(bad, seed=1)
    with pytest.raises(ValueError):
        ENGINE.new_game(4, options={"dealer": 4}, seed=1)
    with pytest.raises(ValueError):
        ENGINE.new_game(4, options={"target": 200}, seed=1)


def test_example_1_deal_order_nine_each_four_on_the_table():
    deck = list(reversed(DECK))  # table 4d 3d 2d Ad: no kings
    state = ENGINE.new_game(4, options={"dealer": 1}, seed=3, deck=deck)
    for i in range(36):
        assert deck[i] in state.hands[(1 + 1 + i) % 4]
    assert [deck[0], deck[4]] == [c for c in deck[:5] if c in state.hands[2]]
    assert deck[1] in state.hands[3] and deck[2] in state.hands[0] and deck[3] in state.hands[1]
    assert sorted(state.table) == sorted(deck[36:40])
    assert state.to_act == [2]
    view = state.view(None)
    assert view["hand_counts"] == [9, 9, 9, 9] and view["stock_count"] == 0 and view["dealer"] == 1


def test_example_2_and_3_same_value_first_and_trail():
    hands = [["7s", "4b", "Ab", "Ac", "As", "Ad", "2d", "2s", "2b"], [], [], []]
    table = ["2c", "5s", "7d", "Rb"]
    rest = [c for c in DECK if c not in hands[0] and c not in table]
    for seat in (1, 2, 3):
        hands[seat] = rest[(seat - 1) * 9 : seat * 9]
    state = ENGINE.new_game(4, options={"dealer": 3}, seed=1, deck=stack(4, 3, [hands], table))
    assert options_of(state, 0, "7s") == [["7d"]]
    assert options_of(state, 0, "4b") == [[]]
    assert {"type": "play", "card": "4b", "capture": []} in state.legal_actions(0)


def play_example4(state) -> list[dict]:
    events = []
    for seat, card, taken in ((0, "As", "Ad"), (1, "2s", "2d"), (2, "3s", "3d"), (3, "4s", "4d")):
        events += play(state, seat, card, [taken])
    for (a1, a2), (b1, b2) in zip(A_PAIRS, B_PAIRS, strict=True):
        events += play(state, 0, a1, [])
        events += play(state, 1, b1, [])
        events += play(state, 2, b2, [b1])
        events += play(state, 3, a2, [a1])
    return events


def test_example_4_full_hand_1_8():
    state = ENGINE.new_game(4, options={"dealer": 3, "target": 21}, seed=2, deck=example4_deck())
    assert state.table == ["Ad", "2d", "3d", "4d"] and state.to_act == [0]
    events = play_example4(state)
    plays = [e for e in events if e["type"] == "play"]
    assert len(plays) == 36 and not any(e["type"] == "deal" for e in events[:-3])
    assert [e["scopa"] for e in plays[:4]] == [False, False, False, True]
    assert plays[-1]["scopa"] is False, "the 36th play is never a scopa"
    hand = state.result()["hands"][0]
    expected = {
        "points": [1, 8], "carte": [20, 20], "denari": [5, 5], "settebello": 0, "primiera": None,
        "primiera_values": [78, 78], "scope": [0, 8], "last_capture": 3, "dealer": 3, "spareggio": 0,
    }
    assert {k: hand[k] for k in expected} == expected
    assert state.scores == [1, 8] and not state.is_over
    assert {"type": "new_hand", "dealer": 0, "spareggio": 0} in events
    assert state.to_act == [1] and state.view(None)["hand_counts"] == [9, 9, 9, 9]


def tie_position(spareggio: int, scores: list[int], knockout: bool = True):
    """Seat 2 captures last; the hand ends 1-1 (settebello to pair 0, primiera to pair 1)."""
    strong = ["7c", "7s", "7b", "6d", "6c", "6s", "6b", "Ad", "2d", "3d", "4d", "Ac", "As", "Ab", "2c", "2s", "2b", "3c", "3s", "3b"]
    return position(
        ENGINE, 4, hands=[[], [], ["5c"], ["5b"]], table=["5d", "Fc"], piles=[[], strong], rest_to=0,
        turn=2, dealer=3, options={"knockout": knockout}, spareggio=spareggio,
        regular_done=4, scores=scores,
    )


def test_example_5_tie_at_target_starts_spareggi():
    state = tie_position(0, [10, 10])
    play(state, 2, "5c", ["5d"])
    events = play(state, 3, "5b", [])
    assert state.scores == [11, 11] and not state.is_over
    assert {"type": "new_hand", "dealer": 0, "spareggio": 1} in events
    assert state.view(0)["spareggio"] == 1


def test_example_5_knockout_pair_of_last_capturer_loses():
    state = tie_position(3, [12, 12])
    play(state, 2, "5c", ["5d"])
    events = play(state, 3, "5b", [])
    hand = state.result()["hands"][-1]
    assert hand["points"] == [1, 1] and hand["last_capture"] == 2
    assert state.is_over and state.result()["winner"] == 1
    assert events[-1] == {"type": "match_end", "winner": 1, "scores": [13, 13]}


def test_without_knockout_a_fourth_spareggio_follows():
    state = tie_position(3, [12, 12], knockout=False)
    play(state, 2, "5c", ["5d"])
    play(state, 3, "5b", [])
    assert not state.is_over and state.spareggio == 4


def test_three_kings_on_the_table_void_the_deal():
    hands = [[c for c in DECK if c[0] != "R" and c[1] == s][:9] for s in "dcsb"]
    table = ["Rd", "Rc", "Rs", "Rb"]
    state = ENGINE.new_game(4, options={"dealer": 0}, seed=6, deck=stack(4, 0, [hands], table))
    assert state.dealer == 0 and state.attempt >= 1
    assert sum(c[0] == "R" for c in state.table) < 3


def test_options_match_brute_force():
    check_options_against_brute_force(ENGINE, 4, 1500, seed=4)


def test_partner_hand_is_hidden():
    state = ENGINE.new_game(4, seed=7)
    for seat in range(4):
        text = json.dumps(state.view(seat))
        for other in range(4):
            if other != seat:
                assert not any(f'"{c}"' in text for c in state.hands[other])
    assert state.view(None)["hand"] == []
    assert sorted(state.hidden_from(None)) == sorted(c for h in state.hands for c in h)


@pytest.mark.parametrize("options", [{}, {"mode": "hands", "hands": 1, "knockout": True}, {"target": 5}])
def test_random_matches_end_as_the_rules_say(options):
    for seed in range(20):
        state = ENGINE.new_game(4, options=options, seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            seat = state.to_act[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        result = state.result()
        check_match_end(result["hands"], state.options, result["winner"], result["scores"])
        assert all(len(h["scope"]) == 2 and sum(h["carte"]) == 40 for h in result["hands"])


def test_illegal_actions_are_readable():
    state = ENGINE.new_game(4, options={"dealer": 3}, seed=1, deck=example4_deck())
    before = state.to_json()
    for seat, action, words in [
        (1, {"type": "play", "card": "2s", "capture": ["2d"]}, "not seat 1's turn"),
        (0, {"type": "play", "card": "2s", "capture": ["2d"]}, "not in your hand"),
        (0, {"type": "play", "card": "As", "capture": []}, "compulsory"),
        (0, {"type": "play", "card": "7s", "capture": ["Ad", "2d"]}, "possible captures"),
    ]:
        with pytest.raises(IllegalAction, match=words):
            state.apply(seat, action)
        assert same_json(state.to_json(), before)


@pytest.mark.slow
def test_robot_beats_random_play():
    rate = robot_vs_random(ENGINE, 4, 300)
    print(f"scopone robot win rate vs random: {rate:.0%}")
    assert rate >= 0.75
