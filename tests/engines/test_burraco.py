"""Burraco (shared/spec/games/burraco.md): every worked example of section 10, the variants,
the pozzetti, the no-dead-end rule, the stock end and the robot against random play."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from apps.games.engines import IllegalAction, get_engine
from apps.games.engines._melds import parse_meld
from apps.games.engines.base import same_json
from apps.games.engines.burraco import RULES, card_value, match_winner

ENGINE = get_engine("burraco")
SEAT1 = ["X", "2c", "Ad", "Kh", "Qd", "9s", "7s", "6c", "5s", "4c", "3c"]  # 100 points (120 sporco)
HEARTS_3_TO_T = ["3h", "4h", "5h", "6h", "7h", "8h", "9h", "Th"]


def stack(hands, poz1, poz2=(), up=None, stock=(), variant="chiuso"):
    """A 2-player deck (dealer 1, seat 0 first) dealing these cards; the rest fills in."""
    full = Counter(ENGINE.deck(2, {"variant": variant}))
    fixed = [*hands[0], *hands[1], *poz1, *poz2, *([up] if up else []), *stock]
    rest = full - Counter(fixed)
    assert sum(rest.values()) == sum(full.values()) - len(fixed), "a card is used too often"
    filler = sorted(rest.elements(), key=lambda c: (c in ("X",) or c[0] == "2", c))

    def take(n):
        return [filler.pop(0) for _ in range(n)]

    h0, h1 = list(hands[0]), list(hands[1])
    h0 += take(11 - len(h0))
    h1 += take(11 - len(h1))
    deck = [h0[i // 2] if i % 2 == 0 else h1[i // 2] for i in range(22)]
    deck += list(poz1) + take(11 - len(poz1))
    deck += list(poz2) + take(11 - len(poz2))
    deck += [up] if up else take(1)
    deck += list(stock) + filler
    return deck


def new(deck, variant="chiuso", target=0):
    return ENGINE.new_game(2, options={"variant": variant, "target": target, "dealer": 1}, seed=3, deck=deck)


def act(state, seat, **action):
    return state.apply(seat, action)


def meld(state, seat, *cards):
    return state.apply(seat, {"type": "meld", "cards": list(cards)})


def attach(state, seat, index, card, side=None):
    action = {"type": "attach", "meld": index, "card": card}
    if side:
        action["side"] = side
    return state.apply(seat, action)


def team_result(state, hand=0):
    return state.result()["hands"][hand]


# -- identity, deal ---------------------------------------------------------------


def test_identity_options_and_decks():
    assert ENGINE.player_counts == (2, 4)
    assert ENGINE.options["variant"]["default"] == "aperto_sporco"
    assert len(ENGINE.deck(2)) == 108 and len(ENGINE.deck(2, {"variant": "aperto"})) == 104
    with pytest.raises(ValueError):
        ENGINE.new_game(3, seed=1)
    s4 = ENGINE.new_game(4, seed=1)
    assert s4.teams == [[0, 2], [1, 3]]


def test_deal_order_pozzetti_face_up_and_stock():
    deck = ENGINE.deck(2, {"variant": "chiuso"})
    s = ENGINE.new_game(2, options={"variant": "chiuso", "dealer": 1}, seed=1, deck=deck)
    d = s.to_json()
    assert d["hands"][0] == deck[0:22:2] and d["hands"][1] == deck[1:22:2]
    assert d["pozzetti"] == [deck[22:33], deck[33:44]]
    assert d["pile"] == [deck[44]] and d["stock"] == deck[45:] and len(d["stock"]) == 63
    s4 = ENGINE.new_game(4, options={"variant": "aperto", "dealer": 3}, seed=1)
    assert len(s4.to_json()["stock"]) == 37 and s4.to_act == [0]


# -- worked examples ----------------------------------------------------------------

EX1_SEAT0 = HEARTS_3_TO_T + ["Kc", "Kd", "Ks"]
EX1_POZ1 = ["Jc", "Qc", "Kc", "4d", "5d", "6d", "8s", "8c", "8d", "Ac", "Js"]


def example1_first_turn(state):
    act(state, 0, type="draw")
    meld(state, 0, "3h", "4h", "5h")
    for c in HEARTS_3_TO_T[3:]:
        attach(state, 0, 0, c, "high")
    assert state.view(0)["melds"][0][0]["burraco"] == "pulito"
    meld(state, 0, "Kd", "Kc", "Ks")
    events = act(state, 0, type="discard", card="Qs")
    assert {"type": "pozzetto", "seat": 0, "number": 1, "direct": False} in events
    assert sorted(state.view(0)["hand"]) == sorted(EX1_POZ1)


def example1_close(state):
    act(state, 0, type="draw")
    meld(state, 0, "Jc", "Qc", "Kc")
    attach(state, 0, 1 + 1, "Ac", "high")
    meld(state, 0, "4d", "5d", "6d")
    attach(state, 0, 3, "7d", "high")
    meld(state, 0, "8d", "8c", "8s")
    assert state.legal_actions(0) == [{"type": "discard", "card": "Js"}]
    return act(state, 0, type="discard", card="Js")


@pytest.mark.parametrize(("variant", "points"), [("chiuso", [480, -200]), ("aperto_sporco", [480, -120])])
def test_example1_indirect_pozzetto_and_closing(variant, points):
    deck = stack([EX1_SEAT0, SEAT1], EX1_POZ1, up="9d", stock=["Qs", "Jd", "7d"], variant=variant)
    s = new(deck, variant)
    example1_first_turn(s)
    act(s, 1, type="draw")
    act(s, 1, type="discard", card="Jd")
    example1_close(s)
    assert s.is_over
    hand = team_result(s)
    assert hand["closer"] == 0 and hand["points"] == points
    assert hand["teams"][0] == {"melded": 180, "bonus": 200, "closing": 100, "hand": 0, "pozzetto": 0,
                                "total": 480}
    assert s.result()["scores"] == points and s.result()["winner"] == 0


EX2_SEAT1 = ["3s", "4s", "5s", "6s", "9h", "9d", "9c", "9s", "Jh", "Qh", "Kh"]
EX2_POZ2 = ["3c", "3c", "4c", "4c", "5c", "Tc", "Tc", "Td", "Td", "Qd", "Qd"]  # 85 points


@pytest.mark.parametrize(("variant", "team1"), [("chiuso", -95), ("aperto_sporco", 5)])
def test_example2_pozzetto_taken_but_not_played(variant, team1):
    deck = stack([EX1_SEAT0, EX2_SEAT1], EX1_POZ1, EX2_POZ2, up="9d", stock=["Qs", "Jd", "7d"], variant=variant)
    s = new(deck, variant)
    example1_first_turn(s)
    act(s, 1, type="draw")
    meld(s, 1, "3s", "4s", "5s")
    attach(s, 1, 0, "6s", "high")
    meld(s, 1, "9h", "9d", "9c")
    attach(s, 1, 1, "9s")
    meld(s, 1, "Jh", "Qh", "Kh")
    events = act(s, 1, type="discard", card="Jd")
    assert {"type": "pozzetto", "seat": 1, "number": 2, "direct": False} in events
    assert s.view(None)["pozzetto"][1] == {"number": 2, "seat": 1, "played": False}
    example1_close(s)
    teams = team_result(s)["teams"]
    assert teams[1]["melded"] == 90 and teams[1]["hand"] == -85
    assert teams[1]["total"] == team1


EX3_SEAT0 = ["Ah", "2h", "3h", "4h", "5h", "6h", "7h", "8h", "9h", "Th", "Jh"]
EX3_POZ1 = ["Kh", "5c", "6c", "7c", "9s", "9d", "9c", "Jd", "Qd", "Kd", "Ts"]


def example3_until_reale(s):
    act(s, 0, type="draw")
    meld(s, 0, "Ah", "2h", "3h")
    assert s.view(0)["melds"][0][0]["cards"] == ["Ah", "2h", "3h"]
    for c in ["4h", "5h", "6h", "7h", "8h", "9h", "Th", "Jh"]:
        attach(s, 0, 0, c, "high")
    events = attach(s, 0, 0, "Qh", "high")
    assert {"type": "pozzetto", "seat": 0, "number": 1, "direct": True} in events
    assert s.to_act == [0] and s.view(0)["phase"] == "play"
    attach(s, 0, 0, "Kh", "high")
    assert s.view(0)["melds"][0][0]["burraco"] == "reale"


@pytest.mark.parametrize(("variant", "points"), [("chiuso", [785, -200]), ("aperto_sporco", [795, -120])])
def test_example3_direct_pozzetto_and_burraco_reale(variant, points):
    s = new(stack([EX3_SEAT0, SEAT1], EX3_POZ1, up="9d", stock=["Qh"], variant=variant), variant)
    example3_until_reale(s)
    meld(s, 0, "5c", "6c", "7c")
    meld(s, 0, "9d", "9c", "9s")
    meld(s, 0, "Jd", "Qd", "Kd")
    act(s, 0, type="discard", card="Ts")
    assert team_result(s)["points"] == points


def test_example3_asso_ad_asso_and_closing_by_melding():
    poz = EX3_POZ1[:-1] + ["Ah"]
    s = new(stack([EX3_SEAT0, SEAT1], poz, up="9d", stock=["Qh"]))
    example3_until_reale(s)
    attach(s, 0, 0, "Ah", "high")
    assert s.view(0)["melds"][0][0]["burraco"] == "asso_ad_asso"
    meld(s, 0, "5c", "6c", "7c")
    meld(s, 0, "9d", "9c", "9s")
    meld(s, 0, "Jd", "Qd", "Kd")  # the last three cards: closing by melding
    hand = team_result(s)
    assert hand["closer"] == 0 and hand["points"][0] == 1300
    assert hand["teams"][0]["melded"] == 200 and hand["teams"][0]["bonus"] == 1000


def test_example3_aperto_sporco_cannot_close_by_melding():
    poz = EX3_POZ1[:-1] + ["Ah"]
    s = new(stack([EX3_SEAT0, SEAT1], poz, up="9d", stock=["Qh"], variant="aperto_sporco"), "aperto_sporco")
    example3_until_reale(s)
    # Aperto sporco: no natural A…A, and the last card must be discarded
    assert {"type": "attach", "meld": 0, "card": "Ah", "side": "high"} not in s.legal_actions(0)
    meld(s, 0, "5c", "6c", "7c")
    meld(s, 0, "9d", "9c", "9s")
    meld(s, 0, "Jd", "Qd", "Kd")
    legal = s.legal_actions(0)
    assert {"type": "attach", "meld": 3, "card": "Ah", "side": "high"} not in legal  # would empty the hand
    assert legal == [{"type": "discard", "card": "Ah"}]
    act(s, 0, type="discard", card="Ah")
    assert team_result(s)["closer"] == 0


EX4_SEAT0 = ["3h", "4h", "5h", "X", "7h", "8h", "9h", "Th", "Jh", "Qh", "Kh"]
EX4_POZ1 = ["5c", "6c", "7c", "9d", "9c", "9s", "Jd", "Qd", "Kd", "8c", "Ts"]


def example4_setup(variant, poz):
    s = new(stack([EX4_SEAT0, ["Ad"]], poz, up="9h", stock=["Ah"], variant=variant), variant)
    act(s, 0, type="draw")
    meld(s, 0, "3h", "4h", "5h")
    for c in ["X", "7h", "8h", "9h", "Th", "Jh", "Qh", "Kh"]:
        attach(s, 0, 0, c, "high")
    events = attach(s, 0, 0, "Ah", "high")
    assert any(e["type"] == "pozzetto" and e["direct"] for e in events)
    assert s.view(0)["melds"][0][0]["burraco"] == "sporco"
    meld(s, 0, "5c", "6c", "7c")
    meld(s, 0, "9d", "9c", "9s")
    meld(s, 0, "Jd", "Qd", "Kd")
    return s


def test_example4_clean_burraco_needed_in_chiuso():
    s = example4_setup("chiuso", EX4_POZ1)
    attach8 = {"type": "attach", "meld": 1, "card": "8c", "side": "high"}
    assert attach8 not in s.legal_actions(0)
    with pytest.raises(IllegalAction):
        s.apply(0, attach8)


def test_example4_chiuso_sporco_closes_with_a_dirty_burraco():
    s = example4_setup("chiuso_sporco", EX4_POZ1)
    attach(s, 0, 1, "8c", "high")
    act(s, 0, type="discard", card="Ts")
    assert team_result(s)["points"][0] == 400


def test_example4_a_wild_never_closes_by_discard_but_by_attaching():
    s = example4_setup("chiuso_sporco", EX4_POZ1[:-1] + ["2d"])
    attach(s, 0, 1, "8c", "high")
    legal = s.legal_actions(0)
    assert {"type": "discard", "card": "2d"} not in legal
    assert {"type": "attach", "meld": 3, "card": "2d", "side": "low"} in legal
    attach(s, 0, 3, "2d", "low")
    assert team_result(s)["points"][0] == 410 and team_result(s)["closer"] == 0


def test_example5_stock_end_and_tie_to_the_starting_team():
    h0 = ["3h", "3d", "4h", "4d", "5h", "8h", "8d", "9h", "9d", "Th", "Td"]
    h1 = ["3c", "3s", "4c", "4s", "5c", "8c", "8s", "9c", "9s", "Tc", "Ts"]
    s = new(stack([h0, h1], []))
    turns = 0
    while not s.is_over:
        seat = s.to_act[0]
        before = Counter(s.view(seat)["hand"])
        act(s, seat, type="draw")
        drawn = next((Counter(s.view(seat)["hand"]) - before).elements())
        act(s, seat, type="discard", card=drawn)
        turns += 1
        if turns == 61:
            assert s.view(None)["pozzetti_left"] == 1 and s.view(None)["stock"] == 13
    assert turns == 83
    hand = team_result(s)
    assert hand["closer"] is None and hand["points"] == [-185, -185]
    assert s.result()["winner"] == 0  # seat 0 started: its team wins the tie


# -- rules ------------------------------------------------------------------------------


def test_values_table():
    assert [card_value(c, "chiuso") for c in ("3h", "7s", "8d", "Kc", "Ah", "2h", "X")] == [5, 5, 10, 10, 15, 10, 20]
    assert [card_value(c, "aperto_sporco") for c in ("2h", "X", "Ah")] == [20, 30, 15]


def test_closed_variants_take_only_when_the_top_card_plays_and_must_play_it():
    seat0 = ["7h", "8h", "Kc", "Kd", "4s", "Qd", "Jc", "5d", "3c", "Ts", "6s"]
    s = new(stack([seat0, SEAT1], [], up="9h", stock=["Qs"]), "chiuso")
    assert {"type": "take"} in s.legal_actions(0)
    act(s, 0, type="take")
    legal = s.legal_actions(0)
    assert legal and all("9h" in a.get("cards", ()) or a.get("card") == "9h" for a in legal)
    assert not any(a["type"] == "discard" for a in legal)
    assert s.view(0)["must_play"] == "9h" and s.view(1)["must_play"] is None
    meld(s, 0, "7h", "8h", "9h")
    assert any(a["type"] == "discard" for a in s.legal_actions(0))
    # a pile top that fits nothing cannot be taken in a closed variant, always in an open one
    s2 = new(stack([seat0, SEAT1], [], up="9s", stock=["Qs"]), "chiuso")
    assert s2.legal_actions(0) == [{"type": "draw"}]
    s3 = new(stack([seat0, SEAT1], [], up="9s", stock=["Qs"], variant="aperto_sporco"), "aperto_sporco")
    assert {"type": "take"} in s3.legal_actions(0)


def test_sets_not_allowed_in_aperto_and_stcl():
    seat0 = ["Kh", "Kd", "Kc", "4s", "Qd", "Jc", "5d", "3c", "Ts", "6s", "8h"]
    for variant in ("aperto", "chiuso_stcl"):
        s = new(stack([seat0, ["Ad"]], [], up="9s", stock=["Qs"], variant=variant), variant)
        act(s, 0, type="draw")
        assert not any(a["type"] == "meld" for a in s.legal_actions(0))
    s = new(stack([seat0, ["Ad"]], [], up="9s", stock=["Qs"]), "chiuso")
    act(s, 0, type="draw")
    assert {"type": "meld", "cards": ["Kh", "Kd", "Kc"]} in s.legal_actions(0)


def test_replace_moves_the_wild_by_seed_002():
    seat0 = ["5h", "2c", "7h", "6h", "3d", "2d", "5d", "4d", "Qs", "Qs", "Kc"]
    s = new(stack([seat0, ["Ad"]], [], up="9c", stock=["Jd"]))
    act(s, 0, type="draw")
    meld(s, 0, "5h", "2c", "7h")
    act(s, 0, type="replace", meld=0, card="6h")  # (b) the wild goes to the high end
    assert s.view(0)["melds"][0][0]["cards"] == ["5h", "6h", "7h", "2c"]
    meld(s, 0, "3d", "2d", "5d")  # 2d stands for 4d
    act(s, 0, type="replace", meld=1, card="4d")  # (a) a 2 of the suit goes home as a natural
    assert s.view(0)["melds"][0][1]["cards"] == ["2d", "3d", "4d", "5d"]
    # sets have no replace, runs without a wild neither
    assert not any(a["type"] == "replace" for a in s.legal_actions(0))


def test_replace_at_the_high_ace_goes_low():
    seat0 = ["Qh", "X", "Ah", "Kh", "5d", "6d", "8c", "Qs", "Js", "Kc", "9s"]
    s = new(stack([seat0, ["Ad"]], [], up="9c", stock=["Jd"]))
    act(s, 0, type="draw")
    meld(s, 0, "Qh", "X", "Ah")
    act(s, 0, type="replace", meld=0, card="Kh")
    assert s.view(0)["melds"][0][0]["cards"] == ["X", "Qh", "Kh", "Ah"]


def test_no_second_wild_and_other_team_melds_untouchable():
    seat0 = ["5h", "6h", "7h", "X", "2c", "8d", "9d", "Td", "3s", "Qs", "Kc"]
    s = new(stack([seat0, ["Ad"]], [], up="9c", stock=["Jd"]))
    act(s, 0, type="draw")
    meld(s, 0, "5h", "X", "7h")
    legal = s.legal_actions(0)
    assert not any(a["type"] == "attach" and a["card"] == "2c" and a["meld"] == 0 for a in legal)
    with pytest.raises(IllegalAction):
        s.apply(0, {"type": "attach", "meld": 0, "card": "2c", "side": "high"})
    with pytest.raises(IllegalAction):
        s.apply(0, {"type": "meld", "cards": ["7h", "X", "5h"]})  # not canonical
    with pytest.raises(IllegalAction):
        s.apply(0, {"type": "meld", "cards": ["8d", "9d", "Td", "Qs"]})  # four cards
    act(s, 0, type="discard", card="Kc")
    act(s, 1, type="draw")
    assert not any(a["type"] in ("attach", "replace") and a["meld"] == 0 for a in s.legal_actions(1))


def test_emptying_the_hand_is_legal_only_for_pozzetto_or_closing():
    s = new(stack([["5h", "X"], ["Ad"]], [], up="9h", stock=["Jd"]))
    d = s.d  # a position built by hand: seat 0 in play with one card left
    d["phase"] = "play"
    d["stock"] += d["hands"][0][1:]
    d["hands"][0] = ["X"]
    assert s.legal_actions(0) == [{"type": "discard", "card": "X"}]  # indirect pozzetto
    d["pozzetto"][0] = {"number": 1, "seat": 0, "played": True}
    d["stock"] += d["pozzetti"][0]
    d["pozzetti"][0] = None
    d["melds"][0] = [parse_meld(["3c", "4c", "5c", "6c", "7c", "8c", "9c"], RULES["chiuso"])]
    assert s.legal_actions(0) == []  # closing, but never with a wild (the rule 5.4 keeps this unreachable)
    d["hands"][0] = ["5h"]
    assert s.legal_actions(0) == [{"type": "discard", "card": "5h"}]


def test_four_players_share_team_melds():
    s = ENGINE.new_game(4, options={"variant": "chiuso", "dealer": 3}, seed=5)
    rng = random.Random(1)
    while not s.is_over and not s.view(None)["melds"][0]:
        seat = s.to_act[0]
        s.apply(seat, ENGINE.bot_action(s, seat, rng))
    assert s.view(0)["melds"] == s.view(2)["melds"]


def test_points_match_and_max_hands():
    s = ENGINE.new_game(2, options={"target": 2000, "max_hands": 2}, seed=8)
    rng = random.Random(2)
    while not s.is_over:
        seat = s.to_act[0]
        s.apply(seat, ENGINE.bot_action(s, seat, rng))
    res = s.result()
    assert len(res["hands"]) <= 2
    assert res["scores"] == [sum(h["points"][t] for h in res["hands"]) for t in (0, 1)]
    made = [any(h["teams"][t]["bonus"] > 0 for h in res["hands"]) for t in (0, 1)]
    a, b = res["scores"]
    by_points = 0 if a > b else 1 if b > a else s.to_json()["starting_team"]
    assert res["winner"] == (made.index(True) if made.count(True) == 1 else by_points)


def test_view_hides_hands_stock_and_pozzetti_and_round_trips():
    s = ENGINE.new_game(2, seed=4)
    view = s.view(0)
    assert set(view["hand"]) == set(s.to_json()["hands"][0])
    assert "stock" in view and isinstance(view["stock"], int)
    assert s.view(None)["hand"] == []
    restored = ENGINE.from_json(s.to_json())
    assert same_json(restored.to_json(), s.to_json())


def test_illegal_messages_and_state_unchanged():
    s = ENGINE.new_game(2, seed=4)
    before = s.to_json()
    for bad in ({"type": "discard", "card": "Ah"}, {"type": "meld", "cards": ["Ah"]}, {"type": "fly"}):
        with pytest.raises(IllegalAction) as err:
            s.apply(s.to_act[0], bad)
        assert str(err.value)
    assert same_json(s.to_json(), before)


def robot_rate(matches: int, variant: str) -> float:
    wins = 0
    for m in range(matches):
        robot = m % 2
        s = ENGINE.new_game(2, options={"target": 0, "variant": variant}, seed=1000 + m)
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
    return wins / matches


@pytest.mark.parametrize(("variant", "hands"), [("aperto_sporco", 40), ("chiuso", 40)])  # it wins 0.97-0.99
def test_robot_beats_uniform_random(variant, hands):
    rate = robot_rate(hands, variant)
    print(f"burraco {variant} robot vs random: {rate:.2f} over {hands} single hands")
    assert rate >= 0.6


def test_refusal_sentences_name_the_problem():
    s = new(stack([EX4_SEAT0, ["Ad"]], EX4_POZ1, up="9h", stock=["Ah"]))
    act(s, 0, type="draw")
    cases = [
        ({"type": "meld", "cards": ["5h", "4h", "3h"]}, "canonical order"),
        ({"type": "meld", "cards": ["3h", "4h", "5h", "7h"]}, "exactly three cards"),
        ({"type": "meld", "cards": ["3h", "4h", "9h"]}, "do not form"),
        ({"type": "meld", "cards": ["3h", "4h", "5c"]}, "not in your hand"),
    ]
    for action, words in cases:
        with pytest.raises(IllegalAction, match=words):
            s.apply(0, action)


def test_refusal_for_sets_in_a_runs_only_variant_and_garbage():
    seat0 = ["Kh", "Kd", "Kc", "4s", "Qd", "Jc", "5d", "3c", "Ts", "6s", "8h"]
    s = new(stack([seat0, ["Ad"]], [], up="9s", stock=["Qs"], variant="aperto"), "aperto")
    act(s, 0, type="draw")
    with pytest.raises(IllegalAction, match="runs only"):
        meld(s, 0, "Kh", "Kd", "Kc")
    for garbage in (["Z", "Zz", 7], ["Z", "Kh", "Kd"], "Kh"):
        with pytest.raises(IllegalAction):
            s.apply(0, {"type": "meld", "cards": garbage})


def test_view_gives_every_seat_the_count_of_the_hand_just_over():
    """The end-of-hand sheet needs each team's count (melded, burraco bonuses, closing, cards
    left in hand, pozzetto): public once the hand is over, the same for every seat, and the
    very count the result keeps."""
    s = ENGINE.new_game(2, options={"target": 2000, "max_hands": 2}, seed=8)
    assert s.view(None)["last_hand"] is None
    rng = random.Random(2)
    while not s.to_json()["history"]:
        seat = s.to_act[0]
        s.apply(seat, ENGINE.bot_action(s, seat, rng))
    first = s.result()["hands"][0]["teams"]
    assert s.view(None)["last_hand"] == s.view(0)["last_hand"] == s.view(1)["last_hand"] == first
    for team in first:
        assert team["total"] == sum(team[k] for k in ("melded", "bonus", "closing", "hand", "pozzetto"))


# -- 5.7: the winner must have made at least one burraco ------------------------------------


def test_match_winner_needs_a_burraco_else_totals_then_starting_team():
    assert match_winner([300, 900], [True, False], 1) == 0  # the most points, no burraco: loses
    assert match_winner([900, 300], [False, True], 0) == 1
    assert match_winner([300, 900], [True, True], 0) == 1  # both made one: the totals decide
    assert match_winner([300, 900], [False, False], 0) == 1  # neither: the totals decide
    assert match_winner([500, 500], [False, False], 1) == 1  # equal: the starting team
    assert match_winner([500, 500], [True, True], 0) == 0


def burraco_against_more_points(target=0, max_hands=30):
    """Aperto sporco, one hand ending at the stock: seat 0 lays a clean burraco 3-9♥ (45 + 200)
    and keeps four jokers (−120): 125; seat 1 lays six aces (90) and K-K-K with a 2 (50) and
    keeps a 3 (−5): 135 points, no burraco."""
    h0 = ["3h", "4h", "5h", "6h", "7h", "8h", "9h", "X", "X", "X", "X"]
    h1 = ["Ah", "Ad", "Ac", "As", "Ah", "Ad", "Kh", "Kd", "Kc", "2c", "3s"]
    deck = stack([h0, h1], [], variant="aperto_sporco")
    s = ENGINE.new_game(2, options={"variant": "aperto_sporco", "target": target, "max_hands": max_hands,
                                    "dealer": 1}, seed=3, deck=deck)
    return s


def play_out_burraco_against_more_points(s, before=(0, 0)):
    act(s, 0, type="draw")
    meld(s, 0, "3h", "4h", "5h")
    for c in ("6h", "7h", "8h", "9h"):
        attach(s, 0, 0, c, "high")
    drawn = next(c for c in s.view(0)["hand"] if c != "X")
    act(s, 0, type="discard", card=drawn)
    act(s, 1, type="draw")
    meld(s, 1, "Ah", "Ad", "Ac")
    for c in ("As", "Ah", "Ad"):
        attach(s, 1, 0, c)
    meld(s, 1, "Kh", "Kd", "Kc")
    attach(s, 1, 1, "2c")
    drawn = next(c for c in s.view(1)["hand"] if c != "3s")
    act(s, 1, type="discard", card=drawn)
    hands = len(s.result()["hands"])
    while len(s.result()["hands"]) == hands and not s.is_over:
        seat = s.to_act[0]
        hand = Counter(s.view(seat)["hand"])
        act(s, seat, type="draw")
        act(s, seat, type="discard", card=next((Counter(s.view(seat)["hand"]) - hand).elements()))
    last = s.result()["hands"][-1]
    assert last["closer"] is None and last["points"] == [125, 135]
    assert [t["bonus"] for t in last["teams"]] == [200, 0]


def test_express_the_side_with_the_most_points_but_no_burraco_loses():
    s = burraco_against_more_points()
    play_out_burraco_against_more_points(s)
    assert s.is_over and s.result()["scores"] == [125, 135]
    assert s.result()["winner"] == 0 and s.view(None)["winner"] == 0


def test_max_hands_the_side_with_the_most_points_but_no_burraco_loses():
    s = burraco_against_more_points(target=2000, max_hands=1)
    play_out_burraco_against_more_points(s)
    assert s.is_over and s.result()["winner"] == 0


def test_target_reached_without_a_burraco_loses_to_a_burraco_made_in_an_earlier_hand():
    """Team 1 reaches the target in the last hand with no burraco in the whole match; team 0 made
    one in an earlier hand only: team 0 wins whatever the totals. A burraco in any hand counts."""
    s = burraco_against_more_points(target=2000)
    d = s.to_json()
    earlier = {"closer": 1, "points": [150, 1900], "teams": [
        {"melded": 50, "bonus": 100, "closing": 0, "hand": 0, "pozzetto": 0, "total": 150},
        {"melded": 1800, "bonus": 0, "closing": 100, "hand": 0, "pozzetto": 0, "total": 1900}]}
    d["history"] = [earlier]
    d["totals"] = [150, 1900]
    s = ENGINE.from_json(d)
    play_out_burraco_against_more_points(s)
    assert s.is_over and s.result()["scores"] == [275, 2035]
    assert s.result()["winner"] == 0


def test_target_reached_neither_side_made_a_burraco_the_totals_decide():
    s = burraco_against_more_points(target=2000)
    d = s.to_json()
    d["history"] = [{"closer": None, "points": [0, 1900], "teams": [
        {"melded": 0, "bonus": 0, "closing": 0, "hand": 0, "pozzetto": 0, "total": 0},
        {"melded": 1900, "bonus": 0, "closing": 0, "hand": 0, "pozzetto": 0, "total": 1900}]}]
    d["totals"] = [0, 1900]
    s = ENGINE.from_json(d)
    play_out_burraco_against_more_points(s)
    # team 0 made its burraco in this hand: it wins although team 1 reached the target
    assert s.is_over and s.result()["winner"] == 0
