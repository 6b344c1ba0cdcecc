"""Solitario (Klondike): the worked examples, rules, options and robot of
shared/spec/games/solitario.md."""

from __future__ import annotations

import copy
import random
import statistics

import pytest

from apps.games.engines import IllegalAction, get_engine
from apps.games.engines import cards as kit
from apps.games.engines.base import same_json
from apps.games.engines.solitario import DECK, face_up_indexes, playable

ENGINE = get_engine("solitario")
FOUNDATION_ORDER = [r + s for s in "hdcs" for r in kit.FRENCH_RANKS]


def build(columns: list[list[str | None]], stock: list[str] = ()) -> list[str]:
    """A deck dealing ``columns`` (bottom -> top, ``None`` = any other card), then ``stock`` on top."""
    named = {c for col in columns for c in col if c} | set(stock)
    spare = iter(c for c in DECK if c not in named)
    deck: list[str] = []
    for c in range(7):
        col = columns[c] if c < len(columns) else [None] * (c + 1)
        assert len(col) == c + 1
        deck += [card or next(spare) for card in col]
    return deck + list(stock) + list(spare)


def move(state, card, to):
    return state.apply(0, {"type": "move", "card": card, "to": to})


def draw(state):
    return state.apply(0, {"type": "draw"})


def test_identity_options_and_deal():
    assert (ENGINE.name, ENGINE.min_players, ENGINE.max_players, ENGINE.player_counts) == ("Solitario", 1, 1, (1,))
    assert ENGINE.options["dealer"] == {"default": 0, "choices": [0]}
    for bad in ({"draw": 2}, {"recycles": -2}, {"max_moves": 99}, {"dealer": 1}, {"colour": 1}):
        with pytest.raises(ValueError):
            ENGINE.new_game(1, options=bad, seed=1)
    deck = list(reversed(DECK))
    state = ENGINE.new_game(1, seed=1, deck=deck)
    view = state.view(0)
    for c, column in enumerate(view["columns"]):
        start = c * (c + 1) // 2
        assert column == {"down": c, "up": [deck[start + c]]}
        assert state.down[c] == deck[start:start + c]
    assert view["stock_count"] == 24 and state.stock == deck[28:] and view["waste"] == []
    assert view["foundations"] == {"h": [], "d": [], "c": [], "s": []} and view["score"] == 0
    assert view == state.view(None) and state.teams == [[0]] and state.to_act == [0]
    assert face_up_indexes() == [0, 2, 5, 9, 14, 20, 27]


def test_e1_scoring_sequence_draw_one():
    columns = [["Ah"], ["3h", "2h"], [None, None, "5s"], [None, None, "Qd", "5c"], [None] * 4 + ["6d"],
               [None] * 4 + ["Jc", "Kd"]]
    state = ENGINE.new_game(1, seed=1, deck=build(columns, ["4h", "4d"]))
    expected = []
    move(state, "Ah", "f")
    expected.append(10)
    assert {"type": "move", "card": "5s", "to": "t0"} not in state.legal_actions(0)  # only Kings
    move(state, "2h", "f")
    expected.append(25)  # +10 and 3h turned +5
    assert state.view(0)["columns"][1] == {"down": 0, "up": ["3h"]}
    move(state, "3h", "f")
    expected.append(35)
    draw(state)
    expected.append(35)
    move(state, "4h", "f")
    expected.append(45)
    draw(state)
    expected.append(45)
    move(state, "4d", "t2")
    expected.append(50)
    events = move(state, "4h", "t3")  # foundation back to the tableau: -15
    expected.append(35)
    assert events[0]["from"] == "f" and state.view(0)["foundations"]["h"] == ["Ah", "2h", "3h"]
    events = move(state, "5c", "t4")  # 5c carries 4h onto 6d, Qd turned
    expected.append(40)
    assert events[0]["cards"] == ["5c", "4h"] and events[0]["turned"] == "Qd"
    assert state.view(0)["columns"][4]["up"] == ["6d", "5c", "4h"]
    move(state, "Kd", "t1")  # the empty column takes the King, Jc turned
    expected.append(45)
    assert state.view(0)["columns"][5]["up"] == ["Jc"]
    assert state.score == 45
    state.apply(0, {"type": "end"})
    assert state.is_over and state.result() == {"scores": [45], "winner": None,
                                                "hands": [{"score": 45, "won": False, "moves": 11}]}
    assert len(expected) == 10


def test_e2_draw_three():
    state = ENGINE.new_game(1, options={"draw": 3}, seed=1, deck=build([], ["2s", "3s", "As"]))
    events = draw(state)
    assert events[0]["cards"] == ["2s", "3s", "As"] and state.view(0)["waste"] == ["2s", "3s", "As"]
    legal = state.legal_actions(0)
    assert {"type": "move", "card": "As", "to": "f"} in legal
    assert {"type": "move", "card": "2s", "to": "f"} not in legal
    with pytest.raises(IllegalAction, match="cannot be moved"):
        move(state, "2s", "f")
    state = ENGINE.new_game(1, options={"draw": 3}, seed=1, deck=build([], ["2s", "3s", "As"]))
    draws = 0
    while state.stock:
        draw(state)
        draws += 1
    assert draws == 8
    data = state.to_json()
    data["score"] = 50
    state = ENGINE.from_json(data)
    state.apply(0, {"type": "recycle"})
    assert state.score == 30


