"""Scopa (shared/spec/games/scopa.md): worked examples, every rule, option and decision.

Most rules live in ``_fishing`` and are shared by Scopone, Asso Pigliatutto and Cirulla;
this file tests them thoroughly once, the other files test each game's differences.
"""

from __future__ import annotations

import json
import random

import pytest

from apps.games.engines import IllegalAction, get_engine
from apps.games.engines._fishing import (
    capture_options,
    match_decision,
    primiera_total,
    score_piles,
)
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
from .fishing_helpers import ko_position as fishing_ko_position

ENGINE = get_engine("scopa")

#: scopa.md §10 example 3: P1 trails, P0 takes with the other card of the rank
P1_TRAILS = ["Ad", "2s", "3d", "4d", "5d", "6d", "Fd", "Cd", "Rd", "As", "3s", "5s", "6s", "Fs", "Cs", "Rs"]
P0_TAKES = ["Ac", "2b", "3c", "4c", "5c", "6c", "Fc", "Cc", "Rc", "Ab", "3b", "5b", "6b", "Fb", "Cb", "Rb"]


def example3_deck() -> list[str]:
    p0 = ["7s", "7b", *P0_TAKES]
    p1 = ["4s", *P1_TRAILS, "4b"]
    rounds = [[p0[3 * r : 3 * r + 3], p1[3 * r : 3 * r + 3]] for r in range(6)]
    return stack(2, 1, rounds, ["7d", "7c", "2d", "2c"])


def as_set(options: list[list[str]]) -> set[tuple[str, ...]]:
    return {tuple(o) for o in options}


# -- identity and options ------------------------------------------------------------


def test_identity_players_and_teams():
    assert ENGINE.id == "scopa" and ENGINE.name == "Scopa"
    assert (ENGINE.min_players, ENGINE.max_players, ENGINE.player_counts) == (2, 4, (2, 4))
    assert ENGINE.new_game(2, seed=1).teams == [[0], [1]]
    assert ENGINE.new_game(4, seed=1).teams == [[0, 2], [1, 3]]
    for bad in (1, 3, 5):
        with pytest.raises(ValueError, match="not possible"):
            ENGINE.new_game(bad, seed=1)
    assert sorted(ENGINE.deck(2)) == sorted(DECK) and len(ENGINE.deck(4)) == 40


def test_options_are_exactly_the_rules_file():
    assert ENGINE.options == {
        "mode": {"default": "points", "choices": ["points", "hands"]},
        "target": {"default": 11, "min": 1, "max": 101},
        "hands": {"default": 3, "min": 1, "max": 20},
        "knockout": {"default": False, "choices": [False, True]},
        "dealer": {"default": None, "min": 0, "max": 3},
    }


@pytest.mark.parametrize(
    "options",
    [
        {"mode": "best-of"},
        {"target": 0},
        {"target": 102},
        {"hands": 0},
        {"hands": 21},
        {"knockout": 1},
        {"knockout": "yes"},
        {"dealer": 2},
        {"dealer": -1},
        {"colour": "red"},
    ],
)
def test_bad_options_raise_value_error(options):
    with pytest.raises(ValueError):
        ENGINE.new_game(2, options=options, seed=1)


def test_unused_option_is_accepted_and_ignored():
    state = ENGINE.new_game(2, options={"mode": "points", "hands": 7}, seed=1)
    assert state.options["hands"] == 7 and not state.is_over


def test_bad_deck_raises_value_error():
    with pytest.raises(ValueError):
        ENGINE.new_game(2, seed=1, deck=DECK[:-1] + ["Ad"])
    with pytest.raises(ValueError):
        ENGINE.new_game(2, seed=1, deck="not a deck")


# -- deal ------------------------------------------------------------------------------


