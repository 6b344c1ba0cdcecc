"""Card pictures: every code has a sprite symbol, pages reference it, non-cards draw nothing,
Italian faces follow the viewer's profile, the drawn decks are what the script writes."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest
from django.template import Context, Template

from apps.games.engines import cards
from apps.tables.templatetags.cards import card_back_svg, card_svg, symbol_id

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "static" / "cards"


def _script():
    spec = importlib.util.spec_from_file_location("draw_italian_cards", ROOT / "scripts" / "draw_italian_cards.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _symbols(text: str) -> dict[str, str]:
    return dict(re.findall(r'<symbol id="([^"]+)"[^>]*>(.*?)</symbol>', text))


@pytest.mark.parametrize("deck", ["napoletane", "piacentine"])
def test_italian_sprites_are_current_and_drawn_properly(deck):
    text = (STATIC / f"{deck}.svg").read_text()
    assert text == _script().sprite(deck), "run scripts/draw_italian_cards.py"
    symbols = _symbols(text)
    assert set(symbols) == {f"c-{c}" for c in cards.italian_deck()} | {"back"}
    for code in cards.italian_deck():
        body = symbols[f"c-{code}"]
        rank = code[0]
        if rank in "FCR":
            figure = {"F": "fante", "C": "cavallo", "R": "re"}[rank]
            assert f'class="figure {figure}"' in body and body.count('class="held"') == 1, code
            assert 'class="pip"' not in body
        else:
            value = 1 if rank == "A" else int(rank)
            assert body.count('class="pip"') == value, code  # that many suit marks
        value = {"A": 1, "F": 8, "C": 9, "R": 10}.get(rank) or int(rank)
        assert body.count(f">{value}</text>") == 2  # the value in two corners
    assert "<use" not in text  # self-contained symbols: no nested references


def test_the_two_italian_decks_differ_as_the_real_ones_do():
    script = _script()
    napoletane, piacentine = _symbols(script.sprite("napoletane")), _symbols(script.sprite("piacentine"))
    assert ") rotate(" not in napoletane["c-4s"] and ") rotate(" in piacentine["c-4s"]  # northern swords cross
    assert napoletane["back"] != piacentine["back"]


def test_french_sprite_is_the_vendored_package_with_its_licence():
    text = (STATIC / "svg-cards.svg").read_text()
    assert "SVG-cards 4.0.2" in text
    assert "GNU LESSER GENERAL PUBLIC LICENSE" in (STATIC / "svg-cards.LICENSE").read_text()
    for code in cards.french_deck() + ["X"]:
        assert f'id="{symbol_id(code, "french")}"' in text, code
    assert 'id="back"' in text


def test_card_markup():
    svg = card_svg("7d", "italian")
    assert 'data-card="7d"' in svg and "napoletane.svg#c-7d" in svg and len(svg) < 300
    assert "piacentine.svg#c-7d" in card_svg("7d", "italian", italian_deck="piacentine")
    assert "svg-cards.svg#spade_queen" in card_svg("Qs", "french")
    assert "svg-cards.svg#heart_10" in card_svg("Th", "french")
    assert "svg-cards.svg#joker_red" in card_svg("X", "italian")
    assert card_svg("<b>", "italian") == "" and card_svg("7x", "french") == ""
    assert "napoletane.svg#back" in card_back_svg() and "svg-cards.svg#back" in card_back_svg(face="french")


@pytest.mark.django_db
def test_italian_faces_follow_the_viewer_profile(django_user_model):
    from apps.players.services import profile_deck_set

    user = django_user_model.objects.create_user("deckfan", password="x" * 12)
    template = Template('{% load cards %}{% card "Rb" face %}{% card_back %}{% card_backs 3 %}')
    assert template.render(Context({"face": "italian", "user": user})).count("napoletane.svg#") == 5
    profile_deck_set(user=user, deck="piacentine")
    user = django_user_model.objects.get(pk=user.pk)
    html = template.render(Context({"face": "italian", "user": user}))
    assert html.count("piacentine.svg#") == 5 and "napoletane" not in html
    # a renderer that shares one board between viewers names the deck itself
    assert "napoletane.svg#c-Rb" in template.render(Context({"face": "italian", "user": user,
                                                             "italian_deck": "napoletane"}))
    # French tables stay French whatever the preference
    assert "svg-cards.svg#back" in Template("{% load cards %}{% card_back %}").render(
        Context({"face": "french", "user": user}))


@pytest.mark.django_db
def test_profile_deck_choice_refuses_an_unknown_deck(django_user_model):
    from apps.common.errors import ValidationFailed
    from apps.players.models import Profile
    from apps.players.services import profile_deck_set

    user = django_user_model.objects.create_user("deckfan2", password="x" * 12)
    with pytest.raises(ValidationFailed):
        profile_deck_set(user=user, deck="trevisane")
    assert not Profile.objects.filter(user=user).exclude(italian_deck="napoletane").exists()
