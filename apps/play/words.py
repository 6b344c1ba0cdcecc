"""Cards and moves in words, in the reader's language: "Mario gioca il 7 di denari, prende il 4 di
bastoni e il 3 di coppe". Used by the table's last-move line and by the replay.

Only public facts are put in words: a pass or a poker change says that it happened, never which
cards (a Burraco or Scala 40 discard is face up on the pile, so it is named).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

ITALIAN_SUITS = {"d": gettext_lazy("coins"), "c": gettext_lazy("cups"), "s": gettext_lazy("swords"),
                 "b": gettext_lazy("batons")}
FRENCH_SUITS = {"h": gettext_lazy("hearts"), "d": gettext_lazy("diamonds"), "c": gettext_lazy("clubs"),
                "s": gettext_lazy("spades")}
# each rank with its article: Italian needs "l'Asso" but "il 7"
ITALIAN_RANKS = {
    "A": gettext_lazy("the Ace of %(suit)s"), "2": gettext_lazy("the 2 of %(suit)s"),
    "3": gettext_lazy("the 3 of %(suit)s"), "4": gettext_lazy("the 4 of %(suit)s"),
    "5": gettext_lazy("the 5 of %(suit)s"), "6": gettext_lazy("the 6 of %(suit)s"),
    "7": gettext_lazy("the 7 of %(suit)s"), "F": gettext_lazy("the Jack of %(suit)s"),
    "C": gettext_lazy("the Knight of %(suit)s"), "R": gettext_lazy("the King of %(suit)s"),
}
FRENCH_RANKS = {
    **{k: v for k, v in ITALIAN_RANKS.items() if k in "A234567"},
    "8": gettext_lazy("the 8 of %(suit)s"), "9": gettext_lazy("the 9 of %(suit)s"),
    "T": gettext_lazy("the 10 of %(suit)s"), "J": gettext_lazy("the Jack of %(suit)s"),
    "Q": gettext_lazy("the Queen of %(suit)s"), "K": gettext_lazy("the King of %(suit)s"),
}


def card_words(code: str, french: bool) -> str:
    """ "7d" -> "il 7 di denari" (Italian deck) / "the 7 of diamonds" (French, in English)."""
    if code == "X":
        return _("the Joker")
    if not isinstance(code, str) or len(code) != 2:
        return str(code)
    ranks, suits = (FRENCH_RANKS, FRENCH_SUITS) if french else (ITALIAN_RANKS, ITALIAN_SUITS)
    rank, suit = ranks.get(code[0]), suits.get(code[1])
    if rank is None or suit is None:
        return str(code)
    return str(rank) % {"suit": suit}


def suit_words(suit: str, french: bool) -> str:
    return str((FRENCH_SUITS if french else ITALIAN_SUITS).get(suit, suit))


def join_words(items: list[str]) -> str:
    """ "a", "a e b", "a, b e c" ("and" in English)."""
    items = [str(i) for i in items]
    if len(items) <= 1:
        return "".join(items)
    return _("%(first)s and %(last)s") % {"first": ", ".join(items[:-1]), "last": items[-1]}


DECLARATIONS = {"knock": gettext_lazy("%(name)s knocks: plays this hand"),
                "pass": gettext_lazy("%(name)s passes"),
                "keep": gettext_lazy("%(name)s keeps the cards"),
                "buio": gettext_lazy("%(name)s plays blind")}


#: moves of the games played on the board that need no card named
BOARD_MOVES = {"take": gettext_lazy("%(name)s takes from the discard pile"),
               "cancel": gettext_lazy("%(name)s takes back the melds"),
               "reenter": gettext_lazy("%(name)s re-enters the match"),
               "decline": gettext_lazy("%(name)s leaves the match"),
               "recycle": gettext_lazy("%(name)s turns the waste over"),
               "end": gettext_lazy("%(name)s ends the game"),
               "check": gettext_lazy("%(name)s checks"), "call": gettext_lazy("%(name)s calls"),
               "fold": gettext_lazy("%(name)s folds"),
               "forfeit": gettext_lazy("%(name)s left the hand: folded")}


def move_words(*, name: str, action: dict[str, Any] | None, events: list[dict[str, Any]] | None,
               french: bool) -> str:
    """One move as a sentence. ``events`` (the engine's, as stored) add what the move did: the
    scopa, the trick's winner is told by the board instead."""
    if not isinstance(action, dict):
        return ""
    kind = action.get("type")
    card = action.get("card")
    if kind == "play" and isinstance(card, str):
        capture = action.get("capture")
        if not capture and events:  # the engine chose the capture (one option)
            capture = next((e.get("capture") for e in events if e.get("type") == "play" and e.get("capture")), None)
        text = _("%(name)s plays %(card)s") % {"name": name, "card": card_words(card, french)}
        if capture:
            text = _("%(name)s plays %(card)s, takes %(taken)s") % {
                "name": name, "card": card_words(card, french),
                "taken": join_words([card_words(c, french) for c in capture])}
        if any(e.get("scopa") for e in events or ()):
            text += " — " + _("Scopa!")
        return text
    if kind == "pass" and isinstance(action.get("cards"), list):
        return _("%(name)s passes three cards") % {"name": name}
    if kind == "bid":
        bid = action.get("bid")
        if bid == 0:
            return _("%(name)s bids nil") % {"name": name}
        return _("%(name)s bids %(bid)s") % {"name": name, "bid": bid}
    if kind in DECLARATIONS:
        return str(DECLARATIONS[kind]) % {"name": name}
    if kind == "accuso":
        return _("%(name)s declares %(what)s") % {"name": name, "what": str(action.get("accuso") or "").title()}
    if kind == "discard" and isinstance(card, str):  # Burraco and Scala 40 discard face up
        return _("%(name)s discards %(card)s") % {"name": name, "card": card_words(card, french)}
    if kind == "discard":
        return _("%(name)s discards") % {"name": name}
    if kind == "draw" and isinstance(action.get("cards"), list):  # poker's change: how many, never which
        n = len(action["cards"])
        if n == 0:
            return _("%(name)s stands pat") % {"name": name}
        return _("%(name)s changes %(n)s cards") % {"name": name, "n": n}
    if kind == "draw":
        return _("%(name)s draws") % {"name": name}
    if kind in BOARD_MOVES:
        return str(BOARD_MOVES[kind]) % {"name": name}
    if kind == "meld" and isinstance(action.get("cards"), list):
        return _("%(name)s melds %(n)s cards") % {"name": name, "n": len(action["cards"])}
    if kind in ("attach", "replace", "swap") and isinstance(card, str):
        words = {"attach": _("%(name)s attaches %(card)s to a meld"),
                 "replace": _("%(name)s puts %(card)s in place of a wild card"),
                 "swap": _("%(name)s takes a joker from a meld, giving %(card)s")}[kind]
        return words % {"name": name, "card": card_words(card, french)}
    if kind == "move" and isinstance(card, str):
        where = _("to a foundation") if action.get("to") == "f" else _("to a column")
        return _("%(name)s moves %(card)s %(where)s") % {"name": name, "card": card_words(card, french),
                                                         "where": where}
    if kind in ("bet", "raise") and isinstance(action.get("amount"), int):
        words = _("%(name)s bets %(n)s") if kind == "bet" else _("%(name)s raises by %(n)s")
        return words % {"name": name, "n": action["amount"]}
    return _("%(name)s moves") % {"name": name}
