"""Spades: the worked examples, rules, options and robot of shared/spec/games/spades.md."""

from __future__ import annotations

import random

import pytest

from apps.games.engines import IllegalAction, get_engine
from apps.games.engines.base import same_json
from apps.games.engines.spades import robot_bid, score_team

from . import french_helpers as french
from .french_helpers import CANON, acts, deck_for, legal_cards, play, position_data, stacked, suit

ENGINE = get_engine("spades")
ALL_SPADES = deck_for([suit("s"), suit("h"), suit("d"), suit("c")])  # E2, E3, E4


def new(deck=ALL_SPADES, options=None, seed=1, dealer=3):
    return stacked(ENGINE, deck, options, seed, dealer)


def bid(state, seat, n):
    return state.apply(seat, {"type": "bid", "bid": n})


def bid_all(state, bids):
    first = state.to_act[0]
    for k in range(4):
        seat = (first + k) % 4
        bid(state, seat, bids[seat])


def play_out_hand(state, rng):
    """Random legal cards until the hand is scored; returns the hand_over event."""
    while True:
        seat = state.to_act[0]
        for event in state.apply(seat, rng.choice(state.legal_actions(seat))):
            if event["type"] == "hand_over":
                return event


# -- identity, options, deal ---------------------------------------------------------


def test_identity_options_and_player_count():
    assert (ENGINE.id, ENGINE.name, ENGINE.min_players, ENGINE.max_players) == ("spades", "Spades", 4, 4)
    french.check_four_seats_and_deck(ENGINE, bad_deck=ALL_SPADES[:51] + ["As"])
    assert ENGINE.options == {
        "target": {"default": 500, "choices": [200, 300, 500]},
        "dealer": {"default": None, "min": 0, "max": 3},
    }
    for bad in ({"target": 400}, {"target": "500"}, {"dealer": -1}, {"nil": False}):
        with pytest.raises(ValueError):
            ENGINE.new_game(4, options=bad, seed=1)
    assert new().teams == [[0, 2], [1, 3]]


def test_seeded_deals_are_the_kits_shuffles():
    """Bids of 1 (``legal[1]``), random cards."""
    french.check_seeded_deals(
        ENGINE, lambda legal, rng: legal[1] if legal[0]["type"] == "bid" else rng.choice(legal)
    )


def test_legal_actions_are_fresh_objects():
    french.check_legal_actions_are_fresh(ENGINE)


def test_deal_dealer_bidding_order_and_next_hand():
    for dealer, state in enumerate(french.check_deal_order_and_seeds(ENGINE, seed=2, twin_seed=9)):
        assert state.to_act == [(dealer + 1) % 4] and state.view(None)["phase"] == "bid"
    state = new()
    bid_all(state, [1, 1, 1, 1])
    events = play_out_hand(state, random.Random(0))
    assert events["tricks"] == [13, 0, 0, 0]
    view = state.view(None)
    assert view["dealer"] == 0 and view["hand_number"] == 2 and state.to_act == [1]
    assert view["bids"] == [None] * 4 and view["tricks"] == [0, 0, 0, 0]


# -- bidding -----------------------------------------------------------------------------


def test_bidding_once_each_public_and_validated():
    state = new()
    assert state.to_act == [0]
    assert state.legal_actions(0) == [{"type": "bid", "bid": b} for b in range(14)]
    assert state.legal_actions(1) == [] and state.legal_actions(None) == []
    before = state.to_json()
    cases = [
        ({"type": "bid", "bid": 14}, "0 \\(Nil\\) to 13"),
        ({"type": "bid", "bid": -1}, "0 \\(Nil\\) to 13"),
        ({"type": "bid", "bid": "3"}, "0 \\(Nil\\) to 13"),
        ({"type": "bid", "bid": 2.5}, "0 \\(Nil\\) to 13"),
        ({"type": "bid", "bid": True}, "0 \\(Nil\\) to 13"),
        ({"type": "bid"}, "exactly the keys"),
        ({"type": "bid", "bid": 3, "x": 1}, "exactly the keys"),
        ({"type": "play", "card": "As"}, "Now you bid"),
        ({"type": "pass"}, "Now you bid"),
    ]
    for action, words in cases:
        with pytest.raises(IllegalAction, match=words):
            state.apply(0, action)
        assert same_json(state.to_json(), before)
    with pytest.raises(IllegalAction, match="turn"):
        bid(state, 1, 3)
    for bad in ([], None, "bid"):
        with pytest.raises(IllegalAction):
            state.apply(0, bad)
    assert bid(state, 0, 4) == [{"type": "bid", "seat": 0, "bid": 4}]
    assert state.view(2)["bids"] == [4, None, None, None]
    bid(state, 1, 0)
    bid(state, 2, 13)
    events = bid(state, 3, 2)
    assert events[-1] == {"type": "bidding_over", "bids": [4, 0, 13, 2], "leader": 0}
    assert state.view(None)["phase"] == "play" and state.to_act == [0]
    with pytest.raises(IllegalAction, match="play a card"):
        bid(state, 0, 3)


