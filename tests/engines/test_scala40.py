"""Scala 40 (shared/spec/games/scala40.md): every worked example of section 10, the opening,
attaching and swapping, the first round, penalties, sballo and rientro, and the robot."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from apps.games.engines import IllegalAction, get_engine
from apps.games.engines._melds import parse_meld
from apps.games.engines.base import same_json
from apps.games.engines.scala40 import RULES, meld_value, penalty

ENGINE = get_engine("scala40")
FULL = Counter(ENGINE.deck(2))


def stack(hands, up, stock=()):
    """The deck dealing ``hands`` (in playing order from the seat after the dealer)."""
    m = len(hands)
    fixed = [c for h in hands for c in h] + [up, *stock]
    rest = FULL - Counter(fixed)
    assert sum(rest.values()) == sum(FULL.values()) - len(fixed), "a card is used too often"
    filler = sorted(rest.elements(), key=lambda c: (c == "X", c))
    full_hands = [list(h) + [filler.pop(0) for _ in range(13 - len(h))] for h in hands]
    deck = [full_hands[i % m][i // m] for i in range(13 * m)]
    return deck + [up, *stock, *filler]


def new(hands, up, stock=(), dealer=None, **options):
    n = len(hands)
    dealer = n - 1 if dealer is None else dealer
    return ENGINE.new_game(n, options={"dealer": dealer, **options}, seed=2, deck=stack(hands, up, stock))


def meld(state, seat, *cards):
    return state.apply(seat, {"type": "meld", "cards": list(cards)})


def act(state, seat, **action):
    return state.apply(seat, action)


def types(state, seat):
    return {a["type"] for a in state.legal_actions(seat)}


def value(*cards):
    return meld_value(parse_meld(list(cards), RULES))


# -- values, deal ------------------------------------------------------------------


def test_values_and_penalties():
    assert value("Ah", "2h", "3h") == 6 and value("Kd", "Kc", "Ks") == 30 and value("4d", "4c", "4s") == 12
    assert value("Qh", "Kh", "Ah") == 31 and value("3d", "3c", "3s") == 9
    assert value("9h", "X", "Jh", "Qh", "Kh") == 49 and value("X", "Qh", "Kh") == 30
    assert penalty(["Ad"]) == 1 and penalty(["Ad", "Ac"]) == 22 and penalty(["X", "Kd", "2c"]) == 37


def test_deal_order_and_identity():
    deck = ENGINE.deck(3)
    s = ENGINE.new_game(3, options={"dealer": 2}, seed=1, deck=deck)
    d = s.to_json()
    assert d["hands"][0] == deck[0:39:3] and d["hands"][2] == deck[2:39:3]
    assert d["pile"] == [deck[39]] and d["stock"] == deck[40:] and s.to_act == [0]
    assert ENGINE.player_counts == (2, 3, 4, 5) and len(deck) == 108
    assert s.result()["fees"] == [1, 1, 1]


# -- example 1: opening ------------------------------------------------------------


def test_example1_opening_with_provisional_melds():
    hand = ["Ah", "2h", "3h", "Kd", "Kc", "Ks", "4d", "4c", "4s", "7h", "9d", "Jc", "Qs"]
    s = new([hand, []], "8d", ["6s"])
    act(s, 0, type="draw")
    meld(s, 0, "Ah", "2h", "3h")
    meld(s, 0, "Kd", "Kc", "Ks")
    view = s.view(0)
    assert view["provisional_value"] == 36 and not view["opened"][0]
    assert all(m["provisional"] for m in view["melds"])
    assert "discard" not in types(s, 0) and "cancel" in types(s, 0)
    with pytest.raises(IllegalAction):
        act(s, 0, type="discard", card="7h")
    before = s.to_json()
    act(s, 0, type="cancel")
    assert s.view(0)["melds"] == [] and len(s.view(0)["hand"]) == 14
    s = ENGINE.from_json(before)
    events = meld(s, 0, "4d", "4c", "4s")
    assert {"type": "opened", "seat": 0, "value": 48} in events
    assert s.view(0)["opened"][0] and not any(m["provisional"] for m in s.view(0)["melds"])
    assert "discard" in types(s, 0) and "cancel" not in types(s, 0)


def test_example1_forty_exactly_opens():
    hand = ["Qh", "Kh", "Ah", "3d", "3c", "3s", "7h", "9d", "Jc", "Qs", "5d", "6c", "8s"]
    s = new([hand, []], "8d", ["6s"])
    act(s, 0, type="draw")
    meld(s, 0, "Qh", "Kh", "Ah")
    events = meld(s, 0, "3d", "3c", "3s")
    assert events[-1] == {"type": "opened", "seat": 0, "value": 40}


def test_unopened_player_may_not_attach_swap_or_take():
    hand = ["Qh", "Kh", "Ah", "3d", "3c", "3s", "7h", "9d", "Jc", "Qs", "5d", "6c", "8s"]
    s = new([hand, ["Jh", "9h", "4d"]], "Td", ["6s", "2c"])
    act(s, 0, type="draw")
    meld(s, 0, "Qh", "Kh", "Ah")
    meld(s, 0, "3d", "3c", "3s")
    act(s, 0, type="discard", card="Jc")
    assert s.legal_actions(1) == [{"type": "draw"}]  # not opened: no take
    act(s, 1, type="draw")
    assert not types(s, 1) & {"attach", "swap"}  # Jh fits meld 0 but seat 1 has not opened


# -- example 2: a three-player hand ---------------------------------------------------

E2 = [
    ["Th", "Jh", "Qh", "Kh", "5c", "5d", "5s", "8c", "8d", "8s", "2d", "3d", "4d"],
    ["9s", "Ts", "Js", "Qs", "Ks", "Tc", "Jc", "Qc", "Kc", "4h", "5h", "6h", "Ad"],
    ["X", "Ac", "Kd", "Qd", "Jd", "9h", "8h", "7h", "3c", "2c", "4s", "3s", "2s"],
]


def play_example2(s, seats):
    first, second, third = seats
    act(s, first, type="draw")
    events = meld(s, first, "Th", "Jh", "Qh", "Kh")
    assert {"type": "opened", "seat": first, "value": 40} in events
    meld(s, first, "5d", "5c", "5s")
    meld(s, first, "8d", "8c", "8s")
    assert {"type": "meld", "cards": ["2d", "3d", "4d"]} not in s.legal_actions(first)  # first round
    with pytest.raises(IllegalAction):
        meld(s, first, "2d", "3d", "4d")
    act(s, first, type="discard", card="9c")
    if second is not None:
        assert s.legal_actions(second) == [{"type": "draw"}]
        act(s, second, type="draw")
        meld(s, second, "9s", "Ts", "Js", "Qs", "Ks")
        meld(s, second, "Tc", "Jc", "Qc", "Kc")
        meld(s, second, "4h", "5h", "6h")
        act(s, second, type="discard", card="7s")
        assert s.view(second)["hand"] == ["Ad"]
    act(s, third, type="draw")
    assert {"type": "discard", "card": "X"} not in s.legal_actions(third)
    act(s, third, type="discard", card="9d")
    assert s.legal_actions(first) == [{"type": "draw"}]  # 9d fits nothing: no take
    act(s, first, type="draw")
    assert {"type": "meld", "cards": ["2d", "3d", "4d", "5d"]} not in s.legal_actions(first)
    meld(s, first, "2d", "3d", "4d")
    return act(s, first, type="discard", card="5d")


def test_example2_three_player_hand():
    s = new(E2, "6d", ["9c", "7s", "9d", "5d"], dealer=2, limit=500)
    play_example2(s, (0, 1, 2))
    hand = s.result()["hands"][0]
    assert hand == {"closer": 0, "penalties": [0, 1, 104], "totals": [0, 1, 104]}


def test_example3_reentry():
    s = new(E2, "6d", ["9c", "7s", "9d", "5d"], dealer=2, entry_fee=10, reentry_fee=5)
    events = play_example2(s, (0, 1, 2))
    assert {"type": "reentry_offer", "seat": 2, "fee": 5, "score": 1} in events
    assert s.to_act == [2] and s.legal_actions(2) == [{"type": "reenter"}, {"type": "decline"}]
    assert s.legal_actions(0) == []
    act(s, 2, type="reenter")
    res = s.result()
    assert res["scores"] == [0, 1, 1] and res["fees"] == [10, 10, 15] and res["pot"] == 35
    assert res["reentries"] == [0, 0, 1] and not s.is_over
    assert s.view(None)["dealer"] == 0 and s.to_act == [1]


def test_example3_decline_eliminates():
    s = new(E2, "6d", ["9c", "7s", "9d", "5d"], dealer=2)
    play_example2(s, (0, 1, 2))
    act(s, 2, type="decline")
    assert s.view(None)["alive"] == [0, 1] and s.view(None)["in_hand"] == [0, 1]


def test_example3_two_players_the_match_closes_without_reentry():
    s = new([E2[0], E2[2]], "6d", ["9c", "9d", "5d"], dealer=1, entry_fee=10, reentry_fee=5)
    play_example2(s, (0, None, 1))
    assert s.is_over
    res = s.result()
    assert res["winner"] == 0 and res["scores"] == [0, 104] and res["fees"] == [10, 10] and res["pot"] == 20


# -- example 4: taking the discard ------------------------------------------------------

E4_SEAT0 = ["9h", "Th", "Jh", "Qh", "Kh", "2c", "4s", "6c", "Js", "Qd", "3d", "5s", "7d"]


def opened_then(discard):
    s = new([E4_SEAT0, ["8h", "6d", "Tc"]], "Kd", ["9c", "2d", "7s"])
    act(s, 0, type="draw")
    meld(s, 0, "9h", "Th", "Jh", "Qh", "Kh")
    act(s, 0, type="discard", card="9c")
    act(s, 1, type="draw")
    act(s, 1, type="discard", card=discard)
    return s


def test_example4_taking_the_discard():
    s = opened_then("8h")
    assert s.legal_actions(0) == [{"type": "draw"}, {"type": "take"}]
    act(s, 0, type="take")
    assert s.legal_actions(0) == [{"type": "attach", "meld": 0, "card": "8h", "side": "low"}]
    assert s.view(0)["must_play"] == "8h" and s.view(1)["must_play"] is None
    act(s, 0, type="attach", meld=0, card="8h", side="low")
    assert "discard" in types(s, 0)


def test_example4_a_discard_that_fits_nothing_cannot_be_taken():
    s = opened_then("6d")
    assert s.legal_actions(0) == [{"type": "draw"}]
    with pytest.raises(IllegalAction):
        act(s, 0, type="take")


# -- example 5: joker swap ---------------------------------------------------------------


def test_example5_joker_swap():
    seat0 = ["9h", "X", "Jh", "Qh", "Kh", "2c", "4s", "6c", "Js", "Qd", "3d", "5s", "7d"]
    seat1 = ["Kd", "Kc", "Ks", "5d", "5c", "5h", "Th", "2h", "4c", "6s", "8d", "9c", "3s"]
    s = new([seat0, seat1], "Td", ["2s", "7c"])
    act(s, 0, type="draw")
    meld(s, 0, "9h", "X", "Jh", "Qh", "Kh")
    assert s.view(0)["opened"][0]
    act(s, 0, type="discard", card="2s")
    act(s, 1, type="draw")
    assert "swap" not in types(s, 1)  # not opened yet
    meld(s, 1, "Kd", "Kc", "Ks")
    meld(s, 1, "5h", "5d", "5c")
    assert s.view(1)["opened"][1]
    assert {"type": "swap", "meld": 0, "card": "Th"} in s.legal_actions(1)
    act(s, 1, type="swap", meld=0, card="Th")
    assert s.view(1)["melds"][0]["cards"] == ["9h", "Th", "Jh", "Qh", "Kh"]
    assert "X" in s.view(1)["hand"]
    legal = s.legal_actions(1)
    assert {"type": "discard", "card": "X"} not in legal
    assert {"type": "attach", "meld": 0, "card": "X", "side": "low"} in legal
    assert {"type": "attach", "meld": 0, "card": "X", "side": "high"} in legal
    act(s, 1, type="attach", meld=0, card="X", side="high")
    assert s.view(1)["melds"][0]["cards"][-1] == "X"  # the joker stands for the high ace


# -- rules -------------------------------------------------------------------------------


def test_no_closing_in_the_first_round_and_joker_as_last_card():
    s = new([["Ah", "2h", "3h", "4h"], []], "8d", ["6s"])
    act(s, 0, type="draw")
    d = s.d  # seat 0, first round: melds must leave two cards
    room = len(d["hands"][0]) - 2
    assert all(len(a.get("cards", ())) <= room for a in s.legal_actions(0))
    # later, a lone joker can be discarded to close
    d["turn_no"] = 5
    d["stock"] += d["hands"][0]
    d["hands"][0] = ["X"]
    d["stock"].remove("X")
    assert s.legal_actions(0) == [{"type": "discard", "card": "X"}]
    events = act(s, 0, type="discard", card="X")
    assert any(e["type"] == "hand_over" and e["closer"] == 0 for e in events)


def test_stock_rebuilt_twice_then_the_hand_ends_without_a_winner():
    s = ENGINE.new_game(2, options={"dealer": 1, "limit": 500}, seed=3)
    rebuilt = 0
    while not s.result()["hands"]:
        seat = s.to_act[0]
        before = Counter(s.view(seat)["hand"])
        act(s, seat, type="draw")
        drawn = next((Counter(s.view(seat)["hand"]) - before).elements())
        card = drawn if drawn != "X" else next(c for c in s.view(seat)["hand"] if c != "X")
        events = act(s, seat, type="discard", card=card)
        rebuilt += sum(e["type"] == "stock_rebuilt" for e in events)
    hand = s.result()["hands"][0]
    assert rebuilt == 2 and hand["closer"] is None and all(p > 0 for p in hand["penalties"])


def test_hands_mode_counts_hands_won_and_stops_early():
    s = ENGINE.new_game(2, options={"mode": "hands", "hands": 3}, seed=4)
    rng = random.Random(0)
    while not s.is_over:
        s.apply(s.to_act[0], ENGINE.bot_action(s, s.to_act[0], rng))
    res = s.result()
    wins = Counter(h["closer"] for h in res["hands"])
    assert 2 <= len(res["hands"]) <= 3
    if res["winner"] is not None:
        assert wins[res["winner"]] == max(wins.values())


def test_views_hide_hands_stock_and_pile_under_the_top():
    s = ENGINE.new_game(3, seed=9)
    view = s.view(1)
    assert sorted(view["hand"]) == sorted(s.to_json()["hands"][1])
    assert view["pile_top"] == s.to_json()["pile"][-1] and "pile" not in view
    assert s.view(None)["hand"] == [] and view["hand_counts"] == [13, 13, 13]
    assert same_json(ENGINE.from_json(s.to_json()).to_json(), s.to_json())


def test_refusals_are_readable_and_change_nothing():
    s = ENGINE.new_game(2, seed=4)
    before = s.to_json()
    for bad in ({"type": "take"}, {"type": "discard", "card": "Ah"}, {"type": "reenter"}, {"type": "cancel"}):
        with pytest.raises(IllegalAction) as err:
            s.apply(s.to_act[0], bad)
        assert str(err.value)
    assert same_json(s.to_json(), before)


def test_robot_beats_uniform_random():
    wins = matches = 0
    for m in range(60):
        robot = m % 2
        s = ENGINE.new_game(2, seed=500 + m)
        rng = random.Random(m)
        while not s.is_over:
            seat = s.to_act[0]
            if seat == robot:
                before = s.to_json()
                action = ENGINE.bot_action(s, seat, rng)
                assert same_json(s.to_json(), before)
            else:
                action = rng.choice(s.legal_actions(seat))
            s.apply(seat, action)
        wins += s.result()["winner"] == robot
        matches += 1
    rate = wins / matches
    print(f"scala40 robot vs random: {rate:.2f} over {matches} matches")
    assert rate >= 0.6


def test_refusal_sentences_name_the_problem():
    s = opened_then("8h")
    act(s, 0, type="take")
    with pytest.raises(IllegalAction, match="play it first"):
        act(s, 0, type="discard", card="2c")
    s = new(E2, "6d", ["9c", "7s", "9d", "5d"], dealer=2)
    act(s, 0, type="draw")
    meld(s, 0, "Th", "Jh", "Qh")
    with pytest.raises(IllegalAction, match="below 40"):
        act(s, 0, type="discard", card="9c")
    with pytest.raises(IllegalAction, match="canonical order"):
        meld(s, 0, "5c", "5d", "5s")
    act(s, 0, type="cancel")
    with pytest.raises(IllegalAction, match="after opening"):
        act(s, 0, type="attach", meld=0, card="Kh", side="high")
