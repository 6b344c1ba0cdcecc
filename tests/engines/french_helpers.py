"""Helpers shared by the French-deck trick-game tests (Hearts, Spades).

Canonical card lists, stacked decks in the deal order of both rules files (one card at a
time from the seat after the dealer), play-phase positions built through ``from_json``,
the checks both games' tests run the same way, and the robot-versus-random runner.
"""

from __future__ import annotations

import random

import pytest

from apps.games.engines import IllegalAction
from apps.games.engines import cards as kit_cards
from apps.games.engines.base import same_json

RANKS = "23456789TJQKA"
#: the 52 codes in canonical order: suits c, d, s, h; ranks 2..A
CANON = [r + s for s in "cdsh" for r in RANKS]


def suit(s: str) -> list[str]:
    return [r + s for r in RANKS]


def deck_for(hands: list[list[str]], dealer: int = 3) -> list[str]:
    """The deck that deals ``hands[seat]`` to each seat: deck[i] -> (dealer + 1 + i) % 4."""
    deck = [""] * 52
    for seat, cards in enumerate(hands):
        assert len(cards) == 13
        offset = (seat - dealer - 1) % 4
        for j, card in enumerate(cards):
            deck[offset + 4 * j] = card
    return deck


def stacked(engine, deck: list[str], options=None, seed: int = 1, dealer: int = 3):
    """A match dealt from ``deck`` by ``dealer``."""
    return engine.new_game(4, options={"dealer": dealer, **(options or {})}, seed=seed, deck=deck)


def play(state, seat: int, card: str) -> list[dict]:
    return state.apply(seat, {"type": "play", "card": card})


def legal_cards(state, seat: int) -> list[str]:
    return [a["card"] for a in state.legal_actions(seat)]


def acts(cards: list[str]) -> list[dict]:
    return [{"type": "play", "card": c} for c in cards]


def position_data(state, hands, turn: int, tricks_done: int, broken_key: str, broken: bool):
    """``state.to_json()`` turned into a play-phase position with these hands.

    The cards no hand holds sit in seat 0's won pile (``4 * tricks_done`` of them); the
    caller sets the game's own fields. Returns the data and those won cards.
    """
    data = state.to_json()
    held = {c for h in hands for c in h}
    assert len(held) == sum(len(h) for h in hands)
    rest = [c for c in CANON if c not in held]
    assert len(rest) == 4 * tricks_done
    data.update({
        "phase": "play", "leader": turn, "turn": turn, "tricks_done": tricks_done, broken_key: broken,
        "hands": [sorted(h, key=CANON.index) for h in hands], "won": [rest, [], [], []],
    })
    return data, rest


def check_four_seats_and_deck(engine, bad_deck: list[str]) -> None:
    """Only 4 players; the deck is the 52 cards; a stacked deck must be exactly them."""
    assert engine.player_counts == (4,)
    for players in (2, 3, 5):
        with pytest.raises(ValueError):
            engine.new_game(players, seed=1)
    assert sorted(engine.deck(4)) == sorted(CANON)
    with pytest.raises(ValueError):
        engine.new_game(4, seed=1, deck=bad_deck)


def check_seeded_deals(engine, choose) -> None:
    """Hand k of seed s is ``cards.shuffled(french_deck(), derive_rng(s, "hand", k))``.

    ``choose(legal, rng)`` picks the moves that finish the first hand.
    """
    for seed in (0, 7, 2**100 + 3):
        state = engine.new_game(4, options={"dealer": 2}, seed=seed)
        deck = kit_cards.shuffled(kit_cards.french_deck(), kit_cards.derive_rng(seed, "hand", 0))
        twin = engine.new_game(4, options={"dealer": 2}, seed=seed, deck=deck)
        assert same_json(state.to_json(), twin.to_json())
    state = engine.new_game(4, options={"dealer": 2}, seed=11)
    data = state.to_json()
    rng = random.Random(0)
    hand = state.view(None)["hand_number"]
    while state.view(None)["hand_number"] == hand:
        seat = state.to_act[0]
        state.apply(seat, choose(state.legal_actions(seat), rng))
    deck = kit_cards.shuffled(kit_cards.french_deck(), kit_cards.derive_rng(11, "hand", 1))
    for seat in range(4):
        assert sorted(state.view(seat)["hand"]) == sorted(deck[(seat - 3 - 1) % 4::4])
    assert data["seed"] == 11


def check_deal_order_and_seeds(engine, seed: int, twin_seed: int) -> list:
    """Each dealer deals one card at a time from the next seat; a seed fixes the match and
    draws the first dealer. Returns the four matches dealt by dealers 0..3 (for more checks).
    """
    deck = list(CANON)
    states = []
    for dealer in range(4):
        state = engine.new_game(4, options={"dealer": dealer}, seed=seed, deck=deck)
        for seat in range(4):
            start = (seat - dealer - 1) % 4
            assert sorted(state.view(seat)["hand"]) == sorted(deck[start::4])
        assert state.view(None)["dealer"] == dealer
        states.append(state)
    a, b = engine.new_game(4, seed=twin_seed), engine.new_game(4, seed=twin_seed)
    assert same_json(a.to_json(), b.to_json())
    assert {engine.new_game(4, seed=s).view(None)["dealer"] for s in range(40)} == {0, 1, 2, 3}
    return states


def check_legal_actions_are_fresh(engine) -> None:
    """Spoiling a returned list or its dicts changes nothing in the state."""
    state = engine.new_game(4, seed=4)
    seat = state.to_act[0]
    first = state.legal_actions(seat)
    snapshot = [dict(a) for a in first]
    for action in first:
        action["type"] = "spoiled"
    first.clear()
    assert [dict(a) for a in state.legal_actions(seat)] == snapshot


def check_apply_accepts_exactly_the_legal_cards(engine, rng_seed: int, steps: int, random_seat: bool) -> None:
    """Along random matches every held card is accepted iff ``legal_actions`` lists it.

    ``random_seat``: pick the acting seat at random among ``to_act`` (Hearts' pass),
    else the first one.
    """
    rng = random.Random(rng_seed)
    for seed in range(3):
        state = engine.new_game(4, seed=seed)
        done = 0
        while not state.is_over and done < steps:
            seat = rng.choice(state.to_act) if random_seat else state.to_act[0]
            legal = state.legal_actions(seat)
            if legal[0]["type"] == "play":
                data = state.to_json()
                allowed = {a["card"] for a in legal}
                for card in state.view(seat)["hand"]:
                    probe = engine.from_json(data)
                    try:
                        play(probe, seat, card)
                        accepted = True
                    except IllegalAction as refused:
                        accepted = False
                        assert str(refused).endswith(".")
                    assert accepted == (card in allowed), card
            state.apply(seat, rng.choice(legal))
            done += 1


def robot_win_rate(engine, matches: int, first_seed: int, random_seat: bool) -> float:
    """Share of matches the robot side wins against uniform random players.

    In match ``m`` (seed ``first_seed + m``) side ``m % sides`` is the robot's, every
    seat of it, so the robot sits everywhere in turn. ``random_seat`` as above.
    """
    wins = 0
    for m in range(matches):
        rng = random.Random(m)
        state = engine.new_game(4, seed=first_seed + m)
        sides = len(state.teams)
        side = m % sides
        while not state.is_over:
            seat = rng.choice(state.to_act) if random_seat else state.to_act[0]
            if seat % sides == side:
                action = engine.bot_action(state, seat, rng)
            else:
                action = rng.choice(state.legal_actions(seat))
            state.apply(seat, action)
        wins += state.result()["winner"] == side
    return wins / matches
