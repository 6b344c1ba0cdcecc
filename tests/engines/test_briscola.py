"""Briscola: the worked examples and rules of shared/spec/games/briscola.md."""

from __future__ import annotations

import random

import pytest

from apps.games.engines import IllegalAction, get_engine
from apps.games.engines.briscola import POINTS, trick_winner

ENGINE = get_engine("briscola")
FULL = ENGINE.deck(2)


def stacked(front: list[str]) -> list[str]:
    return front + [c for c in FULL if c not in front]


def play(state, seat, card):
    return state.apply(seat, {"type": "play", "card": card})


def test_identity_and_options():
    assert (ENGINE.name, ENGINE.min_players, ENGINE.max_players) == ("Briscola", 2, 4)
    assert ENGINE.player_counts == (2, 4)
    with pytest.raises(ValueError):
        ENGINE.new_game(3, seed=1)
    with pytest.raises(ValueError):
        ENGINE.new_game(2, options={"hands": 2}, seed=1)
    with pytest.raises(ValueError):
        ENGINE.new_game(2, options={"mode": "fast"}, seed=1)
    state = ENGINE.new_game(2, options={"hands": 5}, seed=1)  # accepted, ignored in points mode
    assert state.options["mode"] == "points"


def test_e1_dealing_trump_off_suit_and_drawing_order():
    front = ["Ad", "3d", "Rs", "5b", "Cc", "2c", "2b", "7d", "6s", "Fb", "4c"]
    state = ENGINE.new_game(2, options={"dealer": 1}, seed=3, deck=stacked(front))
    assert sorted(state.view(0)["hand"]) == sorted(["Ad", "Rs", "Cc"])
    assert sorted(state.view(1)["hand"]) == sorted(["3d", "5b", "2c"])
    view = state.view(None)
    assert view["trump_card"] == "2b" and view["trump_suit"] == "b" and view["hand"] == []
    assert view["stock_count"] == 34
    assert state.to_act == [0]
    play(state, 0, "Ad")
    events = play(state, 1, "3d")
    trick = next(e for e in events if e["type"] == "trick")
    assert trick["winner"] == 0 and trick["points"] == 21
    draw = next(e for e in events if e["type"] == "draw")
    assert draw["seats"] == [0, 1] and "7d" not in str(events) and "6s" not in str(events)
    assert sorted(a["card"] for a in state.legal_actions(0)) == sorted(["Rs", "Cc", "7d"])
    assert "6s" in state.view(1)["hand"]
    play(state, 0, "Rs")
    events = play(state, 1, "5b")
    assert next(e for e in events if e["type"] == "trick")["winner"] == 1
    assert state.to_act == [1]
    assert sorted(state.view(1)["hand"]) == sorted(["2c", "6s", "Fb"])
    assert "4c" in state.view(0)["hand"]
    play(state, 1, "6s")
    events = play(state, 0, "Cc")
    assert next(e for e in events if e["type"] == "trick")["winner"] == 1
    assert state.to_act == [1]
    # whatever follows, the loser of trick 17 draws the face-up 2b
    rng = random.Random(1)
    tricks = 3
    while tricks < 17:
        seat = state.to_act[0]
        events = state.apply(seat, rng.choice(state.legal_actions(seat)))
        for event in events:
            if event["type"] == "trick":
                tricks += 1
                if tricks == 17:
                    loser = 1 - event["winner"]
                    draw = next(e for e in events if e["type"] == "draw")
                    assert draw["trump_card_to"] == loser and draw["stock_count"] == 0
                    assert "2b" in state.view(loser)["hand"]
                    assert state.view(None)["trump_card"] is None
                    assert state.view(None)["trump_suit"] == "b"


def test_e2_four_players_partners():
    deck = ["Ac", "2c", "3c", "Rc", "5d", "6d", "7d", "Fd", "5s", "6s", "7s", "Fs", "4s",
            "Ab", "2b", "3b", "Rb"]
    state = ENGINE.new_game(4, options={"dealer": 3}, seed=3, deck=stacked(deck))
    assert state.teams == [[0, 2], [1, 3]]
    assert state.view(0)["hand"] == ["Ac", "5d", "5s"]
    assert state.view(None)["trump_card"] == "4s"
    play(state, 0, "Ac")
    play(state, 1, "2c")
    play(state, 2, "3c")
    events = play(state, 3, "Rc")
    trick = next(e for e in events if e["type"] == "trick")
    assert trick == {"type": "trick", "winner": 0, "cards": ["Ac", "2c", "3c", "Rc"], "points": 25}
    assert next(e for e in events if e["type"] == "draw")["seats"] == [0, 1, 2, 3]
    assert "Ab" in state.view(0)["hand"] and "2b" in state.view(1)["hand"]
    assert "3b" in state.view(2)["hand"] and "Rb" in state.view(3)["hand"]
    assert state.to_act == [0]
    # partners never see each other's hands
    assert not set(state.view(0)["hand"]) & set(str(state.view(2)))


def last_trick_state(pile0: list[str], last0: str, last1: str, options=None):
    """A 2-player state one trick from the end: team 0 holds ``pile0``; seat 0 leads ``last0``."""
    rest = [c for c in FULL if c not in pile0 and c not in (last0, last1)]
    state = ENGINE.new_game(2, options={"dealer": 1, **(options or {})}, seed=9)
    data = state.to_json()
    data.update(hands=[[last0], [last1]], stock=[], trump_card="2b", trump_under_stock=False,
                piles=[pile0, rest], turn=0, trick=[])
    return ENGINE.from_json(data)