@pytest.mark.parametrize(("n", "dealer"), [(2, 0), (2, 1), (4, 0), (4, 2), (4, 3)])
def test_stacked_deal_order_and_riprese(n, dealer):
    deck = list(reversed(DECK))  # no kings on the table with either count
    state = ENGINE.new_game(n, options={"dealer": dealer}, seed=9, deck=deck)
    hands = [[] for _ in range(n)]
    for i in range(3 * n):
        hands[(dealer + 1 + i) % n].append(deck[i])
    for seat in range(n):
        assert sorted(state.view(seat)["hand"]) == sorted(hands[seat])
    assert sorted(state.view(None)["table"]) == sorted(deck[3 * n : 3 * n + 4])
    assert state.stock == deck[3 * n + 4 :]
    assert state.to_act == [(dealer + 1) % n]
    rounds = 6 if n == 2 else 3
    assert state.view(None)["stock_count"] == 40 - 4 - 3 * n
    # play the first round out; the next 3n stock cards are dealt one at a time from dealer+1
    rng = random.Random(1)
    events = []
    for _ in range(3 * n):
        seat = state.to_act[0]
        events = state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert events[-1] == {"type": "deal", "hand_counts": [3] * n, "stock_count": 40 - 4 - 6 * n}
    nxt = deck[3 * n + 4 : 6 * n + 4]
    for seat in range(n):
        expected = [nxt[i] for i in range(3 * n) if (dealer + 1 + i) % n == seat]
        assert sorted(state.view(seat)["hand"]) == sorted(expected)
    assert state.to_act == [(dealer + 1) % n]
    # the whole hand is exactly `rounds` rounds
    deals = 2  # the first deal and the ripresa above
    while state.result()["hands"] == []:
        seat = state.to_act[0]
        events = state.apply(seat, rng.choice(state.legal_actions(seat)))
        deals += sum(1 for e in events if e["type"] == "deal" and "table" not in e)
    assert deals == rounds


def test_dealer_drawn_from_seed_then_rotates():
    dealers = {ENGINE.new_game(4, seed=s).dealer for s in range(40)}
    assert dealers == {0, 1, 2, 3}
    assert ENGINE.new_game(4, seed=5).dealer == ENGINE.new_game(4, seed=5).dealer
    state = ENGINE.new_game(2, options={"dealer": 1, "mode": "hands", "hands": 4}, seed=3)
    rng = random.Random(0)
    seen = []
    while not state.is_over:
        seat = state.to_act[0]
        for event in state.apply(seat, rng.choice(state.legal_actions(seat))):
            if event["type"] == "new_hand":
                seen.append(event["dealer"])
                assert state.to_act == [(event["dealer"] + 1) % 2]
    assert [h["dealer"] for h in state.result()["hands"]][:4] == [1, 0, 1, 0]
    assert seen[:3] == [0, 1, 0]


@pytest.mark.parametrize("table", [["Rd", "Rc", "Rs", "5b"], ["Rd", "Rc", "Rs", "Rb"], ["Rc", "5d", "Rs", "Rb"]])
def test_three_or_four_kings_void_the_deal(table):
    deck = stack(2, 0, [[["Ad", "2d", "3d"], ["Ac", "2c", "3c"]]], table)
    state = ENGINE.new_game(2, options={"dealer": 0}, seed=4, deck=deck)
    assert state.dealer == 0 and state.attempt >= 1
    assert sum(1 for c in state.table if c[0] == "R") < 3
    assert state.hands != [["Ad", "2d", "3d"], ["Ac", "2c", "3c"]][::-1]
    again = ENGINE.new_game(2, options={"dealer": 0}, seed=4, deck=deck)
    assert same_json(again.to_json(), state.to_json()), "the redeal comes from the seed"


