"""Cards drawn as inline SVG, with Italian or French faces (the face style is a table option)."""

from __future__ import annotations

from django import template
from django.templatetags.static import static
from django.utils.html import format_html
from django.utils.safestring import mark_safe

from apps.games.engines.cards import is_card

register = template.Library()

ITALIAN_SUITS = {"d": ("denari", "#c8961e"), "c": ("coppe", "#b3261e"), "s": ("spade", "#1f4e8c"),
                 "b": ("bastoni", "#2e7d32")}
FRENCH_SUITS = {"h": ("♥", "#c62828"), "d": ("♦", "#c62828"), "c": ("♣", "#222"), "s": ("♠", "#222")}
ITALIAN_RANK_LABEL = {"F": "F", "C": "C", "R": "R", "A": "A"}
FRENCH_RANK_LABEL = {"T": "10"}

# simple pictograms of the four Italian suits, centred on (30, 48)
ITALIAN_SHAPES = {
    "denari": '<circle cx="30" cy="48" r="13" fill="{c}"/><circle cx="30" cy="48" r="7" fill="none" '
              'stroke="#fff" stroke-width="2"/>',
    "coppe": '<path d="M18 36 h24 q0 16 -12 18 v8 h7 v4 h-18 v-4 h7 v-8 q-12 -2 -12 -18z" fill="{c}"/>',
    "spade": '<path d="M30 28 l4 6 v22 h-8 v-22z" fill="{c}"/><rect x="21" y="56" width="18" height="4" '
             'fill="{c}"/><rect x="28" y="60" width="4" height="8" fill="{c}"/>',
    "bastoni": '<path d="M26 30 q4 -4 8 0 l-1 36 q-3 3 -6 0z" fill="{c}"/><circle cx="30" cy="40" r="2" '
               'fill="#fff"/><circle cx="30" cy="52" r="2" fill="#fff"/>',
}


def _italian(code: str) -> str:
    rank, suit = code[0], code[1]
    name, colour = ITALIAN_SUITS[suit]
    shape = ITALIAN_SHAPES[name].format(c=colour)
    label = ITALIAN_RANK_LABEL.get(rank, rank)
    return (f'<text x="6" y="17" font-size="14" font-weight="700" fill="{colour}">{label}</text>{shape}'
            f'<text x="54" y="84" font-size="14" font-weight="700" fill="{colour}" text-anchor="end">{label}</text>')


def _french(code: str) -> str:
    if code == "X":
        return '<text x="30" y="55" font-size="22" text-anchor="middle" fill="#6a1b9a">★</text>' \
               '<text x="6" y="17" font-size="11" fill="#6a1b9a">JOLLY</text>'
    rank, suit = code[0], code[1]
    glyph, colour = FRENCH_SUITS[suit]
    label = FRENCH_RANK_LABEL.get(rank, rank)
    return (f'<text x="6" y="18" font-size="15" font-weight="700" fill="{colour}">{label}</text>'
            f'<text x="30" y="60" font-size="30" text-anchor="middle" fill="{colour}">{glyph}</text>'
            f'<text x="54" y="84" font-size="15" font-weight="700" fill="{colour}" text-anchor="end">{label}</text>')


def card_face_markup(code: str, face: str) -> str:
    """The drawing of one card face (the body of its sprite symbol); "" for a non-card."""
    if not is_card(code, jokers=True):
        return ""
    try:
        body = _italian(code) if face == "italian" and code != "X" else _french(code)
    except (KeyError, IndexError):
        return ""
    return f'<rect x="1" y="1" width="58" height="88" rx="6" fill="#fff" stroke="#888"/>{body}'


def sprite_svg(face: str) -> str:
    """Every card of one face style as <symbol>s: pages reference them with <use>, so a
    render carries ~150 bytes a card instead of the whole drawing."""
    codes = (["X"] if face == "french" else []) + [
        rank + suit for suit in ("dcsb" if face == "italian" else "hdcs")
        for rank in (("A", "2", "3", "4", "5", "6", "7", "F", "C", "R") if face == "italian"
                     else ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"))]
    symbols = "".join(f'<symbol id="c-{code}" viewBox="0 0 60 90">{card_face_markup(code, face)}</symbol>'
                      for code in codes)
    return f'<svg xmlns="http://www.w3.org/2000/svg">{symbols}</svg>'


def card_svg(code: str, face: str = "italian", css: str = "") -> str:
    """An inline SVG for one card code, drawn from the face's sprite; non-cards draw nothing."""
    if not card_face_markup(code, face):
        return ""
    css = "".join(ch for ch in css if ch.isalnum() or ch in " -_")
    href = static(f"cards/{'italian' if face == 'italian' and code != 'X' else 'french'}.svg")
    return (f'<svg class="playing-card {css}" viewBox="0 0 60 90" width="60" height="90" role="img" '
            f'aria-label="{code}" data-card="{code}"><use href="{href}#c-{code}"/></svg>')


def card_back_svg(css: str = "") -> str:
    return (f'<svg class="playing-card back {css}" viewBox="0 0 60 90" width="60" height="90" aria-hidden="true">'
            '<rect x="1" y="1" width="58" height="88" rx="6" fill="#1b5e9b" stroke="#0d3a63"/>'
            '<rect x="7" y="7" width="46" height="76" rx="4" fill="none" stroke="#fff" stroke-dasharray="3 3"/>'
            '</svg>')


@register.simple_tag
def card(code: str, face: str = "italian", css: str = ""):
    return mark_safe(card_svg(str(code), face, css))  # noqa: S308 (built from fixed markup and a card code)


@register.simple_tag
def card_back(css: str = ""):
    return mark_safe(card_back_svg(css))  # noqa: S308


@register.simple_tag
def card_backs(count: int):
    count = max(0, min(int(count or 0), 20))
    return format_html('<span class="backs" aria-label="{} cards">{}</span>', count,
                       mark_safe("".join(card_back_svg("small") for _ in range(count))))  # noqa: S308


SUIT_NAMES = {"italian": {"d": "denari", "c": "coppe", "s": "spade", "b": "bastoni"},
              "french": {"h": "cuori", "d": "quadri", "c": "fiori", "s": "picche"}}


@register.filter
def suit_name(suit: str, face: str = "italian") -> str:
    """``trump_suit`` as a word: "s" -> "spade" (Italian faces) or "picche" (French)."""
    return SUIT_NAMES.get(face, SUIT_NAMES["italian"]).get(str(suit), str(suit))
