"""What the lobby shows, read from the apps below it in a fixed number of queries."""

from __future__ import annotations

from typing import Any

from apps.common.roles import is_player
from apps.games.selectors import game_catalogue
from apps.tables.selectors import players_online_count, tables_waiting
from apps.tournaments.selectors import my_matches_in_play, tournaments_next


def lobby_live(*, user) -> dict[str, Any]:
    """The live part of the lobby: tables waiting for players, tournaments starting next, the
    viewer's tournament matches ready to play, players online. Its query count does not grow
    with the number of tables or tournaments."""
    names = {g["id"]: g["name"] for g in game_catalogue()}
    tables = tables_waiting()
    me = user.pk if getattr(user, "is_authenticated", False) else None
    for t in tables:
        t["game_name"] = names.get(t["game"], t["game"])
        t["mine"] = me is not None and me in t["player_ids"]
    tournaments = tournaments_next()
    for t in tournaments:
        t["game_name"] = names.get(t["game"], t["game"])
    return {
        "waiting_tables": tables,
        "next_tournaments": tournaments,
        "my_tournament_matches": my_matches_in_play(user=user) if me is not None and is_player(user) else [],
        "players_online": players_online_count(),
    }