# -- worked examples -----------------------------------------------------------------------


@pytest.mark.parametrize(("tricks", "score", "bags", "delta"), [(7, 389, 9, 52), (8, 290, 0, -47), (9, 291, 1, -46)])
def test_e1_the_seeds_bag_example(tricks, score, bags, delta):
    assert score_team([3, 2], [tricks, 0], 337, 7) == (delta, score, bags)
    assert score_team([5, 0], [tricks, 0], 337, 7)[1] == score + 100  # a made Nil adds 100


def e1_deck(k: int) -> list[str]:
    """Team 0 takes exactly ``k`` tricks (7..9) whatever is played.

    Seat 0: the top k spades and the 13-k lowest clubs; seat 3: the k highest clubs and
    the 13-k lowest spades. Seat 3 wins the club tricks while seat 0 can follow; then
    seat 0 trumps and draws every remaining trick with its higher spades.
    """
    spades, clubs = suit("s"), suit("c")
    return deck_for([
        spades[13 - k:] + clubs[:13 - k],
        suit("h"),
        suit("d"),
        clubs[13 - k:] + spades[:13 - k],
    ])


@pytest.mark.parametrize(("tricks", "score", "bags"), [(7, 389, 9), (8, 290, 0), (9, 291, 1)])
def test_e1_in_play(tricks, score, bags):
    for seed in range(3):
        state = new(deck=e1_deck(tricks), seed=seed)
        data = state.to_json()
        data["scores"], data["bags"] = [337, 0], [7, 0]
        state = ENGINE.from_json(data)
        bid_all(state, [3, 1, 2, 1])  # team 0 bids 5
        over = play_out_hand(state, random.Random(seed))
        assert over["tricks"][0] + over["tricks"][2] == tricks
        assert over["scores"][0] == score and over["bags"][0] == bags
        record = state.result()["hands"][0]
        assert record["scores"][0] == score and record["bags"][0] == bags
        assert state.view(None)["scores"][0] == score and state.view(None)["bags"][0] == bags


def test_e2_bag_penalty_inside_one_hand():
    state = new()
    bid_all(state, [1, 3, 1, 2])
    assert legal_cards(state, 0) == suit("s")  # only spades: it may lead one
    over = play_out_hand(state, random.Random(1))
    assert over["tricks"] == [13, 0, 0, 0]
    assert over["scores"] == [-69, -50] and over["bags"] == [1, 0]
    assert over["delta"] == [-69, -50]
    assert not state.is_over
    record = state.result()["hands"][0]
    assert record == {"hand": 1, "dealer": 3, "bids": [1, 3, 1, 2], "tricks": [13, 0, 0, 0],
                      "delta": [-69, -50], "scores": [-69, -50], "bags": [1, 0]}


def test_e3_two_successful_nils():
    state = new()
    bid_all(state, [1, 0, 0, 2])
    over = play_out_hand(state, random.Random(2))
    assert over["scores"] == [22, 80] and over["bags"] == [2, 0]
    assert state.view(0)["scores"] == [22, 80] and state.view(0)["bags"] == [2, 0]


def test_e4_failed_nil_and_the_minus_200_rule():
    state = new()
    bid_all(state, [0, 1, 2, 1])
    over = play_out_hand(state, random.Random(3))
    assert over["scores"] == [-207, -20] and over["bags"] == [3, 0]
    assert state.is_over and state.result()["winner"] == 1 and state.to_act == []
    assert state.result()["scores"] == [-207, -20]
    assert state.legal_actions(0) == [] and state.view(None)["phase"] == "over"
    with pytest.raises(IllegalAction, match="over"):
        bid(state, 0, 1)


def test_e5_spade_leads():
    deck = deck_for([
        suit("c")[:12] + ["As"],
        suit("h"),
        suit("s")[:12] + ["Ad"],
        ["Ac"] + suit("d")[:12],
    ])
    state = new(deck=deck)
    bid_all(state, [2, 2, 2, 2])
    assert legal_cards(state, 0) == suit("c")[:12]
    with pytest.raises(IllegalAction, match="first trick cannot be led with a spade"):
        play(state, 0, "As")
    play(state, 0, "2c")
    play(state, 1, "7h")
    play(state, 2, "2s")
    assert legal_cards(state, 3) == ["Ac"]
    with pytest.raises(IllegalAction, match="follow suit"):
        play(state, 3, "2d")
    events = play(state, 3, "Ac")
    assert {"type": "trick", "winner": 2} in events
    assert state.view(None)["spades_broken"] is True
    assert state.to_act == [2] and len(legal_cards(state, 2)) == 12


