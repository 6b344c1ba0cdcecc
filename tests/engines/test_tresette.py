"""Tresette (shared/spec/games/tresette.md): worked examples, rules, options, decisions, robot."""

from __future__ import annotations

import json
import random

import pytest

from apps.games.engines import IllegalAction, get_engine
from apps.games.engines.base import same_json
from apps.games.engines.cards import italian_deck
from apps.games.engines.tresette import STRENGTH, THIRDS, hand_points

ENGINE = get_engine("tresette")
SUITS = "dcsb"


def suit(s: str) -> list[str]:
    """The ten cards of a suit, strongest first."""
    return [r + s for r in "32ARCF7654"]


def deck4(hands: list[list[str]]) -> list[str]:
    """A 40-card deck dealing ``hands`` with dealer 3 (deck[i] goes to seat i % 4)."""
    assert all(len(h) == 10 for h in hands)
    return [hands[i % 4][i // 4] for i in range(40)]


def deck2(h0: list[str], h1: list[str], stock: list[str]) -> list[str]:
    """A deck dealing ``h0``/``h1`` with dealer 1 (even positions to seat 0), then the stock."""
    return [(h0 if i % 2 == 0 else h1)[i // 2] for i in range(20)] + stock


def play(state, seat: int, card: str) -> list[dict]:
    return state.apply(seat, {"type": "play", "card": card})


def cards_of(legal: list[dict]) -> set[str]:
    return {a["card"] for a in legal}


def play_first_legal(state, count: int) -> list[dict]:
    events = []
    for _ in range(count):
        seat = state.to_act[0]
        events += state.apply(seat, state.legal_actions(seat)[0])
    return events


E1_HANDS = [suit("d"), suit("c"), suit("s"), suit("b")]
E2_HANDS = [
    ["3d", "2d", "Ad", "Rd", "Cd", "Fd", "7d", "6d", "5d", "4c"],
    ["3c", "2c", "Ac", "Rc", "Cc", "Fc", "7c", "6c", "5c", "4s"],
    ["3s", "2s", "As", "Rs", "Cs", "Fs", "7s", "6s", "5s", "4d"],
    suit("b"),
]
E3_HANDS = [
    ["Ad", "4c", "5c", "6c", "7c", "Fc", "Cc", "Rc", "4s", "5s"],
    ["2d", "4d", "5d", "Ac", "2c", "6s", "7s", "Fs", "Cs", "Rs"],
    ["3c", "As", "2s", "3s", "Ab", "2b", "3b", "4b", "5b", "6b"],
    ["3d", "Rd", "6d", "7d", "Fd", "Cd", "7b", "Fb", "Cb", "Rb"],
]


# -- identity, options, setup ---------------------------------------------------------


def test_identity_and_options():
    assert ENGINE.id == "tresette" and ENGINE.name == "Tresette"
    assert (ENGINE.min_players, ENGINE.max_players, tuple(ENGINE.player_counts)) == (2, 4, (2, 4))
    assert ENGINE.options == {
        "variant": {"default": "vincere", "choices": ["vincere", "perdere"]},
        "mode": {"default": "points", "choices": ["points", "hands"]},
        "target": {"default": 21, "choices": [11, 21, 31, 41]},
        "hands": {"default": 3, "min": 1, "max": 10},
        "dealer": {"default": None, "min": 0, "max": 3},
    }
    assert sorted(ENGINE.deck(2)) == sorted(italian_deck()) == sorted(ENGINE.deck(4))


@pytest.mark.parametrize("players", [0, 1, 3, 5, "4", 4.0, True])
def test_bad_player_counts(players):
    with pytest.raises(ValueError):
        ENGINE.new_game(players, seed=1)


@pytest.mark.parametrize(
    "options",
    [
        {"variant": "a vincere"}, {"mode": "rounds"}, {"target": 15}, {"target": "21"},
        {"hands": 0}, {"hands": 11}, {"hands": True}, {"dealer": 4}, {"dealer": -1}, {"colour": 1},
    ],
)
def test_bad_options(options):
    with pytest.raises(ValueError):
        ENGINE.new_game(4, options=options, seed=1)


def test_dealer_must_be_a_seat_of_this_match():
    with pytest.raises(ValueError):
        ENGINE.new_game(2, options={"dealer": 2}, seed=1)
    assert ENGINE.new_game(2, options={"dealer": 1}, seed=1).view(None)["dealer"] == 1


def test_bad_deck():
    with pytest.raises(ValueError):
        ENGINE.new_game(4, seed=1, deck=italian_deck()[:-1])
    with pytest.raises(ValueError):
        ENGINE.new_game(2, seed=1, deck=[*italian_deck()[:-1], "Td"])


def test_teams():
    assert ENGINE.new_game(2, seed=1).teams == [[0], [1]]
    assert ENGINE.new_game(4, seed=1).teams == [[0, 2], [1, 3]]


def test_default_dealer_is_drawn_from_the_seed():
    dealers = {ENGINE.new_game(4, seed=s).view(None)["dealer"] for s in range(40)}
    assert dealers == {0, 1, 2, 3}
    assert ENGINE.new_game(4, seed=7).view(None)["dealer"] == ENGINE.new_game(4, seed=7).view(None)["dealer"]


# -- deal ---------------------------------------------------------------------------------


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_four_player_deal_order_and_lead(dealer):
    deck = italian_deck()
    state = ENGINE.new_game(4, options={"dealer": dealer}, seed=3, deck=deck)
    for seat in range(4):
        expected = [deck[i] for i in range(40) if (dealer + 1 + i) % 4 == seat]
        assert sorted(state.hands[seat]) == sorted(expected)
        assert state.view(seat)["hand_counts"] == [10, 10, 10, 10]
    assert state.view(None)["stock_count"] == 0
    assert state.to_act == [(dealer + 1) % 4]


def test_two_player_deal_and_stock():
    deck = list(reversed(italian_deck()))
    state = ENGINE.new_game(2, options={"dealer": 1}, seed=3, deck=deck)
    assert sorted(state.view(0)["hand"]) == sorted(deck[0:20:2])
    assert sorted(state.view(1)["hand"]) == sorted(deck[1:20:2])
    assert state.stock == deck[20:]
    assert state.view(0)["stock_count"] == 20
    assert state.to_act == [0]
    other = ENGINE.new_game(2, options={"dealer": 0}, seed=3, deck=deck)
    assert sorted(other.view(1)["hand"]) == sorted(deck[0:20:2]) and other.to_act == [1]


def test_later_hands_rotate_dealer_and_reshuffle_from_the_seed():
    options = {"mode": "hands", "hands": 3, "dealer": 2}
    state = ENGINE.new_game(4, options=options, seed=42, deck=deck4(E1_HANDS))
    events = play_first_legal(state, 40)
    new_hand = [e for e in events if e["type"] == "new_hand"]
    assert new_hand == [{"type": "new_hand", "hand": 2, "dealer": 3, "leader": 0}]
    assert state.view(None)["dealer"] == 3 and state.to_act == [0]
    twin = ENGINE.new_game(4, options=options, seed=42, deck=deck4(E1_HANDS))
    play_first_legal(twin, 40)
    assert same_json(state.to_json(), twin.to_json())  # hand 2 comes from the seed
    assert state.hands != [list(h) for h in E1_HANDS]
    other_seed = ENGINE.new_game(4, options=options, seed=43, deck=deck4(E1_HANDS))
    play_first_legal(other_seed, 40)
    assert other_seed.hands != state.hands


# -- play -------------------------------------------------------------------------------


def test_e3_two_beats_ace_and_off_suit_never_wins():
    state = ENGINE.new_game(4, options={"dealer": 3}, seed=1, deck=deck4(E3_HANDS))
    assert state.to_act == [0]
    assert cards_of(state.legal_actions(0)) == set(E3_HANDS[0])  # the leader plays anything
    play(state, 0, "Ad")
    assert cards_of(state.legal_actions(1)) == {"2d", "4d", "5d"}
    play(state, 1, "2d")
    assert cards_of(state.legal_actions(2)) == set(E3_HANDS[2])  # no denari: anything
    play(state, 2, "3c")
    assert cards_of(state.legal_actions(3)) == {"3d", "Rd", "6d", "7d", "Fd", "Cd"}
    events = play(state, 3, "Rd")
    assert events[-1] == {
        "type": "trick", "winner": 1, "team": 1,
        "cards": [{"seat": 0, "card": "Ad"}, {"seat": 1, "card": "2d"},
                  {"seat": 2, "card": "3c"}, {"seat": 3, "card": "Rd"}],
    }
    assert state.to_act == [1]
    assert state.view(0)["tricks_taken"] == [0, 1]
    assert state.view(0)["last_trick"]["winner"] == 1
    assert state.view(0)["played"] == sorted(["Ad", "2d", "3c", "Rd"], key=italian_deck().index)


def test_trick_strength_order():
    order = [r + "c" for r in ["3", "2", "A", "R", "C", "F", "7", "6", "5", "4"]]
    assert sorted(order, key=lambda c: -STRENGTH[c]) == order


def test_card_values_in_thirds():
    assert sum(THIRDS.values()) == 32
    assert {r: THIRDS[r + "s"] for r in "A23RCF7654"} == {
        "A": 3, "2": 1, "3": 1, "R": 1, "C": 1, "F": 1, "7": 0, "6": 0, "5": 0, "4": 0}


def test_only_one_seat_acts_and_others_have_no_moves():
    state = ENGINE.new_game(4, options={"dealer": 3}, seed=1, deck=deck4(E3_HANDS))
    for seat in (1, 2, 3, None):
        assert state.legal_actions(seat) == []


# -- worked examples: scoring and match end -----------------------------------------------


@pytest.mark.parametrize(("variant", "winner"), [("vincere", 0), ("perdere", 1)])
def test_e1_one_team_takes_everything(variant, winner):
    options = {"variant": variant, "mode": "points", "target": 11, "dealer": 3}
    state = ENGINE.new_game(4, options=options, seed=1, deck=deck4(E1_HANDS))
    rng = random.Random(5)
    while not state.is_over:  # "whatever is played"
        seat = state.to_act[0]
        if seat != 0:
            assert state.legal_actions(seat) and all(
                a["card"][1] != "d" for a in state.legal_actions(seat))
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        assert state.is_over or state.view(None)["hand_number"] == 1
    result = state.result()
    assert result["scores"] == [11, 0]
    assert result["winner"] == winner
    (hand,) = result["hands"]
    assert hand["thirds"] == [35, 0] and hand["points"] == [11, 0] and hand["last_trick"] == 0
    assert hand["tricks"] == [10, 0]
    assert state.to_act == [] and all(state.legal_actions(s) == [] for s in range(4))


def test_e1_below_target_plays_on():
    state = ENGINE.new_game(4, options={"dealer": 3}, seed=1, deck=deck4(E1_HANDS))  # target 21
    events = play_first_legal(state, 40)
    assert not state.is_over and state.result()["winner"] is None
    assert state.result()["scores"] == [11, 0]
    assert [e["type"] for e in events[-4:]] == ["play", "trick", "hand_end", "new_hand"]
    assert events[-2] == {
        "type": "hand_end",
        "result": {"hand": 1, "dealer": 3, "thirds": [35, 0], "points": [11, 0], "last_trick": 0,
                   "tricks": [10, 0]},
        "scores": [11, 0],
    }
    view = state.view(2)
    assert view["totals"] == [11, 0] and view["hand_number"] == 2 and view["played"] == []
    assert view["last_hand"]["points"] == [11, 0]


E2_PLAY = [
    # (seat 0, seat 1, seat 2, seat 3) for tricks 1..9, seat 0 leading and winning each
    ("3d", "2c", "4d", "2b"), ("2d", "Ac", "2s", "3b"), ("Ad", "Rc", "As", "Rb"),
    ("Rd", "Cc", "Rs", "Cb"), ("Cd", "Fc", "Cs", "Fb"), ("Fd", "7c", "Fs", "7b"),
    ("7d", "6c", "7s", "6b"), ("6d", "5c", "6s", "5b"), ("5d", "4s", "5s", "4b"),
]


@pytest.mark.parametrize(("variant", "winner"), [("vincere", 0), ("perdere", 1)])
def test_e2_thirds_and_rounding(variant, winner):
    options = {"variant": variant, "mode": "hands", "hands": 1, "dealer": 3}
    state = ENGINE.new_game(4, options=options, seed=1, deck=deck4(E2_HANDS))
    for cards in E2_PLAY:
        assert state.to_act == [0]
        for seat, card in enumerate(cards):
            play(state, seat, card)
    assert state.view(1)["hand"] == ["3c"] and state.view(2)["hand"] == ["3s"]
    assert state.view(3)["hand"] == ["Ab"]
    play(state, 0, "4c")
    assert state.legal_actions(1) == [{"type": "play", "card": "3c"}]
    play(state, 1, "3c")
    play(state, 2, "3s")
    events = play(state, 3, "Ab")
    assert events[1]["winner"] == 1
    assert state.is_over
    (hand,) = state.result()["hands"]
    assert hand["thirds"] == [27, 8] and hand["points"] == [9, 2] and hand["last_trick"] == 1
    assert state.result()["scores"] == [9, 2] and state.result()["winner"] == winner
    assert events[-1] == {"type": "match_end", "winner": winner, "scores": [9, 2]}


def test_e2_first_trick_forces_the_four_of_denari():
    state = ENGINE.new_game(4, options={"dealer": 3}, seed=1, deck=deck4(E2_HANDS))
    play(state, 0, "3d")
    play(state, 1, "2c")
    assert state.legal_actions(2) == [{"type": "play", "card": "4d"}]


def test_e4_two_players_with_stock():
    h0, h1 = suit("d"), suit("c")
    spade, bastoni = suit("s"), suit("b")
    stock = [card for pair in zip(spade, bastoni, strict=True) for card in pair]
    deck = deck2(h0, h1, stock)
    state = ENGINE.new_game(2, options={"dealer": 1, "mode": "hands", "hands": 1}, seed=1, deck=deck)
    assert state.to_act == [0]
    events = play(state, 0, "3d") + play(state, 1, "4c")
    assert deck[20] in state.view(0)["hand"] and deck[21] in state.view(1)["hand"]
    assert [e for e in events if e["type"] == "draw"] == [{"type": "draw", "seat": 0}, {"type": "draw", "seat": 1}]
    assert state.view(0)["stock_count"] == 18 and state.view(0)["hand_counts"] == [10, 10]
    tricks = 1
    while not state.is_over:
        assert state.to_act == [0]
        lead = state.legal_actions(0)[0]
        events = state.apply(0, lead)
        events += state.apply(1, state.legal_actions(1)[-1])
        tricks += 1
        draws = [e for e in events if e["type"] == "draw"]
        assert len(draws) == (2 if tricks <= 10 else 0)
        assert all(set(e) == {"type", "seat"} for e in draws)  # never the drawn card
        if tricks == 10:
            assert state.view(0)["stock_count"] == 0
            assert sorted(state.view(0)["hand"]) == sorted(spade)  # seat 0 drew every spade
            assert all(c[1] in "cb" for c in state.view(1)["hand"])
    assert tricks == 20
    (hand,) = state.result()["hands"]
    assert hand["points"] == [11, 0] and hand["thirds"] == [35, 0] and hand["tricks"] == [20, 0]


@pytest.mark.parametrize(("thirds", "points"), [([16, 19], [5, 6]), ([17, 18], [5, 6]), ([18, 17], [6, 5])])
def test_e5_rounding(thirds, points):
    assert hand_points(thirds) == points


def test_every_hand_holds_35_thirds_and_11_points():
    seen = set()
    for seed in range(30):
        for players in (2, 4):
            state = ENGINE.new_game(players, seed=seed)
            rng = random.Random(seed)
            while not state.is_over:
                seat = state.to_act[0]
                state.apply(seat, rng.choice(state.legal_actions(seat)))
            result = state.result()
            for hand in result["hands"]:
                assert sum(hand["thirds"]) == 35 and sum(hand["points"]) == 11
                assert hand["points"] == [t // 3 for t in hand["thirds"]]
                assert hand["last_trick"] in (0, 1)
                seen.add(tuple(hand["thirds"]))
            assert result["scores"] == [sum(h["points"][t] for h in result["hands"]) for t in (0, 1)]
            assert max(result["scores"]) >= 21 and result["scores"][0] != result["scores"][1]
            assert result["winner"] == result["scores"].index(max(result["scores"]))
    assert seen & {(16, 19), (17, 18), (18, 17)}  # the E5 roundings occur in play


# -- match modes and the tie play-off (D5, D6) -------------------------------------------


def with_totals(state, totals):
    data = state.to_json()
    data["totals"] = totals
    return ENGINE.from_json(json.loads(json.dumps(data)))


@pytest.mark.parametrize("variant", ["vincere", "perdere"])
def test_points_tie_at_target_is_played_off(variant):
    options = {"variant": variant, "target": 11, "dealer": 3}
    state = with_totals(ENGINE.new_game(4, options=options, seed=1, deck=deck4(E1_HANDS)), [0, 11])
    play_first_legal(state, 40)
    assert state.result()["scores"] == [11, 11]
    assert not state.is_over and state.view(None)["hand_number"] == 2
    play_first_legal(state, 40)
    assert state.is_over  # 11 more points cannot tie again
    a, b = state.result()["scores"]
    assert state.result()["winner"] == ((0 if a > b else 1) if variant == "vincere" else (1 if a > b else 0))


@pytest.mark.parametrize("variant", ["vincere", "perdere"])
def test_hands_mode_tie_plays_one_more_hand(variant):
    options = {"variant": variant, "mode": "hands", "hands": 1, "dealer": 3}
    state = with_totals(ENGINE.new_game(4, options=options, seed=1, deck=deck4(E1_HANDS)), [0, 11])
    play_first_legal(state, 40)
    assert not state.is_over and len(state.result()["hands"]) == 1
    play_first_legal(state, 40)
    assert state.is_over and len(state.result()["hands"]) == 2


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("hands", [1, 3, 5])
def test_hands_mode_plays_exactly_the_hands(players, hands):
    # an odd number of 11-point hands can never tie
    state = ENGINE.new_game(players, options={"mode": "hands", "hands": hands}, seed=hands)
    rng = random.Random(1)
    while not state.is_over:
        seat = state.to_act[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert len(state.result()["hands"]) == hands
    assert [h["dealer"] for h in state.result()["hands"]] == [
        (state.options["dealer"] + k) % players for k in range(hands)]


@pytest.mark.parametrize("target", [11, 21, 31, 41])
def test_points_mode_ends_at_target_perdere_reacher_loses(target):
    for seed in range(4):
        state = ENGINE.new_game(2, options={"variant": "perdere", "target": target}, seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            seat = state.to_act[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        scores = state.result()["scores"]
        before = [scores[t] - state.result()["hands"][-1]["points"][t] for t in (0, 1)]
        assert max(scores) >= target and (max(before) < target or before[0] == before[1])
        assert state.result()["winner"] == scores.index(min(scores))


# -- actions and messages -----------------------------------------------------------------


def refused(state, seat, action, *words):
    before = state.to_json()
    with pytest.raises(IllegalAction) as info:
        state.apply(seat, action)
    message = str(info.value)
    for word in words:
        assert word in message, message
    assert same_json(state.to_json(), before)
    return message


def test_illegal_actions_have_readable_messages():
    state = ENGINE.new_game(4, options={"dealer": 3}, seed=1, deck=deck4(E3_HANDS))
    refused(state, 1, {"type": "play", "card": "2d"}, "not seat 1's turn")
    refused(state, 0, {"type": "play", "card": "3d"}, "do not hold", "3 di denari")
    refused(state, 0, {"type": "play", "card": "Zz"}, "not a card")
    refused(state, 0, {"type": "play", "card": 7}, "not a card")
    refused(state, 0, {"type": "play"}, "needs the 'card'")
    refused(state, 0, {"type": "play", "card": "Ad", "x": 1}, "unexpected: x")
    refused(state, 0, {"card": "Ad"}, "needs a 'type'")
    refused(state, 0, {"type": "discard", "card": "Ad"}, "Unknown move type")
    refused(state, 0, ["play", "Ad"], "JSON object")
    refused(state, 7, {"type": "play", "card": "Ad"}, "no seat 7")
    play(state, 0, "Ad")
    message = refused(state, 1, {"type": "play", "card": "Ac"}, "must follow suit", "denari")
    assert "Asso di coppe" in message


def test_nothing_after_the_match():
    state = ENGINE.new_game(4, options={"target": 11, "dealer": 3}, seed=1, deck=deck4(E1_HANDS))
    play_first_legal(state, 40)
    assert state.is_over
    refused(state, 0, {"type": "play", "card": "3d"}, "over")


# -- view, hidden cards, events, JSON ---------------------------------------------------


def test_view_contents_and_privacy():
    stock = [card for pair in zip(suit("s"), suit("b"), strict=True) for card in pair]
    state = ENGINE.new_game(2, options={"dealer": 1}, seed=1, deck=deck2(suit("d"), suit("c"), stock))
    play(state, 0, "Ad")
    view = state.view(1)
    for key in ("phase", "dealer", "hand", "hand_counts", "stock_count", "trick", "last_trick",
                "to_act", "totals", "played", "tricks_taken"):
        assert key in view
    assert view["trick"] == [{"seat": 0, "card": "Ad"}] and view["to_act"] == [1]
    assert view["hand"] == sorted(suit("c"), key=italian_deck().index)
    text = json.dumps(view)
    assert all(c not in text for c in suit("s") + suit("b"))  # stock
    assert all(c not in json.dumps(state.view(0)["hand"]) for c in suit("c"))
    play(state, 1, "4c")
    # after the draw: seat 0 drew 3s, seat 1 drew 3b; neither sees the other's
    assert "3s" in state.view(0)["hand"] and "3s" not in json.dumps(state.view(1))
    assert "3b" in state.view(1)["hand"] and "3b" not in json.dumps(state.view(0))
    spectator = state.view(None)
    assert spectator["hand"] == [] and "3s" not in json.dumps(spectator)
    assert spectator["hand_counts"] == [10, 10] and spectator["stock_count"] == 18
    assert set(state.hidden_from(None)) == set(italian_deck()) - {"Ad", "4c"}
    assert "3s" not in state.hidden_from(0) and "3s" in state.hidden_from(1)


def test_view_never_shows_current_hand_points():
    state = ENGINE.new_game(4, options={"dealer": 3}, seed=1, deck=deck4(E3_HANDS))
    play_first_legal(state, 4)
    view = state.view(0)
    assert not {"thirds", "points", "taken", "captured"} & set(view)
    assert view["totals"] == [0, 0] and view["last_hand"] is None


def test_json_round_trip_mid_hand_and_between_hands():
    state = ENGINE.new_game(2, seed=9)
    rng = random.Random(2)
    steps = 0
    while not state.is_over:
        if steps % 13 == 0:
            data = json.loads(json.dumps(state.to_json()))
            restored = ENGINE.from_json(data)
            assert same_json(restored.to_json(), data)
            assert same_json(restored.view(0), state.view(0))
        seat = state.to_act[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        steps += 1
    assert same_json(ENGINE.from_json(state.to_json()).result(), state.result())
    with pytest.raises(ValueError):
        ENGINE.from_json({"game": "scopa"})


def test_events_are_public():
    state = ENGINE.new_game(2, seed=4)
    rng = random.Random(4)
    while not state.is_over:
        seat = state.to_act[0]
        action = rng.choice(state.legal_actions(seat))
        hands_before = [list(h) for h in state.hands]
        hand_number = state.view(None)["hand_number"]
        events = state.apply(seat, action)
        if state.is_over or state.view(None)["hand_number"] != hand_number:
            continue  # a new deal, not a draw
        drawn = [c for s in (0, 1) for c in state.hands[s] if c not in hands_before[s]]
        text = json.dumps(events)
        assert all(c not in text for c in drawn)


# -- robot ----------------------------------------------------------------------------------


def robot_view(hand, trick=(), played=(), seat=0, players=4, variant="vincere"):
    return {
        "seat": seat, "players": players, "hand": list(hand), "variant": variant,
        "trick": [{"seat": s, "card": c} for s, c in trick], "played": list(played),
    }


def robot(view, legal_cards=None):
    cards = view["hand"] if legal_cards is None else legal_cards
    legal = [{"type": "play", "card": c} for c in cards]
    action = ENGINE.robot_choice(view, legal, random.Random(0))
    assert action in legal
    return action["card"]


def test_robot_vincere_leads_a_sure_winner():
    # 2d is a sure winner once 3d is played; the most valuable sure card first
    assert robot(robot_view(["2d", "4c", "Ab"], played=["3d"])) == "2d"
    assert robot(robot_view(["3c", "2c", "Ac", "4d"])) == "Ac"  # A is safe: 3 and 2 are in hand


def test_robot_vincere_leads_low_from_the_longest_suit():
    assert robot(robot_view(["Ad", "Rc", "6c", "4c", "Fb"])) == "4c"


def test_robot_vincere_loads_a_partner_safe_trick():
    # seat 2's partner 0 wins with the 3: give the Asso
    view = robot_view(["Ad", "Fd", "4d", "3c"], trick=[(0, "3d"), (1, "5d")], seat=2)
    assert robot(view, ["Ad", "Fd", "4d"]) == "Ad"
    # last to play, partner winning with a Re: safe too; void: the most valuable card
    view = robot_view(["Ac", "4b"], trick=[(1, "6d"), (2, "Rd"), (3, "5d")], seat=0)
    assert robot(view) == "Ac"


def test_robot_vincere_partner_two_is_safe_only_without_a_three_out():
    # partner (seat 0) wins with 2d; seat 2 plays third, seat 3 still to play
    hand = ["Ad", "Fd", "4d"]
    trick = [(0, "2d"), (1, "5d")]
    assert robot(robot_view(hand, trick=trick, seat=2, played=["3d"])) == "Ad"  # the 3 is gone
    assert robot(robot_view(hand, trick=trick, seat=2)) == "4d"  # the 3 may come: keep the Asso


def test_robot_vincere_wins_cheaply_or_plays_the_cheapest():
    view = robot_view(["3d", "2d", "Ad", "4d"], trick=[(1, "Rd")], seat=0, players=2)
    assert robot(view) == "Ad"  # the weakest card that beats the Re
    view = robot_view(["Fd", "4d", "Cd"], trick=[(1, "Rd")], seat=0, players=2)
    assert robot(view) == "4d"  # cannot win: least valuable
    view = robot_view(["Ac", "Fb", "5s"], trick=[(1, "Rd")], seat=0, players=2)
    assert robot(view) == "5s"


def test_robot_perdere():
    view = robot_view(["3d", "Ac", "5s", "Fb"], variant="perdere")
    assert robot(view) == "5s"  # the lowest card
    view = robot_view(["3d", "Cd", "6d", "4d"], trick=[(1, "Rd")], players=2, variant="perdere")
    assert robot(view, ["3d", "Cd", "6d", "4d"]) == "Cd"  # highest that still loses
    view = robot_view(["Ac", "Rb", "4s"], trick=[(1, "Rd")], players=2, variant="perdere")
    assert robot(view) == "Ac"  # void: shed the Asso
    view = robot_view(["3d", "2d"], trick=[(1, "4d")], players=2, variant="perdere")
    assert robot(view) == "3d"  # last and must win: dump the strongest


def test_robot_uses_only_the_view():
    state = ENGINE.new_game(4, seed=3)
    view = state.view(state.to_act[0])
    assert set(view["hand"]) == {a["card"] for a in state.legal_actions(state.to_act[0])}
    action = ENGINE.bot_action(state, state.to_act[0], random.Random(1))
    assert action in state.legal_actions(state.to_act[0])


def robot_win_rate(players: int, variant: str, matches: int) -> float:
    wins = 0
    for i in range(matches):
        robot_team = i % 2  # the robot takes each side in turn
        rng = random.Random(1000 + i)
        state = ENGINE.new_game(players, options={"variant": variant}, seed=1000 + i)
        while not state.is_over:
            seat = state.to_act[0]
            if seat % 2 == robot_team:
                action = ENGINE.bot_action(state, seat, rng)
            else:
                action = rng.choice(state.legal_actions(seat))
            state.apply(seat, action)
        wins += state.result()["winner"] == robot_team
    return wins / matches


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("variant", ["vincere", "perdere"])
def test_robot_beats_uniform_random(players, variant):
    rate = robot_win_rate(players, variant, 200)
    print(f"tresette {players}p {variant}: robot wins {rate:.1%} of 200 matches vs random")
    assert rate >= 0.8