def test_e3_recycle_order_and_score_floor():
    state = ENGINE.new_game(1, seed=1, deck=build([["Ah"]], ["As"]))
    order = list(state.stock)
    move(state, "Ah", "f")
    assert state.score == 10
    draw(state)
    assert state.view(0)["waste"] == ["As"]  # visible, not moved
    for _ in range(23):
        draw(state)
    legal = state.legal_actions(0)
    assert {"type": "draw"} not in legal and {"type": "recycle"} in legal
    assert state.view(0)["waste"] == order
    state.apply(0, {"type": "recycle"})
    assert state.score == 0 and state.stock == order and state.view(0)["recycles_used"] == 1
    draw(state)
    assert state.view(0)["waste"] == ["As"]
    move(state, "As", "f")
    assert state.score == 10


def test_e4_a_won_deal_scores_625():
    deck: list[str] = []
    rest = list(FOUNDATION_ORDER)
    for c in range(7):
        deck += list(reversed(rest[:c + 1]))  # lowest on top
        del rest[:c + 1]
    deck += rest
    state = ENGINE.new_game(1, seed=1, deck=deck)
    moves = draws = 0
    for card in FOUNDATION_ORDER:
        if not any(u and u[-1] == card for u in state.up) and not (state.waste and state.waste[-1] == card):
            draw(state)
            draws += 1
        move(state, card, "f")
        moves += 1
    assert (moves, draws) == (52, 24)
    assert state.is_over and state.result()["winner"] == 0 and state.score == 625 == 52 * 10 + 21 * 5
    assert state.result()["hands"] == [{"score": 625, "won": True, "moves": 76}]
    assert state.to_act == [] and state.legal_actions(0) == []
    with pytest.raises(IllegalAction):
        state.apply(0, {"type": "end"})


def test_e5_move_cap():
    state = ENGINE.new_game(1, options={"max_moves": 100}, seed=3)
    for _ in range(100):
        assert not state.is_over
        state.apply(0, {"type": "draw"} if state.stock else {"type": "recycle"})
    assert state.is_over and state.result()["hands"][0]["moves"] == 100


def test_recycle_limit_and_cost_by_draw_mode():
    state = ENGINE.new_game(1, options={"recycles": 1}, seed=2)
    for _ in range(24):
        draw(state)
    state.apply(0, {"type": "recycle"})
    for _ in range(24):
        draw(state)
    assert {"type": "recycle"} not in state.legal_actions(0)
    with pytest.raises(IllegalAction, match="recycles"):
        state.apply(0, {"type": "recycle"})


def test_game_ends_by_itself_when_nothing_but_end_is_legal():
    columns = [["2h"], [None, "4h"], [None, None, "6h"], [None, None, None, "8h"], [None] * 4 + ["Th"],
               [None] * 5 + ["Qh"], [None] * 6 + ["Kh"]]
    data = ENGINE.new_game(1, options={"recycles": 0}, seed=1, deck=build(columns, ["3h"])).to_json()
    data["down"][6] += data["stock"][1:]  # one card left in the stock: the 3h, which fits nowhere
    data["stock"] = ["3h"]
    state = ENGINE.from_json(data)
    assert state.legal_actions(0) == [{"type": "draw"}, {"type": "end"}]
    events = draw(state)
    assert state.is_over and events[-1] == {"type": "match_end", "scores": [0], "winner": None}


def test_foundation_card_back_and_kings_to_empty_columns():
    columns = [["Ah"], [None, "Kc"], [None, None, "2s"], [None, None, None, "Kd"]]
    state = ENGINE.new_game(1, seed=1, deck=build(columns))
    assert not any(a.get("card") == "Kc" for a in state.legal_actions(0))  # no empty column yet
    move(state, "Ah", "f")
    legal = state.legal_actions(0)
    assert {"type": "move", "card": "Ah", "to": "t2"} in legal  # a foundation card may come back
    assert {"type": "move", "card": "Kc", "to": "t0"} in legal and {"type": "move", "card": "Kd", "to": "t0"} in legal
    assert not any(a.get("to") == "t0" and a.get("card") not in ("Kc", "Kd") for a in legal)  # only Kings
    move(state, "Kc", "t0")
    assert state.score == 15  # +10, then the card under Kc turned +5
    move(state, "Ah", "t2")
    assert state.score == 0 and state.view(0)["columns"][2]["up"] == ["2s", "Ah"]


