"""The one place the tournaments talk to the match lifecycle (platform.md §5.7).

Tournament matches are ordinary matches without a table, played by the same action service
as table matches (REST, socket, robot, turn timer). This module creates them, reads their
outcome, and cancels them when the tournament is cancelled; the receiver of the matches
app's ``match_finished`` hook (``receivers.py``) and the tick call
``services.tournament_match_finished`` with what it reads here.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.contrib.auth import get_user_model
from django.utils import timezone

from apps.games.engines import get_engine
from apps.tables.models import Match, MatchSeat
from apps.tables.play import match_create, match_robot_move


def tournament_match_options(*, game: str, options: dict[str, Any], knockout: bool) -> dict[str, Any]:
    """``game_options`` with ``knockout`` set by the platform when the engine has it."""
    engine = get_engine(game)
    merged = {k: v for k, v in (options or {}).items() if k != "knockout"}
    if "knockout" in engine.options:
        merged["knockout"] = knockout
    return merged


def match_start(*, game: str, options: dict[str, Any], player_ids: list[int], turn_seconds: int) -> int:
    """Create a heads-up match between ``player_ids`` (in seat order), status ``playing``."""
    users = get_user_model().objects.in_bulk(player_ids)
    match = match_create(game=game, players=len(player_ids), options=options,
                         seats=[{"player": users[pid], "robot": False} for pid in player_ids],
                         table=None, official=True, turn_seconds=turn_seconds)
    return match.pk


def match_outcomes(*, match_ids: Iterable[int]) -> dict[int, dict[str, Any]]:
    """``{match_id: {"status", "winner" (seat side or None), "scores"}}`` for finished or
    cancelled matches among ``match_ids``."""
    out: dict[int, dict[str, Any]] = {}
    for pk, status, result in Match.objects.filter(pk__in=list(match_ids)).exclude(
            status=Match.PLAYING).values_list("pk", "status", "result"):
        result = result or {}
        out[pk] = {"status": status, "winner": result.get("winner"), "scores": result.get("scores")}
    return out


def matches_cancel(*, match_ids: list[int]) -> int:
    """A cancelled tournament stops its unfinished matches: no stakes, so nothing to settle."""
    return Match.objects.filter(pk__in=match_ids, status=Match.PLAYING).update(
        status=Match.CANCELLED, turn_deadline=None, finished_at=timezone.now())


def match_play_out_by_robots(*, match_id: int) -> None:
    """Both seats away: the robot plays every remaining turn (the demo's finished tournament)."""
    MatchSeat.objects.filter(match_id=match_id).update(robot_playing=True)
    for _ in range(5000):  # one move at a time, whatever the robots' move delay
        if not match_robot_move(match_id=match_id):
            break
