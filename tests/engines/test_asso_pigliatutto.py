"""Asso Pigliatutto (shared/spec/games/asso_pigliatutto.md): the sweeping ace and examples.

Everything it shares with Scopa is tested in ``test_scopa.py``; here: the ace rules, the
ace never scoring a scopa, the 3-kings redeal, the worked examples and the robot.
"""

from __future__ import annotations

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

ENGINE = get_engine("asso_pigliatutto")

#: scopa.md example 3 with As taking 5d, Ab taking 5c and Ac taking Ad (example 5)
P1_TRAILS = ["Ad", "2s", "3d", "4d", "5d", "6d", "Fd", "Cd", "Rd", "5c", "3s", "5s", "6s", "Fs", "Cs", "Rs"]
P0_TAKES = ["Ac", "2b", "3c", "4c", "As", "6c", "Fc", "Cc", "Rc", "Ab", "3b", "5b", "6b", "Fb", "Cb", "Rb"]
OTHERS = ["4s", "5b", "6c"]


def deal(p0: list[str], table: list[str], p1: list[str] = OTHERS):
    deck = stack(2, 1, [[p0, p1]], table)
    return ENGINE.new_game(2, options={"dealer": 1}, seed=1, deck=deck)


def test_identity_and_options():
    assert ENGINE.id == "asso_pigliatutto" and ENGINE.name == "Asso Pigliatutto"
    assert (ENGINE.min_players, ENGINE.max_players, ENGINE.player_counts) == (2, 4, (2, 4))
    assert ENGINE.options == get_engine("scopa").options
    with pytest.raises(ValueError):
        ENGINE.new_game(3, seed=1)


def test_example_1_the_ace_sweeps_without_scopa():
    state = deal(["Ac", "7d", "Rc"], ["2d", "5s", "Cc", "Rb"])
    assert options_of(state, 0, "Ac") == [["2d", "5s", "Cc", "Rb"]]
    events = play(state, 0, "Ac", ["2d", "5s", "Cc", "Rb"])
    assert events[0]["scopa"] is False
    assert state.table == [] and state.scope == [0, 0]
    assert sorted(state.piles[0]) == sorted(["Ac", "2d", "5s", "Cc", "Rb"])


def test_example_2_ace_on_the_table_takes_only_an_ace():
    state = deal(["Ac", "7d", "Rc"], ["Ad", "5s", "Cc", "Rb"])
    assert options_of(state, 0, "Ac") == [["Ad"]]
    play(state, 0, "Ac", ["Ad"])
    assert state.table == ["5s", "Cc", "Rb"]
    state = deal(["Ac", "7d", "Rc"], ["Ad", "As", "Cc", "Rb"])
    assert options_of(state, 0, "Ac") == [["Ad"], ["As"]]


def test_ace_taking_a_lone_ace_is_not_a_scopa():
    state = position(ENGINE, 2, hands=[["Ac", "5c"], ["2s"]], table=["Ad"], turn=0, dealer=1)
    events = play(state, 0, "Ac", ["Ad"])
    assert events[0]["scopa"] is False and state.scope == [0, 0]


def test_example_3_ace_on_an_empty_table_is_laid_down():
    state = position(ENGINE, 2, hands=[["Ab", "5c"], ["2s"]], table=[], turn=0, dealer=1)
    assert options_of(state, 0, "Ab") == [[]]
    play(state, 0, "Ab", [])
    assert state.table == ["Ab"]


def test_example_4_an_ace_on_the_table_counts_one_in_a_sum():
    state = deal(["3b", "7d", "Rc"], ["Ad", "2c", "6s", "Fb"])
    assert options_of(state, 0, "3b") == [["Ad", "2c"]]


def example5_deck() -> list[str]:
    p0 = ["7s", "7b", *P0_TAKES]
    p1 = ["4s", *P1_TRAILS, "4b"]
    rounds = [[p0[3 * r : 3 * r + 3], p1[3 * r : 3 * r + 3]] for r in range(6)]
    return stack(2, 1, rounds, ["7d", "7c", "2d", "2c"])


