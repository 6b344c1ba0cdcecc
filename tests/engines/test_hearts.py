"""Hearts: the worked examples, rules, options and robot of shared/spec/games/hearts.md."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from apps.games.engines import IllegalAction, get_engine
from apps.games.engines.base import same_json
from apps.games.engines.hearts import match_winner

from . import french_helpers as french
from .french_helpers import CANON, acts, deck_for, legal_cards, play, position_data, stacked, suit

ENGINE = get_engine("hearts")
SUIT_DEAL = deck_for([suit("c"), suit("d"), suit("s"), suit("h")])  # the examples' deal


def new(options=None, deck=SUIT_DEAL, seed=1, dealer=3):
    return stacked(ENGINE, deck, options, seed, dealer)


def pass_(state, seat, cards):
    return state.apply(seat, {"type": "pass", "cards": cards})


def finish_hand_randomly(state, rng):
    hand = state.view(None)["hand_number"]
    while not state.is_over and state.view(None)["hand_number"] == hand:
        seat = rng.choice(state.to_act)
        state.apply(seat, rng.choice(state.legal_actions(seat)))


E1_PASSES = {0: ["2c", "3c", "4c"], 1: ["2d", "3d", "4d"], 2: ["2s", "3s", "4s"], 3: ["Qh", "Kh", "Ah"]}
E2_PASSES = {0: ["2c", "3c", "4c"], 1: ["2d", "3d", "4d"], 2: ["2s", "3s", "4s"], 3: ["2h", "Kh", "Ah"]}


# -- identity, options, deal ---------------------------------------------------------


def test_identity_options_and_player_count():
    assert (ENGINE.id, ENGINE.name, ENGINE.min_players, ENGINE.max_players) == ("hearts", "Hearts", 4, 4)
    french.check_four_seats_and_deck(ENGINE, bad_deck=SUIT_DEAL[:-1] + ["2c"])
    assert ENGINE.options == {
        "mode": {"default": "points", "choices": ["points", "hands"]},
        "target": {"default": 100, "choices": [50, 100]},
        "hands": {"default": 4, "min": 1, "max": 20},
        "dealer": {"default": None, "min": 0, "max": 3},
    }
    for bad in ({"mode": "rounds"}, {"target": 75}, {"hands": 0}, {"hands": 21}, {"dealer": 4}, {"pass": 1}):
        with pytest.raises(ValueError):
            ENGINE.new_game(4, options=bad, seed=1)
    assert new().teams == [[0], [1], [2], [3]]


def test_seeded_deals_are_the_kits_shuffles():
    french.check_seeded_deals(ENGINE, lambda legal, rng: rng.choice(legal))


def test_legal_actions_are_fresh_objects():
    french.check_legal_actions_are_fresh(ENGINE)


def test_deal_order_dealer_and_reproducibility():
    french.check_deal_order_and_seeds(ENGINE, seed=1, twin_seed=42)
    # the next hand is dealt by the next seat, from a fresh shuffle of the seed
    state = new()
    finish_hand_randomly(state, random.Random(1))
    view = state.view(None)
    assert view["dealer"] == 0 and view["hand_number"] == 2 and view["phase"] == "pass"
    assert all(len(state.view(s)["hand"]) == 13 for s in range(4))


def test_hand_is_sorted_canonically_and_view_keys():
    state = new()
    view = state.view(2)
    assert view["hand"] == suit("s")
    for key in ("phase", "dealer", "hand", "hand_counts", "passed", "received", "pass_done", "trick",
                "last_trick", "hearts_broken", "taken_points", "totals", "to_act"):
        assert key in view
    assert view["phase"] == "pass" and view["to_act"] == [0, 1, 2, 3]
    assert state.view(None)["hand"] == [] and state.view(None)["passed"] is None


# -- passing -----------------------------------------------------------------------


def test_pass_phase_is_simultaneous_and_hidden_e4():
    state = new()
    assert state.to_act == [0, 1, 2, 3]
    assert len(state.legal_actions(0)) == 286
    assert all(a["cards"] == sorted(a["cards"], key=CANON.index) for a in state.legal_actions(0))
    events = pass_(state, 3, ["Qh", "Kh", "Ah"])
    assert events == [{"type": "pass", "seat": 3}]
    assert state.to_act == [0, 1, 2]
    assert state.legal_actions(3) == []
    text = str(state.view(0))
    assert all(card not in text for card in ("Qh", "Kh", "Ah"))  # E4
    assert state.view(3)["passed"] == ["Qh", "Kh", "Ah"]
    assert len(state.view(3)["hand"]) == 10 and state.view(3)["received"] is None
    assert state.view(0)["pass_done"] == [False, False, False, True]
    with pytest.raises(IllegalAction, match="turn"):
        pass_(state, 3, ["2h", "3h", "4h"])  # passing twice
    # a pass is accepted in click order and stored canonically
    pass_(state, 0, ["4c", "2c", "3c"])
    assert state.view(0)["passed"] == ["2c", "3c", "4c"]
    assert state.view(1)["hand"] == suit("d")  # nothing moves until all four have passed
    pass_(state, 1, ["2d", "3d", "4d"])
    events = pass_(state, 2, ["2s", "3s", "4s"])
    assert {"type": "exchange", "leader": 1} in events
    assert not any(c in str(events) for c in ("2s", "3s", "4s", "Qh"))  # events never name passed cards
    assert state.view(0)["received"] == ["Qh", "Kh", "Ah"]
    assert state.view(1)["received"] == ["2c", "3c", "4c"]
    assert sorted(state.view(0)["hand"], key=CANON.index) == suit("c")[3:] + ["Qh", "Kh", "Ah"]
    assert state.view(None)["phase"] == "play" and state.to_act == [1]


def test_pass_refusals_are_readable_and_change_nothing():
    state = new()
    before = state.to_json()
    cases = [
        ({"type": "pass", "cards": ["2c", "3c"]}, "exactly three"),
        ({"type": "pass", "cards": ["2c", "3c", "4c", "5c"]}, "exactly three"),
        ({"type": "pass", "cards": ["2c", "2c", "3c"]}, "same card twice"),
        ({"type": "pass", "cards": ["2c", "3c", "Ah"]}, "not in your hand"),
        ({"type": "pass", "cards": ["2c", "3c", "Zz"]}, "not a card"),
        ({"type": "pass", "cards": "2c 3c 4c"}, "list"),
        ({"type": "pass", "cards": ["2c", "3c", "4c"], "x": 1}, "exactly the keys"),
        ({"type": "play", "card": "2c"}, "passes three cards"),
        ({"type": "bid", "bid": 1}, "passes three cards"),
    ]
    for action, words in cases:
        with pytest.raises(IllegalAction, match=words):
            state.apply(0, action)
        assert same_json(state.to_json(), before)
    with pytest.raises(IllegalAction):
        state.apply(0, "pass")
    with pytest.raises(IllegalAction):
        state.apply(4, {"type": "pass", "cards": ["2c", "3c", "4c"]})


# -- worked examples -------------------------------------------------------------------


def do_passes(state, passes):
    for seat, cards in passes.items():
        pass_(state, seat, cards)


def test_e1_shooting_the_moon():
    for seed in range(5):
        state = new(seed=seed)
        do_passes(state, E1_PASSES)
        assert state.to_act == [1]
        assert state.legal_actions(1) == [{"type": "play", "card": "2c"}]
        play(state, 1, "2c")
        assert len(state.legal_actions(2)) == 12 and "Qs" not in legal_cards(state, 2)
        play(state, 2, "5s")
        assert legal_cards(state, 3) == ["2s", "3s", "4s"]
        play(state, 3, "2s")
        assert legal_cards(state, 0) == suit("c")[3:]
        play(state, 0, "5c")
        assert state.view(None)["hearts_broken"] is False
        assert state.to_act == [0]
        assert legal_cards(state, 0) == suit("c")[4:]  # its nine clubs, not its hearts
        rng = random.Random(seed)
        while state.view(None)["tricks_played"] < 13 and state.view(None)["hand_number"] == 1:
            seat = state.to_act[0]
            events = state.apply(seat, rng.choice(state.legal_actions(seat)))
            for event in events:
                if event["type"] == "trick":
                    assert event["winner"] == 0
        last = state.result()["hands"][0]
        assert last["points"] == [0, 26, 26, 26] and last["moon"] == 0
        assert last["taken"] == [26, 0, 0, 0]
        assert state.result()["scores"] == [0, 26, 26, 26]


E2_TRICKS = [
    ([(1, "2c"), (2, "2d"), (3, "2s"), (0, "5c")], 0, 0),
    ([(0, "6c"), (1, "3c"), (2, "Qs"), (3, "3s")], 0, 13),
    ([(0, "7c"), (1, "4c"), (2, "3d"), (3, "4s")], 0, 0),
    ([(0, "8c"), (1, "5d"), (2, "4d"), (3, "Qh")], 0, 1),
    ([(0, "9c"), (1, "6d"), (2, "5s"), (3, "Jh")], 0, 1),
    ([(0, "Tc"), (1, "7d"), (2, "6s"), (3, "Th")], 0, 1),
    ([(0, "Jc"), (1, "8d"), (2, "7s"), (3, "9h")], 0, 1),
    ([(0, "Qc"), (1, "9d"), (2, "8s"), (3, "8h")], 0, 1),
    ([(0, "Kc"), (1, "Td"), (2, "9s"), (3, "7h")], 0, 1),
    ([(0, "Ac"), (1, "Jd"), (2, "Ts"), (3, "6h")], 0, 1),
    ([(0, "2h"), (1, "Qd"), (2, "Js"), (3, "5h")], 3, 2),
    ([(3, "4h"), (0, "Kh"), (1, "Kd"), (2, "Ks")], 0, 2),
    ([(0, "Ah"), (1, "Ad"), (2, "As"), (3, "3h")], 0, 2),
]


def play_e2(state):
    do_passes(state, E2_PASSES)
    assert sorted(state.view(0)["hand"], key=CANON.index) == suit("c")[3:] + ["2h", "Kh", "Ah"]
    assert sorted(state.view(3)["hand"], key=CANON.index) == ["2s", "3s", "4s"] + suit("h")[1:11]
    for number, (cards, winner, points) in enumerate(E2_TRICKS, start=1):
        for seat, card in cards:
            assert state.to_act == [seat]
            events = play(state, seat, card)
        trick = next(e for e in events if e["type"] == "trick")
        assert (trick["winner"], trick["points"]) == (winner, points), number
        if number == 3:
            assert state.view(None)["hearts_broken"] is False  # Qs does not break hearts
            assert state.view(None)["taken_points"] == [13, 0, 0, 0]
        if number == 4:
            assert state.view(None)["hearts_broken"] is True
    return events


def test_e2_normal_hand():
    state = new()
    events = play_e2(state)
    over = next(e for e in events if e["type"] == "hand_over")
    assert over == {"type": "hand_over", "points": [24, 0, 0, 2], "moon": None, "totals": [24, 0, 0, 2]}
    result = state.result()
    assert result["scores"] == [24, 0, 0, 2] and result["winner"] is None
    assert result["hands"][0]["points"] == [24, 0, 0, 2] and result["hands"][0]["moon"] is None
    assert not state.is_over and state.view(None)["hand_number"] == 2
    assert state.view(None)["last_trick"] is None  # a fresh hand


def test_e3_end_of_match_needs_a_single_lowest_total():
    opts = {"mode": "points", "target": 100, "hands": 4}
    assert match_winner([101, 40, 40, 77], 5, opts) is None  # seats 1 and 2 share the lowest
    assert match_winner([104, 44, 52, 77], 6, opts) == 1
    assert match_winner([99, 10, 20, 30], 6, opts) is None  # nobody reached 100
    assert match_winner([100, 10, 20, 30], 6, opts) == 1  # 100 is reached at 100
    assert match_winner([50, 10, 20, 30], 6, {**opts, "target": 50}) == 1
    # in play: the E2 hand takes seat 0 from 77 to 101 with seats 1 and 2 tied: one more hand
    state = new()
    data = state.to_json()
    data["totals"] = [77, 40, 40, 75]
    state = ENGINE.from_json(data)
    events = play_e2(state)
    assert state.result()["scores"] == [101, 40, 40, 77]
    assert not state.is_over and not any(e["type"] == "match_over" for e in events)
    assert state.to_act == [0, 1, 2, 3] and state.view(None)["hand_number"] == 2
    # the same hand from [77, 40, 39, 75] ends the match: seat 2 alone is lowest
    state = new()
    data = state.to_json()
    data["totals"] = [77, 40, 39, 75]
    state = ENGINE.from_json(data)
    events = play_e2(state)
    assert state.is_over and state.result()["winner"] == 2 and state.to_act == []
    assert {"type": "match_over", "winner": 2, "scores": [101, 40, 39, 77]} in events
    assert state.view(None)["phase"] == "over"
    with pytest.raises(IllegalAction, match="over"):
        state.apply(0, {"type": "play", "card": "2c"})


def test_hands_mode_and_ties_continue():
    opts = {"mode": "hands", "target": 100, "hands": 2}
    assert match_winner([10, 12, 2, 2], 2, opts) is None
    assert match_winner([10, 12, 2, 3], 1, opts) is None
    assert match_winner([10, 12, 2, 3], 2, opts) == 2
    assert match_winner([200, 12, 2, 3], 1, opts) is None  # the points limit is off in hands mode
    for seed in range(6):
        state = ENGINE.new_game(4, options={"mode": "hands", "hands": 1}, seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            seat = rng.choice(state.to_act)
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        result = state.result()
        totals = result["scores"]
        assert totals.count(min(totals)) == 1 and result["winner"] == totals.index(min(totals))
        for n, hand in enumerate(result["hands"], start=1):
            if n < len(result["hands"]):
                low = min(hand["totals"])
                assert hand["totals"].count(low) > 1  # only a tie kept the match going


def test_points_mode_target_50_and_hand_records():
    for seed in range(4):
        state = ENGINE.new_game(4, options={"target": 50}, seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            seat = rng.choice(state.to_act)
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        result = state.result()
        assert max(result["scores"]) >= 50
        running = [0, 0, 0, 0]
        for hand in result["hands"]:
            points = hand["points"]
            if hand["moon"] is None:
                assert sum(points) == 26 and points == hand["taken"]
            else:
                assert points == [0 if s == hand["moon"] else 26 for s in range(4)]
            running = [a + b for a, b in zip(running, points, strict=True)]
            assert hand["totals"] == running
        assert result["scores"] == running


# -- trick rules -------------------------------------------------------------------------


POINT_VALUE = {c: (13 if c == "Qs" else 1 if c.endswith("h") else 0) for c in CANON}


def position(hands, turn, tricks_done=1, broken=False):
    """A play-phase position with these hands; the other cards sit in seat 0's won pile."""
    data, rest = position_data(new(), hands, turn, tricks_done, "hearts_broken", broken)
    data.update({
        "passes": [list(p) for p in E2_PASSES.values()],
        "taken": [sum(POINT_VALUE[c] for c in rest), 0, 0, 0],
    })
    return ENGINE.from_json(data)


