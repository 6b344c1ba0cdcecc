"""``split_cents``: the only rounding rule (platform.md §3.7). Pure integers, no database."""

from __future__ import annotations

from collections.abc import Sequence


def split_cents(total: int, weights: Sequence[int], order: Sequence[int] | None = None) -> list[int]:
    """Divide ``total`` by ``weights`` with the largest-remainder method.

    Shares always sum to ``total``; larger weights never get less. Equal remainders go
    to the earlier recipient in ``order`` (a rank per recipient; default: list order).
    If every weight is 0, every weight counts as 1.
    """
    if type(total) is not int or total < 0:
        raise ValueError(f"total must be a non-negative integer, not {total!r}")
    n = len(weights)
    if n == 0:
        if total:
            raise ValueError("cannot split a non-zero total among nobody")
        return []
    if any(type(w) is not int or w < 0 for w in weights):
        raise ValueError(f"weights must be non-negative integers, not {list(weights)!r}")
    w = list(weights) if sum(weights) else [1] * n
    rank = list(order) if order is not None else list(range(n))
    if len(rank) != n:
        raise ValueError("order must give one rank per recipient")
    big_w = sum(w)
    shares = [total * wi // big_w for wi in w]
    rests = [total * wi % big_w for wi in w]
    left = total - sum(shares)
    for i in sorted(range(n), key=lambda i: (-rests[i], rank[i]))[:left]:
        shares[i] += 1
    return shares
