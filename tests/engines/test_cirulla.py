"""Cirulla (shared/spec/games/cirulla.md): fifteens, the ace, the dealer's bonus, accusi,
Grande, Piccola, cappotto, the worked examples and the robot.

The rules shared with Scopa are tested in ``test_scopa.py``.
"""

from __future__ import annotations

import json
import random

import pytest

from apps.games.engines import IllegalAction, get_engine
from apps.games.engines.base import same_json
from apps.games.engines.cirulla import accuso_kind, piccola_points, table_bonus

from .fishing_helpers import (
    DECK,
    check_match_end,
    check_options_against_brute_force,
    is_listed,
    options_of,
    play,
    position,
    robot_vs_random,
    stack,
)
from .fishing_helpers import ko_position as fishing_ko_position

ENGINE = get_engine("cirulla")
OTHERS = ["4s", "5b", "Fc"]  # a P1 hand with no declaration (total 17)

#: cirulla.md example 5
P1_TRAILS = ["Ad", "2d", "3d", "4d", "5d", "6d", "Fd", "Cd", "Rd", "As", "3s", "5s", "6s", "Fs", "Cs", "Rs"]
P0_TAKES = ["Ac", "2b", "3c", "4c", "5c", "6c", "Fc", "Cc", "Rc", "Ab", "3b", "5b", "6b", "Fb", "Cb", "Rb"]
#: a 20-card pile with 5 denari, no Grande, no Piccola and primiera 81 (7c 7s 7b 6d)
STRONG = ["7c", "7s", "7b", "6d", "6c", "6s", "6b", "Ad", "2d", "Fd", "Cd", "Ac", "As", "Ab", "2c", "2s", "2b",
          "3c", "3s", "3b"]


def deal(p0: list[str], table: list[str], p1: list[str] = OTHERS, **options):
    deck = stack(2, 1, [[p0, p1]], table)
    return ENGINE.new_game(2, options={"dealer": 1, **options}, seed=1, deck=deck)


def test_identity_and_options():
    assert ENGINE.id == "cirulla" and ENGINE.name == "Cirulla"
    assert (ENGINE.min_players, ENGINE.max_players, ENGINE.player_counts) == (2, 4, (2, 4))
    assert ENGINE.options == {
        "mode": {"default": "points", "choices": ["points", "hands"]},
        "target": {"default": 51, "min": 1, "max": 201},
        "hands": {"default": 3, "min": 1, "max": 20},
        "knockout": {"default": False, "choices": [False, True]},
        "dealer": {"default": None, "min": 0, "max": 3},
    }
    assert ENGINE.new_game(2, seed=1).options["target"] == 51
    ENGINE.new_game(2, options={"target": 201}, seed=1)
    for bad in ({"target": 202}, {"target": 0}, {"dealer": 3}):
        with pytest.raises(ValueError):
            ENGINE.new_game(2, options=bad, seed=1)
    with pytest.raises(ValueError):
        ENGINE.new_game(3, seed=1)


# -- captures ---------------------------------------------------------------------------


def test_example_1_simple_and_fifteen_captures():
    state = deal(["7s", "2c", "Rb"], ["3c", "5s", "6b", "7d"])
    assert [a["type"] for a in state.legal_actions(0)] == ["play"] * 5
    assert {tuple(o) for o in options_of(state, 0, "7s")} == {("7d",), ("3c", "5s")}
    assert options_of(state, 0, "2c") == [["6b", "7d"]]
    assert {tuple(o) for o in options_of(state, 0, "Rb")} == {("3c", "7d"), ("5s",)}
    events = play(state, 0, "7s", ["3c", "5s"])
    assert events[0]["scopa"] is False and state.table == ["6b", "7d"]


def test_example_2_the_ace():
    state = deal(["Ac", "7s", "Rc"], ["Ad", "5s", "Cc", "Rb"])
    assert options_of(state, 0, "Ac") == [["Ad"]]
    state = deal(["Ac", "7s", "Rc"], ["2d", "5s", "Cc", "Rb"])
    assert options_of(state, 0, "Ac") == [["2d", "5s", "Cc", "Rb"]]
    events = play(state, 0, "Ac", ["2d", "5s", "Cc", "Rb"])
    assert events[0]["scopa"] is True and state.scope == [1, 0]


