"""Cards drawn as images of one small SVG file each: ``<svg><image href="<deck>/<id>.svg"/></svg>``.

Three decks (``static/cards/``): ``napoletane.svg`` and ``piacentine.svg`` (drawn by
``scripts/draw_italian_cards.py``) and ``svg-cards.svg`` (the French faces of the ``svg-cards``
npm package, LGPL-2.1, licence beside it), split by ``scripts/split_card_sprites.py`` into
``static/cards/<deck>/<id>.svg``. A ``<use>`` into a sprite made the browser clone the card's
whole drawing into the page (a French face is a deep tree: a Hearts page held ~815,000
elements, each socket frame 1-3 s of main thread, issue 25); an image is parsed once,
rasterised and cached, and costs the page two elements. A page carries ~250 bytes a card.

``face`` is what a table asks for (``italian``, ``french`` or ``italian_french``: Italian cards
drawn with their French counterparts, see ``render.face_for``).
Italian faces are drawn in the viewer's own deck (``Profile.italian_deck``): the template
context's ``italian_deck`` when set (a renderer that shares one board between viewers sets
it per deck), otherwise the context user's profile, otherwise Napoletane. A face may also
name a deck directly (``napoletane``, ``piacentine``).
"""

from __future__ import annotations

from typing import Any

from django import template
from django.templatetags.static import static
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext_lazy, ngettext, pgettext
from django.utils.translation import gettext as _

from apps.games.engines.cards import FRENCH_SUIT_NAMES, ITALIAN_SUIT_NAMES, is_card, italian_deck

register = template.Library()

ITALIAN_DECKS = ("napoletane", "piacentine")
DEFAULT_ITALIAN = "napoletane"
#: card viewBoxes: the Italian drawings are 120 x 180, svg-cards' are 169.075 x 244.64
VIEWBOX = {"napoletane": "0 0 120 180", "piacentine": "0 0 120 180", "french": "0 0 169.075 244.64"}
#: the drawn card's size in its file (the image fills the card's viewBox)
SIZE = {"napoletane": ("120", "180"), "piacentine": ("120", "180"), "french": ("169.075", "244.64")}
FRENCH_SUIT_IDS = {"h": "heart", "d": "diamond", "c": "club", "s": "spade"}
FRENCH_RANK_IDS = {"A": "1", "T": "10", "J": "jack", "Q": "queen", "K": "king"}
#: Italian cards drawn with French faces (a table's choice where the seeds allow French cards):
#: each is drawn as its usual French counterpart (docs/decisions.md)
ITALIAN_FRENCH = "italian_french"
ITALIAN_TO_FRENCH_SUIT = {"d": "d", "c": "h", "b": "c", "s": "s"}  # denari-quadri, coppe-cuori, bastoni-fiori, spade-picche
ITALIAN_TO_FRENCH_RANK = {"F": "J", "C": "Q", "R": "K"}  # fante J, cavallo Q, re K
_ITALIAN_CODES = frozenset(italian_deck())


def french_counterpart(code: str) -> str:
    """The French card an Italian card is drawn as: ``Fb`` -> ``Jc``, ``7c`` -> ``7h``."""
    if code not in _ITALIAN_CODES:
        return code
    return ITALIAN_TO_FRENCH_RANK.get(code[0], code[0]) + ITALIAN_TO_FRENCH_SUIT[code[1]]


def italian_deck_of(user: Any) -> str:
    """The Italian deck a user chose on their profile (Napoletane when none or anonymous).

    Reads ``user.profile`` (cached on the user object after the first read)."""
    profile = getattr(user, "profile", None) if getattr(user, "pk", None) else None
    deck = getattr(profile, "italian_deck", None)
    return deck if deck in ITALIAN_DECKS else DEFAULT_ITALIAN


def deck_for(face: str, code: str = "", italian_deck: str = DEFAULT_ITALIAN) -> str:
    """The deck a card is drawn from: a joker, or any card only the French deck has, is French."""
    if code and code not in _ITALIAN_CODES:
        return "french"
    if face in ITALIAN_DECKS:
        return face
    if face == "italian":
        return italian_deck if italian_deck in ITALIAN_DECKS else DEFAULT_ITALIAN
    return "french"


