"""The one action service (``match_action_apply``): version, seat, turn, the engine, a paid move's fee; robots and timers, and the platform's autopilot of an absent seat."""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from typing import Any

from celery import signature
from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from apps.adm.sending import adm_send_sync
from apps.adm.services import adm_reference_set
from apps.common import rows as sql_rows
from apps.common.errors import Conflict, DomainError, Forbidden, NotFoundError
from apps.common.metrics import MOVES
from apps.conto.gates import MONEY_TABLE, money_play_gate, money_play_spend
from apps.games.engines import GameState, IllegalAction, get_engine
from apps.games.engines.cards import derive_rng
from apps.wallet.selectors import wallet_get
from apps.wallet.services import match_escrow_code, wallet_debit

from ..models import Match, MatchAction, MatchSeat
from .core import (
    FORFEIT,
    MOVE_FIELDS,
    ROBOT_TURNS_TASK,
    TIMER_LOST_AFTER,
    TURN_TIMER_TASK,
    IllegalMove,
    _changed,
    _human_seats_to_act,
    _load,
    _lock_match,
    _match_locked,
    _robot_seats_to_act,
    _seat_rows,
    _waiting_for_humans,
    log,
)
from .ending import _finish


def _action_fee(match: Match, action: Any) -> int:
    """What playing ``action`` costs at this match (its game's ``paid_actions``), 0 if nothing."""
    return match.stake * get_engine(match.game).paid_action_units(action, match.options) if match.official else 0


def _action_fee_take(match: Match, ms: MatchSeat, fee: int) -> None:
    """A paid move (Scala 40's re-entry) first debits its fee from the player's wallet into
    the match escrow, in the action's transaction (402 ``insufficient_funds`` and nothing
    changes when the wallet cannot pay; platform.md §8.5)."""
    if not fee or ms.player_id is None:
        return
    participation = None
    if match.currency == "cash":  # a money table: the conto's gate and spend limit first (regulation.md §4.4)
        money_play_gate(user=ms.player, what=MONEY_TABLE)
        money_play_spend(user=ms.player, amount=fee)
        if match.adm_session_code:  # then ADM validates the re-entry's participation (§7.3)
            participation = adm_send_sync(
                type="participation", reference=f"match:{match.pk}:seat:{ms.number}:reentry:v{match.version}",
                player_id=ms.player_id, payload={"session_code": match.adm_session_code, "amount_cents": fee,
                                                 "reentry": True})
    txn = wallet_debit(player=ms.player, currency=match.currency, amount=fee, kind="stake",
                       reference=f"match:{match.pk}", destination=match_escrow_code(match.pk),
                       idempotency_key=f"reentry:match:{match.pk}:seat:{ms.number}:v{match.version}")
    if participation is not None:
        adm_reference_set(message=participation, reference=participation.reference, transaction_ids=[txn.pk])
    ms.stake_paid += fee
    ms.save(update_fields=["stake_paid"])


def _wait(match: Match) -> None:
    """Pause the match: no turn timer, and every absent seat not yet abandoned has a grace
    deadline (a disconnected one already has; an away one gets it now), after which it is
    abandoned (§8.6). The caller saves the match."""
    match.turn_deadline = None
    deadline = timezone.now() + timedelta(seconds=settings.DISCONNECT_GRACE_SECONDS)
    for ms in _seat_rows(match):
        if ms.player_id and not ms.abandoned and ms.grace_deadline is None:
            ms.grace_deadline = deadline
            ms.save(update_fields=["grace_deadline"])