def test_ace_on_a_lone_ace_and_on_an_empty_table():
    state = position(ENGINE, 2, hands=[["Ac", "5c"], ["2s"]], table=["Ad"], turn=0, dealer=1)
    assert options_of(state, 0, "Ac") == [["Ad"]]
    assert play(state, 0, "Ac", ["Ad"])[0]["scopa"] is True
    state = position(ENGINE, 2, hands=[["Ab", "5c"], ["2s"]], table=[], turn=0, dealer=1)
    assert options_of(state, 0, "Ab") == [[]]


def test_fifteen_with_a_single_card_and_aces_counting_one():
    state = position(ENGINE, 2, hands=[["Fc"], ["2s"]], table=["Ad", "6s", "7b"], turn=0, dealer=1)
    # F = 8: no 8; sums to 8: Ad+7b; fifteens (need 7): 7b alone, Ad+6s
    assert {tuple(o) for o in options_of(state, 0, "Fc")} == {("Ad", "7b"), ("7b",), ("Ad", "6s")}


@pytest.mark.parametrize("n", [2, 4])
def test_options_match_brute_force(n):
    check_options_against_brute_force(ENGINE, n, 1500, seed=n, ace_takes_all=True, fifteen=True)


# -- deal -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("table", "bonus"),
    [
        (["2b", "3b", "4b", "6b"], 1),
        (["7c", "Rd", "2s", "Ab"], 1),
        (["Rd", "Rc", "5d", "5c"], 2),
        (["Rd", "Rc", "Fs", "7c"], 2),  # 28 + matta as 2
        (["7c", "Ad", "2s", "Fb"], 1),  # 11 + matta as 4
        (["3c", "5s", "6b", "7d"], 0),
        (["Ad", "5s", "Cc", "Rb"], 0),
    ],
)
def test_example_3_dealer_table_bonus(table, bonus):
    assert table_bonus(table) == bonus
    state = deal(["Ac", "7s", "6d"], table)
    if bonus:
        assert state.table == [] and state.scope == [0, bonus]
        assert sorted(state.piles[1]) == sorted(table) and state.last_capture == 1
        assert state.to_act == [0]
    else:
        assert sorted(state.table) == sorted(table) and state.scope == [0, 0]


def test_table_bonus_matta_limits():
    assert table_bonus(["7c", "2d", "2s", "Ab"]) == 1  # 5 + matta as 10
    assert table_bonus(["7c", "2d", "Ad", "Ab"]) == 0  # 4: the matta cannot be 11
    assert table_bonus(["7c", "Rd", "Rs", "Rb"]) == 0  # 30: the matta cannot be 0
    assert table_bonus(["7c", "Rd", "Rs", "Cb"]) == 2  # 29 + matta as 1
    assert table_bonus(["7c", "7d", "Ad"]) == 0


def test_table_bonus_event_on_a_later_deal():
    state = ENGINE.new_game(2, options={"dealer": 0}, seed=3)
    deck = stack(2, 0, [[["Ac", "7s", "Rc"], OTHERS]], ["2b", "3b", "4b", "6b"])
    events = state._deal_hand(deck)
    assert events[-1] == {"type": "table_bonus", "seat": 0, "cards": ["2b", "3b", "4b", "6b"], "scope": 1}
    assert state.view(1)["scope"] == [1, 0] and state.view(1)["captured_counts"] == [4, 0]


@pytest.mark.parametrize("table", [["Ad", "Ac", "5s", "6b"], ["Ad", "Ac", "As", "Rb"]])
def test_two_aces_void_the_deal(table):
    state = deal(["2c", "7s", "Rc"], table)
    assert state.attempt >= 1 and state.dealer == 1
    first_table = state.table or state.piles[1]  # a bonus may have taken the new table
    assert len(first_table) == 4 and sum(c[0] == "A" for c in first_table) < 2


def test_one_ace_or_three_kings_do_not_void_the_deal():
    assert deal(["2c", "7s", "Rc"], ["Ad", "5c", "5s", "6b"]).attempt == 0
    assert deal(["2c", "7s", "Ac"], ["Rd", "Rs", "Rb", "6b"]).attempt == 0


