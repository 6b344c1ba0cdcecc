"""The matches at a table: the next one starts when every seat confirmed (§8.1), stakes taken; a move from the table's page; a match's end, a forfeited seat, the window's deadlines."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from celery import signature
from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from apps.common.errors import (
    Conflict,
    survivors_run,
)
from apps.conto.gates import (
    MONEY_TABLE,
    money_play_gate,
    money_play_spend,
    play_time_gate,
)
from apps.matches.services import (
    StakesShort,
    match_action_apply,
    stake_per_seat,
)
from apps.players.selectors import player_play_check

from .. import broadcast, poker
from ..adm_open import adm_match_abandoned, adm_match_link, adm_match_open
from ..dealing import table_match_begin
from ..models import CASH, Match, Seat, Table, TableMatch
from ..render import snapshot_moved
from .core import (
    NEXT_MATCH_TASK,
    _after_seat_freed,
    _kept_out,
    _money_seats_refused,
    _money_table,
    _stand_up,
    _table_locked,
)


def _maybe_start(table: Table) -> Match | None:
    """Start a match when every seat is taken, every seated human asked for it, at least
    one human is seated (robots never play on alone), no match runs or awaits the table's
    handling of its end, and no pause is pending."""
    _close_ended_matches(table)
    if table.match_links.filter(ended=False).exists():
        return None
    if table.next_match_at is not None and table.next_match_at > timezone.now():
        _schedule_next_match(table)
        return None
    if poker.is_poker(table):  # a hand for everyone not sitting out, no confirmation (§8.5)
        return poker.hand_deal(table)
    seats = list(table.seats.order_by("number"))
    if len(seats) != table.players or not all(s.taken for s in seats):
        if table.next_match_at is not None:  # the pause is over: the next full table starts at once
            table.next_match_at = None
            table.save(update_fields=["next_match_at"])
        return None
    humans = [s for s in seats if s.player_id]
    if not humans or not all(s.ready for s in humans):
        return None
    need = stake_per_seat(table.game, table.stake, table.game_options) if table.official else 0
    if need and table.currency == CASH and _money_seats_refused(table, humans, need):
        return None
    opening = None
    if need and table.currency == CASH:  # regulation.md §7.3: ADM validates the match before any stake
        opening = adm_match_open(table=table, humans=humans, need=need)
        if opening is None:
            return None
    # StakesShort (someone cannot cover the stake) rolls back the new match and every stake
    # taken for it: table_start_if_ready stands them up (ADM is told the participations are off)
    try:
        match = table_match_begin(table=table, seats=seats, options=table.game_options, currency=table.currency,
                                  stakes={s.number: need for s in seats if s.player_id} if need else None)
    except StakesShort as exc:
        if opening is not None:
            adm_match_abandoned(exc, opening)
        raise
    if opening is not None:
        adm_match_link(match=match, opening=opening)
    return match


def table_start_if_ready(*, table_id: int) -> Match | None:
    """Start the next match if it is due; players who cannot cover the stake are stood up."""
    for _attempt in range(3):
        try:
            with transaction.atomic():
                table = Table.objects.select_for_update().filter(pk=table_id, status=Table.OPEN).first()
                if table is None:
                    return None
                return _maybe_start(table)
        except StakesShort as stood:
            survivors_run(stood)  # ADM's answers to a start that rolled back
            with transaction.atomic():
                table = Table.objects.select_for_update().get(pk=table_id)  # the table first, then seats
                if poker.is_poker(table):  # credits moved since they were read: they sit out
                    poker.short_sit_out(table_id=table_id, players=stood.players)
                    broadcast.table_changed(table_id=table_id, match_id=None, version=0)
                    continue
                for seat in Seat.objects.select_for_update().filter(table_id=table_id, player_id__in=stood.players):
                    broadcast.table_notice(table_id=table_id, user_id=seat.player_id,
                                           text=gettext_noop("You were stood up: you cannot cover the stake."))
                    _stand_up(seat)
                _after_seat_freed(table)
                broadcast.table_changed(table_id=table_id, match_id=None, version=0)
    return None


def table_after_match(*, match_id: int) -> bool:
    """A match at this table ended (``match_finished``, after its commit): its end is
    handled (``_close_ended_matches``). Does nothing for a match of no table or one already
    handled: safe to run twice (the tick runs it for an end whose hook was lost)."""
    table_id = TableMatch.objects.filter(match_id=match_id).values_list("table_id", flat=True).first()
    if table_id is None:
        return False
    with transaction.atomic():
        table = Table.objects.select_for_update().filter(pk=table_id).first()
        return table is not None and _close_ended_matches(table)


def _close_ended_matches(table: Table) -> bool:
    """Between matches (platform.md §8.1): once a match has ended, nobody has asked for the
    next one yet, and the window to ask closes 60 seconds from now. Call holding the table's
    lock; every path that may start or ask for a match calls it first, so a request made
    before the end never starts the next match, even before the hook has run."""
    ended = list(TableMatch.objects.filter(table=table, ended=False).exclude(match__status=Match.PLAYING)
                 .select_related("match"))
    if not TableMatch.objects.filter(pk__in=[link.pk for link in ended]).update(ended=True):
        return False
    if poker.is_poker(table):  # the next hand in 5 seconds, with no confirmation (§8.5)
        for link in ended:
            for seat in poker.after_hand(table, link.match):
                _stand_up(seat)
        _after_seat_freed(table)
        _schedule_next_match(table)
        broadcast.table_changed(table_id=table.pk, match_id=None, version=0)
        return True
    table.seats.update(ready=False)
    table.next_match_at = None
    table.confirm_deadline = timezone.now() + timedelta(seconds=settings.NEXT_MATCH_CONFIRM_SECONDS)
    table.save(update_fields=["next_match_at", "confirm_deadline"])
    broadcast.table_changed(table_id=table.pk, match_id=None, version=0)
    return True


def table_seat_abandoned(*, match_id: int, player_id: int) -> bool:
    """A player's seat in this table's match was forfeited (``match_seat_abandoned``):
    they are stood up at the table too, unless they already left."""
    table_id = TableMatch.objects.filter(match_id=match_id).values_list("table_id", flat=True).first()
    if table_id is None:
        return False
    with transaction.atomic():
        table = Table.objects.select_for_update().filter(pk=table_id).first()
        if table is None:
            return False
        seat = table.seats.select_for_update().filter(player_id=player_id).first()
        if seat is None:
            return False
        if poker.is_poker(table) and seat.sitting_out != poker.LEAVING and not _kept_out(seat.player):
            # a dropped (or idle) player's hand is forfeited, not their seat: they sit out,
            # and are stood up after 5 minutes (§8.5)
            poker.sit_out(seat, poker.AWAY)
            broadcast.table_changed(table_id=table.pk, match_id=None, version=0)
            return True
        if poker.is_poker(table) and Match.objects.filter(pk=match_id, status=Match.PLAYING).exists():
            poker.sit_out(seat, poker.LEAVING)  # freed when the hand ends, not during it
            broadcast.table_changed(table_id=table.pk, match_id=None, version=0)
            return True
        _stand_up(seat)
        _after_seat_freed(table)
        broadcast.table_changed(table_id=table.pk, match_id=None, version=0)
    return True


#: a match played at a table, as SQL over the match's columns (``match_action_apply``'s ``where``)
_AT_TABLE = f'"id" IN (SELECT "match_id" FROM "{TableMatch._meta.db_table}" WHERE "table_id" = %s)'


def table_move(*, table_id: int, user: Any, action: Any, version: Any, seat: int | None = None) -> Match:
    """A player's move at a table (the socket's move frame): the match in play is found by
    the locking read itself (issue 15: a move costs no separate read of the table's match)."""
    return match_action_apply(match_id=None, where=(_AT_TABLE, [table_id]), action=action,
                              version=version, user=user, seat=seat)


def table_match_changed(*, match_id: int, version: int, move: dict[str, Any] | None = None) -> bool:
    """A match at this table changed (``match_changed``, after commit): the table's revision
    grows and its sockets are told ("table changed, revision r", no card), so every socket
    re-renders it. One statement; never fails the caller. A move made in this process also
    leaves the new revision's snapshot in the process's cache, so the sockets here draw it
    without reading the table back (``render.snapshot_moved``). False when no table holds the
    match (or the revision could not be advanced): matches then pushes to the match's group."""
    advanced = broadcast.table_revision_advance(match_id=match_id)
    if advanced is None:
        return False
    table_id, revision = advanced
    message: dict[str, Any] = {"type": "table.changed", "version": version, "match": match_id}
    if move is not None:
        message["move"] = True  # only the match row and its log row changed
        snapshot_moved(table_id=table_id, revision=revision, **move)
    message["revision"] = revision  # sockets that drew it already skip the push
    broadcast.push_now(broadcast.table_group(table_id), message)
    return True


def table_ready(*, user: Any, table_id: Any) -> Match | None:
    """The player asks for the next match ("Gioca ancora"). The request that completes the
    set starts it at once (stakes taken then); asking twice changes nothing."""
    player_play_check(user=user)
    with transaction.atomic():
        table = _table_locked(table_id)
        _close_ended_matches(table)
        seat = table.seats.select_for_update().filter(player=user).first()
        if seat is None:
            raise Conflict(_("You are not seated at this table."), code="not_seated")
        if table.matches.filter(status=Match.PLAYING).exists():
            raise Conflict(_("A match is being played: confirm the next one when it is over."),
                           code="match_in_progress")
        if seat.ready:
            return None
        if _money_table(table):
            money_play_gate(user=user, what=MONEY_TABLE)
        play_time_gate(user=user)
        if _money_table(table):
            money_play_spend(user=user, amount=stake_per_seat(table.game, table.stake, table.game_options))
        seat.ready = True
        seat.save(update_fields=["ready"])
        broadcast.table_changed(table_id=table.pk, match_id=None, version=0)
    return table_start_if_ready(table_id=table.pk)


def table_confirmations_expire(*, table_id: int) -> int:
    """The window after a match closed: stand up every seated human who did not ask for
    the next match (nothing is charged to them). Returns how many were stood up."""
    with transaction.atomic():
        table = Table.objects.select_for_update().filter(pk=table_id, status=Table.OPEN).first()
        if (table is None or table.confirm_deadline is None or table.confirm_deadline > timezone.now()
                or table.matches.filter(status=Match.PLAYING).exists()):
            return 0
        late = list(table.seats.select_for_update().filter(player__isnull=False, ready=False))
        for seat in late:
            broadcast.table_notice(table_id=table.pk, user_id=seat.player_id, text=gettext_noop(
                "You were stood up: you did not confirm the next match within %(seconds)s seconds. Nothing was charged."),
                params={"seconds": settings.NEXT_MATCH_CONFIRM_SECONDS})
            _stand_up(seat)
        table.confirm_deadline = None
        table.save(update_fields=["confirm_deadline"])
        _after_seat_freed(table)
        broadcast.table_changed(table_id=table.pk, match_id=None, version=0)
    return len(late)


def _schedule_next_match(table: Table) -> None:
    if table.next_match_at is None:
        return
    delay = max(0.0, (table.next_match_at - timezone.now()).total_seconds())
    table_id = table.pk
    transaction.on_commit(lambda: signature(NEXT_MATCH_TASK, args=(table_id,)).apply_async(countdown=delay + 0.05))


def table_next_match_due(*, table_id: int) -> bool:
    """The next-match task: start it if its pause is over (an eager countdown runs at once
    and must do nothing; the tick or a later task starts it then)."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None or (table.next_match_at is not None and table.next_match_at > timezone.now()):
        return False
    return table_start_if_ready(table_id=table_id) is not None
