"""A poker hand in words, with its ranks (issue 25): "Coppia di Donne batte Coppia di Fanti",
not "Coppia" against "Coppia". Italian rank names with their plural forms, English too.

The cards are those shown at the showdown (public); the category is the engine's name of
the hand (``view["shown"][i]["name"]``), so the words never decide anything.
"""

from __future__ import annotations

from collections import Counter

from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy

ORDER = "23456789TJQKA"
#: a rank alone ("Carta alta: Re")
ONE = {
    "A": pgettext_lazy("poker rank", "Ace"), "K": pgettext_lazy("poker rank", "King"),
    "Q": pgettext_lazy("poker rank", "Queen"), "J": pgettext_lazy("poker rank", "Jack"),
    "T": pgettext_lazy("poker rank", "Ten"), "9": pgettext_lazy("poker rank", "Nine"),
    "8": pgettext_lazy("poker rank", "Eight"), "7": pgettext_lazy("poker rank", "Seven"),
    "6": pgettext_lazy("poker rank", "Six"), "5": pgettext_lazy("poker rank", "Five"),
    "4": pgettext_lazy("poker rank", "Four"), "3": pgettext_lazy("poker rank", "Three"),
    "2": pgettext_lazy("poker rank", "Two"),
}
#: several of a rank ("Coppia di Donne")
MANY = {
    "A": pgettext_lazy("poker ranks", "Aces"), "K": pgettext_lazy("poker ranks", "Kings"),
    "Q": pgettext_lazy("poker ranks", "Queens"), "J": pgettext_lazy("poker ranks", "Jacks"),
    "T": pgettext_lazy("poker ranks", "Tens"), "9": pgettext_lazy("poker ranks", "Nines"),
    "8": pgettext_lazy("poker ranks", "Eights"), "7": pgettext_lazy("poker ranks", "Sevens"),
    "6": pgettext_lazy("poker ranks", "Sixes"), "5": pgettext_lazy("poker ranks", "Fives"),
    "4": pgettext_lazy("poker ranks", "Fours"), "3": pgettext_lazy("poker ranks", "Threes"),
    "2": pgettext_lazy("poker ranks", "Twos"),
}
#: a straight's or a flush's top card ("Scala al Re", "Colore all'Asso")
TOP = {
    "A": pgettext_lazy("poker top card", "Ace-high"), "K": pgettext_lazy("poker top card", "King-high"),
    "Q": pgettext_lazy("poker top card", "Queen-high"), "J": pgettext_lazy("poker top card", "Jack-high"),
    "T": pgettext_lazy("poker top card", "Ten-high"), "9": pgettext_lazy("poker top card", "Nine-high"),
    "8": pgettext_lazy("poker top card", "Eight-high"), "7": pgettext_lazy("poker top card", "Seven-high"),
    "6": pgettext_lazy("poker top card", "Six-high"), "5": pgettext_lazy("poker top card", "Five-high"),
    "4": pgettext_lazy("poker top card", "Four-high"), "3": pgettext_lazy("poker top card", "Three-high"),
    "2": pgettext_lazy("poker top card", "Two-high"),
}


def _ranks_by_count(cards: list[str]) -> list[tuple[str, int]]:
    """Ranks, most repeated first, then highest first."""
    counts = Counter(c[0] for c in cards)
    return sorted(counts.items(), key=lambda rc: (rc[1], ORDER.index(rc[0])), reverse=True)


def _straight_top(cards: list[str]) -> str:
    """The top card of a straight; an ace-low one ("minima") tops at its highest other card."""
    ranks = sorted((c[0] for c in cards), key=ORDER.index)
    if ranks[-1] == "A" and ORDER.index(ranks[-2]) - ORDER.index(ranks[0]) == 3:
        return ranks[-2]
    return ranks[-1]


def hand_words(cards: list[str], category: str) -> str:
    """The hand's category with its ranks, in the page's language."""
    if len(cards) != 5:
        return category
    by_count = _ranks_by_count(cards)
    first, second = by_count[0][0], by_count[1][0]
    words = {
        "Carta alta": lambda: _("High card: %(rank)s") % {"rank": ONE[first]},
        "Coppia": lambda: _("Pair of %(ranks)s") % {"ranks": MANY[first]},
        "Doppia coppia": lambda: _("Two pair, %(high)s and %(low)s") % {"high": MANY[first], "low": MANY[second]},
        "Tris": lambda: _("Three %(ranks)s") % {"ranks": MANY[first]},
        "Scala": lambda: _("Straight, %(top)s") % {"top": TOP[_straight_top(cards)]},
        "Full": lambda: _("Full house, %(three)s over %(two)s") % {"three": MANY[first], "two": MANY[second]},
        "Poker": lambda: _("Four %(ranks)s") % {"ranks": MANY[first]},
        "Colore": lambda: _("Flush, %(top)s") % {"top": TOP[by_count[0][0]]},
        "Scala Massima": lambda: _("Straight flush (Scala Massima), %(top)s") % {"top": TOP[_straight_top(cards)]},
        "Scala Reale": lambda: _("Royal flush (Scala Reale)"),
    }
    make = words.get(category)
    return make() if make is not None else category


def showdown_verdict(shown: list[dict], winner: int | None) -> str:
    """"Coppia di Donne batte Coppia di Fanti": the best hand against the others shown."""
    if not shown or winner is None:
        return ""
    best = next((s for s in shown if s["seat"] == winner), None)
    others = [s for s in shown if s["seat"] != winner]
    if best is None or not others:
        return ""
    return _("%(best)s beats %(others)s") % {
        "best": hand_words(best["cards"], best["name"]),
        "others": ", ".join(hand_words(s["cards"], s["name"]) for s in others)}
