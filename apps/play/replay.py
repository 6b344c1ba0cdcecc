"""A player's replay of a finished match, step by step, as their seat saw it."""

from __future__ import annotations

from typing import Any

from apps.games.engines import get_engine
from apps.matches.models import Match

from .presenters import presenter_for
from .presenters.base import seat_name, team_name
from .render import (
    Owner,
    _french_deck,
    _teams_of,
    board_context,
    face_for,
    orientation,
    seat_names,
)
from .words import move_words


def replay_context(*, match: Match, steps: list[dict[str, Any]], index: int, seat: int | None,
                   table: Owner = None) -> dict[str, Any]:
    """A player's replay at one step: the table as their seat saw it, every move in words."""
    game = match.game
    french = _french_deck(game)
    names = seat_names(match, [])
    engine = get_engine(game)
    step = steps[index]
    view = step["view"]
    teams = view.get("teams") or _teams_of(game, match.players)
    board = board_context(game=game, view=view, names=names, teams=teams, players=match.players,
                          playing=index < len(steps) - 1 or not step.get("result"), staked=bool(match.stake))
    moves = [{"index": i, "text": move_words(name=seat_name(names, s["seat"]), action=s["action"], events=None,
                                             french=french)}
             for i, s in enumerate(steps) if s.get("action") is not None]
    result = step.get("result")
    winners: list[str] = []
    if result and isinstance(result.get("winner"), int) and result["winner"] < len(teams):
        winners = [seat_name(names, s) for s in teams[result["winner"]]]
    final = []
    if result and result.get("scores"):
        sc = result["scores"]
        if len(sc) == len(teams):
            final = [{"name": team_name(names, t), "score": sc[i]} for i, t in enumerate(teams)]
        elif len(sc) == match.players:
            final = [{"name": seat_name(names, s), "score": sc[s]} for s in range(match.players)]
    return {
        **board, "match": match, "game": engine, "face": face_for(table, game), "french": french,
        "public_board": presenter_for(game).public_board, "dom_id": f"replay-{match.pk}",
        "index": index, "last": len(steps) - 1, "seat": seat, "view": view,
        "hand": list(view.get("hand") or []),
        "move_text": moves[index - 1]["text"] if index > 0 and index - 1 < len(moves) else "",
        "last_move": moves[index - 1]["text"] if index > 0 and index - 1 < len(moves) else "",
        "moves": moves, "result_words": {"winners": winners, "scores": final, "draw": bool(result)
                                         and result.get("winner") is None} if result else None,
        "player_names": [seat_name(names, s) for s in range(match.players)],
        "orientation": orientation(match.players, seat),
    }
