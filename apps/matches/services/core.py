"""What every match write shares: the row lock, the state's load, the seats read once, the after-commit tell (``_changed``, ``_ended``), the task names."""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

from django.db import transaction

from apps.common import rows as sql_rows
from apps.common.errors import DomainError
from apps.common.push import push_now
from apps.games.engines import GameState, get_engine

from ..models import Match, MatchSeat
from ..signals import match_changed, match_finished

log = logging.getLogger(__name__)


class IllegalMove(DomainError):
    status = 400
    code = "illegal_action"


class StakesShort(Exception):
    """Raised by ``match_create`` when some players cannot cover their stake: the caller's
    transaction rolls back (the new match and every stake taken for it); ``players`` are
    the ids of those who could not pay."""

    def __init__(self, players: list[int]) -> None:
        super().__init__(f"players {players} cannot cover the stake")
        self.players = players


def stake_per_seat(game: str, stake: int, options: dict[str, Any] | None = None) -> int:
    """What a human puts in escrow at the start (platform.md §8.5): the stake times the game's
    declared escrow units (Bestia 30, Scala 40 its entry fee)."""
    return stake * get_engine(game).escrow_units(options)


#: the out-of-turn fold of a player who left or dropped, in engines that declare
#: ``forfeits_hand`` (ENGINE protocol extension; logged like any move)
FORFEIT = {"type": "forfeit"}


def match_group(match_id: int) -> str:
    return f"match_{match_id}"


def _lock_match(match_id: Any, **filters: Any) -> Match | None:
    """Lock a match row (the paths here start from the match: nothing above it is locked).
    By id, and status, in plain SQL (a move's first statement, issue 30); else the ORM's."""
    if type(match_id) is not int or set(filters) - {"status"}:
        return Match.objects.select_for_update().filter(pk=match_id, **filters).first()
    where, params = '"id" = %s', [match_id]
    if "status" in filters:
        where += ' AND "status" = %s'
        params.append(filters["status"])
    return _match_locked(where, params)


def _match_locked(where: str, params: list[Any]) -> Match | None:
    """The newest match matching ``where`` (SQL over its own columns), its row locked."""
    rows = sql_rows.select(Match, where=where, params=params, order='"id" DESC', limit=1, lock=True)
    return rows[0] if rows else None


def _changed(match: Match, move: dict[str, Any] | None = None) -> None:
    """After commit: ``match_changed`` for the owner, which tells its own sockets (a table
    advances its revision and pushes to its group); a match no owner answers for (a
    tournament's) is pushed here to its own group. Either push carries no card
    (platform.md §10.3).

    ``move``: a move that changed only the match row and added its log row (see signals.py),
    so that the owner may draw the new version from what it already holds (issue 15)."""
    match_id, version, group = match.pk, match.version, match.group or match_group(match.pk)
    message = {"type": "table.changed", "version": version, "match": match_id}
    if move is not None:
        message["move"] = True  # only the match row and its log row changed: no card, a flag

    def after_commit() -> None:
        answers = match_changed.send(sender=Match, match_id=match_id, version=version, move=move)
        if not any(answer is True for _receiver, answer in answers):  # no owner told its sockets
            push_now(group, message)

    transaction.on_commit(after_commit)


def _ended(match: Match) -> None:
    """After commit, once: the match is over (finished or cancelled)."""
    outcome = {"status": match.status, "result": match.result, "game": match.game}
    match_id = match.pk
    transaction.on_commit(lambda: match_finished.send(sender=Match, match_id=match_id, outcome=outcome))


def _load(match: Match) -> GameState:
    return get_engine(match.game).from_json(match.state)


def _seat_rows(match: Match) -> list[MatchSeat]:
    """The match's seats, read once per transaction (``match_action_apply`` fills the cache)."""
    rows = getattr(match, "_seat_rows", None)
    if rows is not None:
        return rows
    if "match_seats" in getattr(match, "_prefetched_objects_cache", {}):
        rows = list(match.match_seats.all())
    else:  # ``match.match_seats.all()`` in plain SQL (issue 30), each seat's match set as the ORM sets it
        rows = sql_rows.select(MatchSeat, where='"match_id" = %s', params=[match.pk], order='"number"')
        for ms in rows:
            MatchSeat.match.field.set_cached_value(ms, match)
    setattr(match, "_seat_rows", rows)  # noqa: B010  (the transaction's cache, not a field)
    return rows


def _robot_controlled(match: Match) -> set[int]:
    return {ms.number for ms in _seat_rows(match) if ms.robot or ms.robot_playing}


def _human_seats_to_act(match: Match, state: GameState) -> list[int]:
    controlled = _robot_controlled(match)
    return [s for s in state.to_act if s not in controlled]


def _robot_seats_to_act(match: Match, state: GameState) -> list[int]:
    """Robot-controlled seats to act now; none while the match waits for its humans."""
    controlled = _robot_controlled(match)
    seats = [s for s in state.to_act if s in controlled]
    return [] if seats and _waiting_for_humans(match) else seats


def _waiting_for_humans(match: Match) -> bool:
    """No human of the match is present (each is disconnected, away or has abandoned) and
    one may still come back: the match waits, robots do not play it alone (issue 25: a
    deploy or a table left by everyone never decides a match). Tournament matches never
    wait (platform.md §5.7)."""
    if not match.forfeit_on_absence:
        return False
    humans = [ms for ms in _seat_rows(match) if ms.player_id]
    return bool(humans) and all(ms.robot_playing for ms in humans) and not all(ms.abandoned for ms in humans)


#: the fields a move changes on the match row (a match that ends saves them all)
MOVE_FIELDS = ["version", "state", "turn_deadline", "timer_due"]


#: the Celery tasks of this app (``tasks.py``), enqueued by name: the tasks call these
#: services, so the services cannot import the tasks module
ROBOT_TURNS_TASK = "apps.matches.tasks.robot_turns"


TURN_TIMER_TASK = "apps.matches.tasks.turn_timer"


#: the timer task of earlier releases (one a turn, for a version): still run when one is queued
TURN_TIMEOUT_TASK = "apps.matches.tasks.turn_timeout"


#: a timer this late is taken for lost (a worker killed) and armed again by the next turn
TIMER_LOST_AFTER = timedelta(seconds=10)
