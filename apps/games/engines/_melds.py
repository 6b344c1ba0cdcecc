"""Rummy combinations shared by Burraco and Scala 40: runs, sets and wild cards.

Both games lay runs of one suit in positions ``1`` (low ace) … ``13`` (K) … ``14`` (high
ace), never round the corner, and sets of one rank, each with at most one wild card and
at least two natural cards. Where they differ is a :class:`MeldRules` field, so the
validation, the enumeration of the melds a hand can make and the attach moves are written
once. A meld on the table is a plain dict (JSON as it is)::

    {"kind": "run", "cards": [...], "suit": "h", "low": 3, "wild": 1 or None}
    {"kind": "set", "cards": [...], "rank": "9", "wild": 2 or None}

``cards`` is in canonical order: a run in position order, the wild at the position it
stands for; a set with the natural cards in suit order ``h d c s``, then the wild.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from itertools import combinations, permutations
from typing import Any

JOKER = "X"
SUITS = ("h", "d", "c", "s")
SUIT_INDEX = {s: i for i, s in enumerate(SUITS)}
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K")
RANK_NUMBER = {r: i + 1 for i, r in enumerate(RANKS)}  # A 1, 2 2, …, K 13
LOW, HIGH = "low", "high"

Meld = dict[str, Any]


@dataclass(frozen=True)
class MeldRules:
    """What a game allows. Burraco: every 2 is wild; Scala 40: only jokers, 2s are plain."""

    wild_twos: bool
    #: may a run hold natural aces at both ends (A…A, 14 cards)?
    two_natural_aces: bool
    #: sets at all (Burraco Aperto / Chiuso STCL: runs only)
    sets: bool = True
    #: Scala 40: the natural cards of a set are all of different suits, so 4 cards at most
    set_distinct_suits: bool = False
    set_max: int | None = None


def rank_at(pos: int) -> str:
    """The rank printed on the natural card of run position ``pos`` (1 and 14 are aces)."""
    return "A" if pos in (1, 14) else RANKS[pos - 1]


def natural_code(suit: str, pos: int) -> str:
    return NATURAL[suit][pos]


#: NATURAL[suit][pos]: the natural card of run position ``pos`` (1…14) of ``suit``
NATURAL: dict[str, tuple[str, ...]] = {
    s: ("",) + tuple(("A" if p in (1, 14) else RANKS[p - 1]) + s for p in range(1, 15)) for s in SUITS
}


def is_wild(code: str, rules: MeldRules) -> bool:
    """A joker, or (Burraco) a 2 — unless it lies on its own run position, see ``_natural_at``."""
    return code == JOKER or (rules.wild_twos and code[0] == "2")


def _natural_at(code: str, suit: str, pos: int) -> bool:
    return code != JOKER and code[1] == suit and code[0] == rank_at(pos)


def parse_run(cards: list[str], rules: MeldRules) -> Meld | None:
    """The run these cards form in this order, or ``None``.

    A card that is the natural card of its position is natural (a 2 of the suit in
    position 2 included); any other card must be the one wild of the run.
    """
    n = len(cards)
    if n < 3 or n > 14:
        return None
    suits = sorted({c[1] for c in cards if c != JOKER}, key=SUIT_INDEX.__getitem__)
    for suit in suits:
        for low in range(1, 16 - n):
            wild = None
            for i, code in enumerate(cards):
                if _natural_at(code, suit, low + i):
                    continue
                if wild is None and is_wild(code, rules):
                    wild = i
                    continue
                break
            else:
                if not rules.two_natural_aces and low == 1 and n == 14 and wild not in (0, 13):
                    return None
                return {"kind": "run", "cards": list(cards), "suit": suit, "low": low, "wild": wild}
    return None


def set_order(cards: list[str], rules: MeldRules) -> list[str]:
    """Canonical order of a set: naturals by suit ``h d c s``, then the wild."""
    naturals = sorted((c for c in cards if not is_wild(c, rules)), key=lambda c: SUIT_INDEX[c[1]])
    return naturals + [c for c in cards if is_wild(c, rules)]


def parse_set(cards: list[str], rules: MeldRules) -> Meld | None:
    """The set these cards form (in canonical order only), or ``None``."""
    n = len(cards)
    if not rules.sets or n < 3 or (rules.set_max is not None and n > rules.set_max):
        return None
    naturals = [c for c in cards if not is_wild(c, rules)]
    if n - len(naturals) > 1 or len(naturals) < 2:
        return None
    rank = naturals[0][0]
    if any(c[0] != rank for c in naturals):
        return None
    if rules.set_distinct_suits and len({c[1] for c in naturals}) != len(naturals):
        return None
    if set_order(cards, rules) != list(cards):
        return None
    wild = n - 1 if len(naturals) < n else None
    return {"kind": "set", "cards": list(cards), "rank": rank, "wild": wild}


def parse_meld(cards: Any, rules: MeldRules) -> Meld | None:
    """A run or a set from a card list in canonical order, else ``None``."""
    if type(cards) is not list or not all(type(c) is str for c in cards):
        return None
    return parse_run(cards, rules) or parse_set(cards, rules)


def high(meld: Meld) -> int:
    """Position of the top card of a run."""
    return meld["low"] + len(meld["cards"]) - 1


def wild_card(meld: Meld) -> str | None:
    return None if meld["wild"] is None else meld["cards"][meld["wild"]]


def wild_position(meld: Meld) -> int:
    """The run position a run's wild stands for."""
    return meld["low"] + meld["wild"]


