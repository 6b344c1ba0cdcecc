"""What the tournament page shows a given reader (platform.md §6.6): everyone sees the
standings; a player sees their own refund breakdown; operators see the whole refund table."""

from __future__ import annotations

from typing import Any

from apps.games.engines import ENGINES

from . import selectors
from .models import Tournament


def bracket_columns(matches: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The knockout bracket as rounds side by side (byes marked)."""
    rounds: dict[int, list[dict[str, Any]]] = {}
    for m in matches:
        rounds.setdefault(m["round"], []).append(m)
    return [{"round": r, "matches": ms} for r, ms in sorted(rounds.items())]


def tournament_context(t: Tournament, user) -> dict[str, Any]:
    detail = selectors.tournament_as_dict(t)
    rows = selectors.standings(t)
    operator = selectors.is_operator(user)
    mine = selectors.my_registration(t, user)
    for r in rows:
        r["is_mine"] = mine is not None and r["_player"] == mine.player_id
    own_row = next((r for r in rows if r["is_mine"]), None)
    matches = selectors.tournament_matches(t)
    return {
        "t": t, "detail": detail, "game_name": ENGINES[t.game].name if t.game in ENGINES else t.game, "rows": rows, "operator": operator, "mine": mine, "own_row": own_row,
        "matches": matches, "bracket": bracket_columns(matches) if t.format == Tournament.KNOCKOUT else [],
        "progress": selectors.refund_progress(t) if t.status == Tournament.CANCELLED else None,
        "can_register": detail["registration_open"] and mine is None,
        "can_unregister": detail["registration_open"] and mine is not None,
        "prize_rows": list(enumerate(detail["payouts_cents"] or [], start=1)),
    }
