"""Bestia (shared/spec/games/bestia.md): worked examples, rules, options, units, robot."""

from __future__ import annotations

import random

import pytest

from apps.games.engines import IllegalAction, get_engine
from apps.games.engines import cards as kit_cards
from apps.games.engines.base import same_json
from apps.games.engines.bestia import STRENGTH, beats

ENGINE = get_engine("bestia")
FULL = kit_cards.italian_deck()

KNOCK = {"type": "knock"}
PASS = {"type": "pass"}
KEEP = {"type": "keep"}
BUIO = {"type": "buio"}


def play(card: str) -> dict:
    return {"type": "play", "card": card}


def stacked(n: int, dealer: int, hands: dict[int, list[str]], trump: str, stock: list[str] = ()) -> list[str]:
    """A full deck that deals ``hands`` (seat -> 3 cards), turns up ``trump``, then ``stock``.

    Rules §4: ``deck[i]`` (i < 3n) goes to seat ``(dealer + 1 + i) % n``.
    """
    front = []
    for i in range(3 * n):
        seat = (dealer + 1 + i) % n
        front.append(hands[seat][i // n])
    front.append(trump)
    front.extend(stock)
    rest = [c for c in FULL if c not in front]
    deck = front + rest
    assert sorted(deck) == sorted(FULL)
    return deck


def restack(state, deck: list[str]):
    """Replace the deal of the hand that has just started (tests of later hands only)."""
    data = state.to_json()
    assert data["phase"] == "declare" and all(d is None for d in data["declared"])
    n, dealer = data["players"], data["dealer"]
    hands = [[] for _ in range(n)]
    for i in range(3 * n):
        hands[(dealer + 1 + i) % n].append(deck[i])
    data["hands"], data["trump_card"], data["stock"] = hands, deck[3 * n], deck[3 * n + 1:]
    return ENGINE.from_json(data)


def act(state, seat: int, action: dict) -> list[dict]:
    assert state.to_act == [seat], f"expected seat {seat} to act, not {state.to_act}"
    return state.apply(seat, action)


def refused(state, seat, action, *words: str) -> str:
    before = state.to_json()
    with pytest.raises(IllegalAction) as err:
        state.apply(seat, action)
    message = str(err.value)
    assert message.strip() and message[0].isupper(), message
    for word in words:
        assert word.lower() in message.lower(), f"{word!r} not in {message!r}"
    assert same_json(state.to_json(), before), "a refused action changed the state"
    return message


def random_match(n: int, seed: int, options: dict | None = None, robots=()):
    rng = random.Random(seed)
    state = ENGINE.new_game(n, options=options, seed=seed)
    while not state.is_over:
        seat = state.to_act[0]
        if seat in robots:
            action = ENGINE.bot_action(state, seat, rng)
        else:
            action = rng.choice(state.legal_actions(seat))
        state.apply(seat, action)
    return state


# -- §10 worked examples --------------------------------------------------------------


E1_DECK = stacked(3, 2, {0: ["Ab", "3b", "Rb"], 1: ["Ad", "2d", "4c"], 2: ["3d", "5c", "6s"]}, "4b")


@pytest.mark.parametrize("rng_seed", range(6))
def test_e1_two_players_go_to_the_bestia(rng_seed):
    rng = random.Random(rng_seed)
    state = ENGINE.new_game(3, options={"rounds": 1, "dealer": 2}, seed=1, deck=E1_DECK)
    assert state.view(0)["hand"] == ["Ab", "3b", "Rb"]
    assert state.view(1)["hand"] == ["Ad", "2d", "4c"]
    assert state.view(2)["hand"] == ["3d", "5c", "6s"]
    assert state.view(None)["trump_card"] == "4b"
    for seat in (0, 1, 2):
        act(state, seat, KNOCK)
    for seat in (0, 1, 2):
        act(state, seat, KEEP)
    for lead in ("Ab", "3b", "Rb"):
        act(state, 0, play(lead))
        for seat in (1, 2):  # whatever the others play: they hold no bastoni
            act(state, seat, rng.choice(state.legal_actions(seat)))
    hand = state.result()["hands"][0]
    assert hand["tricks"] == [3, 0, 0]
    assert hand["bestia"] == [1, 2]
    assert hand["net"] == [3, -3, -6]
    assert hand["pot"] == 3 and hand["dealer"] == 2 and hand["active"] == [0, 1, 2] and hand["buio"] == []
    assert state.result()["scores"] == [3, -3, -6]
    view = state.view(None)
    assert view["dealer"] == 0 and view["pot"] == 3 + 3 + 3 and view["phase"] == "declare"
    assert state.to_act == [1]


def test_e2_everybody_passes_to_the_dealer():
    state = ENGINE.new_game(3, options={"rounds": 1, "dealer": 2}, seed=2)
    act(state, 0, PASS)
    act(state, 1, PASS)
    assert state.legal_actions(2) == [KNOCK]
    refused(state, 2, PASS, "dealer", "knock")
    events = act(state, 2, KNOCK)
    assert {"type": "uncontested", "seat": 2, "pot": 3} in events
    hand = state.result()["hands"][0]
    assert hand["tricks"] == [0, 0, 3] and hand["net"] == [0, 0, 0] and hand["bestia"] == []
    assert hand["active"] == [2]
    assert state.view(None)["dealer"] == 0 and state.view(None)["pot"] == 3


def test_e3_a_lone_knock_takes_the_pot():
    state = ENGINE.new_game(3, options={"rounds": 1, "dealer": 2}, seed=3)
    act(state, 0, KNOCK)
    act(state, 1, PASS)
    assert state.legal_actions(2) == [KNOCK, PASS]
    act(state, 2, PASS)
    hand = state.result()["hands"][0]
    assert hand["net"] == [3, 0, -3] and hand["tricks"] == [3, 0, 0] and hand["bestia"] == []
    assert hand["active"] == [0]
    assert state.result()["scores"] == [3, 0, -3]
    # the next hand's pot is the bare ante and nobody played a card
    assert state.view(None)["pot"] == 3


def test_e4_buio_follow_suit_and_trumps():
    deck = ["2c", "6c", "Ad", "4c", "7c", "4d", "5c", "Fc", "Cs", "7b", "3d", "2b", "Rs"]
    deck += [c for c in FULL if c not in deck]
    state = ENGINE.new_game(3, options={"rounds": 1, "dealer": 2}, seed=4, deck=deck)
    assert state.view(0)["hand"] == ["2c", "4c", "5c"]
    assert state.view(1)["hand"] == ["6c", "7c", "Fc"]
    assert state.view(2)["hand"] == ["Ad", "4d", "Cs"]
    act(state, 0, PASS)
    act(state, 1, KNOCK)
    act(state, 2, KNOCK)
    assert state.view(None)["phase"] == "exchange"
    events = act(state, 1, BUIO)
    assert events == [{"type": "exchange", "seat": 1, "choice": "buio"}]
    assert state.view(1)["hand"] == ["3d", "2b", "Rs"]
    assert state.view(1)["put_away"] == ["6c", "7c", "Fc"]
    act(state, 2, KEEP)
    assert state.view(None)["phase"] == "play"
    # seat 1 leads: seat 0 passed
    act(state, 1, play("3d"))
    assert {a["card"] for a in state.legal_actions(2)} == {"Ad", "4d"}
    events = act(state, 2, play("Ad"))
    assert events[-1]["type"] == "trick" and events[-1]["winner"] == 2
    act(state, 2, play("Cs"))
    assert state.legal_actions(1) == [play("Rs")]
    events = act(state, 1, play("Rs"))
    assert events[-1]["winner"] == 1
    act(state, 1, play("2b"))
    assert state.legal_actions(2) == [play("4d")]
    events = act(state, 2, play("4d"))
    trick = next(e for e in events if e["type"] == "trick")
    assert trick["winner"] == 1
    hand = state.result()["hands"][0]
    assert hand["tricks"] == [0, 2, 1]
    assert hand["bestia"] == []
    assert hand["net"] == [0, 2, -2]
    assert hand["buio"] == [1] and hand["active"] == [1, 2] and hand["pot"] == 3


def test_e5_last_hand_shares_the_bestia_payments():
    """A=0, B=1, C=2, D=3 (dealer of the last hand, passes); the pot of the last hand is 9."""
    state = ENGINE.new_game(4, options={"rounds": 1, "dealer": 0, "buio": False}, seed=5)
    # hands 0 and 1: everybody passes to the dealer
    for dealer in (0, 1):
        for seat in [(dealer + 1 + i) % 4 for i in range(3)]:
            act(state, seat, PASS)
        act(state, dealer, KNOCK)
    # hand 2 (dealer 2): seat 3 takes every trick, seats 0 and 1 go to the Bestia
    assert state.view(None)["dealer"] == 2
    state = restack(state, stacked(4, 2, {
        3: ["Ab", "3b", "Rb"], 0: ["2d", "4d", "5d"], 1: ["2c", "4c", "5c"], 2: ["6d", "7d", "Fd"],
    }, "4b"))
    for seat, action in ((3, KNOCK), (0, KNOCK), (1, KNOCK), (2, PASS)):
        act(state, seat, action)
    for lead in ("Ab", "3b", "Rb"):
        act(state, 3, play(lead))
        act(state, 0, state.legal_actions(0)[0])
        act(state, 1, state.legal_actions(1)[0])
    hand2 = state.result()["hands"][2]
    assert hand2["bestia"] == [0, 1] and hand2["net"] == [-3, -3, -3, 3]
    assert sum(state.result()["scores"]) == -6
    # hand 3 (dealer 3), the last: pot 9
    assert state.view(None)["dealer"] == 3 and state.view(None)["pot"] == 9
    state = restack(state, stacked(4, 3, {
        0: ["Ab", "3b", "2c"], 1: ["Ac", "5d", "6d"], 2: ["4c", "7d", "Fs"], 3: ["2s", "4s", "5s"],
    }, "4b"))
    for seat, action in ((0, KNOCK), (1, KNOCK), (2, KNOCK), (3, PASS)):
        act(state, seat, action)
    for cards_ in (("Ab", "5d", "7d"), ("3b", "6d", "Fs"), ("2c", "Ac", "4c")):
        for seat, card in zip((0, 1, 2), cards_, strict=True):
            act(state, seat, play(card))
    assert state.is_over
    last = state.result()["hands"][3]
    assert last["pot"] == 9 and last["tricks"] == [2, 1, 0, 0] and last["bestia"] == [2]
    assert last["net"] == [12, 6, -9, -3]
    assert sum(last["net"]) == 6
    result = state.result()
    assert result["scores"] == [9, 3, -12, 0] and sum(result["scores"]) == 0
    assert result["winner"] == 0


# -- deal, seating, dealer ------------------------------------------------------------


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_deal_follows_the_deck_order(n):
    dealer = n - 2
    deck = list(reversed(FULL))
    state = ENGINE.new_game(n, options={"dealer": dealer}, seed=9, deck=deck)
    for i in range(3 * n):
        assert deck[i] in state.view((dealer + 1 + i) % n)["hand"]
    view = state.view(None)
    assert view["trump_card"] == deck[3 * n] and view["trump_suit"] == deck[3 * n][1]
    assert view["stock_count"] == 40 - 3 * n - 1
    assert view["hand_counts"] == [3] * n and view["hand"] == []
    assert state.to_act == [(dealer + 1) % n]
    assert state.teams == [[s] for s in range(n)]


def test_later_hands_use_seeded_shuffles_and_rotate_the_dealer():
    state = ENGINE.new_game(3, options={"dealer": 1, "rounds": 2}, seed=77, deck=list(FULL))
    dealers = []
    while not state.is_over:
        k = state.view(None)["hand_number"]
        dealers.append(state.view(None)["dealer"])
        if k > 0:
            expected = kit_cards.shuffled(kit_cards.italian_deck(), kit_cards.derive_rng(77, "hand", k))
            d = dealers[-1]
            assert state.view((d + 1) % 3)["hand"] == [expected[0], expected[3], expected[6]]
            assert state.view(None)["trump_card"] == expected[9]
        for seat in [(dealers[-1] + 1 + i) % 3 for i in range(2)]:
            act(state, seat, PASS)
        act(state, dealers[-1], KNOCK)
    assert dealers == [1, 2, 0, 1, 2, 0]
    assert len(state.result()["hands"]) == 6


def test_default_dealer_is_drawn_from_the_seed():
    dealers = {ENGINE.new_game(4, seed=s).view(None)["dealer"] for s in range(40)}
    assert dealers == {0, 1, 2, 3}
    for s in range(5):
        assert ENGINE.new_game(4, seed=s).view(None)["dealer"] == ENGINE.new_game(4, seed=s).view(None)["dealer"]


def test_seed_none_draws_a_seed():
    state = ENGINE.new_game(3)
    assert isinstance(state.to_json()["seed"], int)


@pytest.mark.parametrize("bad", [2, 7, 0, "3", 3.0, None])
def test_player_counts(bad):
    with pytest.raises(ValueError):
        ENGINE.new_game(bad, seed=1)


def test_engine_identity_and_options():
    assert ENGINE.id == "bestia" and ENGINE.name == "Bestia"
    assert (ENGINE.min_players, ENGINE.max_players, ENGINE.player_counts) == (3, 6, (3, 4, 5, 6))
    assert ENGINE.options["rounds"] == {"default": 1, "min": 1, "max": 10}
    assert ENGINE.options["buio"] == {"default": True, "choices": [True, False]}
    assert "dealer" in ENGINE.options
    assert sorted(ENGINE.deck(5)) == sorted(FULL)


@pytest.mark.parametrize("options", [
    {"rounds": 0}, {"rounds": 11}, {"rounds": "2"}, {"rounds": True}, {"buio": 1}, {"buio": "yes"},
    {"dealer": 3}, {"dealer": -1}, {"colour": "red"},
])
def test_bad_options_raise(options):
    with pytest.raises(ValueError):
        ENGINE.new_game(3, options=options, seed=1)


def test_bad_decks_raise():
    with pytest.raises(ValueError):
        ENGINE.new_game(3, seed=1, deck=FULL[:-1])
    with pytest.raises(ValueError):
        ENGINE.new_game(3, seed=1, deck=[*FULL[:-1], "Ah"])
    with pytest.raises(ValueError):
        ENGINE.new_game(3, seed=1, deck=[*FULL[:-1], FULL[0]])


@pytest.mark.parametrize(("n", "rounds"), [(3, 1), (4, 2), (6, 3)])
def test_rounds_sets_the_number_of_hands(n, rounds):
    state = ENGINE.new_game(n, options={"rounds": rounds}, seed=n)
    hands = 0
    while not state.is_over:
        dealer = state.view(None)["dealer"]
        for seat in [(dealer + 1 + i) % n for i in range(n - 1)]:
            act(state, seat, PASS)
        act(state, dealer, KNOCK)
        hands += 1
    assert hands == rounds * n == len(state.result()["hands"])
    assert state.result()["winner"] is None  # every hand went to a lone dealer: all balances 0
    assert state.result()["scores"] == [0] * n


# -- declarations, buio, play ---------------------------------------------------------


def test_declarations_go_in_order_and_passing_seats_leave_the_hand():
    state = ENGINE.new_game(5, options={"dealer": 3, "buio": False}, seed=8)
    order = [4, 0, 1, 2, 3]
    decl = {4: PASS, 0: KNOCK, 1: PASS, 2: KNOCK, 3: PASS}
    for seat in order:
        assert state.view(None)["declared"][seat] is None
        events = act(state, seat, decl[seat])
        assert events[0] == {"type": "declare", "seat": seat, "declaration": decl[seat]["type"]}
    view = state.view(0)
    assert view["declared"] == ["knock", "pass", "knock", "pass", "pass"]
    assert view["active"] == [0, 2]
    assert view["hand_counts"] == [3, 0, 3, 0, 0] and view["put_away_counts"] == [0, 3, 0, 3, 3]
    # buio is off: straight to play; seat 4 passed so seat 0 leads
    assert view["phase"] == "play" and state.to_act == [0]
    assert all(state.legal_actions(s) == [] for s in (1, 2, 3, 4))
    # a passing seat never acts again in the hand
    seen = set()
    while state.view(None)["hand_number"] == 0:
        seat = state.to_act[0]
        seen.add(seat)
        act(state, seat, state.legal_actions(seat)[0])
    assert seen == {0, 2}
    hand = state.result()["hands"][0]
    assert hand["tricks"][1] == hand["tricks"][3] == hand["tricks"][4] == 0
    assert hand["tricks"][0] + hand["tricks"][2] == 3 and hand["buio"] == []


def test_first_trick_led_by_first_active_after_dealer():
    state = ENGINE.new_game(4, options={"dealer": 0}, seed=10)
    for seat, action in ((1, PASS), (2, PASS), (3, KNOCK), (0, KNOCK)):
        act(state, seat, action)
    # exchange also starts with seat 3 and ends with the dealer
    assert state.to_act == [3]
    act(state, 3, KEEP)
    assert state.to_act == [0]
    act(state, 0, KEEP)
    assert state.view(None)["phase"] == "play" and state.to_act == [3]


def test_successive_buio_seats_take_the_stock_in_order_and_events_hide_cards():
    stock = ["Rd", "Cd", "Fd", "7d", "6d", "5d", "4d", "3d", "2d"]
    deck = stacked(4, 3, {
        0: ["Ab", "2b", "3b"], 1: ["Ac", "2c", "3c"], 2: ["As", "2s", "3s"], 3: ["Ad", "4b", "5b"],
    }, "6b", stock)
    state = ENGINE.new_game(4, options={"dealer": 3}, seed=11, deck=deck)
    for seat in (0, 1, 2, 3):
        act(state, seat, KNOCK)
    events = []
    for seat, choice in ((0, BUIO), (1, KEEP), (2, BUIO), (3, BUIO)):
        events += act(state, seat, choice)
    assert state.view(0)["hand"] == ["Rd", "Cd", "Fd"]
    assert state.view(2)["hand"] == ["7d", "6d", "5d"]
    assert state.view(3)["hand"] == ["4d", "3d", "2d"]
    assert state.view(0)["put_away"] == ["Ab", "2b", "3b"]
    assert state.view(1)["put_away"] == []
    assert state.view(None)["stock_count"] == 40 - 13 - 9
    assert state.view(None)["buio"] == [0, 2, 3]
    assert state.view(None)["choices"] == ["buio", "keep", "buio", "buio"]
    named = {v for e in events for v in e.values() if isinstance(v, str)}
    assert not named & set(FULL), f"events name cards: {named & set(FULL)}"
    # no other seat sees the put-away or taken cards
    for seat in (None, 1, 2, 3):
        view_text = repr(state.view(seat))
        for card in ("Ab", "2b", "3b", "Rd", "Cd", "Fd"):
            assert f"'{card}'" not in view_text
    # the hand record lists the buio seats
    while state.view(None)["hand_number"] == 0:
        seat = state.to_act[0]
        act(state, seat, state.legal_actions(seat)[0])
    assert state.result()["hands"][0]["buio"] == [0, 2, 3]


def test_buio_off_offers_no_choice():
    state = ENGINE.new_game(3, options={"dealer": 2, "buio": False}, seed=12)
    act(state, 0, KNOCK)
    act(state, 1, KNOCK)
    act(state, 2, PASS)
    assert state.view(None)["phase"] == "play"
    assert {a["type"] for a in state.legal_actions(0)} == {"play"}
    refused(state, 0, BUIO, "buio", "not offered")


def test_follow_suit_trump_wins_and_trick_winner_leads():
    deck = stacked(3, 2, {0: ["Fc", "2d", "Rs"], 1: ["2c", "Ad", "3s"], 2: ["4s", "2b", "Ac"]}, "7b")
    state = ENGINE.new_game(3, options={"dealer": 2, "buio": False}, seed=13, deck=deck)
    for seat in (0, 1, 2):
        act(state, seat, KNOCK)
    act(state, 0, play("Fc"))
    assert state.legal_actions(1) == [play("2c")]
    refused(state, 1, play("Ad"), "follow", "coppe")
    act(state, 1, play("2c"))
    assert state.legal_actions(2) == [play("Ac")]
    events = act(state, 2, play("Ac"))
    assert events[-1] == {"type": "trick", "winner": 2, "cards": [
        {"seat": 0, "card": "Fc"}, {"seat": 1, "card": "2c"}, {"seat": 2, "card": "Ac"}]}
    assert state.view(None)["last_trick"]["winner"] == 2
    # the winner leads: spades; seat 0 follows with Rs, seat 1 with 3s: 3s wins
    assert state.to_act == [2]
    act(state, 2, play("4s"))
    act(state, 0, play("Rs"))
    events = act(state, 1, play("3s"))
    assert events[-1]["winner"] == 1
    # seat 1 leads denari: seat 2 is void and holds only a trump; 2b beats Ad
    act(state, 1, play("Ad"))
    assert state.legal_actions(2) == [play("2b")]
    act(state, 2, play("2b"))
    events = act(state, 0, play("2d"))
    assert next(e for e in events if e["type"] == "trick")["winner"] == 2
    assert [e["type"] for e in events] == ["play", "trick", "hand_over", "deal"]
    hand = state.result()["hands"][0]
    assert hand["tricks"] == [0, 1, 2] and hand["bestia"] == [0]
    assert hand["net"] == [-3, 1, 2 - 3]


def test_void_seat_may_discard_and_discard_never_wins():
    deck = stacked(3, 2, {0: ["2c", "4c", "5c"], 1: ["Ad", "3d", "Rd"], 2: ["6c", "7c", "Fc"]}, "7b")
    state = ENGINE.new_game(3, options={"dealer": 2, "buio": False}, seed=14, deck=deck)
    for seat in (0, 1, 2):
        act(state, seat, KNOCK)
    act(state, 0, play("2c"))
    assert {a["card"] for a in state.legal_actions(1)} == {"Ad", "3d", "Rd"}
    act(state, 1, play("Ad"))
    events = act(state, 2, play("6c"))
    assert events[-1]["winner"] == 2  # the highest coppe, not the Ace of another suit


def test_trick_order_helpers():
    assert [c[0] for c in sorted([r + "d" for r in "A234567FCR"], key=STRENGTH.get, reverse=True)] == list(
        "A3RCF76542")
    assert beats("2b", "Ad", "b") and not beats("Ad", "2b", "b")
    assert beats("3d", "Rd", "b") and not beats("Ac", "2d", "b")


def test_view_keys_and_spectator():
    state = ENGINE.new_game(4, options={"dealer": 1}, seed=15)
    keys = {"phase", "dealer", "hand", "hand_counts", "trump_card", "declared", "buio", "stock_count",
            "trick", "last_trick", "tricks", "pot", "balances", "to_act"}
    for seat in (None, 0, 1, 2, 3):
        view = state.view(seat)
        assert keys <= set(view)
    spectator = state.view(None)
    assert spectator["hand"] == [] and spectator["put_away"] == [] and spectator["seat"] is None
    assert spectator["declared"] == [None] * 4 and spectator["tricks"] == [0] * 4
    assert spectator["pot"] == 3 and spectator["balances"] == [0] * 4 and spectator["to_act"] == [2]
    assert spectator["last_hand"] is None


# -- refusals -------------------------------------------------------------------------


def test_illegal_actions_have_readable_messages():
    deck = stacked(3, 2, {0: ["Fc", "2d", "Rs"], 1: ["2c", "Ad", "3s"], 2: ["4s", "2b", "Ac"]}, "7b")
    state = ENGINE.new_game(3, options={"dealer": 2, "rounds": 1}, seed=16, deck=deck)
    refused(state, 1, KNOCK, "not seat 1's turn")
    refused(state, 5, KNOCK, "no seat")
    refused(state, 0, "knock", "JSON object")
    refused(state, 0, {"type": "knock", "extra": 1}, "only the key")
    refused(state, 0, {}, "type")
    refused(state, 0, {"type": "dance"}, "unknown move type")
    refused(state, 0, KEEP, "after the declarations")
    refused(state, 0, play("Fc"), "trick play", "declarations")
    act(state, 0, KNOCK)
    act(state, 1, KNOCK)
    act(state, 2, KNOCK)
    refused(state, 0, PASS, "declarations are over")
    refused(state, 0, play("Fc"), "trick play")
    refused(state, 0, {"type": "buio", "cards": ["Fc"]}, "only the key")
    for seat in (0, 1, 2):
        act(state, seat, KEEP)
    refused(state, 0, {"type": "play"}, "exactly the keys")
    refused(state, 0, {"type": "play", "card": "Fc", "x": 1}, "exactly the keys")
    refused(state, 0, play("Zz"), "not a card of the italian deck")
    refused(state, 0, {"type": "play", "card": 7}, "card code")
    refused(state, 0, play("Ab"), "do not hold", "asso di bastoni")
    refused(state, 0, KEEP, "after the declarations")
    act(state, 0, play("Fc"))
    refused(state, 1, play("3s"), "must follow", "coppe", "2c")


def test_nothing_is_accepted_after_the_match():
    state = random_match(3, 3)
    assert state.is_over and state.to_act == []
    assert all(state.legal_actions(s) == [] for s in (None, 0, 1, 2))
    refused(state, 0, KNOCK, "over")


# -- units, zero sum, result ----------------------------------------------------------


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_units_are_zero_sum_and_pots_chain(n):
    for seed in range(25):
        options = {"rounds": 1 + seed % 2, "buio": seed % 3 != 0}
        rng = random.Random(seed)
        state = ENGINE.new_game(n, options=options, seed=seed)
        while not state.is_over:
            view = state.view(None)
            # balances sum to minus what was carried into the pot in progress
            assert sum(state.result()["scores"]) == -(view["pot"] - 3)
            assert state.result()["winner"] is None
            seat = state.to_act[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        result = state.result()
        hands = result["hands"]
        assert len(hands) == options["rounds"] * n
        assert sum(result["scores"]) == 0
        assert result["scores"] == [sum(h["net"][s] for h in hands) for s in range(n)]
        assert hands[0]["pot"] == 3
        for h, nxt in zip(hands, hands[1:], strict=False):
            assert nxt["pot"] == 3 + len(h["bestia"]) * h["pot"]
        for i, h in enumerate(hands):
            pot, t, last = h["pot"], h["tricks"], i == len(hands) - 1
            assert pot % 3 == 0 and sum(t) == 3 and len(h["net"]) == n
            assert h["active"] == sorted(h["active"]) and h["bestia"] == sorted(h["bestia"])
            assert set(h["buio"]) <= set(h["active"]) and set(h["bestia"]) <= set(h["active"])
            assert all(t[s] == 0 for s in range(n) if s not in h["active"])
            if len(h["active"]) == 1:
                assert t[h["active"][0]] == 3 and h["bestia"] == [] and h["buio"] == []
            assert h["bestia"] == [s for s in h["active"] if t[s] == 0]
            b = len(h["bestia"])
            for s in range(n):
                want = t[s] * pot // 3 - (pot if s in h["bestia"] else 0) - (3 if s == h["dealer"] else 0)
                if last:
                    want += t[s] * pot // 3 * b
                assert h["net"][s] == want
        top = max(result["scores"])
        leaders = [s for s in range(n) if result["scores"][s] == top]
        assert result["winner"] == (leaders[0] if len(leaders) == 1 else None)


def test_tied_top_balance_has_no_winner():
    # 3 hands, each won alone by its dealer: every net is 0
    state = ENGINE.new_game(3, options={"dealer": 0}, seed=17)
    for _ in range(3):
        dealer = state.view(None)["dealer"]
        act(state, (dealer + 1) % 3, PASS)
        act(state, (dealer + 2) % 3, PASS)
        act(state, dealer, KNOCK)
    assert state.is_over and state.result() == {
        "scores": [0, 0, 0], "winner": None, "hands": state.result()["hands"]}


def test_events_never_name_hidden_cards():
    for seed in range(30):
        rng = random.Random(seed)
        state = ENGINE.new_game(4, seed=seed)
        while not state.is_over:
            seat = state.to_act[0]
            events = state.apply(seat, rng.choice(state.legal_actions(seat)))
            if any(e["type"] in ("deal", "match_over") for e in events):
                for e in events:
                    if e["type"] == "deal":
                        assert e["trump_card"] == state.view(None)["trump_card"]
                    if e["type"] in ("hand_over", "deal", "match_over"):
                        assert {k for k, v in e.items() if v in FULL} <= {"trump_card"}
                continue
            hidden = set(state.hidden_from(None))
            named = {v for e in events for v in e.values() if isinstance(v, str)}
            named |= {p["card"] for e in events for p in e.get("cards", [])}
            assert not named & hidden


def test_json_round_trip_mid_hand_after_buio():
    state = ENGINE.new_game(4, options={"dealer": 0}, seed=18)
    for seat in (1, 2, 3, 0):
        act(state, seat, KNOCK)
    act(state, 1, BUIO)
    act(state, 2, KEEP)
    data = state.to_json()
    twin = ENGINE.from_json(data)
    assert same_json(twin.to_json(), data)
    for seat in (None, 0, 1, 2, 3):
        assert same_json(twin.view(seat), state.view(seat))


# -- robot ----------------------------------------------------------------------------


def robot_view(hand, trump_card="7b", phase="play", trick=(), tricks=(0, 0, 0), seat=0):
    return {"seat": seat, "phase": phase, "hand": list(hand), "trump_card": trump_card,
            "trump_suit": trump_card[1], "trick": [{"seat": s, "card": c} for s, c in trick],
            "tricks": list(tricks)}


def choose(view, legal):
    return ENGINE.robot_choice(view, legal, random.Random(0))


def plays(cards_):
    return [play(c) for c in cards_]


def test_robot_declaration_and_buio():
    both = [KNOCK, PASS]
    assert choose(robot_view(["2b", "4c", "5d"], phase="declare"), both) == KNOCK  # a trump
    assert choose(robot_view(["Ac", "4c", "5d"], phase="declare"), both) == KNOCK  # an Ace
    assert choose(robot_view(["3s", "4c", "5d"], phase="declare"), both) == KNOCK  # a Three
    assert choose(robot_view(["Rc", "4c", "5d"], phase="declare"), both) == PASS
    assert choose(robot_view(["Rc", "4c", "5d"], phase="declare"), [KNOCK]) == KNOCK
    assert choose(robot_view(["Rc", "4c", "5d"], phase="exchange"), [KEEP, BUIO]) == BUIO
    assert choose(robot_view(["Rc", "4b", "5d"], phase="exchange"), [KEEP, BUIO]) == KEEP
    assert choose(robot_view(["Rc", "Ad", "5d"], phase="exchange"), [KEEP, BUIO]) == KEEP


def test_robot_play():
    hand = ["Ac", "2b", "5d"]
    # leading without a trick: strongest, trumps first; once safe: weakest
    assert choose(robot_view(hand), plays(hand)) == play("2b")
    assert choose(robot_view(["Ac", "Rd", "5d"]), plays(["Ac", "Rd", "5d"])) == play("Ac")
    assert choose(robot_view(hand, tricks=(1, 0, 0)), plays(hand)) == play("5d")
    # following: the cheapest card that beats the winning one
    view = robot_view(["Ac", "3c", "Fc"], trick=[(1, "Rc")])
    assert choose(view, plays(["Ac", "3c", "Fc"])) == play("3c")
    # void: the cheapest trump that beats, else the cheapest card keeping trumps
    view = robot_view(["Ab", "4b", "Rs"], trick=[(1, "Ad")])
    assert choose(view, plays(["Ab", "4b", "Rs"])) == play("4b")
    view = robot_view(["5b", "Rs", "6s"], trick=[(1, "Ad"), (2, "Cb")])
    assert choose(view, plays(["5b", "Rs", "6s"])) == play("6s")
    view = robot_view(["Fd", "2d"], trick=[(1, "Ad")])
    assert choose(view, plays(["Fd", "2d"])) == play("2d")


def test_robot_reads_only_its_view():
    state = ENGINE.new_game(3, seed=19)
    while not state.is_over:
        seat = state.to_act[0]
        action = ENGINE.robot_choice(state.view(seat), state.legal_actions(seat), random.Random(1))
        assert any(same_json(action, a) for a in state.legal_actions(seat))
        state.apply(seat, action)


def test_robot_beats_random_players():
    """Rules §11: robot vs two random players over 6 hands (3 players, rounds 2)."""
    matches = 600
    robot_positive = random_positive = robot_total = 0
    for i in range(matches):
        robot = i % 3
        scores = random_match(3, 1000 + i, options={"rounds": 2}, robots=(robot,)).result()["scores"]
        robot_positive += scores[robot] > 0
        robot_total += scores[robot]
        random_positive += sum(scores[s] > 0 for s in range(3) if s != robot)
    robot_rate = robot_positive / matches
    random_rate = random_positive / (2 * matches)
    print(f"bestia robot: positive balance in {robot_rate:.0%} of matches, random players {random_rate:.0%},"
          f" robot mean {robot_total / matches:+.2f} units")
    assert robot_rate >= 0.62
    assert random_rate <= 0.40
    assert robot_total > 0