# -- enumeration -------------------------------------------------------------------


def _wild_codes(counts: Counter[str], rules: MeldRules) -> list[str]:
    return sorted(c for c in counts if is_wild(c, rules))


def hand_melds(counts: Counter[str], rules: MeldRules, sizes: range | tuple[int, ...]) -> list[list[str]]:
    """Every distinct canonical meld of a length in ``sizes`` the hand ``counts`` can lay.

    Runs: every window of positions of one suit, all natural or with one wild (each wild
    code at each position counted as a different meld). Sets: every multiset of naturals
    of one rank (distinct suits when the rules say so), alone or with one wild.
    """
    out: list[list[str]] = []
    seen: set[tuple[str, ...]] = set()
    wilds = _wild_codes(counts, rules)
    lo, hi = min(sizes), max(sizes)

    def add(cards: list[str], parser: Any) -> None:
        key = tuple(cards)
        if key in seen:
            return
        if parser(cards, rules) is not None:
            seen.add(key)
            out.append(cards)

    for suit in SUITS:
        nat = NATURAL[suit]
        have = [False] + [counts.get(c, 0) > 0 for c in nat[1:]]
        if sum(have) < 2:
            continue
        for low in range(1, 13):
            missing: list[int] = []
            for top in range(low, 15):
                if not have[top]:
                    missing.append(top)
                    if len(missing) > 1:
                        break
                n = top - low + 1
                if n < 3 or n < lo:
                    continue
                if n > hi:
                    break
                if n not in sizes:
                    continue
                if not missing:
                    naturals = list(nat[low: top + 1])
                    if _fits(naturals, counts):
                        add(naturals, parse_run)
                    places = range(low, top + 1)
                else:
                    places = missing
                for pos in places:
                    for w in wilds:
                        cards = list(nat[low: top + 1])
                        cards[pos - low] = w
                        if _natural_at(w, suit, pos) or not _fits(cards, counts):
                            continue
                        add(cards, parse_run)
    if rules.sets:
        by_rank: dict[str, list[str]] = {}
        for code in sorted(counts, key=lambda c: SUIT_INDEX.get(c[-1], 9)):
            if not is_wild(code, rules):
                by_rank.setdefault(code[0], []).append(code)
        for rank_codes in by_rank.values():
            pool: list[str] = []
            for code in rank_codes:
                pool.extend([code] * (1 if rules.set_distinct_suits else min(counts[code], hi)))
            for k in range(2, min(len(pool), hi) + 1):
                for picked in sorted(set(combinations(pool, k))):
                    naturals = list(picked)
                    if k in sizes and k >= 3:
                        add(naturals, parse_set)
                    if k + 1 in sizes:
                        for w in wilds:
                            cards = naturals + [w]
                            if _fits(cards, counts):
                                add(cards, parse_set)
    return out