# -- trick rules, match end ------------------------------------------------------------------


def position(hands, turn, bids=(1, 1, 1, 1), tricks_done=1, broken=False, scores=(0, 0), bags=(0, 0)):
    """A play-phase position with these hands; the other cards sit in seat 0's won pile."""
    data, _ = position_data(new(), hands, turn, tricks_done, "spades_broken", broken)
    data.update({
        "bids": list(bids), "tricks": [tricks_done, 0, 0, 0], "scores": list(scores), "bags": list(bags),
    })
    return ENGINE.from_json(data)


def test_spades_not_led_until_broken_and_trumping_is_optional():
    hands = [suit("c")[:6] + suit("s")[:6], suit("c")[6:12] + suit("d")[:6],
             suit("d")[6:12] + suit("h")[:6], suit("h")[6:12] + suit("s")[6:12]]
    state = position(hands, turn=0)
    assert legal_cards(state, 0) == suit("c")[:6]
    with pytest.raises(IllegalAction, match="Spades are not broken"):
        play(state, 0, "2s")
    play(state, 0, "2c")
    play(state, 1, "8c")
    assert len(state.legal_actions(2)) == 12  # void in clubs: trumping is allowed, not compulsory
    play(state, 2, "8d")
    play(state, 3, "8s")  # the highest spade wins
    assert state.to_act == [3] and state.view(None)["spades_broken"] is True
    assert state.view(None)["tricks"] == [1, 0, 0, 1]
    assert len(state.legal_actions(3)) == 11  # broken: spades may be led
    # the highest spade among several wins; a higher off-suit card does not
    state = position(hands, turn=0, broken=True)
    play(state, 0, "3s")
    play(state, 1, "Kc")
    play(state, 2, "Kd")
    events = play(state, 3, "9s")
    assert {"type": "trick", "winner": 3} in events


def test_nil_partner_tricks_do_not_count_and_make_bags():
    # seat 0 Nil fails with 2 tricks, seat 2 bids 3 and takes 3
    assert score_team([0, 3], [2, 3], 0, 0) == (-100 + 2 + 30, -68, 2)
    # failed contract: no bags, but the failed Nil's tricks still are bags (D5)
    assert score_team([0, 5], [3, 2], 0, 0) == (-100 + 3 - 50, -147, 3)
    # two Nils: no contract at all
    assert score_team([0, 0], [0, 0], 10, 9) == (200, 210, 9)
    # 9 + 12 bags: two penalties in one hand, one bag carried over
    assert score_team([1, 0], [13, 0], 0, 9) == (-78, 10 + 12 + 100 - 200, 1)


def test_match_end_both_over_target_equal_scores_and_targets():
    # both teams cross 500 in the same hand: the higher score wins, not the first
    state = position([suit("s")[1:], suit("h")[1:], suit("d")[1:], suit("c")[1:]], turn=0,
                     bids=(7, 0, 6, 0), scores=(490, 495))
    over = play_out_hand(state, random.Random(0))
    assert over["scores"] == [490 + 130, 495 + 200]
    assert state.is_over and state.result()["winner"] == 1
    # equal scores: another hand, even above the target
    state = position([suit("s")[1:], suit("h")[1:], suit("d")[1:], suit("c")[1:]], turn=0,
                     bids=(7, 0, 6, 0), scores=(400, 330))
    over = play_out_hand(state, random.Random(0))
    assert over["scores"] == [530, 530] and not state.is_over
    # a single team reaching the target wins; target 200 is an option
    state = position([suit("s")[1:], suit("h")[1:], suit("d")[1:], suit("c")[1:]], turn=0,
                     bids=(7, 1, 6, 1), scores=(100, 150))
    state = ENGINE.from_json({**state.to_json(), "options": {"target": 200, "dealer": 3}})
    over = play_out_hand(state, random.Random(0))
    assert over["scores"] == [230, 130] and state.is_over and state.result()["winner"] == 0
    # both at or below -200: the higher score wins
    state = position([suit("s")[1:], suit("h")[1:], suit("d")[1:], suit("c")[1:]], turn=0,
                     bids=(0, 5, 0, 5), scores=(-150, -150))
    over = play_out_hand(state, random.Random(0))
    assert over["scores"] == [-150 - 100 + 13 + 100 - 100, -250]
    assert state.is_over and state.result()["winner"] == 0