def symbol_id(code: str, deck: str) -> str:
    """The sprite symbol of a card code: ``c-7d`` (Italian) or ``spade_queen`` (French)."""
    if deck != "french":
        return f"c-{code}"
    if code == "X":
        return "joker_red"
    return f"{FRENCH_SUIT_IDS[code[1]]}_{FRENCH_RANK_IDS.get(code[0], code[0])}"


def card_label(code: str, face: str = "italian") -> str:
    """A card in words for screen readers and titles: "7 di denari", "Donna di picche"."""
    if code == "X":
        return _("Joker")
    italian = face != "french"
    suits = ITALIAN_SUIT_NAMES if italian else FRENCH_SUIT_NAMES
    ranks = ({"A": _("Ace"), "F": pgettext("italian card", "Jack"), "C": pgettext("italian card", "Knight"),
              "R": _("King")} if italian else
             {"A": _("Ace"), "T": "10", "J": _("Jack"), "Q": _("Queen"), "K": _("King")})
    suit = SUIT_WORDS.get(suits.get(code[1], ""), code[1])
    return _("%(rank)s of %(suit)s") % {"rank": ranks.get(code[0], code[0]), "suit": suit}


def _suit_words() -> dict[str, str]:
    return {"denari": gettext_lazy("denari"), "coppe": gettext_lazy("coppe"), "spade": gettext_lazy("spade"),
            "bastoni": gettext_lazy("bastoni"), "cuori": gettext_lazy("hearts"), "quadri": gettext_lazy("diamonds"),
            "fiori": gettext_lazy("clubs"), "picche": gettext_lazy("spades")}


SUIT_WORDS = _suit_words()


def _clean_css(css: str) -> str:
    return "".join(ch for ch in str(css) if ch.isalnum() or ch in " -_")


#: markup already drawn, by (what was asked, the language): a card's markup depends on
#: nothing else (the sprite URLs are fixed for the life of the process), and a table draws
#: the same few dozen cards in every render (issue 15: a seat's private part in <= 1 ms)
_DRAWN: dict[tuple, str] = {}
_DRAWN_MAX = 4096


def _memo(key: tuple, draw, language: str | None = None) -> str:
    key = (*key, language or get_language())
    markup = _DRAWN.get(key)
    if markup is None:
        if len(_DRAWN) >= _DRAWN_MAX:
            _DRAWN.clear()
        markup = _DRAWN[key] = draw()
    return markup


def card_file(deck: str, symbol: str) -> str:
    """The URL of one card's own file (``scripts/split_card_sprites.py``)."""
    return static(f"cards/{deck}/{symbol}.svg")


def _drawn(deck: str, symbol: str) -> str:
    width, height = SIZE[deck]
    return f'<image href="{card_file(deck, symbol)}" width="{width}" height="{height}"/>'


def card_svg(code: str, face: str = "italian", css: str = "", italian_deck: str = DEFAULT_ITALIAN,
             language: str | None = None) -> str:
    """An inline SVG for one card code, the image of its own file; non-cards draw nothing.
    ``language``: the page's, when the caller knows it (else read: the labels are words)."""
    code = str(code)
    return _memo(("card", code, face, css, italian_deck), lambda: _card_svg(code, face, css, italian_deck), language)


def _card_svg(code: str, face: str, css: str, italian_deck: str) -> str:
    if not is_card(code, jokers=True):
        return ""
    deck = deck_for(face, code, italian_deck)
    drawn = french_counterpart(code) if face == ITALIAN_FRENCH else code
    try:
        symbol = symbol_id(drawn, deck)
    except KeyError:
        return ""
    if deck != "french" and code[1] not in "dcsb":
        return ""
    if deck == "french" and drawn[1:] and drawn[1] not in FRENCH_SUIT_IDS:
        return ""
    label = card_label(drawn, "french" if deck == "french" else "italian")
    return (f'<svg class="playing-card {_clean_css(css)}" viewBox="{VIEWBOX[deck]}" width="60" height="90" '
            f'role="img" aria-label="{label}" data-card="{code}">{_drawn(deck, symbol)}</svg>')


