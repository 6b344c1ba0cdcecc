"""Decks, card codes and shuffles (shared/spec/ENGINE.md, "Card codes").

A card is a short string: rank then suit (``7d``, ``Qs``) or ``X`` for a joker.
Shuffles come from a seeded ``random.Random`` built here from the match seed, or from
``secrets.SystemRandom``; never from the global ``random`` module, so no other code can
influence or observe a deal.
"""

from __future__ import annotations

import hashlib
import random
import secrets
from collections.abc import Iterable, Sequence
from typing import Literal, TypeVar

ITALIAN_RANKS = ("A", "2", "3", "4", "5", "6", "7", "F", "C", "R")
ITALIAN_SUITS = ("d", "c", "s", "b")  # denari, coppe, spade, bastoni
FRENCH_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K")
FRENCH_SUITS = ("h", "d", "c", "s")  # cuori, quadri, fiori, picche
JOKER = "X"

ITALIAN_SUIT_NAMES = {"d": "denari", "c": "coppe", "s": "spade", "b": "bastoni"}
FRENCH_SUIT_NAMES = {"h": "cuori", "d": "quadri", "c": "fiori", "s": "picche"}
ITALIAN_RANK_NAMES = {"A": "Asso", "F": "Fante", "C": "Cavallo", "R": "Re"}
FRENCH_RANK_NAMES = {"A": "Asso", "T": "10", "J": "Jack", "Q": "Donna", "K": "Re"}

DeckKind = Literal["italian", "french"]
T = TypeVar("T")


def italian_deck() -> list[str]:
    """The 40 Italian cards, suit by suit (d, c, s, b), ranks A..R."""
    return [rank + suit for suit in ITALIAN_SUITS for rank in ITALIAN_RANKS]


def french_deck() -> list[str]:
    """The 52 French cards, suit by suit (h, d, c, s), ranks A..K."""
    return [rank + suit for suit in FRENCH_SUITS for rank in FRENCH_RANKS]


def double_french_deck(jokers: int = 4) -> list[str]:
    """Two French decks plus ``jokers`` jokers (Burraco 108, Scala 40 108, aperto 104)."""
    return french_deck() + french_deck() + [JOKER] * jokers


def short_french_deck(lowest: str) -> list[str]:
    """A short poker deck: every French card from ``lowest`` up to K, plus the aces.

    ``short_french_deck("7")`` is the 32-card deck (A, 7..K in four suits).
    """
    if lowest not in FRENCH_RANKS[1:]:
        raise ValueError(f"no short deck starts at rank {lowest!r}")
    ranks = ("A",) + FRENCH_RANKS[FRENCH_RANKS.index(lowest):]
    return [rank + suit for suit in FRENCH_SUITS for rank in ranks]


_ITALIAN = frozenset(italian_deck())
_FRENCH = frozenset(french_deck())


def is_card(code: object, kind: DeckKind | None = None, *, jokers: bool = False) -> bool:
    """True if ``code`` is a card code (of ``kind``, when given)."""
    if not isinstance(code, str):
        return False
    if code == JOKER:
        return jokers or kind is None
    if kind == "italian":
        return code in _ITALIAN
    if kind == "french":
        return code in _FRENCH
    return code in _ITALIAN or code in _FRENCH


def parse_card(code: object, kind: DeckKind, *, jokers: bool = False) -> tuple[str, str]:
    """Split a code into (rank, suit); ``ValueError`` with a readable message otherwise.

    A joker parses as ``("X", "")``.
    """
    if not isinstance(code, str):
        raise ValueError(f"a card code must be a string, not {code!r}")
    if not is_card(code, kind, jokers=jokers):
        ranks = "".join(ITALIAN_RANKS if kind == "italian" else FRENCH_RANKS)
        suits = "".join(ITALIAN_SUITS if kind == "italian" else FRENCH_SUITS)
        extra = " or X (joker)" if jokers else ""
        raise ValueError(
            f"{code!r} is not a card of the {kind} deck: a rank of {ranks} then a suit of"
            f" {suits}{extra}"
        )
    if code == JOKER:
        return JOKER, ""
    return code[0], code[1]


def card_name(code: str, kind: DeckKind) -> str:
    """Italian display name: ``7d`` → "7 di denari", ``Qs`` → "Donna di picche"."""
    rank, suit = parse_card(code, kind, jokers=True)
    if rank == JOKER:
        return "Jolly"
    if kind == "italian":
        return f"{ITALIAN_RANK_NAMES.get(rank, rank)} di {ITALIAN_SUIT_NAMES[suit]}"
    return f"{FRENCH_RANK_NAMES.get(rank, rank)} di {FRENCH_SUIT_NAMES[suit]}"


# -- randomness ----------------------------------------------------------------


def new_seed() -> int:
    """A fresh 128-bit match seed from the operating system's generator."""
    return secrets.randbits(128)


def derive_rng(seed: int, *labels: object) -> random.Random:
    """A private generator for one purpose of one match (``derive_rng(seed, "hand", 3)``).

    The seed and labels are hashed with SHA-256 into a 256-bit seed, so every hand of a
    match gets an independent, reproducible shuffle and the state needs to store only
    the match seed, never a generator's internal state.
    """
    material = repr((int(seed),) + tuple(labels)).encode()
    return random.Random(int.from_bytes(hashlib.sha256(material).digest(), "big"))


#: ``_BITS[n]`` is ``n.bit_length()``: the bits ``Random._randbelow(n)`` draws per try
_BITS: tuple[int, ...] = tuple(n.bit_length() for n in range(257))


def shuffled(cards: Iterable[T], rng: random.Random | secrets.SystemRandom) -> list[T]:
    """A new list with ``cards`` in random order (Fisher-Yates on ``rng``).

    Position ``i`` (from the last) swaps with ``rng.randrange(i + 1)``. For a plain seeded
    ``random.Random`` the draw is inlined: ``randrange(n)`` is ``_randbelow(n)``, which takes
    ``getrandbits(n.bit_length())`` until the value is below ``n``; the same calls on the
    same generator give the very same deck (a test pins it), in a third of the time, and
    every hand of every match is shuffled here.
    """
    deck = list(cards)
    if type(rng) is random.Random and len(deck) < len(_BITS):
        getrandbits, bits = rng.getrandbits, _BITS
        for i in range(len(deck) - 1, 0, -1):
            n = i + 1
            k = bits[n]
            j = getrandbits(k)
            while j >= n:
                j = getrandbits(k)
            deck[i], deck[j] = deck[j], deck[i]
        return deck
    for i in range(len(deck) - 1, 0, -1):
        j = rng.randrange(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def system_shuffled(cards: Iterable[str]) -> list[str]:
    """Shuffle with ``secrets.SystemRandom`` (no seed, not reproducible)."""
    return shuffled(cards, secrets.SystemRandom())


def deal_round_robin(deck: Sequence[str], first_seat: int, players: int, per_seat: int) -> list[list[str]]:
    """Deal ``per_seat`` cards one at a time from the top, starting with ``first_seat``.

    ``deck[i]`` goes to seat ``(first_seat + i) % players``; returns hands by seat.
    """
    hands: list[list[str]] = [[] for _ in range(players)]
    for i in range(players * per_seat):
        hands[(first_seat + i) % players].append(deck[i])
    return hands
