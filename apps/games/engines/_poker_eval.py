"""Hand evaluator of Poker all'italiana (shared/spec/games/poker_italiana.md §8).

Pure and fast: a hand of five card *ints* is summed into one integer whose low bits
count the cards of each rank and flag a flush, and whose high bits are the set of the
cards. One dict lookup on the low bits gives the hand's rank-order value and which
rank's suit breaks a tie; the suit is read from the high bits. The lookup tables are
built once per short deck (its lowest rank fixes the ace-low straight, and with the
32-card deck Colore beats Poker) from :func:`reference_key`, the plain transcription
of the rules file's tables.

Values compare as ints: a higher value is a better hand; two different hands that can
meet in one showdown (no shared card) never have the same value.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from functools import cache
from itertools import combinations, combinations_with_replacement

RANKS = "23456789TJQKA"  # index 0..12
SUIT_ORDER = {"s": 0, "c": 1, "d": 2, "h": 3}  # tie-break strength: Cuori > Quadri > Fiori > Picche
ACE = 12

# categories, low to high, for each table (k ≤ 4: Colore beats Poker)
CATEGORIES_SMALL = ("Carta alta", "Coppia", "Doppia coppia", "Tris", "Scala", "Full", "Poker", "Colore",
                    "Scala Massima", "Scala Reale")
CATEGORIES_LARGE = ("Carta alta", "Coppia", "Doppia coppia", "Tris", "Scala", "Full", "Colore", "Poker",
                    "Scala Massima", "Scala Reale")

_HIGH = 64  # bit offset of the card-set field
_SUIT_FIELD = 40  # bit offset of the four 4-bit suit counters
_OFFSET = sum(3 << (_SUIT_FIELD + 4 * s) for s in range(4))  # 5 cards of a suit + 3 sets the field's bit 3
_FLUSH_BITS = sum(8 << (_SUIT_FIELD + 4 * s) for s in range(4))
_KEY_MASK = ((1 << 39) - 1) | _FLUSH_BITS


def card_int(code: str) -> int:
    """The evaluator's integer for a card code (``"Th"``)."""
    rank, suit = RANKS.index(code[0]), SUIT_ORDER[code[1]]
    return (1 << (_HIGH + 4 * rank + suit)) | (1 << (3 * rank)) | (1 << (_SUIT_FIELD + 4 * suit))


CARD_INTS: dict[str, int] = {r + s: card_int(r + s) for r in RANKS for s in SUIT_ORDER}


def lowest_rank(k: int) -> str:
    """The lowest rank of the deck for ``k`` players dealt in (§3)."""
    return "7" if k <= 4 else {5: "6", 6: "5", 7: "4", 8: "3"}[k]


def colore_beats_poker(k: int) -> bool:
    return k <= 4


def _straight_top(ranks: list[int], lowest: int) -> int | None:
    """Top rank of a straight of five distinct ranks (ace-low: the highest non-ace), else None."""
    s = sorted(ranks)
    if s[4] - s[0] == 4:
        return s[4]
    if s[4] == ACE and s[:4] == list(range(lowest, lowest + 4)):
        return s[3]
    return None


def reference_key(cards: list[tuple[int, int]], lowest: int) -> tuple[int, tuple[int, ...], int]:
    """(category index, ranks compared in order, suit of the tie-breaking card): §8 as written.

    ``cards`` are (rank index, suit order) pairs; ``lowest`` the deck's lowest rank index.
    The category index is in the table of the deck (Colore above Poker only at 32 cards).
    """
    small = lowest == RANKS.index("7")
    names = CATEGORIES_SMALL if small else CATEGORIES_LARGE
    ranks = [r for r, _ in cards]
    suit_of = {r: s for r, s in cards}  # used only for ranks that appear once
    counts = Counter(ranks)
    flush = len({s for _, s in cards}) == 1
    top = _straight_top(ranks, lowest) if len(counts) == 5 else None
    desc = sorted(ranks, reverse=True)
    if flush and top is not None:
        name = "Scala Reale" if top == ACE else "Scala Massima"
        return names.index(name), (top,), suit_of[top]
    if flush:
        return names.index("Colore"), tuple(desc), suit_of[desc[0]]
    by_count = sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    shape = tuple(c for _, c in by_count)
    if shape == (4, 1):
        return names.index("Poker"), (by_count[0][0], by_count[1][0]), 0
    if shape == (3, 2):
        return names.index("Full"), (by_count[0][0], by_count[1][0]), 0
    if top is not None:
        return names.index("Scala"), (top,), suit_of[top]
    if shape == (3, 1, 1):
        return names.index("Tris"), tuple(r for r, _ in by_count), 0
    if shape == (2, 2, 1):
        fifth = by_count[2][0]
        return names.index("Doppia coppia"), tuple(r for r, _ in by_count), suit_of[fifth]
    if shape == (2, 1, 1, 1):
        return names.index("Coppia"), tuple(r for r, _ in by_count), suit_of[by_count[1][0]]
    return names.index("Carta alta"), tuple(desc), suit_of[desc[0]]


