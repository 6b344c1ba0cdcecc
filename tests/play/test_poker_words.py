"""Poker words at the table (issue 25): one pot, the ante labelled as such, and a showdown
that names the ranks ("Coppia di Donne batte Coppia di Fanti"), Italian and English."""

from __future__ import annotations

import re

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from apps.games.engines import get_engine
from apps.play.poker_words import hand_words

from ..engines.test_poker_italiana import h, stacked

ENGINE = get_engine("poker_italiana")


def showdown_view(hands: dict[int, list[str]]):
    state = ENGINE.new_game(2, options={"dealer": 1, "opening": "free"}, seed=1, deck=stacked(2, 1, hands))
    while not state.is_over:
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        state.apply(seat, {"type": "check"} if {"type": "check"} in legal else {"type": "draw", "cards": []})
    return state.view(None)


def board(view, language: str) -> str:
    seats = [{"name": "Anna"}, {"name": "Bruno"}]
    with translation.override(language):
        html = render_to_string("tables/games/poker_italiana/board.html",
                                {"pview": view, "seats": seats, "poker_phase": "", "face": "french"})
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


@pytest.mark.parametrize(("cards", "category", "it", "en"), [
    ("Qh Qd 9c 8s 7d", "Coppia", "Coppia di Donne", "Pair of Queens"),
    ("Ah Ad 9c 8s 7d", "Coppia", "Coppia di Assi", "Pair of Aces"),
    ("Kh Kd Jc Js 7d", "Doppia coppia", "Doppia coppia di Re e Fanti", "Two pair, Kings and Jacks"),
    ("7h 7d 7c Js 9d", "Tris", "Tris di Sette", "Three Sevens"),
    ("9h Td Jc Qs Kd", "Scala", "Scala al Re", "Straight, King-high"),
    ("Ah 7d 8c 9s Td", "Scala", "Scala al Dieci", "Straight, Ten-high"),
    ("8h 8d 8c As Ad", "Full", "Full di Otto e Assi", "Full house, Eights over Aces"),
    ("9h 9d 9c 9s Ad", "Poker", "Poker di Nove", "Four Nines"),
    ("Ah Jh 9h 8h 7h", "Colore", "Colore all'Asso", "Flush, Ace-high"),
    ("Ah Kd 9c 8s 7d", "Carta alta", "Carta alta: Asso", "High card: Ace"),
    ("Th Jh Qh Kh Ah", "Scala Reale", "Scala Reale", "Royal flush (Scala Reale)"),
])
def test_hand_words_name_the_ranks(cards, category, it, en):
    with translation.override("it"):
        assert hand_words(h(cards), category) == it
    with translation.override("en"):
        assert hand_words(h(cards), category) == en


def test_the_showdown_says_which_pair_beats_which():
    view = showdown_view({0: h("Qh Qd 9c 8s 7d"), 1: h("Jh Jd Tc 8h 7c")})
    text = board(view, "it")
    assert "Coppia di Donne batte Coppia di Fanti" in text, text
    assert "Anna: Coppia di Donne" in text and "Bruno: Coppia di Fanti" in text
    assert "Pair of Queens beats Pair of Jacks" in board(view, "en")


def test_one_pot_and_the_ante_labelled_as_such():
    state = ENGINE.new_game(2, options={"dealer": 1, "opening": "free"}, seed=1)
    text = board(state.view(None), "it")
    assert len(re.findall(r"[Pp]iatto", text)) == 1, text  # the pot, once
    assert "piatto 20" in text and "Invito (ante) 10 a testa" in text, text
    english = board(state.view(None), "en")
    assert "pot 20" in english and "Ante 10" in english


def test_a_forfeit_is_told_in_words():
    from apps.play.words import move_words

    with translation.override("it"):
        assert move_words(name="Bruno", action={"type": "forfeit"}, events=[], french=True) \
            == "Bruno ha lasciato la mano: passa"
    with translation.override("en"):
        assert move_words(name="Bruno", action={"type": "forfeit"}, events=[], french=True) \
            == "Bruno left the hand: folded"