def test_first_trick_no_points_unless_the_hand_holds_only_points():
    state = position([
        suit("c")[:10] + ["8d", "9d", "Td"],
        ["Qc", "Kc", "Ac"] + [c for c in suit("d") if c not in ("8d", "9d", "Td")],
        ["Qs"] + suit("h")[:12],
        ["Ah"] + [c for c in suit("s") if c != "Qs"],
    ], turn=0, tricks_done=0)
    assert legal_cards(state, 0) == ["2c"]
    with pytest.raises(IllegalAction, match="2 of clubs"):
        play(state, 0, "8d")
    play(state, 0, "2c")
    assert legal_cards(state, 1) == ["Qc", "Kc", "Ac"]
    play(state, 1, "Qc")
    assert len(state.legal_actions(2)) == 13  # only hearts and Qs: anything goes
    play(state, 2, "Qs")
    assert "Ah" not in legal_cards(state, 3) and len(state.legal_actions(3)) == 12
    with pytest.raises(IllegalAction, match="No points on the first trick"):
        play(state, 3, "Ah")
    events = play(state, 3, "As")
    assert {"type": "trick", "winner": 1, "points": 13} in events
    assert state.view(None)["taken_points"] == [0, 13, 0, 0]
    assert state.view(None)["hearts_broken"] is False


