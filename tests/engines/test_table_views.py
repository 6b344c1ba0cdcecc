"""Public facts the table page needs, added to the engines' views (issue 12)."""

from __future__ import annotations

import random

from apps.games.engines import get_engine
from apps.games.engines._fishing import score_piles


def _play_until(state, stop, seed=1, limit=500):
    rng = random.Random(seed)
    for _ in range(limit):
        if stop(state) or state.is_over:
            return state
        seat = state.to_act[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    return state


def test_scopa_view_holds_the_sheet_of_the_hand_just_scored():
    state = get_engine("scopa").new_game(2, {"mode": "points", "target": 21}, seed=5)
    assert state.view(None)["last_hand"] is None
    state = _play_until(state, lambda s: s.view(None)["hand_number"] == 2)
    sheet = state.view(None)["last_hand"]
    assert sheet["hand"] == 1
    for key in ("carte", "denari", "settebello", "primiera", "scope", "points"):
        assert key in sheet
    assert sum(sheet["carte"]) == 40
    assert sheet == state.view(0)["last_hand"] == state.view(1)["last_hand"]  # public: the same for everyone
    assert score_piles  # the sheet is the engine's own scoring, not the page's


def test_briscola_view_counts_the_points_each_side_took():
    state = get_engine("briscola").new_game(2, None, seed=3)
    state = _play_until(state, lambda s: sum(s.view(None)["captured_counts"]) >= 10)
    view = state.view(None)
    points = {"A": 11, "3": 10, "R": 4, "C": 3, "F": 2}
    assert view["points_taken"] == [sum(points.get(c[0], 0) for c in pile) for pile in state.piles]
    final = _play_until(state, lambda s: False)
    assert sum(final.view(None)["points_taken"]) == 120


def test_hearts_view_says_where_the_cards_are_passed():
    state = get_engine("hearts").new_game(4, None, seed=2)
    assert state.view(None)["pass_direction"] == "right"