def _pack(category: int, ranks: tuple[int, ...]) -> int:
    value = category
    for i in range(5):
        value = (value << 4) | (ranks[i] if i < len(ranks) else 0)
    return value << 4  # the low 4 bits receive the tie-break suit bit (1, 2, 4, 8)


@cache
def table_for(lowest: str) -> dict[int, tuple[int, int]]:
    """Lookup table of one short deck: low-bits key -> (value without suit, shift to the suit)."""
    low = RANKS.index(lowest)
    deck_ranks = list(range(low, 13))
    table: dict[int, tuple[int, int]] = {}
    for multiset in combinations_with_replacement(deck_ranks, 5):
        counts = Counter(multiset)
        if max(counts.values()) > 4:
            continue
        key = sum(1 << (3 * r) for r in multiset)
        flush_options = range(4) if len(counts) == 5 else ()
        # non-flush: suits chosen so that no five share one; the key only needs the rank of the
        # tie-breaking card, never its suit
        cards = [(r, i % 4) for i, r in enumerate(multiset)]  # suits 0 1 2 3 0: never a flush
        category, ranks, _ = reference_key(cards, low)
        table[key] = (_pack(category, ranks), _HIGH + 4 * _tiebreak_rank(cards, low, flush=False))
        for suit in flush_options:
            fcards = [(r, suit) for r in multiset]
            category, ranks, _ = reference_key(fcards, low)
            table[key | (8 << (_SUIT_FIELD + 4 * suit))] = (
                _pack(category, ranks), _HIGH + 4 * _tiebreak_rank(fcards, low, flush=True))
    return table


def _tiebreak_rank(cards: list[tuple[int, int]], low: int, *, flush: bool) -> int:
    """The rank whose (single) card's suit breaks ties, per §8's last column."""
    ranks = [r for r, _ in cards]
    counts = Counter(ranks)
    if len(counts) == 5:
        top = _straight_top(ranks, low)
        return top if top is not None else max(ranks)
    singles = [r for r, c in counts.items() if c == 1]
    if singles:
        return max(singles)
    return max(ranks)  # full house: cannot tie, any card will do


def evaluator(k: int) -> Callable[[int, int, int, int, int], int]:
    """The fast evaluation function for ``k`` players dealt in: ``f(a, b, c, d, e) -> value``."""
    return _evaluator(lowest_rank(k))


@cache
def _evaluator(lowest: str) -> Callable[[int, int, int, int, int], int]:
    table = table_for(lowest)

    def evaluate5(a: int, b: int, c: int, d: int, e: int, _t: dict = table, _o: int = _OFFSET,
                  _m: int = _KEY_MASK) -> int:
        s = a + b + c + d + e + _o
        base, shift = _t[s & _m]
        return base + ((s >> shift) & 15)

    return evaluate5


def hand_value(cards: list[str], k: int) -> int:
    """Value of a five-card hand given as codes (higher is better)."""
    ints = [CARD_INTS[c] for c in cards]
    return evaluator(k)(*ints)


def category_name(value: int, k: int) -> str:
    """The Italian name of a value's category (``"Colore"``, ``"Doppia coppia"``...)."""
    names = CATEGORIES_SMALL if colore_beats_poker(k) else CATEGORIES_LARGE
    return names[value >> 24]


def hand_name(cards: list[str], k: int) -> str:
    return category_name(hand_value(cards, k), k)


def best_of(hands: dict[int, list[str]], k: int) -> int:
    """The seat with the best hand (suits make it unique among disjoint hands)."""
    return max(hands, key=lambda seat: hand_value(hands[seat], k))


def all_hands(deck: list[str]) -> list[tuple[str, ...]]:
    """Every five-card hand of ``deck`` (for tests and the bench)."""
    return list(combinations(deck, 5))
