"""Burraco and Scala 40 figures (a benchmark, not a test: it never asserts).

Run from the project root::

    .venv/bin/python bench/melds_games.py                 # about a minute
    .venv/bin/python bench/melds_games.py --seconds 1 --matches 40

Prints random-playout throughput (whole matches, default options, every player count),
the cost of one ``legal_actions`` call, and the robot's win rate against uniform random
play (2 players; Burraco single hands per variant, Scala 40 whole matches), with the
robot on each side in turn. ``bench/engines.py`` also plays both games, as it plays every
registered engine.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from apps.games.engines import get_engine  # noqa: E402

GAMES = ("burraco", "scala40")


def playouts(game: str, players: int, seconds: float) -> tuple[float, float, float, float]:
    """(matches/s, hands/s, actions/s, microseconds per legal_actions call) of random play."""
    engine = get_engine(game)
    rng = random.Random(1)
    matches = hands = actions = calls = 0
    legal_time = 0.0
    clock = time.perf_counter
    start = clock()
    while clock() - start < seconds:
        state = engine.new_game(players, seed=matches)
        while not state.is_over:
            seat = rng.choice(state.to_act)
            t = clock()
            legal = state.legal_actions(seat)
            legal_time += clock() - t
            calls += 1
            state.apply(seat, rng.choice(legal))
            actions += 1
        matches += 1
        hands += len(state.result()["hands"])
    elapsed = clock() - start
    return matches / elapsed, hands / elapsed, actions / elapsed, 1e6 * legal_time / max(calls, 1)


def robot_rate(game: str, options: dict, matches: int) -> tuple[float, float]:
    """(robot win rate against random, robot milliseconds per decision)."""
    engine = get_engine(game)
    wins = 0
    decisions = 0
    robot_time = 0.0
    for m in range(matches):
        robot = m % 2
        state = engine.new_game(2, options=options, seed=10_000 + m)
        rng = random.Random(m)
        while not state.is_over:
            seat = state.to_act[0]
            if seat % 2 == robot:
                t = time.perf_counter()
                action = engine.bot_action(state, seat, rng)
                robot_time += time.perf_counter() - t
                decisions += 1
            else:
                action = rng.choice(state.legal_actions(seat))
            state.apply(seat, action)
        wins += state.result()["winner"] == robot
    return wins / matches, 1000 * robot_time / max(decisions, 1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="length of each playout run")
    parser.add_argument("--matches", type=int, default=100, help="robot matches per configuration")
    args = parser.parse_args(argv)
    print("random playouts (default options)")
    for game in GAMES:
        for players in get_engine(game).player_counts:
            m, h, a, us = playouts(game, players, args.seconds)
            print(f"  {game:<8} {players}p  {m:8.2f} matches/s  {h:8.2f} hands/s  {a:9,.0f} actions/s"
                  f"  legal_actions {us:7.1f} us")
    print("robot vs uniform random (2 players, robot on each side in turn)")
    configs = [("burraco", {"target": 0, "variant": v}) for v in
               ("aperto", "aperto_sporco", "chiuso", "chiuso_stcl", "chiuso_sporco")]
    configs.append(("scala40", {}))
    for game, options in configs:
        rate, ms = robot_rate(game, options, args.matches)
        label = options.get("variant", "match")
        print(f"  {game:<8} {label:<14} win rate {rate:5.1%} over {args.matches}  ({ms:.2f} ms a decision)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