# -- accusi -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "kind"),
    [
        (["2s", "2b", "2c"], "decino"),
        (["7c", "3s", "4b"], "cirulla"),
        (["7c", "Fs", "Fb"], "decino"),
        (["7s", "3s", "4b"], None),
        (["7c", "Ad", "As"], "decino"),
        (["Ad", "3s", "5b"], "cirulla"),
        (["Ad", "3s", "6b"], None),
        (["7c", "7s", "7b"], "decino"),
        (["7c", "Rs", "Cb"], None),
    ],
)
def test_example_4_accuso_kinds(hand, kind):
    assert accuso_kind(hand) == kind


def test_declaring_reveals_the_hand_and_scores():
    state = deal(["2s", "2b", "2c"], ["3c", "5s", "6b", "Rd"])
    legal = state.legal_actions(0)
    assert legal[0] == {"type": "accuso", "accuso": "decino"}
    assert not is_listed(state, 0, {"type": "accuso", "accuso": "cirulla"})
    with pytest.raises(IllegalAction, match="only the decino"):
        state.apply(0, {"type": "accuso", "accuso": "cirulla"})
    events = state.apply(0, {"type": "accuso", "accuso": "decino"})
    assert events == [{"type": "accuso", "seat": 0, "accuso": "decino", "cards": ["2c", "2s", "2b"], "points": 10}]
    assert state.to_act == [0]
    assert all(a["type"] == "play" for a in state.legal_actions(0))
    with pytest.raises(IllegalAction, match="already declared"):
        state.apply(0, {"type": "accuso", "accuso": "decino"})
    for seat in (None, 1):
        view = state.view(seat)
        assert view["revealed"] == [["2c", "2s", "2b"], []] and view["accusi"] == [10, 0]
    assert not set(state.hidden_from(1)) & {"2c", "2s", "2b"}
    assert not set(state.hidden_from(None)) & {"2c", "2s", "2b"}
    play(state, 0, "2s", ["3c", "Rd"])  # 2 + 3 + 10 = 15
    assert state.view(None)["revealed"] == [["2c", "2b"], []]
    assert "2s" not in state.hidden_from(None)


def test_declaration_only_before_the_first_card_of_the_round():
    state = deal(["7c", "3s", "4b"], ["3c", "5s", "6b", "Rd"], p1=["Ad", "2d", "3d"])
    assert state.legal_actions(0)[0] == {"type": "accuso", "accuso": "cirulla"}
    play(state, 0, "4b", ["5s", "6b"])  # declining: playing without declaring
    assert state.legal_actions(1)[0] == {"type": "accuso", "accuso": "cirulla"}
    state.apply(1, {"type": "accuso", "accuso": "cirulla"})
    play(state, 1, "Ad", ["3c", "Rd"])
    assert [a["type"] for a in state.legal_actions(0)] == ["play", "play"]
    with pytest.raises(IllegalAction, match="before playing the first card"):
        state.apply(0, {"type": "accuso", "accuso": "cirulla"})
    assert state.accusi == [0, 3]


def test_declaration_is_offered_again_each_round():
    p0 = ["2s", "2b", "2c", "Ad", "Ac", "3d"]
    p1 = ["Rs", "Cb", "Fc", "Rb", "Cs", "Fb"]
    deck = stack(2, 1, [[p0[:3], p1[:3]], [p0[3:], p1[3:]]], ["3c", "5s", "6b", "Rd"])
    state = ENGINE.new_game(2, options={"dealer": 1}, seed=1, deck=deck)
    rng = random.Random(0)
    state.apply(0, {"type": "accuso", "accuso": "decino"})
    for _ in range(5):
        seat = state.to_act[0]
        state.apply(seat, rng.choice([a for a in state.legal_actions(seat) if a["type"] == "play"]))
    seat = state.to_act[0]
    state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert sorted(state.hands[0]) == sorted(["Ad", "Ac", "3d"]) and state.view(None)["revealed"] == [[], []]
    assert state.legal_actions(0)[0] == {"type": "accuso", "accuso": "cirulla"}
    state.apply(0, {"type": "accuso", "accuso": "cirulla"})
    assert state.accusi == [13, 0]