def _fits(cards: list[str], counts: Counter[str]) -> bool:
    need = Counter(cards)
    return all(counts[c] >= k for c, k in need.items())


# -- attaching ---------------------------------------------------------------------


def attach_options(meld: Meld, codes: set[str] | Counter[str], rules: MeldRules) -> list[tuple[str, str | None]]:
    """``(card, side)`` pairs of hand codes that can be added to ``meld`` (side ``None`` for sets)."""
    out: list[tuple[str, str | None]] = []
    has_wild = meld["wild"] is not None
    if meld["kind"] == "run":
        suit, low, top = meld["suit"], meld["low"], high(meld)
        wilds = [] if has_wild else [c for c in codes if is_wild(c, rules)]
        for side, pos in ((LOW, low - 1), (HIGH, top + 1)):
            if not 1 <= pos <= 14:
                continue
            nat = NATURAL[suit][pos]
            for code in sorted({nat, *wilds} if nat in codes else wilds):
                if attached(meld, code, side, rules) is not None:
                    out.append((code, side))
        return out
    rank = meld["rank"]
    for code in sorted(c for c in codes if c[0] == rank or (not has_wild and is_wild(c, rules))):
        wild = is_wild(code, rules)
        fits = (wild and not has_wild) or (not wild and code[0] == meld["rank"])
        if fits and attached(meld, code, None, rules) is not None:
            out.append((code, None))
    return out


def attached(meld: Meld, code: str, side: str | None, rules: MeldRules) -> Meld | None:
    """The meld with ``code`` added at ``side`` (runs) or in its place (sets), if valid."""
    if meld["kind"] == "run":
        if side == LOW:
            new = parse_run([code, *meld["cards"]], rules)
            want = meld["low"] - 1
        elif side == HIGH:
            new = parse_run([*meld["cards"], code], rules)
            want = meld["low"]
        else:
            return None
        if new is None or new["low"] != want or new["suit"] != meld["suit"]:
            return None
        return new
    if side is not None:
        return None
    return parse_set(set_order([*meld["cards"], code], rules), rules)


def substituted(meld: Meld, code: str, rules: MeldRules) -> Meld | None:
    """The meld with its wild replaced by the natural ``code`` (the wild leaves the meld).

    In a run ``code`` must be the natural card of the wild's position; in a set any natural
    of the rank the set may hold. Callers decide where the wild goes.
    """
    w = meld["wild"]
    if w is None or code == JOKER or is_wild(code, rules) and meld["kind"] == "set":
        return None
    if meld["kind"] == "run":
        if code != natural_code(meld["suit"], wild_position(meld)):
            return None
        cards = list(meld["cards"])
        cards[w] = code
        new = parse_run(cards, rules)
        if new is None or new["low"] != meld["low"] or new["wild"] is not None:
            return None
        return new
    if code[0] != meld["rank"]:
        return None
    return parse_set(set_order([*meld["cards"][:w], code], rules), rules)


def meld_refusal(cards: Any, hand: list[str], rules: MeldRules) -> str | None:
    """A sentence for a refused meld when its cards themselves are the problem, else ``None``."""
    if type(cards) is not list or not all(type(c) is str for c in cards):
        return "A meld lists its cards as card codes, e.g. [\"5h\", \"6h\", \"7h\"]."
    missing = Counter(cards) - Counter(hand)
    if missing:
        return f"The card {sorted(missing)[0]} is not in your hand."
    if parse_meld(cards, rules) is None:
        if any(parse_meld(list(p), rules) for p in _orders(cards)):
            return ("List the cards in canonical order: a run by position (a wild where it stands),"
                    " a set by suit h, d, c, s, then the wild.")
        return "Those cards do not form a run or a set (at most one wild, at least two natural cards)."
    return None


def _orders(cards: list[str]) -> list[tuple[str, ...]]:
    return list(permutations(cards)) if len(cards) <= 6 else []