def test_follow_suit_and_hearts_not_broken():
    state = new()
    do_passes(state, E2_PASSES)
    with pytest.raises(IllegalAction, match="2 of clubs"):
        play(state, 1, "5d")
    play(state, 1, "2c")
    with pytest.raises(IllegalAction, match="not in your hand"):
        play(state, 2, "2c")
    play(state, 2, "2d")
    play(state, 3, "2s")
    with pytest.raises(IllegalAction, match="follow suit"):
        play(state, 0, "2h")
    play(state, 0, "5c")
    with pytest.raises(IllegalAction, match="Hearts are not broken"):
        play(state, 0, "Ah")
    before = state.to_json()
    for bad in ({"type": "play", "card": "Zz"}, {"type": "play", "card": 5}, {"type": "play"},
                {"type": "pass", "cards": ["6c", "7c", "8c"]}, {"type": "play", "card": "6c", "x": 0}):
        with pytest.raises(IllegalAction):
            state.apply(0, bad)
        assert same_json(before, state.to_json())
    with pytest.raises(IllegalAction, match="turn"):
        play(state, 1, "3c")


def test_a_leader_holding_only_hearts_may_lead_one():
    state = position([suit("h")[:12], suit("c")[:12], suit("d")[:12], suit("s")[:12]], turn=0)
    assert legal_cards(state, 0) == suit("h")[:12]
    play(state, 0, "2h")
    assert state.view(None)["hearts_broken"] is True
    # a leader with other suits may lead hearts once they are broken
    state = position([suit("h")[:6] + suit("c")[:6], suit("c")[6:12] + suit("d")[:6],
                      suit("d")[6:12] + suit("s")[:6], suit("s")[6:12] + suit("h")[6:12]], turn=0)
    assert legal_cards(state, 0) == suit("c")[:6]
    state = position([suit("h")[:6] + suit("c")[:6], suit("c")[6:12] + suit("d")[:6],
                      suit("d")[6:12] + suit("s")[:6], suit("s")[6:12] + suit("h")[6:12]], turn=0,
                     broken=True)
    assert legal_cards(state, 0) == suit("c")[:6] + suit("h")[:6]


