"""The game catalogue, read from the engine registry."""

from __future__ import annotations

from apps.games.engines import ENGINES


def game_catalogue() -> list[dict]:
    return [
        {"id": e.id, "name": e.name, "min_players": e.min_players, "max_players": e.max_players,
         "player_counts": list(e.player_counts), "faces": list(e.card_faces()),
         "currencies": list(e.currencies), "running_points_hidden": e.running_points_hidden}
        for e in sorted(ENGINES.values(), key=lambda e: e.name)
    ]