def test_e3_hand_result_points_mode_ends_the_match():
    pile0 = ["Ad", "Ac", "3d", "3c", "Rd", "Cd", "Fd", "4d", "5d"]
    assert sum(POINTS[c[0]] for c in pile0) == 51
    state = last_trick_state(pile0, "2d", "2c")  # seat 0 leads 2d, 2c off-suit: seat 0 wins 0 points
    play(state, 0, "2d")
    play(state, 1, "2c")
    assert state.is_over
    result = state.result()
    assert result["scores"] == [51, 69] and result["winner"] == 1
    assert result["hands"][-1]["points"] == [51, 69] and result["hands"][-1]["winner"] == 1


def test_e4_drawn_hand_is_replayed_with_next_dealer():
    pile0 = ["Ad", "Ac", "As", "Ab", "3d", "Rd", "Fd"]
    assert sum(POINTS[c[0]] for c in pile0) == 60
    state = last_trick_state(pile0, "2d", "2c")
    play(state, 0, "2d")
    events = play(state, 1, "2c")
    assert not state.is_over
    assert state.result()["hands"][-1] == {"points": [60, 60], "winner": None, "dealer": 1, "trump_suit": "b"}
    assert state.result()["winner"] is None
    assert {"type": "new_hand", "dealer": 0, "trump_card": state.view(None)["trump_card"]} in events
    assert state.view(None)["dealer"] == 0 and state.to_act == [1]


def test_e5_hands_mode_best_of_three():
    # hand results: team 0, draw, team 1, team 0 -> [2, 1], winner 0, four hands recorded
    win0 = ["Ad", "Ac", "As", "Ab", "3d", "3c", "3s"]  # 74 points
    draw = ["Ad", "Ac", "As", "Ab", "3d", "Rd", "Fd"]  # 60
    win1 = ["4d"]
    state = None
    for pile0 in (win0, draw, win1, win0):
        if state is None:
            state = last_trick_state(pile0, "2d", "2c", {"mode": "hands", "hands": 3})
        else:
            data = state.to_json()
            rest = [c for c in FULL if c not in pile0 and c not in ("2d", "2c")]
            data.update(hands=[["2d"], ["2c"]], stock=[], trump_under_stock=False, trump_card="2b",
                        piles=[pile0, rest], turn=0, trick=[])
            state = ENGINE.from_json(data)
        play(state, 0, "2d")
        play(state, 1, "2c")
    result = state.result()
    assert state.is_over and result["scores"] == [2, 1] and result["winner"] == 0
    assert [h["winner"] for h in result["hands"]] == [0, None, 1, 0]


def test_trick_winner_rules():
    assert trick_winner([(0, "Cc"), (1, "6s")], "b") == 0  # led suit wins over off-suit
    assert trick_winner([(0, "6s"), (1, "Cc")], "b") == 0
    assert trick_winner([(0, "Ad"), (1, "2b")], "b") == 1  # any trump beats
    assert trick_winner([(0, "3b"), (1, "Ab")], "b") == 1  # A over 3
    assert trick_winner([(0, "Rd"), (1, "3d"), (2, "Ad"), (3, "Cb")], "b") == 3
    assert sum(POINTS[c[0]] for c in FULL) == 120


def test_no_obligation_to_follow_suit_and_errors():
    state = ENGINE.new_game(2, options={"dealer": 1}, seed=4)
    hand = state.view(0)["hand"]
    assert len(state.legal_actions(0)) == 3 and state.legal_actions(1) == []
    play(state, 0, hand[0])
    assert len(state.legal_actions(1)) == 3  # any card may follow
    before = state.to_json()
    with pytest.raises(IllegalAction, match="not seat 0's turn"):
        play(state, 0, hand[1])
    with pytest.raises(IllegalAction, match="not in your hand"):
        play(state, 1, hand[1])
    with pytest.raises(IllegalAction, match="not a card"):
        play(state, 1, "Qs")
    with pytest.raises(IllegalAction, match="exactly"):
        state.apply(1, {"type": "play", "card": state.view(1)["hand"][0], "x": 1})
    assert state.to_json() == before


def test_views_hide_hands_stock_and_running_points():
    state = ENGINE.new_game(2, seed=8)
    for seat in (0, 1):
        view = state.view(seat)
        other = state.view(1 - seat)["hand"]
        assert not set(other) & set(str(view).replace("'", " ").split())
    spectator = state.view(None)
    assert spectator["hand"] == [] and "points" not in str(spectator.get("captured_counts"))


def robot_match(seed: int, robot_seat: int) -> bool:
    rng = random.Random(seed)
    state = ENGINE.new_game(2, seed=seed)
    while not state.is_over:
        seat = state.to_act[0]
        action = ENGINE.bot_action(state, seat, rng) if seat == robot_seat else rng.choice(state.legal_actions(seat))
        state.apply(seat, action)
    return state.result()["winner"] == robot_seat


def test_robot_beats_random_clearly():
    wins = sum(robot_match(seed, seed % 2) for seed in range(300))
    rate = wins / 300
    print(f"briscola robot vs random: {rate:.1%} of 300 single-hand matches")
    assert rate >= 0.70


def test_robot_partner_adds_points_when_partner_wins_last():
    view = {"trump_suit": "b", "players": 4, "seat": 3,
            "trick": [{"seat": 0, "card": "4d"}, {"seat": 1, "card": "Ad"}, {"seat": 2, "card": "5d"}]}
    legal = [{"type": "play", "card": c} for c in ("Rc", "2s", "Cb")]
    # partner (seat 1) wins and seat 3 plays last: load the most valuable non-trump
    assert ENGINE.robot_choice(view, legal, random.Random(0)) == {"type": "play", "card": "Rc"}
    view["trick"][1]["card"] = "2d"  # now seat 2 (opponent) wins with 5d: trump only if worth it
    assert ENGINE.robot_choice(view, legal, random.Random(0))["card"] == "2s"