def test_playable_deal_rule():
    unplayable = build([["2h"], [None, "4h"], [None, None, "6h"], [None, None, None, "8h"],
                        [None] * 4 + ["Th"], [None] * 5 + ["Qh"], [None] * 6 + ["3d"]])
    assert not playable(unplayable)
    state = ENGINE.new_game(1, seed=1, deck=unplayable)  # a given deck is dealt as it is
    assert [u[-1] for u in state.up] == ["2h", "4h", "6h", "8h", "Th", "Qh", "3d"]
    reshuffled = 0
    for seed in range(400):
        rng = kit.derive_rng(seed, "deal")
        first = kit.shuffled(DECK, rng)
        state = ENGINE.new_game(1, seed=seed)
        assert playable(state.deal)
        if not playable(first):
            reshuffled += 1
            again = kit.shuffled(first, rng)
            while not playable(again):
                again = kit.shuffled(again, rng)
            assert state.deal == again != first  # reshuffled with the same generator
    assert reshuffled > 0, "no seed needed a reshuffle: the rule is untested"


def test_illegal_moves_are_refused_with_readable_messages():
    columns = [["Ah"], ["3h", "2h"], [None, None, "5s"]]
    state = ENGINE.new_game(1, seed=1, deck=build(columns, ["4h"]))
    before = state.to_json()
    for bad, words in (
        ({"type": "move", "card": "2h", "to": "t7"}, "destination"),
        ({"type": "move", "card": "3h", "to": "f"}, "cannot be moved"),  # face down
        ({"type": "move", "card": "4h", "to": "f"}, "cannot be moved"),  # in the stock
        ({"type": "move", "card": "2h", "to": "f"}, "foundation"),
        ({"type": "move", "card": "5s", "to": "t1"}, "does not fit"),
        ({"type": "move", "card": "Zz", "to": "t1"}, "not a card"),
        ({"type": "recycle"}, "stock is empty|only when"),
        ({"type": "fly"}, "does not exist"),
        ({"type": "draw", "x": 1}, "keys"),
    ):
        with pytest.raises(IllegalAction, match=words):
            state.apply(0, bad)
    with pytest.raises(IllegalAction):
        state.apply(1, {"type": "draw"})
    assert same_json(state.to_json(), before)


def test_view_never_shows_face_down_or_stock_cards():
    state = ENGINE.new_game(1, seed=9)
    rng = random.Random(9)
    while not state.is_over:
        hidden = set(state.hidden_from(0))
        text = repr(state.view(0))
        assert not any(f"'{c}'" in text for c in hidden)
        legal = [a for a in state.legal_actions(0) if a["type"] != "end"] or [{"type": "end"}]
        state.apply(0, rng.choice(legal))


# -- robot -------------------------------------------------------------------------------


def average(robot: bool, options: dict, deals: int = 200) -> tuple[float, float]:
    scores, wins = [], 0
    for m in range(deals):
        rng = random.Random(m)
        state = ENGINE.new_game(1, options=options, seed=5000 + m)
        while not state.is_over:
            if robot:
                view = copy.deepcopy(state.view(0))
                action = ENGINE.bot_action(state, 0, rng)
                assert same_json(view, state.view(0)), "the robot changed the state"
            else:
                action = rng.choice(state.legal_actions(0))
            state.apply(0, action)
        scores.append(state.score)
        wins += state.won
    return statistics.mean(scores), wins / deals


def test_robot_order_of_preference():
    view = {"columns": [{"down": 2, "up": ["9s"]}, {"down": 0, "up": ["Th"]}, {"down": 1, "up": ["Kd", "Qs"]}]
            + [{"down": 0, "up": []}] * 4,
            "waste": ["Ac"], "foundations": {"h": [], "d": [], "c": [], "s": []}, "pass_moves": 0,
            "recycles_used": 0, "draw": 1}
    legal = [{"type": "draw"}, {"type": "move", "card": "9s", "to": "t1"}, {"type": "move", "card": "Ac", "to": "f"},
             {"type": "end"}]
    assert ENGINE.robot_choice(view, legal, random.Random(0)) == {"type": "move", "card": "Ac", "to": "f"}
    assert ENGINE.robot_choice(view, legal[:2] + legal[3:], random.Random(0))["card"] == "9s"
    assert ENGINE.robot_choice(view, [{"type": "draw"}, {"type": "end"}], random.Random(0)) == {"type": "draw"}
    assert ENGINE.robot_choice(view, [{"type": "recycle"}, {"type": "end"}], random.Random(0)) == {"type": "end"}
    view["pass_moves"] = 3
    assert ENGINE.robot_choice(view, [{"type": "recycle"}, {"type": "end"}], random.Random(0)) == {"type": "recycle"}


@pytest.mark.parametrize("draw_mode", [1, 3])
def test_robot_scores_clearly_above_random_play(draw_mode):
    robot, robot_wins = average(True, {"draw": draw_mode})
    rand, _ = average(False, {"draw": draw_mode})
    print(f"solitario draw {draw_mode}, 200 deals: robot mean {robot:.1f} (won {robot_wins:.1%}),"
          f" random mean {rand:.1f}")
    assert robot > 3 * rand and robot > 50