def test_void_deal_event_on_a_redeal():
    state = ENGINE.new_game(2, options={"dealer": 0}, seed=4)
    deck = stack(2, 0, [[["Ad", "2d", "3d"], ["Ac", "2c", "3c"]]], ["Rd", "Rc", "Rs", "5b"])
    events = state._deal_hand(deck)
    assert events[0] == {"type": "void_deal", "dealer": 0, "table": ["5b", "Rd", "Rc", "Rs"]}
    assert events[-1]["type"] == "deal" and events[-1]["table"] == state.table
    assert events[-1]["hand_counts"] == [3, 3] and events[-1]["stock_count"] == 30


def test_two_kings_do_not_void_the_deal():
    deck = stack(2, 0, [[["Ad", "2d", "3d"], ["Ac", "2c", "3c"]]], ["Rd", "Rc", "5s", "5b"])
    state = ENGINE.new_game(2, options={"dealer": 0}, seed=4, deck=deck)
    assert state.table == ["5s", "5b", "Rd", "Rc"] and state.attempt == 0


def test_later_hands_come_from_the_seed():
    deck = example3_deck()
    a = ENGINE.new_game(2, options={"dealer": 1, "target": 50}, seed=1, deck=deck)
    b = ENGINE.new_game(2, options={"dealer": 1, "target": 50}, seed=2, deck=deck)
    assert same_json(a.hands, b.hands)
    for state in (a, b):
        play_example3(state)
    assert state.view(None)["hand_number"] == 2
    assert not same_json(a.hands, b.hands), "the second hand must come from each seed"


# -- worked examples -------------------------------------------------------------------


def test_example_1_single_card_before_sum():
    deck = stack(2, 1, [[["7d", "2c", "Rb"], ["As", "5b", "6c"]]], ["3c", "4s", "7b", "Fd"])
    state = ENGINE.new_game(2, options={"dealer": 1}, seed=1, deck=deck)
    assert state.to_act == [0]
    assert options_of(state, 0, "7d") == [["7b"]]
    assert options_of(state, 0, "2c") == [[]]
    assert options_of(state, 0, "Rb") == [["3c", "7b"]]
    assert len(state.legal_actions(0)) == 3


def test_example_2_several_sums():
    deck = stack(2, 1, [[["Cb", "2c", "Rb"], ["As", "5b", "6c"]]], ["Ac", "3d", "5s", "4b"])
    state = ENGINE.new_game(2, options={"dealer": 1}, seed=1, deck=deck)
    assert as_set(options_of(state, 0, "Cb")) == {("4b", "5s"), ("Ac", "3d", "5s")}
    play(state, 0, "Cb", ["Ac", "3d", "5s"])
    assert state.table == ["4b"] and state.piles[0] == ["Ac", "3d", "5s", "Cb"]


def play_example3(state) -> list[dict]:
    events = play(state, 0, "7s", ["7d"])
    events += play(state, 1, "4s", ["2d", "2c"])
    events += play(state, 0, "7b", ["7c"])
    for trail, take in zip(P1_TRAILS, P0_TAKES, strict=True):
        events += play(state, 1, trail, [])
        events += play(state, 0, take, [trail])
    events += play(state, 1, "4b", [])
    return events


def test_example_3_full_hand_21_0():
    state = ENGINE.new_game(2, options={"dealer": 1}, seed=1, deck=example3_deck())
    assert state.table == ["2d", "2c", "7d", "7c"]
    events = play_example3(state)
    plays = [e for e in events if e["type"] == "play"]
    assert len(plays) == 36
    assert [e["scopa"] for e in plays[:3]] == [False, False, True]
    assert sum(e["scopa"] for e in plays) == 17
    assert sum(1 for e in events if e["type"] == "deal") == 5
    hand = {
        "points": [21, 0], "carte": [37, 3], "denari": [9, 1], "settebello": 0, "primiera": 0,
        "primiera_values": [84, 0], "scope": [17, 0], "last_capture": 0, "dealer": 1, "spareggio": 0,
    }
    end = next(e for e in events if e["type"] == "hand_end")
    assert {k: end["result"][k] for k in hand} == hand
    assert end["scores"] == [21, 0] and end["last_cards"] == ["4b"]
    assert events[-1] == {"type": "match_end", "winner": 0, "scores": [21, 0]}
    assert state.is_over and state.to_act == [] and state.legal_actions(0) == []
    result = state.result()
    assert result["scores"] == [21, 0] and result["winner"] == 0
    assert {k: result["hands"][0][k] for k in hand} == hand
    with pytest.raises(IllegalAction, match="over"):
        state.apply(0, {"type": "play", "card": "7d", "capture": []})