def test_bad_declarations_are_refused():
    state = deal(["7s", "3s", "4b"], ["3c", "5s", "6b", "Rd"])
    before = state.to_json()
    for action, words in [
        ({"type": "accuso", "accuso": "cirulla"}, "no declaration"),
        ({"type": "accuso", "accuso": "napola"}, "not a declaration"),
        ({"type": "accuso"}, "exactly the keys"),
        ({"type": "accuso", "accuso": "cirulla", "card": "7s"}, "exactly the keys"),
    ]:
        with pytest.raises(IllegalAction, match=words):
            state.apply(0, action)
        assert same_json(state.to_json(), before)


# -- scoring ----------------------------------------------------------------------------


def test_piccola_and_grande_points():
    assert piccola_points(["Ad", "2d", "3d"]) == 3
    assert piccola_points(["Ad", "2d", "3d", "4d"]) == 4
    assert piccola_points(["Ad", "2d", "3d", "4d", "5d", "6d", "7d"]) == 7
    assert piccola_points(["Ad", "2d", "3d", "5d", "6d", "7d"]) == 3
    assert piccola_points(["Ad", "3d", "4d", "5d"]) == 0
    state = position(ENGINE, 2, hands=[["5c"], ["5b"]], table=["5d", "Fc"], turn=0, dealer=1,
                     piles=[["Fd", "Cd", "Rd", "Ad", "2d", "3d", "4d"], []], rest_to=1)
    play(state, 0, "5c", ["5d"])
    play(state, 1, "5b", [])
    hand = state.result()["hands"][0]
    # team 0: 11 cards, 8 denari (A-5 and F C R), no settebello, no coppe/spade... no primiera
    assert hand["grande"] == 0 and hand["piccola"] == [5, 0] and hand["cappotto"] is None
    assert hand["accusi"] == [0, 0] and hand["denari"] == [8, 2] and hand["settebello"] == 1
    assert hand["points"][0] == 1 + 5 + 5


def play_example5(state) -> list[dict]:
    assert state.legal_actions(0)[0] == {"type": "accuso", "accuso": "cirulla"}  # 7c=1 + 7 + 1, declined
    events = play(state, 0, "7b", ["7d"])
    assert {tuple(o) for o in options_of(state, 1, "4s")} == {("2c", "2s"), ("2c", "2s", "7s")}
    events += play(state, 1, "4s", ["2c", "2s"])
    events += play(state, 0, "7c", ["7s"])
    for trail, take in zip(P1_TRAILS, P0_TAKES, strict=True):
        events += play(state, 1, trail, [])
        events += play(state, 0, take, [trail])
    events += play(state, 1, "4b", [])
    return events


def example5_deck() -> list[str]:
    p0 = ["7b", "7c", *P0_TAKES]
    p1 = ["4s", *P1_TRAILS, "4b"]
    rounds = [[p0[3 * r : 3 * r + 3], p1[3 * r : 3 * r + 3]] for r in range(6)]
    return stack(2, 1, rounds, ["7d", "7s", "2s", "2c"])


def test_example_5_cappotto_ends_the_match():
    state = ENGINE.new_game(2, options={"dealer": 1, "mode": "hands", "hands": 3}, seed=1, deck=example5_deck())
    assert state.scope == [0, 0] and state.table == ["2c", "2s", "7d", "7s"]
    events = play_example5(state)
    hand = state.result()["hands"][0]
    expected = {
        "points": [33, 0], "carte": [37, 3], "denari": [10, 0], "settebello": 0, "primiera": 0,
        "primiera_values": [84, 0], "scope": [17, 0], "last_capture": 0, "dealer": 1, "spareggio": 0,
        "accusi": [0, 0], "grande": 0, "piccola": [7, 0], "cappotto": 0,
    }
    assert {k: hand[k] for k in expected} == expected
    assert state.is_over and state.result()["winner"] == 0 and len(state.result()["hands"]) == 1
    assert events[-1] == {"type": "match_end", "winner": 0, "scores": [33, 0]}