def test_example_5_full_hand_18_0():
    state = ENGINE.new_game(2, options={"dealer": 1}, seed=1, deck=example5_deck())
    events = play(state, 0, "7s", ["7d"])
    events += play(state, 1, "4s", ["2d", "2c"])
    events += play(state, 0, "7b", ["7c"])
    for trail, take in zip(P1_TRAILS, P0_TAKES, strict=True):
        events += play(state, 1, trail, [])
        assert options_of(state, 0, take) == [[trail]]
        events += play(state, 0, take, [trail])
    events += play(state, 1, "4b", [])
    ace_plays = [e for e in events if e["type"] == "play" and e["card"][0] == "A" and e["capture"]]
    assert len(ace_plays) == 3 and not any(e["scopa"] for e in ace_plays)
    hand = state.result()["hands"][0]
    expected = {
        "points": [18, 0], "carte": [37, 3], "denari": [9, 1], "settebello": 0, "primiera": 0,
        "primiera_values": [84, 0], "scope": [14, 0], "last_capture": 0, "dealer": 1, "spareggio": 0,
    }
    assert {k: hand[k] for k in expected} == expected
    assert state.is_over and state.result()["winner"] == 0


def test_example_6_three_kings_void_the_deal():
    deck = stack(2, 1, [[["Ad", "2d", "3d"], ["Ac", "2c", "3c"]]], ["Rd", "Rc", "Rs", "5b"])
    state = ENGINE.new_game(2, options={"dealer": 1}, seed=2, deck=deck)
    assert state.dealer == 1 and state.attempt >= 1
    assert sum(c[0] == "R" for c in state.table) < 3


@pytest.mark.parametrize("n", [2, 4])
def test_options_match_brute_force(n):
    check_options_against_brute_force(ENGINE, n, 1500, seed=n, ace_takes_all=True)


def test_no_ace_capture_ever_scores_a_scopa():
    rng = random.Random(5)
    for seed in range(15):
        state = ENGINE.new_game(2 + 2 * (seed % 2), seed=seed)
        while not state.is_over:
            seat = state.to_act[0]
            for event in state.apply(seat, rng.choice(state.legal_actions(seat))):
                if event["type"] == "play" and event["card"][0] == "A":
                    assert event["scopa"] is False
        result = state.result()
        check_match_end(result["hands"], state.options, result["winner"], result["scores"])


def test_illegal_ace_moves_are_explained():
    state = deal(["Ac", "7d", "Rc"], ["Ad", "5s", "Cc", "Rb"])
    before = state.to_json()
    with pytest.raises(IllegalAction, match="possible captures"):
        play(state, 0, "Ac", ["Ad", "5s", "Cc", "Rb"])
    with pytest.raises(IllegalAction, match="compulsory"):
        play(state, 0, "Ac", [])
    assert same_json(state.to_json(), before)


def test_robot_never_trails_an_ace_when_it_has_another_card():
    state = position(ENGINE, 2, hands=[["Ab", "5c"], ["2s"]], table=[], turn=0, dealer=1)
    for seed in range(10):
        assert ENGINE.bot_action(state, 0, random.Random(seed))["card"] == "5c"


def test_robot_keeps_the_ace_for_a_rich_table():
    state = position(ENGINE, 2, hands=[["Ac", "5c"], ["2s"]], table=["5d"], turn=0, dealer=1)
    assert ENGINE.bot_action(state, 0, random.Random(0)) == {"type": "play", "card": "5c", "capture": ["5d"]}
    state = position(ENGINE, 2, hands=[["Ac", "2c"], ["2s"]], table=["6d", "7d", "Fs"], turn=0, dealer=1)
    assert ENGINE.bot_action(state, 0, random.Random(0))["card"] == "Ac"


@pytest.mark.slow
def test_robot_beats_random_play():
    two = robot_vs_random(ENGINE, 2, 400)
    four = robot_vs_random(ENGINE, 4, 200)
    print(f"asso_pigliatutto robot win rate vs random: 2p {two:.0%}, 4p {four:.0%}")
    assert two >= 0.75 and four >= 0.75


def test_deck_is_the_italian_forty():
    assert sorted(ENGINE.deck(4)) == sorted(DECK)