def card_back_svg(css: str = "", face: str = "italian", italian_deck: str = DEFAULT_ITALIAN,
                  language: str | None = None) -> str:
    """A hidden card: the back of the deck in play."""
    return _memo(("back", css, face, italian_deck), lambda: _card_back_svg(css, face, italian_deck), language)


def _card_back_svg(css: str, face: str, italian_deck: str) -> str:
    deck = deck_for(face, "", italian_deck)
    # the French back's file carries the colour the page gave svg-cards' ``fill: inherit``
    return (f'<svg class="playing-card back back-{deck} {_clean_css(css)}" viewBox="{VIEWBOX[deck]}" width="60" height="90" '
            f'aria-hidden="true">{_drawn(deck, "back")}</svg>')


_FACTS = "cards.facts"


def _render_facts(context: template.Context) -> tuple[str, str]:
    """The deck and the language of this template's render, found once (a board draws dozens of
    cards: each looked both up again, the language through asgiref's context-local storage)."""
    facts = context.render_context.get(_FACTS)
    if facts is None:
        facts = context.render_context[_FACTS] = (deck_in(context), get_language())
    return facts


def deck_in(context: Any) -> str:
    """The Italian deck a template context asks for (Django's or Jinja2's: anything with ``get``):
    its ``italian_deck``, else its user's (or its request's user's) profile, else Napoletane."""
    deck = context.get("italian_deck")
    if deck in ITALIAN_DECKS:
        return deck
    user = context.get("user")
    if user is None:
        request = context.get("request")
        user = getattr(request, "user", None)
    return italian_deck_of(user)


def card_backs_html(count: Any, face: str, deck: str, language: str | None) -> str:
    """A fanned row of ``count`` backs (at most 20 drawn), labelled with the count (safe HTML)."""
    try:
        count = max(0, int(count or 0))
    except (TypeError, ValueError):
        count = 0
    label = ngettext("%(n)d card", "%(n)d cards", count) % {"n": count}
    return format_html('<span class="backs" aria-label="{}">{}</span>', label,
                       mark_safe("".join(card_back_svg("small", face, deck, language)  # noqa: S308
                                         for _ in range(min(count, 20)))))


@register.simple_tag(takes_context=True)
def card(context, code: str, face: str = "italian", css: str = ""):
    """``{% card code face "small" %}``: one card face."""
    return mark_safe(card_svg(str(code), face, css, *_render_facts(context)))  # noqa: S308 (fixed markup)


@register.simple_tag(takes_context=True)
def card_back(context, css: str = "", face: str = ""):
    """``{% card_back %}``: one card back, of the deck in play (the context's ``face``)."""
    face = face or context.get("face") or "italian"
    return mark_safe(card_back_svg(css, face, *_render_facts(context)))  # noqa: S308


@register.simple_tag(takes_context=True)
def card_backs(context, count: int, face: str = ""):
    """``{% card_backs n %}``: a fanned row of ``n`` backs (at most 20 drawn), labelled with the count."""
    return card_backs_html(count, face or context.get("face") or "italian", *_render_facts(context))


SUIT_NAMES = {"italian": {"d": "denari", "c": "coppe", "s": "spade", "b": "bastoni"},
              "french": {"h": "cuori", "d": "quadri", "c": "fiori", "s": "picche"}}


@register.filter
def suit_name(suit: str, face: str = "italian") -> str:
    """``trump_suit`` as a word in the page's language: "s" -> "spade" (Italian faces) or
    "picche"/"spades" (French, or an Italian game drawn with French faces)."""
    suit = str(suit)
    if face == ITALIAN_FRENCH:  # drawn as the French counterpart: named as drawn
        face, suit = "french", ITALIAN_TO_FRENCH_SUIT.get(suit, suit)
    names = SUIT_NAMES["french"] if face == "french" else SUIT_NAMES["italian"]
    word = names.get(suit)
    return str(SUIT_WORDS[word]) if word else str(suit)
