"""Shared helpers for engine tests: seeded random playouts through the public protocol."""

from __future__ import annotations

import random

import pytest

from apps.games.engines import ENGINES


def engine_cases() -> list[tuple[str, int]]:
    """(game id, player count) for every registered engine and allowed player count."""
    return [(gid, n) for gid, eng in ENGINES.items() for n in eng.player_counts]


def playout(engine, players, seed, *, options=None, deck=None, robot_seats=(), rng_seed=0, max_steps=20000):
    """Play a whole match with uniform random moves (robots on ``robot_seats``).

    Returns (state, steps). Fails the test if the match does not end.
    """
    rng = random.Random(rng_seed)
    state = engine.new_game(players, options=options, seed=seed, deck=deck)
    steps = 0
    while not state.is_over:
        seat = state.to_act[rng.randrange(len(state.to_act))]
        if seat in robot_seats:
            action = engine.bot_action(state, seat, rng)
        else:
            action = rng.choice(state.legal_actions(seat))
        state.apply(seat, action)
        steps += 1
        if steps > max_steps:
            pytest.fail(f"{engine.id}: match did not end within {max_steps} actions")
    return state, steps