def test_qs_may_be_led_any_time_and_does_not_break_hearts():
    state = position([suit("c")[:12], suit("d")[:12], suit("h")[:12], suit("s")[:12]], turn=3)
    assert "Qs" in legal_cards(state, 3)
    play(state, 3, "Qs")
    assert state.view(None)["hearts_broken"] is False
    play(state, 0, "3c")
    play(state, 1, "3d")
    play(state, 2, "3h")  # a heart discarded: hearts are broken from now on
    assert state.view(None)["hearts_broken"] is True
    assert state.view(None)["taken_points"][3] == 14
    assert state.to_act == [3]


def test_moon_rule_on_the_last_trick():
    # seat 0 holds the last trick's cards with all hearts and Qs already taken: 26 -> moon
    state = position([["Ac"], ["2c"], ["3c"], ["4c"]], turn=0, tricks_done=12)
    for seat, card in ((0, "Ac"), (1, "2c"), (2, "3c"), (3, "4c")):
        events = play(state, seat, card)
    over = next(e for e in events if e["type"] == "hand_over")
    assert over["points"] == [0, 26, 26, 26] and over["moon"] == 0
    # 25 points are not a moon
    state = position([["2c"], ["Ac"], ["3c"], ["2h"]], turn=0, tricks_done=12)
    assert state.view(None)["taken_points"] == [25, 0, 0, 0]
    for seat, card in ((0, "2c"), (1, "Ac"), (2, "3c"), (3, "2h")):
        events = play(state, seat, card)
    over = next(e for e in events if e["type"] == "hand_over")
    assert over["points"] == [25, 1, 0, 0] and over["moon"] is None