def test_cappotto_wins_even_behind_on_points():
    denari = [c for c in DECK if c[1] == "d" and c != "5d"]
    state = position(ENGINE, 2, hands=[["5c"], ["5b"]], table=["5d", "Fc"], turn=0, dealer=1,
                     piles=[denari, []], rest_to=1, scores=[0, 60], options={"target": 61})
    play(state, 0, "5c", ["5d"])
    play(state, 1, "5b", [])
    result = state.result()
    assert result["hands"][0]["cappotto"] == 0 and result["winner"] == 0
    assert result["scores"][1] > result["scores"][0]


def ko_position(last_team: int, *, knockout: bool = True):
    return fishing_ko_position(ENGINE, last_team, strong=STRONG, scores=[7, 7], knockout=knockout)


@pytest.mark.parametrize("last_team", [0, 1])
def test_knockout_last_capture_of_third_spareggio_loses(last_team):
    state = ko_position(last_team)
    capturer = state.to_act[0]
    play(state, capturer, "5c", ["5d"])
    play(state, 1 - capturer, "5b", [])
    hand = state.result()["hands"][-1]
    assert hand["points"] == [1, 1] and hand["grande"] is None and hand["piccola"] == [0, 0]
    assert state.is_over and state.result()["winner"] == 1 - last_team


def test_knockout_table_bonus_counts_as_the_dealers_capture():
    # the dealer (seat 0) took the table with the bonus; nobody captured since
    piles = [[c for c in DECK if c not in STRONG and c != "5b"], STRONG]
    state = position(ENGINE, 2, hands=[[], ["5b"]], table=[], piles=piles, turn=1, dealer=0,
                     last_capture=0, options={"mode": "hands", "hands": 1, "knockout": True},
                     spareggio=3, regular_done=1, scores=[7, 7])
    play(state, 1, "5b", [])
    hand = state.result()["hands"][-1]
    assert hand["points"] == [1, 1] and hand["last_capture"] == 0
    assert state.result()["winner"] == 1


@pytest.mark.parametrize("options", [{}, {"mode": "hands", "hands": 1, "knockout": True}, {"target": 15}])
def test_random_matches_end_as_the_rules_say(options):
    for seed in range(20):
        state = ENGINE.new_game(2 + 2 * (seed % 2), options=options, seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            seat = state.to_act[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        result = state.result()
        check_match_end(result["hands"], state.options, result["winner"], result["scores"])
        for hand in result["hands"]:
            assert {"accusi", "grande", "piccola", "cappotto"} <= set(hand)


# -- view and robot ---------------------------------------------------------------------


def test_view_has_accusi_and_revealed_and_hides_hands():
    state = ENGINE.new_game(4, seed=5)
    for seat in (None, 0, 1, 2, 3):
        view = state.view(seat)
        assert {"accusi", "revealed", "hand", "table", "hand_counts", "stock_count", "captured_counts",
                "scope", "scores", "dealer", "to_act", "spareggio"} <= set(view)
        text = json.dumps(view)
        for other in range(4):
            if other != seat:
                assert not any(f'"{c}"' in text for c in state.hands[other])


def test_robot_always_declares_and_never_trails_an_ace():
    state = deal(["2s", "2b", "2c"], ["3c", "5s", "6b", "Rd"])
    assert ENGINE.bot_action(state, 0, random.Random(0)) == {"type": "accuso", "accuso": "decino"}
    state = position(ENGINE, 2, hands=[["Ab", "5c"], ["2s"]], table=[], turn=0, dealer=1)
    for seed in range(10):
        assert ENGINE.bot_action(state, 0, random.Random(seed))["card"] == "5c"


def test_robot_takes_a_fifteen_scopa():
    state = position(ENGINE, 2, hands=[["5c", "3c"], ["2s"]], table=["4d", "6s"], turn=0, dealer=1)
    assert ENGINE.bot_action(state, 0, random.Random(0)) == {"type": "play", "card": "5c",
                                                             "capture": ["4d", "6s"]}


@pytest.mark.slow
def test_robot_beats_random_play():
    two = robot_vs_random(ENGINE, 2, 300)
    four = robot_vs_random(ENGINE, 4, 200)
    print(f"cirulla robot win rate vs random: 2p {two:.0%}, 4p {four:.0%}")
    assert two >= 0.75 and four >= 0.75
