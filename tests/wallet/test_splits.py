"""split_cents, with the examples of platform.md §3.7, §5.4 and §6.7 (no database)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from apps.wallet.splits import split_cents


def test_spec_examples():
    assert split_cents(1003, [50, 30, 20]) == [501, 301, 201]
    assert split_cents(4005, [50, 30, 20]) == [2003, 1201, 801]
    assert split_cents(5000, [1, 1, 1]) == [1667, 1667, 1666]
    assert split_cents(10000, [1] * 7) == [1429] * 4 + [1428] * 3
    assert split_cents(3001, [1, 1, 1, 1]) == [751, 750, 750, 750]
    vp = [4, 0, 6, 2, 2, 3, 2, 4, 3, 4, 4, 1, 1, 4, 2, 6]
    assert split_cents(8800, vp) == [734, 0, 1100, 367, 367, 550, 367, 733, 550, 733, 733, 183, 183, 733, 367, 1100]
    assert split_cents(160, [1, 1]) == [80, 80]
    assert split_cents(7, [0, 0]) == [4, 3]  # all-zero weights count as equal


def test_order_breaks_ties():
    assert split_cents(1, [1, 1, 1], order=[2, 0, 1]) == [0, 1, 0]
    assert split_cents(2, [1, 1, 1], order=[2, 1, 0]) == [0, 1, 1]


@pytest.mark.parametrize("bad", [(-1, [1]), (5, []), (5, [1, -1]), (5.0, [1]), (5, [1.5])])
def test_bad_input(bad):
    with pytest.raises(ValueError):
        split_cents(*bad)


@given(total=st.integers(0, 10**9), weights=st.lists(st.integers(0, 1000), min_size=1, max_size=30))
def test_never_loses_a_cent_and_keeps_order(total, weights):
    shares = split_cents(total, weights)
    assert sum(shares) == total and all(s >= 0 for s in shares)
    for i in range(len(weights)):
        for j in range(len(weights)):
            if weights[i] > weights[j]:
                assert shares[i] >= shares[j]
    big_w = sum(weights) or len(weights)
    effective = weights if sum(weights) else [1] * len(weights)
    for s, w in zip(shares, effective, strict=True):
        assert abs(s * big_w - total * w) < big_w  # within one cent of the exact share
