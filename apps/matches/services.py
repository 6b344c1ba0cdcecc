"""The life of a match: start, apply an action, robots, timers, abandonment, cancellation, end.

One function applies every action, whoever sends it (REST, websocket, robot, timer):
``match_action_apply``. It locks the match row, checks version, seat, turn and the
engine, saves the state and the log in one transaction, and after commit tells the
match's group only "changed, version n". Engines are pure; money moves through the wallet.

A match knows neither tables nor tournaments. Whoever makes one passes its rules
(``cancellable``, ``forfeit_on_absence``) and the group to tell; when it ends or is
cancelled, ``apps.matches.signals.match_finished`` says so once, after commit
(docs/layers.md), and its owner (a table: the next match; a tournament: the bracket) acts.

Lock order (one for every path, so PostgreSQL never deadlocks): an owner's row first (a
table's, when a table path reaches its match), **then the match row**, then its seats and
proposals, and last the wallet accounts (which ``ledger_post`` locks in id order). The
paths here start from the match and lock only the match and what lies below it: they never
reach up for an owner's row, so they cannot deadlock with a table path holding its table.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from celery import signature
from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from apps.adm.sending import adm_send_sync
from apps.adm.services import adm_enqueue, adm_reference_set
from apps.common.errors import Conflict, DomainError, Forbidden, NotFoundError
from apps.common.push import push_now
from apps.conto.gates import MONEY_TABLE, money_play_gate, money_play_spend
from apps.games.engines import IllegalAction, get_engine
from apps.games.engines.cards import derive_rng, new_seed
from apps.players.selectors import nickname_of
from apps.rankings.services import rankings_award_match
from apps.wallet.selectors import wallet_get
from apps.wallet.services import escrow_settle, match_escrow_code, stakes_collect, wallet_debit

from .models import CancelProposal, Match, MatchAction, MatchSeat
from .regimes import bank_share
from .settlement import (
    Settlement,
    fees_settlement,
    net_settlement,
    pot_settlement,
    refund_settlement,
    units_settlement,
)
from .signals import match_changed, match_finished, match_seat_abandoned

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


# -- start --------------------------------------------------------------------------------


def match_group(match_id: int) -> str:
    return f"match_{match_id}"


def match_create(*, game: str, players: int, options: dict[str, Any], seats: list[dict[str, Any]],
                 official: bool = False, stake: int = 0, currency: str = "credits", turn_seconds: int = 30,
                 stakes: dict[int, int] | None = None, cancellable: bool = True, forfeit_on_absence: bool = True,
                 awards_xp: bool = True, group: str = "", deck: list[str] | None = None, seed: int | None = None,
                 seat_wait_seconds: int = 0) -> Match:
    """Deal a new match. ``seats``: per seat ``{"player": user or None, "robot": bool, "ip"}``.

    ``cancellable``, ``forfeit_on_absence`` and ``awards_xp`` are the owner's rules for it
    (a table: all three; a tournament: none, platform.md §5.7). ``stakes`` (seat number ->
    amount, human seats) are taken into the match's escrow now,
    through the wallet; if any player cannot cover theirs, ``StakesShort`` is raised and the
    caller's transaction must roll back. ``group`` is the channel-layer group told of every
    change (default ``match_<id>``). The seed is drawn from ``secrets`` and kept server-side,
    so the log alone replays it. ``seat_wait_seconds``: the human players are not seated yet
    (a tournament's match starts on its own); each one's turn clock waits until they sit
    (``match_seat_arrived``) or that long. Call inside a transaction.
    """
    engine = get_engine(game)
    complete = engine.resolve_options(players, options)
    seed = new_seed() if seed is None else seed
    state = engine.new_game(players, options=complete, seed=seed, deck=deck)
    now = timezone.now()
    awaited_until = now + timedelta(seconds=seat_wait_seconds) if seat_wait_seconds > 0 else None
    match = Match.objects.create(
        game=game, players=players, options=complete, seed=str(seed), deck=deck,
        state=state.to_json(), version=0, official=official, stake=stake, currency=currency,
        turn_seconds=turn_seconds, started_at=now, cancellable=cancellable,
        forfeit_on_absence=forfeit_on_absence, awards_xp=awards_xp, group=group,
    )
    if not group:
        match.group = match_group(match.pk)
    ips = [s.get("ip") for s in seats if s.get("player") is not None and s.get("ip")]
    match.flagged_same_ip = len(ips) != len(set(ips))
    stakes = {seat: amount for seat, amount in (stakes or {}).items() if amount}
    MatchSeat.objects.bulk_create([
        MatchSeat(match=match, number=i, player=s.get("player"), robot=bool(s.get("robot")),
                  nickname=(nickname_of(s["player"]) or "") if s.get("player") is not None else "",
                  ip=s.get("ip"), stake_paid=stakes.get(i, 0),
                  awaited_until=awaited_until if s.get("player") is not None and not s.get("robot") else None)
        for i, s in enumerate(seats)
    ])
    if stakes:
        short = stakes_collect(match_id=match.pk, currency=currency,
                               stakes={seats[seat]["player"].pk: amount for seat, amount in stakes.items()})
        if short:
            raise StakesShort(short)
    _after_state_change(match, state, by=None)
    match.save()
    _changed(match)
    return match


# -- applying actions -------------------------------------------------------------------


def _lock_match(match_id: Any, **filters: Any) -> Match | None:
    """Lock a match row (the paths here start from the match: nothing above it is locked)."""
    return Match.objects.select_for_update().filter(pk=match_id, **filters).first()


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


def _load(match: Match):
    return get_engine(match.game).from_json(match.state)


def _seat_rows(match: Match) -> list[MatchSeat]:
    """The match's seats, read once per transaction (``match_action_apply`` fills the cache)."""
    rows = getattr(match, "_seat_rows", None)
    if rows is None:
        rows = match._seat_rows = list(match.match_seats.all())
    return rows


def _robot_controlled(match: Match) -> set[int]:
    return {ms.number for ms in _seat_rows(match) if ms.robot or ms.robot_playing}


def _human_seats_to_act(match: Match, state) -> list[int]:
    controlled = _robot_controlled(match)
    return [s for s in state.to_act if s not in controlled]


def _robot_seats_to_act(match: Match, state) -> list[int]:
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


def _after_state_change(match: Match, state, *, by: str | None) -> None:
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


#: the Celery tasks of this app (``tasks.py``), enqueued by name: the tasks call these
#: services, so the services cannot import the tasks module
ROBOT_TURNS_TASK = "apps.matches.tasks.robot_turns"
TURN_TIMER_TASK = "apps.matches.tasks.turn_timer"
#: the timer task of earlier releases (one a turn, for a version): still run when one is queued
TURN_TIMEOUT_TASK = "apps.matches.tasks.turn_timeout"
#: a timer this late is taken for lost (a worker killed) and armed again by the next turn
TIMER_LOST_AFTER = timedelta(seconds=10)


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


#: the fields a move changes on the match row (a match that ends saves them all)
MOVE_FIELDS = ["version", "state", "turn_deadline", "timer_due"]


def match_action_apply(*, match_id: int | None, action: Any, version: Any, user=None, seat: int | None = None,
                       by: str = MatchAction.PLAYER, where: dict[str, Any] | None = None) -> Match:
    """Apply one action; raise a DomainError and change nothing if it is refused.

    ``where``: instead of an id, the owner's lookup of its match in play (a table's link),
    folded into the locking read, so a move from a table socket costs no read of its own;
    409 ``match_over`` when nothing matches it.
    """
    if type(version) is not int:
        raise DomainError(_("The move needs the integer version of the match it was made on."),
                          code="validation_error", fields={"version": [_("An integer is required.")]})
    if seat is not None and type(seat) is not int:
        raise DomainError(_("The seat is the integer number of your own seat."), code="validation_error",
                          fields={"seat": [_("An integer is required.")]})
    with transaction.atomic():
        if where is not None:
            match = (Match.objects.select_for_update(of=("self",))
                     .filter(status=Match.PLAYING, **where).order_by("-pk").first())
            if match is None:
                raise Conflict(_("No match is being played here now."), code="match_over")
        else:
            match = _lock_match(match_id)
        if match is None:
            raise NotFoundError(_("No such match."))
        return _apply_locked(match, action=action, version=version, user=user, seat=seat, by=by)


def _apply_locked(match: Match, *, action: Any, version: int, user, seat: int | None, by: str) -> Match:
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
    row = MatchAction.objects.create(match=match, seq=match.version, seat=seat, action=action, by=by,
                                     version=match.version, events=events, at=timezone.now())
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
        match.save(update_fields=MOVE_FIELDS)
    return match


# -- robots and timers -----------------------------------------------------------------------


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
        match._state_loaded = state  # the autopilot only reads it (legal actions, the seat's view)
        _apply_locked(match, action=action, version=match.version, user=None, seat=seat, by=MatchAction.ROBOT)
        # ``state`` is the state after the move (applied in place); the seats' rows are unchanged
        return match.status == Match.PLAYING and bool(_robot_seats_to_act(match, state))


def _autopilot_action(match: Match, state, seat: int, rng) -> dict[str, Any]:
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


# -- connections, disconnection and abandonment ---------------------------------------------------


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


def _forfeit(match: Match, state, seat: int, *, by: str) -> None:
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


# -- the end of a match --------------------------------------------------------------------------


def _side_scores_rank(match: Match, result: dict[str, Any]) -> list[int]:
    """Team indices from best to worst by the engine's scores."""
    scores = result.get("scores") or []
    lower = get_engine(match.game).lower_score_wins
    return sorted(range(len(scores)), key=lambda t: (scores[t] if lower else -scores[t], t))


def _finish(match: Match, state, *, forced_winner: int | None = None) -> None:
    result = state.result()
    seats = list(match.match_seats.all())
    abandoned = {ms.number for ms in seats if ms.abandoned}
    winner = result.get("winner") if forced_winner is None else forced_winner
    if abandoned and winner is not None and any(s in abandoned for s in state.teams[winner]):
        clean = [t for t in _side_scores_rank(match, result) if not set(state.teams[t]) & abandoned]
        winner = clean[0] if clean else None
    result = {**result, "winner": winner}
    if abandoned:
        result["abandoned"] = sorted(abandoned)
    match.result = result
    match.status = Match.FINISHED
    match.finished_at = timezone.now()
    match.turn_deadline = None
    _settle(match, seats, state.teams, winner, result)
    rankings_award_match(match=match, teams=state.teams, winner=winner, seats=seats)
    _ended(match)


def _settle(match: Match, seats: list[MatchSeat], teams: list[list[int]], winner: int | None,
            result: dict[str, Any]) -> None:
    paid = {ms.number: ms.stake_paid for ms in seats if ms.player_id and ms.stake_paid}
    if match.settled:
        return
    match.settled = True
    if not paid:
        return
    abandoned = [ms.number for ms in seats if ms.abandoned]
    rule = get_engine(match.game).settlement  # declared by the game (platform.md §8.5)
    if rule == "units":
        balances = dict(enumerate(result.get("scores") or []))
        outcome = units_settlement(paid, balances, match.stake, abandoned=abandoned)
    elif rule == "nets":  # exactly the engine's nets, no bank (platform.md §8.5)
        outcome = net_settlement(paid, dict(enumerate(result.get("scores") or [])))
    elif rule == "fees":  # Scala 40: every entry and re-entry to the winner, no bank
        outcome = fees_settlement(paid, None if winner is None else teams[winner])
    else:
        outcome = pot_settlement(paid, None if winner is None else teams[winner],
                                 bank_percent=bank_share(match.game, match.currency))
    _pay(match, seats, outcome, paid)


def _pay(match: Match, seats: list[MatchSeat], outcome: Settlement, paid: dict[int, int]) -> None:
    """Move the settlement's amounts out of the match escrow (by player, through the wallet),
    and keep on the match what moved (``Match.settlement``: the end-of-match card reads it)."""
    by_seat = {ms.number: ms.player_id for ms in seats}
    match.settlement = outcome.record(paid=paid, nicknames={ms.number: ms.nickname for ms in seats},
                                      currency=match.currency)
    escrow_settle(match_id=match.pk, currency=match.currency,
                  payouts={by_seat[s]: amount for s, amount in outcome.payouts.items()},
                  paid={by_seat[s]: amount for s, amount in paid.items()}, bank=outcome.bank)
    _adm_settled(match, seats, outcome, paid)


def _adm_settled(match: Match, seats: list[MatchSeat], outcome: Settlement, paid: dict[int, int]) -> None:
    """regulation.md §7.1 for a money match ADM opened: each stake given back cancels its
    participation; the winners and the session's end are queued."""
    if not match.adm_session_code:
        return
    for ms in seats:
        received = outcome.payouts.get(ms.number, 0)
        if ms.adm_participation_id and 0 < received <= paid.get(ms.number, 0):
            adm_enqueue(type="participation_cancel", reference=f"match:{match.pk}:seat:{ms.number}",
                        player_id=ms.player_id, payload={"participation": ms.adm_participation_id,
                                                         "returned_cents": received})
    adm_enqueue(type="winners", reference=f"match:{match.pk}", payload={
        "session_code": match.adm_session_code, "bank_cents": outcome.bank,
        "winners": [{"player": ms.player_id, "received_cents": outcome.payouts.get(ms.number, 0)} for ms in seats
                    if outcome.payouts.get(ms.number, 0) > paid.get(ms.number, 0)]})
    adm_enqueue(type="session_end", reference=f"match:{match.pk}", payload={"session_code": match.adm_session_code})


# -- friendly cancellation (platform.md §8.4) ------------------------------------------------------


def _voters(match: Match) -> list[MatchSeat]:
    """Every human seat votes, a player in the grace period too (their vote waits for their
    return): only the leader's robots and abandoned seats do not (platform.md §8.4)."""
    return [ms for ms in match.match_seats.all() if ms.player_id and not ms.abandoned]


def _proposal_dict(match: Match, proposal: CancelProposal | None) -> dict[str, Any]:
    humans = _voters(match)
    votes = (proposal.votes if proposal else {}) or {}
    return {"proposal": {
        "votes": {ms.nickname: votes[str(ms.number)] for ms in humans if str(ms.number) in votes},
        "waiting": [ms.nickname for ms in humans if str(ms.number) not in votes],
        "cancelled": bool(proposal and proposal.cancelled),
    }}


def match_cancel_vote(*, match_id: int, user, accept: Any) -> dict[str, Any]:
    if type(accept) is not bool:
        raise DomainError(_("Say yes or no: 'accept' must be true or false."), code="validation_error",
                          fields={"accept": [_("true or false")]})
    with transaction.atomic():
        match = _lock_match(match_id)
        if match is None:
            raise NotFoundError(_("No such match."))
        if not match.cancellable:
            raise Conflict(_("Tournament matches cannot be cancelled by the players."),
                           code="not_allowed_in_tournament")
        if match.status != Match.PLAYING:
            raise Conflict(_("This match is over."), code="match_over")
        ms = match.match_seats.filter(player=user).first()
        if ms is None or ms.abandoned:
            raise Forbidden(_("Only the human players seated in this match vote."))
        now = timezone.now()
        proposal = match.cancel_proposals.filter(closed=False).first()
        if proposal is not None and proposal.deadline <= now:
            proposal.closed = True
            proposal.save(update_fields=["closed"])
            proposal = None
        if proposal is None:
            proposal = CancelProposal.objects.create(
                match=match, opened_at=now, deadline=now + timedelta(seconds=settings.CANCEL_VOTE_SECONDS))
        proposal.votes = {**proposal.votes, str(ms.number): accept}
        voters = _voters(match)
        if not accept:
            proposal.closed = True
        elif all(proposal.votes.get(str(m.number)) is True for m in voters):
            proposal.closed = True
            proposal.cancelled = True
            _cancel(match)
        proposal.save()
        _changed(match)
        return _proposal_dict(match, proposal)


def _cancel(match: Match) -> None:
    seats = list(match.match_seats.all())
    match.status = Match.CANCELLED
    match.finished_at = timezone.now()
    match.turn_deadline = None
    match.result = None
    paid = {ms.number: ms.stake_paid for ms in seats if ms.player_id and ms.stake_paid}
    if paid and not match.settled:
        match.settled = True
        # a poker player who left keeps his stack: leaving a hand is folding it, never a penalty
        forfeiting = [] if get_engine(match.game).forfeits_hand else [ms.number for ms in seats if ms.abandoned]
        outcome = refund_settlement(paid, forfeiting=forfeiting)
        _pay(match, seats, outcome, paid)
    match.save()
    _ended(match)


def match_cancel_by_owner(*, match: Match) -> bool:
    """Cancel a match in play on its owner's decision (an operator closing its table), on the
    friendly-cancellation path: every stake back, no bank, §8.4's abandonment exception kept.
    The caller holds the match's lock (after its own row: the one lock order). False if the
    match was not in play."""
    if match.status != Match.PLAYING:
        return False
    _cancel(match)
    _changed(match)
    return True


def match_cancel_votes_expire() -> int:
    closed = 0
    for proposal in CancelProposal.objects.filter(closed=False, deadline__lte=timezone.now()):
        proposal.closed = True
        proposal.save(update_fields=["closed"])
        closed += 1
    return closed


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


def matches_cancel(*, match_ids: list[int]) -> int:
    """Their owner stops these matches (not the players' friendly cancellation): each one
    still playing becomes ``cancelled`` (any stake goes back as in §8.4), takes no more moves
    (409 ``match_over``) and says so once through ``match_finished``. Safe to call twice."""
    done = 0
    for match_id in sorted(match_ids):
        with transaction.atomic():
            match = _lock_match(match_id, status=Match.PLAYING)
            if match is None:
                continue
            _cancel(match)
            _changed(match)
            done += 1
    return done
