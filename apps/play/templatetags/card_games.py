"""Controls of the card games whose moves are built on the board (Poker all'italiana,
Solitario, Burraco, Scala 40): the page selects cards and a destination, and
``static/js/card_games.js`` sends the one legal action that matches.

The legal actions go to the page with their labels, so the browser never builds an
action itself: it picks one of these (in the engine's canonical card order: a meld
made from cards selected in any order is sent exactly as ``legal_actions`` lists it).
"""

from __future__ import annotations

import json
from typing import Any

from django import template
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from apps.play.presenters import presenter_for

from ..poker_words import hand_words, showdown_verdict

register = template.Library()

FRENCH_SUIT_GLYPH = {"h": "♥", "d": "♦", "c": "♣", "s": "♠"}
#: actions made by selecting cards (and a meld or column) on the board
BOARD_MOVES = {"meld", "attach", "replace", "swap", "discard", "move"}


def card_text(code: str) -> str:
    """A card as a short text: ``10♥``, ``J♠``, the joker as "Jolly"."""
    if code == "X" or not isinstance(code, str) or len(code) != 2:
        return _("Joker") if code == "X" else str(code)
    rank = "10" if code[0] == "T" else code[0]
    return rank + FRENCH_SUIT_GLYPH.get(code[1], code[1])


def cards_text(codes: list[str]) -> str:
    return " ".join(card_text(c) for c in codes)


def move_label(game: str, action: dict[str, Any]) -> str:
    """What a board move does, in words (the proposals the page offers for a selection)."""
    kind = action.get("type")
    card = action.get("card")
    if kind == "meld":
        return _("Meld %(cards)s") % {"cards": cards_text(action.get("cards") or [])}
    if kind == "attach":
        where = {"low": _(" (low end)"), "high": _(" (high end)")}.get(action.get("side"), "")
        return _("Attach %(card)s to meld %(meld)s%(where)s") % {
            "card": card_text(card), "meld": action.get("meld"), "where": where}
    if kind == "replace":
        return _("Put %(card)s in place of the wild card of meld %(meld)s") % {
            "card": card_text(card), "meld": action.get("meld")}
    if kind == "swap":
        return _("Take the joker of meld %(meld)s, giving %(card)s") % {
            "card": card_text(card), "meld": action.get("meld")}
    if kind == "discard":
        return _("Discard %(card)s") % {"card": card_text(card)}
    if kind == "move":
        to = action.get("to")
        dest = _("the foundation") if to == "f" else _("column %(n)s") % {"n": str(to)[1:]}
        return _("%(card)s to %(dest)s") % {"card": card_text(card), "dest": dest}
    if kind == "draw" and isinstance(action.get("cards"), list):
        cards = action["cards"]
        if not cards:
            return _("Stand pat (no change)")
        return _("Change %(n)s: %(cards)s") % {"n": len(cards), "cards": cards_text(cards)}
    return str(kind)


PLAIN_LABELS = {
    "draw": gettext_noop("Draw from the stock"), "take": gettext_noop("Take the discard pile"), "cancel": gettext_noop("Take back my melds"),
    "reenter": gettext_noop("Re-enter the match"), "decline": gettext_noop("Decline re-entry"), "recycle": gettext_noop("Turn the waste over"),
    "end": gettext_noop("End the game"), "check": gettext_noop("Check"), "call": gettext_noop("Call"), "fold": gettext_noop("Fold"),
}


def plain_label(game: str, action: dict[str, Any], phase: str = "") -> str:
    kind = action.get("type")
    return presenter_for(game).button_label(kind, phase) or _(PLAIN_LABELS.get(kind, str(kind)))


@register.simple_tag
def game_controls(legal: list[dict[str, Any]], game: str, phase: str = "") -> dict[str, Any]:
    """Split the legal actions into board moves (sent by selecting cards), plain buttons,
    and poker's bet and raise amounts (a choice each)."""
    board, plain, bets, raises = [], [], [], []
    for action in legal:
        kind = action.get("type")
        encoded = json.dumps(action, separators=(",", ":"))
        if kind in BOARD_MOVES or (kind == "draw" and "cards" in action):
            board.append({"action": action, "label": move_label(game, action)})
        elif kind == "bet":
            bets.append({"json": encoded, "amount": action.get("amount")})
        elif kind == "raise":
            raises.append({"json": encoded, "amount": action.get("amount")})
        else:
            plain.append({"json": encoded, "label": plain_label(game, action, phase), "type": kind})
    return {"board": board, "board_json": json.dumps(board, separators=(",", ":")), "plain": plain,
            "bets": bets, "raises": raises, "draw_phase": any(a.get("type") == "draw" and "cards" in a
                                                                for a in legal)}


@register.filter
def pick_rule(game: str) -> str:
    """How the picked cards name a move at this game's board (its presenter's ``pick_rule``)."""
    return presenter_for(game).pick_rule


@register.filter
def card_label(code: str) -> str:
    return card_text(code)


@register.filter
def waste_shown(waste: list[str], draw: Any) -> list[str]:
    """The waste cards a Solitario player sees: the top one when drawing one at a time (the
    cards under it are no use), the last three turned when drawing three."""
    return list(waste or [])[-3:] if draw == 3 else list(waste or [])[-1:]


@register.filter
def index_of(items: list[Any], value: Any) -> int:
    try:
        return items.index(value)
    except (ValueError, AttributeError):
        return -1


@register.filter
def at(items: Any, index: Any) -> Any:
    """``items[index]`` in a template (a list by a number, a dict by a key); None when missing."""
    try:
        return items[index]
    except (IndexError, KeyError, TypeError):
        try:
            return items[str(index)]
        except (IndexError, KeyError, TypeError):
            return None


@register.simple_tag
def poker_pots(view: dict[str, Any]) -> list[dict[str, Any]]:
    """The pots of the hand in play, main pot first (poker_italiana.md §5.5): the levels of
    the non-folded players' contributions, after the uncovered excess that would go back."""
    contributions = list(view.get("contributions") or [])
    folded = list(view.get("folded") or [])
    if not contributions or not any(contributions):
        return []
    live = sorted(c for c, f in zip(contributions, folded, strict=False) if not f)
    if len(live) >= 2 and live[-1] > live[-2]:
        top = live[-2]  # the excess over the second-largest contribution is returned
        contributions = [min(c, top) if not f else c for c, f in zip(contributions, folded, strict=False)]
        live = sorted(c for c, f in zip(contributions, folded, strict=False) if not f)
    pots, previous = [], 0
    for level in sorted(set(live)):
        amount = sum(min(c, level) - min(c, previous) for c in contributions)
        eligible = [s for s, (c, f) in enumerate(zip(contributions, folded, strict=False)) if not f and c >= level]
        if amount:
            pots.append({"amount": amount, "eligible": eligible})
        previous = level
    return pots


@register.simple_tag
def poker_showdown(view: dict[str, Any]) -> dict[str, Any]:
    """The showdown in words, ranks included (issue 25): each shown hand's name ("Coppia di
    Donne") and the verdict ("Coppia di Donne batte Coppia di Fanti"). The main pot's winner
    holds the best hand: every player shown is eligible for it."""
    shown = list(view.get("shown") or [])
    pots = view.get("last_pots") or []
    winner = pots[0].get("winner") if pots else None
    return {"hands": [{**s, "words": hand_words(s["cards"], s["name"])} for s in shown],
            "verdict": showdown_verdict(shown, winner)}