def _after_state_change(match: Match, state: GameState, *, by: str | None) -> None:
    """Deadlines and follow-up work for the new state: the turn timer and robot turns (none
    while the match waits for its humans)."""
    if state.is_over or match.status != Match.PLAYING:
        match.turn_deadline = None
        return
    if _waiting_for_humans(match):
        _wait(match)
        return
    # the deadline also covers robots' turns: if a robot task is lost (a worker killed),
    # the tick finds the passed deadline and plays the robot then (platform.md §0.2)
    now = timezone.now()
    match.turn_deadline = now + timedelta(seconds=match.turn_seconds)
    humans = _human_seats_to_act(match, state)
    if humans:
        # a player not seated yet: their clock starts when they sit, or when the wait is over
        waits = [ms.awaited_until for ms in _seat_rows(match)
                 if ms.number in humans and ms.awaited_until is not None and ms.awaited_until > now]
        if waits:
            match.turn_deadline = max(waits) + timedelta(seconds=match.turn_seconds)
        _timer_arm(match)
    if by != MatchAction.ROBOT and _robot_seats_to_act(match, state):
        schedule_robots(match.pk)


def _timer_arm(match: Match) -> None:
    """The turn timer: one task in flight a match, not one a turn (issue 15: a timer task for
    every move was published, held by the worker and run only to find the match moved on).

    A timer already due at or before the new deadline stays: when it fires it finds the turn
    not over and arms itself again for the deadline then (``match_turn_timer``). The caller
    saves ``timer_due``. Turns longer than the broker's visibility timeout get no task: the
    tick fires the stored deadline instead (a countdown that long would be redelivered)."""
    deadline, due = match.turn_deadline, match.timer_due
    if deadline is None or match.turn_seconds >= settings.CELERY_VISIBILITY_TIMEOUT:
        return
    if due is not None and due <= deadline and due > timezone.now() - TIMER_LOST_AFTER:
        return
    match.timer_due = deadline
    match_id, seconds = match.pk, max(0.0, (deadline - timezone.now()).total_seconds())
    transaction.on_commit(lambda: signature(TURN_TIMER_TASK, args=(match_id, deadline.isoformat())).apply_async(
        countdown=seconds))


def match_turn_timer(*, match_id: int, due: str) -> bool:
    """The turn timer's task, due at ``due`` (ISO time): only the timer the match holds acts,
    and only once it is due (an eager run, a stale or doubled delivery do nothing). The turn's
    deadline passed: the timeout (``match_turn_timeout``); moves came since: armed again for
    the deadline of the turn now."""
    try:
        due_at = datetime.fromisoformat(due)
    except (TypeError, ValueError):
        return False
    with transaction.atomic():
        match = _lock_match(match_id, status=Match.PLAYING)
        if match is None or match.timer_due != due_at or timezone.now() < due_at:
            return False
        match.timer_due = None
        if match.turn_deadline is not None and match.turn_deadline > timezone.now():
            if _human_seats_to_act(match, _load(match)):
                _timer_arm(match)
            match.save(update_fields=["timer_due"])
            return False
        match.save(update_fields=["timer_due"])
    return match_turn_timeout(match_id=match_id)


def schedule_robots(match_id: int, delay: float | None = None) -> None:
    delay = settings.ROBOT_MOVE_DELAY if delay is None else delay
    transaction.on_commit(lambda: signature(ROBOT_TURNS_TASK, args=(match_id,)).apply_async(
        countdown=delay or None))


def match_action_apply(*, match_id: int | None, action: Any, version: Any, user: Any = None, seat: int | None = None,
                       by: str = MatchAction.PLAYER, where: tuple[str, list[Any]] | None = None) -> Match:
    """Apply one action; raise a DomainError and change nothing if it is refused.

    ``where``: instead of an id, the owner's lookup of its match in play (a table's link), as
    SQL over the match's columns and its parameters, folded into the locking read, so a move
    from a table socket costs no read of its own; 409 ``match_over`` when nothing matches it.
    """
    if type(version) is not int:
        raise DomainError(_("The move needs the integer version of the match it was made on."),
                          code="validation_error", fields={"version": [_("An integer is required.")]})
    if seat is not None and type(seat) is not int:
        raise DomainError(_("The seat is the integer number of your own seat."), code="validation_error",
                          fields={"seat": [_("An integer is required.")]})
    with transaction.atomic():
        if where is not None:
            match = _match_locked(f'"status" = %s AND {where[0]}', [Match.PLAYING, *where[1]])
            if match is None:
                raise Conflict(_("No match is being played here now."), code="match_over")
        else:
            match = _lock_match(match_id)
        if match is None:
            raise NotFoundError(_("No such match."))
        return _apply_locked(match, action=action, version=version, user=user, seat=seat, by=by)


