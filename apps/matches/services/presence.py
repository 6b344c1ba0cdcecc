"""Connections, disconnection and abandonment (platform.md §8.3, §8.6): the seat's presence, the grace period, the forfeit; the deadlines fired by the tick."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from apps.games.engines import GameState, IllegalAction, get_engine

from ..models import Match, MatchAction, MatchSeat
from ..signals import match_seat_abandoned
from .acting import _after_state_change, _timer_arm, _wait, match_turn_timeout, schedule_robots
from .core import (
    FORFEIT,
    _changed,
    _human_seats_to_act,
    _load,
    _lock_match,
    _robot_seats_to_act,
    _seat_rows,
    _waiting_for_humans,
)
from .ending import _cancel, _finish, match_cancel_votes_expire


def match_seat_presence(*, match: Match, player_id: int, connected: bool) -> None:
    """A seated player's sockets came or went (their owner tells: a table owns the sockets).

    Gone: the robot plays for them, and where the match forfeits absent seats the grace
    period starts (§8.6). Back: they take the seat again. Call inside a transaction holding
    the match's lock (and the owner's, taken first)."""
    ms = match.match_seats.filter(player_id=player_id).first()
    if ms is None or ms.abandoned or match.status != Match.PLAYING:
        return
    if connected and ms.robot_playing and (ms.grace_deadline is not None or not match.forfeit_on_absence):
        waited = match.turn_deadline is None
        ms.robot_playing = False
        ms.grace_deadline = None
        ms.timeouts_in_row = 0
        ms.save(update_fields=["robot_playing", "grace_deadline", "timeouts_in_row"])
        match.__dict__.pop("_seat_rows", None)
        _changed(match)
        state = _load(match)
        if waited:  # the match waited for its humans: it goes on, with a whole turn
            _after_state_change(match, state, by=None)
            match.save(update_fields=["turn_deadline", "timer_due"])
        elif _human_seats_to_act(match, state):
            match.turn_deadline = timezone.now() + timedelta(seconds=match.turn_seconds)
            _timer_arm(match)
            match.save(update_fields=["turn_deadline", "timer_due"])
    elif not connected and not ms.robot_playing:
        ms.robot_playing = True
        ms.grace_deadline = (timezone.now() + timedelta(seconds=settings.DISCONNECT_GRACE_SECONDS)
                             if match.forfeit_on_absence else None)
        ms.save(update_fields=["robot_playing", "grace_deadline"])
        match.__dict__.pop("_seat_rows", None)
        _changed(match)
        if _waiting_for_humans(match):  # every human is gone at once (a server restart): wait
            _wait(match)
            match.save(update_fields=["turn_deadline"])
        elif _robot_seats_to_act(match, _load(match)):
            schedule_robots(match.pk)


def match_seat_arrived(*, match: Match, player_id: int) -> bool:
    """A player not seated yet sat down (opened their match's socket): their turn clock, which
    waited for them, starts now. True if it changed anything. Call holding the match's lock."""
    ms = match.match_seats.filter(player_id=player_id, awaited_until__isnull=False).first()
    if ms is None:
        return False
    ms.awaited_until = None
    ms.save(update_fields=["awaited_until"])
    match.__dict__.pop("_seat_rows", None)
    if match.status == Match.PLAYING and ms.number in _human_seats_to_act(match, _load(match)):
        match.turn_deadline = timezone.now() + timedelta(seconds=match.turn_seconds)
        _timer_arm(match)
        match.save(update_fields=["turn_deadline", "timer_due"])
        _changed(match)
    return True


def match_abandon(*, match: Match, seat: int, by: str = MatchAction.PLAYER) -> None:
    """An abandonment (platform.md §8.6): two sides → that team loses now; more → the robot
    plays the seat to the end and it cannot win; poker → the hand is forfeited at once (§8.5).
    When no human is left, the match ends now. ``by``: who made it (the player leaving, or
    the robot at a grace period's end), as logged. Call inside a transaction holding the lock."""
    ms = match.match_seats.get(number=seat)
    if ms.abandoned:
        return
    ms.abandoned = True
    ms.robot_playing = True
    ms.grace_deadline = None
    ms.save(update_fields=["abandoned", "robot_playing", "grace_deadline"])
    match.__dict__.pop("_seat_rows", None)  # the cached seats no longer say who plays
    state = _load(match)
    engine = get_engine(match.game)
    humans = [m for m in _seat_rows(match) if m.player_id]
    if engine.forfeits_hand:
        # poker (seed 001, §8.5): folded at once, out of turn; the hand goes on among the
        # others, or ends if one is left
        _forfeit(match, state, seat, by=by)
    if match.status != Match.PLAYING:
        pass
    elif humans and all(m.abandoned for m in humans):
        # nobody is left to play it: it ends now by the rules, never among robots alone
        if engine.forfeits_hand:
            _cancel(match)  # a hand left to robots is not played on: every chip comes back
        else:
            _finish(match, state)  # no side without an abandonment: no winner, stakes back
    elif len(state.teams) == 2 and not engine.forfeits_hand:
        losing = next(i for i, team in enumerate(state.teams) if seat in team)
        _finish(match, state, forced_winner=1 - losing)
    else:
        _after_state_change(match, state, by=None)  # the robot takes the seat's turns
    match.save()
    _changed(match)
    player_id, match_id = ms.player_id, match.pk
    if player_id is not None:
        transaction.on_commit(lambda: match_seat_abandoned.send(sender=Match, match_id=match_id,
                                                                player_id=player_id))


def _forfeit(match: Match, state: GameState, seat: int, *, by: str) -> None:
    """Fold ``seat`` out of turn (an engine with ``forfeits_hand``), logged as a move; a seat
    already out of the hand changes nothing. Ends the match when one player is left."""
    try:
        events = state.apply(seat, dict(FORFEIT))
    except IllegalAction:
        return
    match.version += 1
    match.state = state.to_json()
    MatchAction.objects.create(match=match, seq=match.version, seat=seat, action=dict(FORFEIT), by=by,
                               version=match.version, events=events, at=timezone.now())
    if state.is_over:
        _finish(match, state)


def match_grace_expired(*, match_seat_id: int) -> bool:
    """The grace period of a disconnected player ran out: the seat is abandoned (§8.6);
    ``match_seat_abandoned`` tells the owner (a table stands the player up)."""
    with transaction.atomic():
        match_id = MatchSeat.objects.filter(pk=match_seat_id).values_list("match_id", flat=True).first()
        if match_id is None:
            return False
        match = _lock_match(match_id)
        ms = MatchSeat.objects.get(pk=match_seat_id)
        if match.status != Match.PLAYING or ms.grace_deadline is None or ms.grace_deadline > timezone.now():
            return False
        match_abandon(match=match, seat=ms.number, by=MatchAction.ROBOT)
    return True


def match_forfeit_player(*, player_id: int) -> int:
    """A player kept out of the lobby by a sanction forfeits every match they are playing
    (platform.md §7.4, §8.6): each seat is abandoned, as if the grace period had run out."""
    forfeited = 0
    running = MatchSeat.objects.filter(player_id=player_id, abandoned=False, match__status=Match.PLAYING)
    for match_id in running.values_list("match_id", flat=True).distinct():
        with transaction.atomic():
            match = _lock_match(match_id, status=Match.PLAYING)
            ms = match.match_seats.filter(player_id=player_id, abandoned=False).first() if match else None
            if ms is None:
                continue
            match_abandon(match=match, seat=ms.number)
            forfeited += 1
    return forfeited


def match_deadlines_fire() -> int:
    """The tick's share: turn deadlines and grace periods that have passed."""
    fired = 0
    now = timezone.now()
    for match_id, version in Match.objects.filter(status=Match.PLAYING, turn_deadline__lte=now).values_list(
            "pk", "version"):
        fired += bool(match_turn_timeout(match_id=match_id, version=version))
    # the earliest deadline first: of two players gone at once, the first to go abandons first
    for ms_id in MatchSeat.objects.filter(match__status=Match.PLAYING, grace_deadline__lte=now).order_by(
            "grace_deadline", "pk").values_list("pk", flat=True):
        fired += bool(match_grace_expired(match_seat_id=ms_id))
    fired += match_cancel_votes_expire()
    return fired