def test_example_4_last_play_is_never_a_scopa():
    state = position(ENGINE, 2, hands=[[], ["4c"]], table=["4b"], turn=1, dealer=1, last_capture=0)
    events = play(state, 1, "4c", ["4b"])
    assert events[0] == {"type": "play", "seat": 1, "card": "4c", "capture": ["4b"], "scopa": False}
    hand = state.result()["hands"][0]
    assert hand["scope"] == [0, 0] and hand["last_capture"] == 1


def test_emptying_the_table_before_the_last_play_is_a_scopa():
    state = position(ENGINE, 2, hands=[["5c"], ["4c"]], table=["4b"], turn=1, dealer=0)
    events = play(state, 1, "4c", ["4b"])
    assert events[0]["scopa"] is True and state.scope == [0, 1]
    assert state.view(0)["scope"] == [0, 1]


SCOPA_STRONG = ["7c", "7s", "7b", "6d", "6c", "6s", "6b", "Ad", "2d", "3d", "4d", "Ac", "As", "Ab", "2c", "2s",
                "2b", "3c", "3s", "3b"]


def ko_position(last_team: int, knockout: bool = True):
    return fishing_ko_position(ENGINE, last_team, strong=SCOPA_STRONG, scores=[3, 3], knockout=knockout)


@pytest.mark.parametrize("last_team", [0, 1])
def test_example_5_knockout_last_capture_of_third_spareggio_loses(last_team):
    state = ko_position(last_team)
    assert state.view(None)["spareggio"] == 3
    capturer = state.to_act[0]
    play(state, capturer, "5c", ["5d"])
    events = play(state, 1 - capturer, "5b", [])
    hand = state.result()["hands"][-1]
    assert hand["points"] == [1, 1] and hand["spareggio"] == 3
    assert hand["last_capture"] % 2 == last_team
    assert state.is_over and state.result()["winner"] == 1 - last_team
    assert state.result()["scores"] == [4, 4]
    assert events[-1] == {"type": "match_end", "winner": 1 - last_team, "scores": [4, 4]}


def test_without_knockout_spareggi_go_on():
    state = ko_position(0, knockout=False)
    play(state, 0, "5c", ["5d"])
    events = play(state, 1, "5b", [])
    assert not state.is_over
    assert {"type": "new_hand", "dealer": 0, "spareggio": 4} in events
    assert state.view(None)["spareggio"] == 4


# -- play rules ------------------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 4])
def test_options_match_brute_force_canonical_and_compulsory(n):
    check_options_against_brute_force(ENGINE, n, 1500, seed=n)


def test_capture_options_helper_examples():
    assert capture_options(["7s"], ["2c", "5s", "7d", "Rb"]) == [("7s", ("7d",))]
    assert capture_options(["4b"], ["2c", "5s", "7d", "Rb"]) == [("4b", ())]
    assert capture_options(["5c"], ["5d", "5s"]) == [("5c", ("5d",)), ("5c", ("5s",))]
    assert capture_options(["Rc"], []) == [("Rc", ())]