def test_apply_accepts_exactly_the_legal_cards():
    """For random positions every held card is accepted iff legal_actions lists it."""
    french.check_apply_accepts_exactly_the_legal_cards(ENGINE, rng_seed=5, steps=150, random_seat=True)


def test_views_and_hidden_cards_after_the_exchange():
    state = new()
    do_passes(state, E2_PASSES)
    # seat 3 knows where 2h Kh Ah went; a spectator and the others do not
    assert "Ah" not in state.hidden_from(3)
    assert "Ah" in state.hidden_from(1) and "Ah" in state.hidden_from(None)
    assert set(state.hidden_from(3)) <= set(state.hidden_from(None))
    assert state.view(1)["passed"] == ["2d", "3d", "4d"] and state.view(1)["received"] == ["2c", "3c", "4c"]
    assert state.view(2)["received"] == ["2d", "3d", "4d"]
    for seat in range(4):
        others = [c for s in range(4) if s != seat for c in state.view(s)["hand"]]
        mine = state.view(seat)
        shown = set(mine["hand"]) | set(mine["passed"] or []) | set(mine["received"] or [])
        assert not (set(others) - set(mine["passed"] or [])) & shown
    assert state.view(None)["hand_counts"] == [13, 13, 13, 13]


def test_json_round_trip_mid_pass_and_mid_trick():
    state = new()
    pass_(state, 2, ["2s", "3s", "4s"])
    data = state.to_json()
    restored = ENGINE.from_json(data)
    assert same_json(restored.to_json(), data)
    assert restored.to_act == [0, 1, 3]
    do_passes(state, {0: E2_PASSES[0], 1: E2_PASSES[1], 3: E2_PASSES[3]})
    play(state, 1, "2c")
    restored = ENGINE.from_json(state.to_json())
    assert same_json(restored.view(0), state.view(0))
    assert restored.legal_actions(2) == state.legal_actions(2)