def test_random_matches_end_and_records_add_up():
    for seed in range(6):
        state = ENGINE.new_game(4, options={"target": 200}, seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            seat = state.to_act[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        result = state.result()
        scores = result["scores"]
        assert scores[0] != scores[1] and result["winner"] == (0 if scores[0] > scores[1] else 1)
        assert max(scores) >= 200 or min(scores) <= -200
        running = [0, 0]
        for hand in result["hands"]:
            assert sum(hand["tricks"]) == 13 and all(0 <= b <= 9 for b in hand["bags"])
            running = [a + d for a, d in zip(running, hand["delta"], strict=True)]
            assert hand["scores"] == running


def test_apply_accepts_exactly_the_legal_cards():
    french.check_apply_accepts_exactly_the_legal_cards(ENGINE, rng_seed=4, steps=120, random_seat=False)


def test_views_hide_the_partner_hand():
    state = new()
    view = state.view(0)
    for key in ("phase", "dealer", "hand", "hand_counts", "bids", "tricks", "trick", "last_trick",
                "spades_broken", "scores", "bags", "to_act"):
        assert key in view
    assert view["hand"] == suit("s")
    assert not any(c in str(state.view(2)) for c in suit("s"))
    assert state.view(None)["hand"] == [] and not any(c in str(state.view(None)) for c in CANON)
    assert sorted(state.hidden_from(0)) == sorted(suit("h") + suit("d") + suit("c"))


# -- robot -------------------------------------------------------------------------------


def test_robot_bid_estimate():
    # non-spade A = 1, K with another card 0.8, Q with two others 0.3, spade Q/K/A 1 each,
    # every spade beyond the third 1; rounded, at least 1
    assert robot_bid(["Ah", "Kd", "2d", "Qc", "3c", "4c", "2s", "3s", "5h", "6h", "7h", "8h", "9h"]) == 2
    assert robot_bid(["As", "Ks", "Qs", "2s", "3s", "Ah", "Ad", "Ac", "2h", "3h", "4h", "5h", "6h"]) == 8
    assert robot_bid(["2h", "3h", "4h", "5h", "2d", "3d", "4d", "5d", "2c", "3c", "4c", "5c", "6c"]) == 1
    assert robot_bid(["Kh", "2d", "3d", "4d", "5d", "6d", "2c", "3c", "4c", "5c", "6c", "7c", "8c"]) == 1
    assert robot_bid(suit("s")) == 13
    state = new()
    action = ENGINE.robot_choice(state.view(0), state.legal_actions(0), random.Random(0))
    assert action == {"type": "bid", "bid": 13}


def fake_view(seat, trick):
    return {"seat": seat, "hand": [], "trick": [{"seat": s, "card": c} for s, c in trick]}


def robot(view, legal):
    return ENGINE.robot_choice(view, legal, random.Random(0))["card"]


def test_robot_play_rules():
    # lead: a non-spade ace, else the lowest card, non-spades first
    assert robot(fake_view(0, []), acts(["2c", "Ad", "As"])) == "Ad"
    assert robot(fake_view(0, []), acts(["2s", "5c", "3d"])) == "3d"
    assert robot(fake_view(0, []), acts(["4s", "2s"])) == "2s"
    # partner winning with A or K: play low
    assert robot(fake_view(2, [(0, "Kd"), (1, "5d")]), acts(["2d", "Ad"])) == "2d"
    # partner winning and the robot plays last: play low
    assert robot(fake_view(3, [(0, "8d"), (1, "9d"), (2, "2d")]), acts(["Td", "3d"])) == "3d"
    # partner winning with a low card, robot not last: take over cheaply
    assert robot(fake_view(2, [(0, "9d"), (1, "2d")]), acts(["Td", "3d"])) == "Td"
    # otherwise win with the cheapest winning card, non-spades before spades
    assert robot(fake_view(1, [(0, "9d")]), acts(["2d", "Td", "Ad"])) == "Td"
    assert robot(fake_view(1, [(0, "9d")]), acts(["2h", "5s", "3s"])) == "3s"
    assert robot(fake_view(2, [(0, "9d"), (1, "4s")]), acts(["2h", "3s", "5s"])) == "5s"
    # cannot win: the lowest card, non-spades first
    assert robot(fake_view(1, [(0, "Ad")]), acts(["2d", "Td"])) == "2d"
    assert robot(fake_view(2, [(0, "9d"), (1, "As")]), acts(["2s", "3h"])) == "3h"


def test_robot_beats_uniform_random():
    """Two robot partners against two random players win nearly every match."""
    matches = 300
    rate = french.robot_win_rate(ENGINE, matches, first_seed=7000, random_seat=False)
    print(f"spades robots vs 2 random: {rate:.3f} over {matches} matches")
    assert rate >= 0.95


def test_the_view_gives_the_losing_floor_beside_the_target():
    """The table prints "a team at −200 or below loses" from the view, not from a literal."""
    state = ENGINE.new_game(4, options={"target": 300}, seed=3)
    for seat in (None, 0, 2):
        view = state.view(seat)
        assert view["target"] == 300 and view["floor"] == -200
