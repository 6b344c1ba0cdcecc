"""Every registered game (and every Burraco variant) has its whole match through the page."""

from __future__ import annotations

from apps.games.engines import ENGINES, get_engine

from .whole_match import ALL_GAMES, BURRACO_VARIANTS


def test_every_registered_game_and_variant_is_played_through_the_page():
    assert {game for _name, game, _players, _options in ALL_GAMES} == set(ENGINES)
    assert set(BURRACO_VARIANTS) == set(get_engine("burraco").options["variant"]["choices"])