# -- robot ------------------------------------------------------------------------------


def robot(view, legal):
    return ENGINE.robot_choice(view, legal, random.Random(0))


def test_robot_passes_the_most_dangerous_cards():
    state = new()
    view = state.view(2)  # all spades
    assert robot(view, state.legal_actions(2))["cards"] == ["Qs", "Ks", "As"]
    view = state.view(3)  # all hearts
    assert robot(view, state.legal_actions(3))["cards"] == ["Qh", "Kh", "Ah"]
    view = state.view(0)  # all clubs
    assert robot(view, state.legal_actions(0))["cards"] == ["Qc", "Kc", "Ac"]
    hand = sorted(["Ks", "2h", "Jh", "Ac", "Kd"] + suit("c")[:8], key=CANON.index)
    legal = [{"type": "pass", "cards": list(t)} for t in combinations(hand, 3)]
    # Ks first, then the hearts from the highest, then the highest other card
    assert robot({"hand": hand, "phase": "pass"}, legal)["cards"] == ["Ks", "2h", "Jh"]
    hand = sorted(["Qs", "Jh", "Ac", "Kd"] + suit("c")[:9], key=CANON.index)
    legal = [{"type": "pass", "cards": list(t)} for t in combinations(hand, 3)]
    assert robot({"hand": hand, "phase": "pass"}, legal)["cards"] == ["Ac", "Qs", "Jh"]


def fake_view(seat, hand, trick, broken=True):
    return {"seat": seat, "hand": hand, "trick": [{"seat": s, "card": c} for s, c in trick],
            "hearts_broken": broken, "phase": "play"}


def test_robot_play_rules():
    # lead: the lowest card, avoiding Qs Ks As when possible
    assert robot(fake_view(0, [], []), acts(["Qs", "5d", "3c", "As"]))["card"] == "3c"
    assert robot(fake_view(0, [], []), acts(["Ks", "Qs", "As"]))["card"] == "Qs"  # none avoidable: lowest
    # follow: the highest card below the winning one
    assert robot(fake_view(1, [], [(0, "9d")]), acts(["2d", "8d", "Td"]))["card"] == "8d"
    # dump the Qs under a higher spade
    assert robot(fake_view(1, [], [(0, "Ks")]), acts(["2s", "Qs", "As"]))["card"] == "Qs"
    # all above, last to play, no points: the highest (not Qs)
    assert robot(fake_view(3, [], [(0, "2d"), (1, "3d"), (2, "4d")]), acts(["9d", "Kd"]))["card"] == "Kd"
    assert robot(fake_view(3, [], [(0, "2s"), (1, "3s"), (2, "4s")]), acts(["Qs", "Ks"]))["card"] == "Ks"
    # all above, points in the trick: the lowest
    assert robot(fake_view(3, [], [(0, "2d"), (1, "3h"), (2, "4d")]), acts(["9d", "Kd"]))["card"] == "9d"
    # all above, not last: the lowest, not Qs
    assert robot(fake_view(2, [], [(0, "2s"), (1, "3s")]), acts(["Qs", "Ks"]))["card"] == "Ks"
    # void: the Qs first, then high spades, high hearts, high cards
    assert robot(fake_view(1, [], [(0, "2d")]), acts(["Ah", "Qs", "Kc"]))["card"] == "Qs"
    assert robot(fake_view(1, [], [(0, "2d")]), acts(["Ah", "As", "Kc"]))["card"] == "As"
    assert robot(fake_view(1, [], [(0, "2d")]), acts(["5h", "Kc"]))["card"] == "5h"
    assert robot(fake_view(1, [], [(0, "2d")]), acts(["5s", "Kc"]))["card"] == "Kc"


def test_robot_reads_only_the_view_and_is_legal():
    state = ENGINE.new_game(4, seed=3)
    rng = random.Random(3)
    while not state.is_over:
        seat = rng.choice(state.to_act)
        action = ENGINE.robot_choice(state.view(seat), state.legal_actions(seat), rng)
        assert any(same_json(action, a) for a in state.legal_actions(seat))
        state.apply(seat, action)


def test_robot_beats_uniform_random():
    """One robot against three random players: lowest total in well over 90% of matches."""
    matches = 300  # the robot wins about 97%: 300 matches tell "well over 90%" apart
    rate = french.robot_win_rate(ENGINE, matches, first_seed=5000, random_seat=True)
    print(f"hearts robot vs 3 random: {rate:.3f} over {matches} matches")
    assert rate >= 0.90
