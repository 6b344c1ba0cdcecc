"""The one place the tournaments talk to the match lifecycle (apps.matches, platform.md §5.7).

Tournament matches are ordinary matches with no table, played by the same action service as
table matches (REST, socket, robot, turn timer), with the tournament's rules: no friendly
cancellation (409 ``not_allowed_in_tournament``), never forfeited for absence (the robot
plays under the turn timer), no XP per match (a cancelled tournament counts for nothing).
This module creates them, reads their outcome, forfeits a disqualified player's seat, credits
their XP when the tournament finishes, and stops them when the tournament is cancelled; ``receivers.py`` hears ``match_finished`` and the tick reconciles as a safety net.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q

from apps.games.engines import get_engine
from apps.matches.models import Match, MatchSeat
from apps.matches.services import (
    match_abandon,
    match_action_apply,
    match_create,
    match_robot_move,
    match_seat_arrived,
    match_seat_presence,
    matches_cancel,
)
from apps.rankings.services import rankings_award_match

__all__ = ["match_forfeit", "match_move", "match_outcomes", "match_outcomes_locked", "match_seat_back", "match_play_out_by_robots", "match_start", "matches_cancel",
           "matches_award_xp", "outcome_of", "tournament_match_options"]


def tournament_match_options(*, game: str, options: dict[str, Any], knockout: bool) -> dict[str, Any]:
    """``game_options`` with ``knockout`` set by the platform when the engine has it."""
    engine = get_engine(game)
    merged = {k: v for k, v in (options or {}).items() if k != "knockout"}
    if "knockout" in engine.options:
        merged["knockout"] = knockout
    return merged


def match_start(*, game: str, options: dict[str, Any], player_ids: list[int], turn_seconds: int,
                group: str = "", ips: list[str | None] | None = None) -> int:
    """Create a heads-up match between ``player_ids`` (in seat order), status ``playing``;
    ``ips``: each seat's registration address (compliance's signals)."""
    users = get_user_model().objects.in_bulk(player_ids)
    ips = ips or [None] * len(player_ids)
    match = match_create(game=game, players=len(player_ids), options=options,
                         seats=[{"player": users[pid], "robot": False, "ip": ip}
                                for pid, ip in zip(player_ids, ips, strict=True)],
                         official=True, turn_seconds=turn_seconds, cancellable=False, forfeit_on_absence=False,
                         awards_xp=False, group=group, seat_wait_seconds=settings.TOURNAMENT_SEAT_GRACE_SECONDS)
    return match.pk


def match_move(*, match_id: int, user, action: Any, version: Any, seat: int | None = None) -> Match:
    """A player's move from the tournament match page's socket: exactly the service of
    ``POST /api/matches/{id}/actions/`` (platform.md §10.2), locking the match only."""
    return match_action_apply(match_id=match_id, action=action, version=version, user=user, seat=seat)


def match_seat_back(*, match_id: int, user) -> bool:
    """A seated player opened their match's page: they are seated (their first turn clock,
    which waited for them, starts now), and a seat the robot was playing (away after three
    timeouts) is theirs again (§5.7: the player takes the seat back at any time)."""
    if not MatchSeat.objects.filter(Q(robot_playing=True) | Q(awaited_until__isnull=False), match_id=match_id,
                                    player_id=user.pk, abandoned=False, match__status=Match.PLAYING).exists():
        return False  # the usual case costs one read and no lock
    with transaction.atomic():
        match = Match.objects.select_for_update().filter(pk=match_id, status=Match.PLAYING).first()
        if match is None:
            return False
        match_seat_arrived(match=match, player_id=user.pk)
        match_seat_presence(match=match, player_id=user.pk, connected=True)
    return True


def outcome_of(status: str, result: dict[str, Any] | None) -> dict[str, Any]:
    """``{"status", "winner" (seat side or None), "scores", "forfeit"}`` from a match's status and
    result; ``forfeit`` is true when a seat was abandoned (a sanctioned player's forfeit)."""
    result = result or {}
    return {"status": status, "winner": result.get("winner") if status == Match.FINISHED else None,
            "scores": result.get("scores"), "forfeit": bool(result.get("abandoned"))}


def match_outcomes(*, match_ids: Iterable[int]) -> dict[int, dict[str, Any]]:
    """The outcome of every match among ``match_ids`` that is over (finished or cancelled)."""
    return {pk: outcome_of(status, result) for pk, status, result in
            Match.objects.filter(pk__in=list(match_ids)).exclude(status=Match.PLAYING)
            .values_list("pk", "status", "result")}


def match_outcomes_locked(*, match_ids: Iterable[int]) -> dict[int, dict[str, Any]]:
    """Lock every one of ``match_ids`` (ascending id, after the tournament's row: the one lock
    order) and give the outcome of those already over. While the locks are held no move can
    end one of them, so a cancellation sees every match that ended before it (issue 25)."""
    rows = (Match.objects.select_for_update().filter(pk__in=sorted(set(match_ids))).order_by("pk")
            .values_list("pk", "status", "result"))
    return {pk: outcome_of(status, result) for pk, status, result in rows if status != Match.PLAYING}


def match_play_out_by_robots(*, match_id: int) -> None:
    """Both seats away: the robot plays every remaining turn (the demo's finished tournament)."""
    MatchSeat.objects.filter(match_id=match_id).update(robot_playing=True)
    for _ in range(5000):  # one move at a time, whatever the robots' move delay
        if not match_robot_move(match_id=match_id):
            break


def match_forfeit(*, match_id: int, player_id: int) -> bool:
    """A disqualified player's seat is abandoned: heads-up, the opponent wins now (§5.7). A game
    whose abandoned seat is played on by the robot (poker folds hand after hand) is stopped
    instead: the tournament has recorded the forfeit, nothing is left to play. Called with the
    tournament row locked (the owner's row first, then the match)."""
    match = Match.objects.select_for_update().filter(pk=match_id, status=Match.PLAYING).first()
    seat = match.match_seats.filter(player_id=player_id).first() if match else None
    if match is None or seat is None:
        return False
    if not seat.abandoned:
        match_abandon(match=match, seat=seat.number)
    if match.status == Match.PLAYING:
        matches_cancel(match_ids=[match_id])
    return True


def matches_award_xp(*, match_ids: Iterable[int]) -> int:
    """Credit the XP held back from a finished tournament's matches (§5.10, §9): once per player
    and match (a rerun credits nothing more). Heads-up: the sides are the two seats."""
    awarded = 0
    for match in Match.objects.filter(pk__in=list(match_ids), status=Match.FINISHED).prefetch_related(
            "match_seats"):
        seats = list(match.match_seats.all())
        winner = (match.result or {}).get("winner")
        awarded += len(rankings_award_match(match=match, teams=[[ms.number] for ms in sorted(
            seats, key=lambda ms: ms.number)], winner=winner, seats=seats, held_back=True))
    return awarded