def test_partners_capture_into_one_team_pile():
    state = position(ENGINE, 4, hands=[["Cc"], ["4c"], ["Rc"], ["3b"]], table=["4b", "Cd", "Rd"],
                     turn=0, dealer=3)
    play(state, 0, "Cc", ["Cd"])
    play(state, 1, "4c", ["4b"])
    play(state, 2, "Rc", ["Rd"])
    assert state.piles[0][-4:] == ["Cd", "Cc", "Rd", "Rc"] and state.piles[1][-2:] == ["4b", "4c"]
    assert state.view(3)["captured_counts"][0] == len(state.piles[0])
    events = play(state, 3, "3b", [])
    end = next(e for e in events if e["type"] == "hand_end")
    assert end["last_capture"] == 2 and end["last_cards"] == ["3b"]
    assert end["result"]["last_capture"] == 2


# -- scoring ----------------------------------------------------------------------------


def test_scoring_ties_give_nobody_the_point():
    half = [c for c in DECK if c[0] in "A234F"]  # 20 cards, 5 denari, no 7 no 6
    other = [c for c in DECK if c not in half]
    result = score_piles([half, other], [0, 0])
    assert result["carte"] == [20, 20] and result["denari"] == [5, 5]
    assert result["settebello"] == 1
    assert result["primiera_values"] == [16 * 4, 21 * 4] and result["primiera"] == 1
    assert result["points"] == [0, 2]


def test_primiera_missing_suit_and_equal_totals():
    assert primiera_total(["7d", "7c", "7s"]) == 0
    assert primiera_total(["7d", "Ad", "6c", "Fs", "2b"]) == 21 + 18 + 10 + 12
    no_bastoni = [c for c in DECK if c[1] != "b"]
    result = score_piles([[c for c in DECK if c[1] == "b"], no_bastoni], [2, 1])
    assert result["primiera_values"] == [0, 0] and result["primiera"] is None
    assert result["scope"] == [2, 1]
    even_a = ["7d", "6c", "7s", "6b"] + [c for c in DECK if c[0] in "A2345" and c[1] in "dc"]
    even_b = [c for c in DECK if c not in even_a]
    r = score_piles([even_a, even_b], [0, 0])
    assert r["primiera_values"] == [78, 78] and r["primiera"] is None


def test_primiera_beats_a_team_without_a_suit():
    pile_a = ["Fd", "Fc", "Fs", "Fb"]
    pile_b = [c for c in DECK if c not in pile_a and c[1] != "b"]
    r = score_piles([pile_a, pile_b + [c for c in DECK if c[1] == "b" and c not in pile_a]], [0, 0])
    assert r["primiera"] == 1
    r = score_piles([pile_a + pile_b, [c for c in DECK if c[1] == "b" and c != "Fb"]], [0, 0])
    assert r["primiera_values"][1] == 0 and r["primiera"] == 0


# -- match end --------------------------------------------------------------------------


