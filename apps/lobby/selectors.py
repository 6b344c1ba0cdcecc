"""What the lobby shows, read from the apps below it in a fixed number of queries."""

from __future__ import annotations

from typing import Any

from django.conf import settings

from apps.common.roles import is_player
from apps.games.engines import ENGINES
from apps.games.selectors import game_catalogue
from apps.matches.regimes import bank_share
from apps.tables.selectors import players_online_count, tables_waiting
from apps.tournaments.selectors import my_matches_in_play, tournaments_next
from apps.wallet.models import CASH


def lobby_live(*, user: Any) -> dict[str, Any]:
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


def payout_percentages() -> dict[str, Any]:
    """What the players get back (regulation.md §8): per game at money tables, 100 less the
    bank's capped share (games settled without a bank return everything); per tournament at
    least the regime's pool percentage of every entry."""
    rows = []
    for game, engine in ENGINES.items():
        if CASH not in engine.currencies:
            continue
        bank = bank_share(game, CASH)
        rows.append({"game": game, "name": engine.name, "players_percent": 100 - bank, "bank_percent": bank})
    return {"payouts": rows,
            "torneo_pool_percent": int(getattr(settings, "REGIME_TORNEO_MIN_POOL_PERCENT", 80)),
            "session_max_cents": int(getattr(settings, "REGIME_CASH_SESSION_MAX_CENTS", 100_000))}
