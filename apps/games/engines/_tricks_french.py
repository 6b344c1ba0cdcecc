"""Shared tables for the French-deck trick-taking games (Hearts, Spades).

Why a helper: both games deal 52 cards 13 each, follow suit and need legal moves fast
(random playouts drive thousands of hands a second). Internally a card is an integer
``suit * 13 + rank`` with suits in the order ``c d s h`` (Hearts' canonical pass order)
and ranks ``2..A`` as ``0..12``, so sorting indices sorts cards canonically and "higher
card of the same suit" is "higher index". A hand is four 13-bit masks, one per suit:
legal moves are one suit bucket (or a few) read from precomputed code tuples.
"""

from __future__ import annotations

from collections.abc import Sequence

from . import cards

SUITS = "cdsh"
RANKS = "23456789TJQKA"
CLUBS, DIAMONDS, SPADES, HEARTS = 0, 1, 2, 3
FULL_SUIT = (1 << 13) - 1

#: card index -> code, and back
CODES: tuple[str, ...] = tuple(rank + suit for suit in SUITS for rank in RANKS)
INDEX: dict[str, int] = {code: i for i, code in enumerate(CODES)}
SUIT_OF: tuple[int, ...] = tuple(i // 13 for i in range(52))
RANK_OF: tuple[int, ...] = tuple(i % 13 for i in range(52))
BIT_OF: tuple[int, ...] = tuple(1 << (i % 13) for i in range(52))

#: MASK_CODES[suit][mask]: the codes of that suit's cards in ``mask``, low to high
MASK_CODES: tuple[tuple[tuple[str, ...], ...], ...] = tuple(
    tuple(
        tuple(CODES[suit * 13 + r] for r in range(13) if mask >> r & 1)
        for mask in range(FULL_SUIT + 1)
    )
    for suit in range(4)
)

#: the French deck in the kit's order: the list every shuffle starts from
FRENCH_DECK: tuple[str, ...] = tuple(cards.french_deck())

SUIT_NAMES = {"c": "clubs (fiori)", "d": "diamonds (quadri)", "s": "spades (picche)", "h": "hearts (cuori)"}


def suit_name(suit: int) -> str:
    return SUIT_NAMES[SUITS[suit]]


def deal_masks(deck: Sequence[str], dealer: int) -> list[list[int]]:
    """Deal 52 cards one at a time from the seat after ``dealer``; hands as suit masks."""
    return _deal_indices([INDEX[code] for code in deck], dealer)


def _deal_indices(deck: Sequence[int], dealer: int) -> list[list[int]]:
    hands = [[0, 0, 0, 0] for _ in range(4)]
    suit_of, bit_of = SUIT_OF, BIT_OF
    for offset in range(4):
        hand = hands[(dealer + 1 + offset) % 4]
        for i in deck[offset::4]:
            hand[suit_of[i]] |= bit_of[i]
    return hands


def hand_codes(hand: Sequence[int]) -> list[str]:
    """A hand's codes in canonical order (c, d, s, h; 2..A)."""
    table = MASK_CODES
    return [*table[0][hand[0]], *table[1][hand[1]], *table[2][hand[2]], *table[3][hand[3]]]


def hand_count(hand: Sequence[int]) -> int:
    return hand[0].bit_count() + hand[1].bit_count() + hand[2].bit_count() + hand[3].bit_count()


def masks_from_codes(codes: Sequence[str]) -> list[int]:
    hand = [0, 0, 0, 0]
    for code in codes:
        i = INDEX[code]
        hand[SUIT_OF[i]] |= BIT_OF[i]
    return hand


def play_actions(hand: Sequence[int], suits: Sequence[int]) -> list[dict[str, str]]:
    """Fresh ``{"type": "play", "card": c}`` dicts for every card of ``suits`` in ``hand``."""
    table = MASK_CODES
    return [{"type": "play", "card": c} for s in suits for c in table[s][hand[s]]]


def is_code(value: object) -> bool:
    return type(value) is str and value in INDEX


#: the kit's French deck as card indices: shuffling it with ``cards.shuffled`` applies the
#: very permutation that shuffling the codes would, without a code lookup per card
_FRENCH_INDICES: tuple[int, ...] = tuple(INDEX[code] for code in FRENCH_DECK)


def shuffled_deck(seed: int, hand_no: int) -> list[str]:
    """The fresh shuffle of hand ``hand_no`` (0-based) of a match, as codes."""
    return cards.shuffled(FRENCH_DECK, cards.derive_rng(seed, "hand", hand_no))


def deal_shuffled(seed: int, hand_no: int, dealer: int) -> list[list[int]]:
    """Deal ``shuffled_deck(seed, hand_no)`` (same shuffle, same deal) straight to suit masks."""
    return _deal_indices(cards.shuffled(_FRENCH_INDICES, cards.derive_rng(seed, "hand", hand_no)), dealer)