def test_match_decision_rules():
    points = {"mode": "points", "target": 11, "hands": 3, "knockout": False}
    hands = {**points, "mode": "hands"}
    ko = {**points, "knockout": True}
    assert match_decision(points, [10, 9], 0, 5, 0) == (None, 0)
    assert match_decision(points, [11, 9], 0, 5, 0) == (0, 0)
    assert match_decision(points, [12, 14], 0, 5, 0) == (1, 0)
    assert match_decision(points, [12, 12], 0, 5, 0) == (None, 1)
    assert match_decision(points, [13, 12], 1, 5, 1) == (0, 1)
    assert match_decision(points, [13, 13], 3, 5, 1) == (None, 4)
    assert match_decision(hands, [30, 2], 0, 2, 0) == (None, 0)
    assert match_decision(hands, [3, 2], 0, 3, 0) == (0, 0)
    assert match_decision(hands, [3, 3], 0, 3, 0) == (None, 1)
    assert match_decision(ko, [12, 12], 2, 5, 0) == (None, 3)
    assert match_decision(ko, [12, 12], 3, 5, 0) == (1, 3)
    assert match_decision(ko, [12, 12], 3, 5, 1) == (0, 3)
    assert match_decision(ko, [12, 13], 3, 5, 1) == (1, 3)


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"target": 1},
        {"target": 21, "knockout": True},
        {"mode": "hands", "hands": 1},
        {"mode": "hands", "hands": 1, "knockout": True},
        {"mode": "hands", "hands": 2},
    ],
)
def test_random_matches_end_exactly_as_the_rules_say(options):
    spareggi = 0
    for seed in range(30):
        state = ENGINE.new_game(2 + 2 * (seed % 2), options=options, seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            seat = state.to_act[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        result = state.result()
        check_match_end(result["hands"], state.options, result["winner"], result["scores"])
        assert [h["points"] for h in result["hands"]] and result["winner"] in (0, 1)
        spareggi += sum(1 for h in result["hands"] if h["spareggio"])
    if options.get("mode") == "hands" and options.get("hands") == 1:
        assert spareggi, "30 one-hand matches should meet at least one tie"


def test_result_before_the_end():
    state = ENGINE.new_game(2, options={"target": 101}, seed=2)
    assert state.result() == {"scores": [0, 0], "winner": None, "hands": []}
    rng = random.Random(2)
    while not state.result()["hands"]:
        seat = state.to_act[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    result = state.result()
    assert result["winner"] is None and len(result["hands"]) == 1
    assert result["scores"] == result["hands"][0]["points"]


# -- view, events, JSON -------------------------------------------------------------------


def test_view_keys_and_hidden_cards():
    state = ENGINE.new_game(4, options={"dealer": 3}, seed=8)
    required = {"hand", "table", "hand_counts", "stock_count", "captured_counts", "scope", "scores",
                "dealer", "to_act", "spareggio"}
    for seat in (None, 0, 1, 2, 3):
        view = state.view(seat)
        assert required <= set(view)
        text = json.dumps(view)
        for other in range(4):
            if other != seat:
                assert not any(f'"{c}"' in text for c in state.hands[other])
        assert not any(f'"{c}"' in text for c in state.stock)
    assert state.view(None)["hand"] == [] and state.view(2)["hand"] == state.hands[2]
    view = state.view(0)
    assert view["hand_counts"] == [3, 3, 3, 3] and view["stock_count"] == 24 and view["dealer"] == 3
    assert view["to_act"] == [0] and view["spareggio"] == 0 and view["scores"] == [0, 0]
    assert sorted(state.hidden_from(0)) == sorted(state.stock + state.hands[1] + state.hands[2] + state.hands[3])


def test_events_never_carry_hidden_cards():
    state = ENGINE.new_game(2, seed=12)
    rng = random.Random(12)
    while not state.is_over:
        seat = state.to_act[0]
        hidden_before = set(state.hidden_from(None))
        action = rng.choice(state.legal_actions(seat))
        for event in state.apply(seat, action):
            assert event["type"] in {"play", "deal", "hand_end", "new_hand", "match_end", "void_deal"}
            if event["type"] == "deal":
                visible = set(event.get("table", []))
                assert "hand_counts" in event and not visible & set(state.hidden_from(None))
            if event["type"] == "play":
                assert set(event) == {"type", "seat", "card", "capture", "scopa"}
                assert event["card"] == action["card"] and not set(event["capture"]) & hidden_before


def test_json_round_trip_mid_hand():
    state = ENGINE.new_game(4, seed=21)
    rng = random.Random(3)
    for _ in range(17):
        seat = state.to_act[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    data = json.loads(json.dumps(state.to_json()))
    restored = ENGINE.from_json(data)
    assert same_json(restored.to_json(), state.to_json())
    with pytest.raises(ValueError):
        get_engine("scopone").from_json(data)


# -- illegal actions ------------------------------------------------------------------------


def test_illegal_actions_have_readable_messages_and_change_nothing():
    deck = stack(2, 1, [[["7d", "2c", "Rb"], ["As", "5b", "6c"]]], ["3c", "4s", "7b", "Fd"])
    state = ENGINE.new_game(2, options={"dealer": 1}, seed=1, deck=deck)
    before = state.to_json()
    cases = [
        (1, {"type": "play", "card": "As", "capture": []}, "not seat 1's turn"),
        (0, {"type": "play", "card": "5b", "capture": []}, "not in your hand"),
        (0, {"type": "play", "card": "Zz", "capture": []}, "not a card"),
        (0, {"type": "play", "card": "7d", "capture": []}, "compulsory"),
        (0, {"type": "play", "card": "7d", "capture": ["3c", "4s"]}, "possible captures are"),
        (0, {"type": "play", "card": "2c", "capture": ["Fd"]}, "cannot take anything"),
        (0, {"type": "play", "card": "Rb", "capture": ["7b", "3c"]}, "canonical order"),
        (0, {"type": "play", "card": "Rb", "capture": ["3c", "Ad"]}, "not on the table"),
        (0, {"type": "play", "card": "Rb", "capture": "3c"}, "must be a list"),
        (0, {"type": "play", "card": "7d"}, "exactly the keys"),
        (0, {"type": "play", "card": "7d", "capture": ["7b"], "note": 1}, "exactly the keys"),
        (0, {"type": "pass"}, "Unknown move type"),
        (0, {"card": "7d", "capture": ["7b"]}, 'needs a "type"'),
        (0, "7d", "JSON object"),
        (5, {"type": "play", "card": "7d", "capture": ["7b"]}, "no seat"),
    ]
    for seat, action, words in cases:
        with pytest.raises(IllegalAction, match=words):
            state.apply(seat, action)
        assert same_json(state.to_json(), before)
    # key order does not matter; list order does
    state.apply(0, {"capture": ["7b"], "card": "7d", "type": "play"})


# -- robot ------------------------------------------------------------------------------------


def test_robot_takes_the_scopa_with_the_settebello():
    state = position(ENGINE, 2, hands=[["7s", "3c", "Fb"], ["2c", "2s", "4b"]], table=["7d"], turn=0,
                     dealer=1, stock=[])
    action = ENGINE.bot_action(state, 0, random.Random(0))
    assert action == {"type": "play", "card": "7s", "capture": ["7d"]}


def test_robot_does_not_leave_a_sweepable_table():
    # trailing 2c would leave Fd + 2c = 10, and a king (Rs) is out of sight: the robot trails Rc
    state = position(ENGINE, 2, hands=[["2c", "Rc"], ["Rs", "4b"]], table=["Fd"], turn=0, dealer=1)
    assert ENGINE.bot_action(state, 0, random.Random(0))["card"] == "Rc"


def test_robot_decides_from_the_view_only():
    """Two deals that look the same to seat 0 (hidden cards swapped) get the same decision."""
    stock = ["Ad", "2d", "3d", "4d", "5d", "6d"]
    a = position(ENGINE, 2, hands=[["7s", "3c", "Fb"], ["Ac", "As", "Ab"]], table=["5c", "2s"],
                 stock=stock, turn=0, dealer=1)
    b = position(ENGINE, 2, hands=[["7s", "3c", "Fb"], ["Ad", "2d", "3d"]], table=["5c", "2s"],
                 stock=["Ac", "As", "Ab", "4d", "5d", "6d"], turn=0, dealer=1)
    assert same_json(a.view(0), b.view(0))
    for seed in range(20):
        assert ENGINE.bot_action(a, 0, random.Random(seed)) == ENGINE.bot_action(b, 0, random.Random(seed))
    action = ENGINE.robot_choice(json.loads(json.dumps(a.view(0))), a.legal_actions(0), random.Random(1))
    assert action in a.legal_actions(0)


@pytest.mark.slow
def test_robot_beats_random_play():
    two = robot_vs_random(ENGINE, 2, 400)
    four = robot_vs_random(ENGINE, 4, 200)
    print(f"scopa robot win rate vs random: 2p {two:.0%}, 4p {four:.0%}")
    assert two >= 0.75 and four >= 0.75
