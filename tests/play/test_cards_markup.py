"""Card pictures: every code has a sprite symbol, pages reference it, non-cards draw nothing,
Italian faces follow the viewer's profile, the drawn decks are what the script writes."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest
from django.template import Context, Template
from django.utils import translation

from apps.games.engines import cards
from apps.play.templatetags.cards import ITALIAN_FRENCH, card_back_svg, card_svg, suit_name, symbol_id

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "static" / "cards"


def _script(name: str = "draw_italian_cards"):
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
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
    assert 'data-card="7d"' in svg and 'href="/static/cards/napoletane/c-7d.svg"' in svg and len(svg) < 300
    assert "<use" not in svg  # an image of the card's own file: nothing cloned into the page
    assert "piacentine/c-7d.svg" in card_svg("7d", "italian", italian_deck="piacentine")
    assert "french/spade_queen.svg" in card_svg("Qs", "french")
    assert "french/heart_10.svg" in card_svg("Th", "french")
    assert "french/joker_red.svg" in card_svg("X", "italian")
    assert card_svg("<b>", "italian") == "" and card_svg("7x", "french") == ""
    assert "napoletane/back.svg" in card_back_svg() and "french/back.svg" in card_back_svg(face="french")


@pytest.mark.django_db
def test_italian_faces_follow_the_viewer_profile(django_user_model):
    from apps.players.services import profile_deck_set

    user = django_user_model.objects.create_user("deckfan", password="x" * 12)
    template = Template('{% load cards %}{% card "Rb" face %}{% card_back %}{% card_backs 3 %}')
    assert template.render(Context({"face": "italian", "user": user})).count("/napoletane/") == 5
    profile_deck_set(user=user, deck="piacentine")
    user = django_user_model.objects.get(pk=user.pk)
    html = template.render(Context({"face": "italian", "user": user}))
    assert html.count("/piacentine/") == 5 and "napoletane" not in html
    # a renderer that shares one board between viewers names the deck itself
    assert "napoletane/c-Rb.svg" in template.render(Context({"face": "italian", "user": user,
                                                             "italian_deck": "napoletane"}))
    # French tables stay French whatever the preference
    assert "french/back.svg" in Template("{% load cards %}{% card_back %}").render(
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


def test_each_card_has_its_own_small_file_split_from_the_sprites():
    """Issue 25: a ``<use>`` into svg-cards.svg cloned each face's whole drawing into the page
    (a Hearts page held ~815,000 elements); each card is now its own file, what the splitter
    writes from the unmodified sprites (licence notice kept), referenced by an image."""
    files = _script("split_card_sprites").all_files()
    on_disk = {p for deck in ("french", "napoletane", "piacentine") for p in (STATIC / deck).glob("*.svg")}
    assert set(files) == on_disk, "run scripts/split_card_sprites.py"
    for path, text in files.items():
        assert path.read_text() == text, f"run scripts/split_card_sprites.py ({path.name})"
        assert len(text) < 90_000, path.name
    assert len(files) == 54 + 41 + 41
    for code in cards.french_deck() + ["X"]:
        text = (STATIC / "french" / f"{symbol_id(code, 'french')}.svg").read_text()
        assert "GNU Lesser General Public" in text and "David Bellot" in text
    for code in cards.italian_deck():
        assert (STATIC / "napoletane" / f"c-{code}.svg").exists() and (STATIC / "piacentine" / f"c-{code}.svg").exists()


def test_italian_cards_with_french_faces_are_drawn_as_their_french_counterparts():
    """Issue 25: bastoni were drawn as nothing, figures pointed at ``#diamond_F``, coppe were
    clubs. Denari-quadri, coppe-cuori, bastoni-fiori, spade-picche; fante J, cavallo Q, re K."""
    expected = {"7d": "diamond_7", "Ac": "heart_1", "5b": "club_5", "2s": "spade_2",
                "Fd": "diamond_jack", "Cs": "spade_queen", "Rb": "club_king", "Rc": "heart_king"}
    for code, drawn in expected.items():
        svg = card_svg(code, ITALIAN_FRENCH)
        assert f"french/{drawn}.svg" in svg and f'data-card="{code}"' in svg, code
    for code in cards.italian_deck():  # every Italian card draws a French face that exists
        href = re.search(r'href="/static/cards/(french/[^"]+)"', card_svg(code, ITALIAN_FRENCH)).group(1)
        assert (STATIC / href).exists(), code
    assert "french/back.svg" in card_back_svg(face=ITALIAN_FRENCH)
    with translation.override("en"):  # named as drawn
        assert 'aria-label="Queen of hearts"' in card_svg("Cc", ITALIAN_FRENCH, language="en")


def test_french_cards_never_draw_as_italian_blanks():
    """A French card asked with Italian faces is drawn French (a heart was drawn blank)."""
    for code in set(cards.french_deck()) - set(cards.italian_deck()):
        assert f"french/{symbol_id(code, 'french')}.svg" in card_svg(code, "italian"), code
    assert "french/heart_7.svg" in card_svg("7h", "italian")


def test_suit_names_follow_the_drawn_face():
    assert suit_name("c", ITALIAN_FRENCH) in ("cuori", "hearts") and suit_name("c", "italian") == "coppe"
