"""The card kit: decks, codes, parsing and the fairness of shuffles."""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest

from apps.games.engines import cards


def test_decks_have_the_right_cards():
    assert len(cards.italian_deck()) == 40 == len(set(cards.italian_deck()))
    assert "7d" in cards.italian_deck() and "Rc" in cards.italian_deck()
    assert len(cards.french_deck()) == 52 == len(set(cards.french_deck()))
    assert {"Qs", "Th", "2c", "Ah"} <= set(cards.french_deck())
    double = cards.double_french_deck()
    assert len(double) == 108 and Counter(double)["X"] == 4 and Counter(double)["Qs"] == 2
    assert len(cards.double_french_deck(jokers=0)) == 104
    assert len(cards.short_french_deck("7")) == 32
    assert set(cards.short_french_deck("7")) == {r + s for s in "hdcs" for r in "A789TJQK"}
    assert len(cards.short_french_deck("3")) == 48


def test_parse_card_and_clear_errors():
    assert cards.parse_card("7d", "italian") == ("7", "d")
    assert cards.parse_card("Qs", "french") == ("Q", "s")
    assert cards.parse_card("X", "french", jokers=True) == ("X", "")
    for bad, kind in [("7x", "italian"), ("Qs", "italian"), ("Fd", "french"), ("", "french"), ("X", "french")]:
        with pytest.raises(ValueError) as error:
            cards.parse_card(bad, kind)
        assert repr(bad) in str(error.value)
    with pytest.raises(ValueError):
        cards.parse_card(7, "italian")
    assert cards.card_name("7d", "italian") == "7 di denari"
    assert cards.card_name("Qs", "french") == "Donna di picche"


def test_seeded_shuffles_are_reproducible_and_independent():
    deck = cards.italian_deck()
    a = cards.shuffled(deck, cards.derive_rng(42, "hand", 0))
    b = cards.shuffled(deck, cards.derive_rng(42, "hand", 0))
    c = cards.shuffled(deck, cards.derive_rng(42, "hand", 1))
    assert a == b and a != c and sorted(a) == sorted(deck)
    assert deck == cards.italian_deck(), "shuffled must not touch its input"
    assert sorted(cards.system_shuffled(deck)) == sorted(deck)
    assert 0 < cards.new_seed() < 2**128


def test_seeded_shuffle_is_the_randrange_fisher_yates():
    """The inlined draw gives exactly the deck ``rng.randrange`` would: saved matches
    replay their later hands from the seed, so a faster shuffle must not move a card."""

    def reference(cards_in, rng):
        out = list(cards_in)
        for i in range(len(out) - 1, 0, -1):
            j = rng.randrange(i + 1)
            out[i], out[j] = out[j], out[i]
        return out

    for size in (0, 1, 2, 3, 40, 52, 104, 108):
        deck = [f"c{i}" for i in range(size)]
        for seed in range(60):
            assert cards.shuffled(deck, cards.derive_rng(seed, "hand", size)) == reference(
                deck, cards.derive_rng(seed, "hand", size)
            )
    # and the generator is left where randrange would leave it
    a, b = cards.derive_rng(5), cards.derive_rng(5)
    cards.shuffled(cards.french_deck(), a)
    reference(cards.french_deck(), b)
    assert a.random() == b.random()
    # a pinned deal (seed 7, first hand): fixed since the first version of the kit
    top = cards.shuffled(cards.french_deck(), cards.derive_rng(7, "hand", 0))[:10]
    assert top == ["Ac", "6h", "4s", "5c", "6d", "3h", "4d", "Qd", "Qh", "Jc"]


def test_shuffles_do_not_use_the_global_random(monkeypatch):
    def forbidden(*args, **kwargs):
        raise AssertionError("the global random module was used")

    for name in ("random", "randrange", "shuffle", "choice", "randint", "getrandbits"):
        monkeypatch.setattr(random, name, forbidden)
    cards.shuffled(cards.italian_deck(), cards.derive_rng(1))
    cards.system_shuffled(cards.french_deck())


def chi_square_critical(df: int, z: float) -> float:
    """Wilson-Hilferty approximation of the chi-square quantile for ``z`` (2.326: 99%)."""
    k = 2 / (9 * df)
    return df * (1 - k + z * math.sqrt(k)) ** 3


def test_shuffle_is_fair_chi_square_99():
    """(card, position) counts over many shuffles of the 40-card deck look uniform."""
    deck = cards.italian_deck()
    runs = 20000
    counts = Counter()
    for run in range(runs):
        for position, card in enumerate(cards.shuffled(deck, cards.derive_rng(2026, run))):
            counts[card, position] += 1
    expected = runs / 40
    chi2 = sum((counts[c, p] - expected) ** 2 / expected for c in deck for p in range(40))
    critical = chi_square_critical((40 - 1) * (40 - 1), 2.326)
    assert chi2 < critical, f"chi-square {chi2:.0f} above the 99% critical value {critical:.0f}"
    # a biased shuffle (the classic off-by-one) must fail the same test
    def biased(cards_in, rng):
        out = list(cards_in)
        for i in range(len(out) - 1, 0, -1):
            j = rng.randrange(i)  # never leaves a card in place: biased
            out[i], out[j] = out[j], out[i]
        return out
    bad = Counter()
    for run in range(runs):
        for position, card in enumerate(biased(deck, cards.derive_rng(2026, run))):
            bad[card, position] += 1
    chi2_bad = sum((bad[c, p] - expected) ** 2 / expected for c in deck for p in range(40))
    assert chi2_bad > critical


def test_deal_round_robin():
    deck = [str(i) for i in range(12)]
    hands = cards.deal_round_robin(deck, 1, 4, 3)
    assert hands[1] == ["0", "4", "8"] and hands[0] == ["3", "7", "11"]
