"""Speed of the Poker all'italiana hand evaluator, against treys when it is installed.

Prints 5-card evaluations per second of CPU time (``time.process_time``): median and
range over several runs. When ``treys`` is importable (``pip install 'treys>=0.1.8,<0.2'``,
the optional ``bench`` extra; never a runtime dependency) its public
``Evaluator().evaluate(hand, board)`` and its inner ``_five`` are timed on the same hands,
the runs interleaved with ours so that machine load hits both alike, and the ratios printed.

    .venv/bin/python bench/poker_eval.py [--hands 200000] [--runs 7]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from apps.games.engines import _poker_eval as pe  # noqa: E402
from apps.games.engines.cards import short_french_deck  # noqa: E402

try:
    from treys import Card, Evaluator
except ImportError:  # treys is optional: the bench then reports our figures only
    Card = Evaluator = None


def timed(fn, *args) -> float:
    start = time.process_time()
    fn(*args)
    return time.process_time() - start


def run_ours(evaluate, hands) -> None:
    for a, b, c, d, e in hands:
        evaluate(a, b, c, d, e)


def run_treys_public(evaluator, hands) -> None:
    evaluate = evaluator.evaluate
    for hand in hands:
        evaluate(hand[:2], hand[2:])


def run_treys_five(evaluator, hands) -> None:
    five = evaluator._five
    for hand in hands:
        five(hand)


def summary(name: str, n: int, times: list[float]) -> float:
    rates = sorted(n / t for t in times)
    med = statistics.median(rates)
    print(f"{name:<40} {med / 1e6:6.2f} M eval/s  (range {rates[0] / 1e6:.2f}-{rates[-1] / 1e6:.2f}, "
          f"{len(times)} runs)")
    return med


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=200_000)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    rng = random.Random(args.seed)
    deck = short_french_deck("7")  # 32 cards: valid for both evaluators
    codes = [rng.sample(deck, 5) for _ in range(args.hands)]
    ours_hands = [tuple(pe.CARD_INTS[c] for c in hand) for hand in codes]
    evaluate = pe.evaluator(2)
    start = time.process_time()
    for lowest in "76543":
        pe.table_for(lowest)
    print(f"tables for the five short decks built in {time.process_time() - start:.2f} s CPU")

    treys = None
    if Evaluator is not None:
        treys = Evaluator()
        treys_hands = [[Card.new(c) for c in hand] for hand in codes]
    else:
        print("treys is not installed: only our figures (pip install 'treys>=0.1.8,<0.2' to compare)")

    ours, public, five = [], [], []
    for _ in range(args.runs):
        ours.append(timed(run_ours, evaluate, ours_hands))
        if treys is not None:
            public.append(timed(run_treys_public, treys, treys_hands))
            five.append(timed(run_treys_five, treys, treys_hands))
    print(f"{args.hands} random 5-card hands of the 32-card deck, CPU time")
    mine = summary("poker_italiana evaluator", args.hands, ours)
    if treys is not None:
        pub = summary("treys Evaluator.evaluate(hand, board)", args.hands, public)
        inner = summary("treys Evaluator._five(cards)", args.hands, five)
        ratios_pub = sorted(p / o for o, p in zip(ours, public, strict=True))
        ratios_five = sorted(f / o for o, f in zip(ours, five, strict=True))
        print(f"ratio ours / treys evaluate: {mine / pub:.2f}x (per run {ratios_pub[0]:.2f}-{ratios_pub[-1]:.2f})")
        print(f"ratio ours / treys _five:    {mine / inner:.2f}x (per run {ratios_five[0]:.2f}-{ratios_five[-1]:.2f})")


if __name__ == "__main__":
    main()