def _apply_locked(match: Match, *, action: Any, version: int, user: Any, seat: int | None, by: str) -> Match:
    """``match_action_apply`` once the match row is locked (the robot's path locks it once).

    Statements: the match's seats, the log row, the match row's changed fields; after
    commit the owner's ``match_changed`` (a table: its revision) and one push."""
    if match.status != Match.PLAYING:
        raise Conflict(_("This match is over: no more moves."), code="match_over")
    rows = _seat_rows(match)
    seats = {ms.number: ms for ms in rows}
    if by == MatchAction.PLAYER:
        own = [ms for ms in rows if user is not None and ms.player_id == user.pk]
        if not own:
            raise Forbidden(_("Only the players seated in this match can move."))
        if seat is None:
            seat = own[0].number
        elif seat not in {ms.number for ms in own}:
            raise Forbidden(_("You can only move for your own seat."))
        if seats[seat].abandoned:
            raise Forbidden(_("You left this match: the robot plays your seat to the end."))
    if version != match.version:
        raise Conflict(_("Another move came first: the match is now at version %(version)s.") % {"version": match.version},
                       code="stale_version", version=match.version)
    state = getattr(match, "_state_loaded", None) or _load(match)
    match.__dict__.pop("_state_loaded", None)
    if seat not in state.to_act:
        raise Conflict(_("It is not your turn."), code="not_your_turn")
    fee = _action_fee(match, action)
    if fee and action in state.legal_actions(seat):
        _action_fee_take(match, seats[seat], fee)
    try:
        events = state.apply(seat, action)
    except IllegalAction as exc:
        raise IllegalMove(str(exc)) from None
    match.version += 1
    match.state = state.to_json()
    transaction.on_commit(MOVES.labels(by=by).inc)  # counted once it holds (/metrics)
    row = sql_rows.insert(MatchAction(match=match, seq=match.version, seat=seat, action=action, by=by,
                                   version=match.version, events=events, at=timezone.now()))
    only_the_match = not get_engine(match.game).paid_actions  # a re-entry also moves money and a seat's row
    if by == MatchAction.PLAYER:
        ms = seats[seat]
        if ms.robot_playing or ms.timeouts_in_row or ms.grace_deadline or ms.awaited_until:
            only_the_match = False
            ms.robot_playing = ms.abandoned  # the player takes the seat back
            ms.timeouts_in_row = 0
            ms.grace_deadline = None
            ms.awaited_until = None  # a move is a player at the table (the REST API's too)
            ms.save(update_fields=["robot_playing", "timeouts_in_row", "grace_deadline", "awaited_until"])
    elif by == MatchAction.TIMEOUT:
        ms = seats[seat]
        ms.timeouts_in_row += 1
        only_the_match = False
        if ms.timeouts_in_row >= settings.AWAY_AFTER_TIMEOUTS:
            ms.robot_playing = True  # away: the robot plays every turn until the player returns
        ms.save(update_fields=["timeouts_in_row", "robot_playing"])
    if state.is_over:
        _finish(match, state)
        match.save()
        _changed(match)
    else:
        # the push of this move is registered before the robots' task and the timer: after
        # commit the table's revision is advanced and its sockets told first, so a robot that
        # answers at once (another process) never takes the next revision before this move
        # does (issue 15: the process's snapshot could then not follow the move, and every
        # socket read the table whole)
        _changed(match, {"match": match, "state": state, "action": row} if only_the_match else None)
        _after_state_change(match, state, by=by)
        sql_rows.update(match, MOVE_FIELDS)  # save(update_fields=...) in plain SQL (its signal: no status change)
    return match


def match_robot_move(*, match_id: int) -> bool:
    """Play one robot move if a robot-controlled seat is to act; True if one was played."""
    return _robot_move(match_id) is not None


