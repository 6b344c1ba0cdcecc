"""Card pictures: every code has a sprite symbol, pages reference it, non-cards draw nothing."""

from __future__ import annotations

from pathlib import Path

from apps.games.engines import cards
from apps.tables.templatetags.cards import card_svg, sprite_svg

STATIC = Path(__file__).resolve().parents[2] / "static" / "cards"


def test_committed_sprites_are_current_and_cover_every_card():
    for face in ("italian", "french"):
        assert (STATIC / f"{face}.svg").read_text() == sprite_svg(face), "run scripts/make_card_sprites.py"
    italian = (STATIC / "italian.svg").read_text()
    french = (STATIC / "french.svg").read_text()
    assert all(f'id="c-{c}"' in italian for c in cards.italian_deck())
    assert all(f'id="c-{c}"' in french for c in cards.french_deck() + ["X"])


def test_card_markup():
    svg = card_svg("7d", "italian")
    assert 'data-card="7d"' in svg and "italian.svg#c-7d" in svg and len(svg) < 250
    assert "french.svg#c-Qs" in card_svg("Qs", "french")
    assert card_svg("<b>", "italian") == "" and card_svg("7x", "french") == ""