def _robot_move(match_id: int) -> bool | None:
    """One robot move: None when no robot-controlled seat was to act, else whether one is
    to act after it (so the robots' loop never locks the match again only to find nobody).

    One lock and one read of the seats for the choice and the move alike."""
    with transaction.atomic():
        match = _lock_match(match_id, status=Match.PLAYING)
        if match is None:
            return None
        state = _load(match)
        robots = _robot_seats_to_act(match, state)
        if not robots:
            return None
        seat = robots[0]
        rng = derive_rng(int(match.seed), "robot", match.version, seat)
        action = _autopilot_action(match, state, seat, rng)
        setattr(match, "_state_loaded", state)  # noqa: B010  (the autopilot only read it: legal actions, the view)
        _apply_locked(match, action=action, version=match.version, user=None, seat=seat, by=MatchAction.ROBOT)
        # ``state`` is the state after the move (applied in place); the seats' rows are unchanged
        return match.status == Match.PLAYING and bool(_robot_seats_to_act(match, state))


def _autopilot_action(match: Match, state: GameState, seat: int, rng: random.Random) -> dict[str, Any]:
    """The move the platform makes for a seat: the engine's robot, except that a human's
    poker seat only checks or folds, and a Scala 40 re-entry the wallet cannot pay is declined."""
    ms = next((m for m in _seat_rows(match) if m.number == seat), None)
    human = ms is not None and ms.player_id is not None
    engine = get_engine(match.game)
    if engine.passive_moves and human and match.cancellable:
        # a table's hand: seed 001's fair play (never a chip in for an absent player). A match
        # its players may not cancel (a tournament's, §5.7) is played by the full robot, so
        # it always finishes: two passive seats would check forever
        if engine.forfeits_hand and (ms.abandoned or ms.grace_deadline is not None):
            return dict(FORFEIT)  # dropped (or gone): folded when the hand next needs them (§8.5)
        return engine.passive_action(state, seat)
    action = engine.bot_action(state, seat, rng)
    fee = _action_fee(match, action) if human else 0
    refusal = engine.paid_action_refusal
    if fee and refusal is not None:
        balance = wallet_get(player=ms.player)["cash_cents" if match.currency == "cash" else "credits"]
        if balance < fee and refusal in state.legal_actions(seat):
            return dict(refusal)
    return action


def match_robot_turns(*, match_id: int) -> int:
    """Play robot moves while robots are to act. With a move delay, one move per task."""
    played = 0
    while (more := _robot_move(match_id)) is not None:
        played += 1
        if not more:
            break
        if settings.ROBOT_MOVE_DELAY > 0:
            schedule_robots(match_id)  # outside a transaction: published at once
            break
        if played > 5000:  # a safety net: no engine needs this many moves in a row
            log.error("robot loop on match %s stopped after %s moves", match_id, played)
            break
    return played


def match_turn_timeout(*, match_id: int, version: int | None = None) -> bool:
    """The turn timer ran out: the robot moves for the seats that had to act.

    Does nothing unless the deadline has passed and the match is still at the version the
    timer was set for (an eager countdown task runs at once and must do nothing).
    """
    with transaction.atomic():
        match = _lock_match(match_id, status=Match.PLAYING)
        if match is None or match.turn_deadline is None or match.turn_deadline > timezone.now():
            return False
        if version is not None and match.version != version:
            return False
        state = _load(match)
        seats = _human_seats_to_act(match, state)
        robots_only = not seats and bool(_robot_seats_to_act(match, state))
        if robots_only:
            match.turn_deadline = None
            match.save(update_fields=["turn_deadline"])
        for seat in seats:
            if seat not in state.to_act:
                continue
            rng = derive_rng(int(match.seed), "timeout", match.version, seat)
            action = _autopilot_action(match, state, seat, rng)
            match = match_action_apply(match_id=match.pk, action=action, version=match.version, seat=seat,
                                       by=MatchAction.TIMEOUT)
            if match.status != Match.PLAYING:
                break
            state = _load(match)
    if robots_only:
        match_robot_turns(match_id=match_id)  # a robot turn whose task was lost
    return bool(seats) or robots_only
