"""Who sits where: sitting, robots, invitations, watching, leaving, Gioca subito, sitting out (poker), and the conto's states (regulation.md §1.4, §1.8)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from apps.common.errors import (
    Conflict,
    Forbidden,
    NotFoundError,
    ValidationFailed,
)
from apps.common.roles import is_staff_member
from apps.conto.gates import (
    MONEY_TABLE,
    money_play_gate,
    money_play_spend,
    play_time_gate,
)
from apps.games.engines import ENGINES
from apps.matches.services import (
    match_abandon,
    stake_per_seat,
)
from apps.players.models import Profile
from apps.players.selectors import nickname_of, player_play_check

from .. import broadcast, poker
from ..models import Match, Seat, Table, TableInvite
from ..selectors import table_access, table_ids_to_join, table_seated_waiting
from .core import (
    _after_seat_freed,
    _can_enter,
    _check_funds,
    _current_version,
    _money_table,
    _stand_up,
    _table_locked,
    _table_pk,
)
from .setup import _validate_settings, table_create
from .table_matches import _close_ended_matches, table_start_if_ready


def table_sit(*, user: Any, table_id: Any, seat: Any = None, ip: str | None = None) -> Table:
    player_play_check(user=user)
    money = _money_table(Table.objects.filter(pk=_table_pk(table_id)).first())
    if money:
        money_play_gate(user=user, what=MONEY_TABLE)  # regulation.md §4.4, before the table's own checks
    play_time_gate(user=user)
    with transaction.atomic():
        table = _table_locked(table_id)
        _close_ended_matches(table)
        if not _can_enter(table, user):
            raise Forbidden(_("This table is private: only invited players can sit."), code="private_table")
        seats = list(table.seats.select_for_update().order_by("number"))
        if any(s.player_id == user.pk for s in seats):
            raise Conflict(_("You are already seated at this table."), code="already_seated")
        free = [s for s in seats if not s.taken]
        if seat is not None:
            if type(seat) is not int or not 0 <= seat < table.players:
                raise ValidationFailed(_("No such seat."), fields={"seat": [_("0 to %(last)s.") % {"last": table.players - 1}]})
            if not free:
                raise Conflict(_("The table is full."), code="table_full")
            chosen = next((s for s in seats if s.number == seat), None)
            if chosen is None or chosen.taken:
                raise Conflict(_("That seat is taken."), code="seat_taken")
        else:
            if not free:
                raise Conflict(_("The table is full."), code="table_full")
            chosen = free[0]
        if _money_table(table):
            money_play_spend(user=user, amount=stake_per_seat(table.game, table.stake, table.game_options))
        _check_funds(user, table.game, table.stake, table.currency, table.game_options)
        chosen.player = user
        chosen.since = timezone.now()
        chosen.ip = ip
        chosen.ready = True  # sitting down asks for the next match
        chosen.sitting_out, chosen.sitting_out_since, chosen.chips = "", None, None
        chosen.save(update_fields=["player", "since", "ip", "ready", "sitting_out", "sitting_out_since", "chips"])
        if table.empty_since is not None:
            table.empty_since = None
            table.save(update_fields=["empty_since"])
        broadcast.table_changed(table_id=table.pk, match_id=None, version=_current_version(table))
    table_start_if_ready(table_id=table.pk)
    return table


def table_robot_add(*, user: Any, table_id: Any, seat: Any) -> Table:
    with transaction.atomic():
        table = _table_locked(table_id)
        if table.leader_id != user.pk:
            raise Forbidden(_("Only the table leader can add robots."), code="not_table_leader")
        if table.official:
            raise Conflict(_("Robots play only at practice tables: they never play for money or XP."),
                           code="robots_practice_only")
        if type(seat) is not int or not 0 <= seat < table.players:
            raise ValidationFailed(_("No such seat."), fields={"seat": [_("0 to %(last)s.") % {"last": table.players - 1}]})
        chosen = table.seats.select_for_update().get(number=seat)
        if chosen.taken:
            raise Conflict(_("That seat is taken."), code="seat_taken")
        chosen.robot = True
        chosen.since = timezone.now()
        chosen.save(update_fields=["robot", "since"])
        broadcast.table_changed(table_id=table.pk, match_id=None, version=_current_version(table))
    table_start_if_ready(table_id=table.pk)
    return table


def table_invite(*, user: Any, table_id: Any, nickname: Any) -> TableInvite:
    with transaction.atomic():
        table = _table_locked(table_id)
        if table.leader_id != user.pk:
            raise Forbidden(_("Only the table leader can invite."), code="not_table_leader")
        if not isinstance(nickname, str):
            raise ValidationFailed(_("Whom to invite?"), fields={"nickname": [_("A nickname.")]})
        profile = Profile.objects.filter(nickname__iexact=nickname).select_related("user").first()
        if profile is None:
            raise ValidationFailed(_("No player has that nickname."), fields={"nickname": [_("Unknown nickname.")]})
        invite, _created = TableInvite.objects.get_or_create(table=table, player=profile.user)
        broadcast.table_notice(table_id=table.pk, user_id=profile.user_id,
                               text=gettext_noop("%(nickname)s invited you to table %(table)s."),
                               params={"nickname": nickname_of(user), "table": table.pk})
    return invite


def table_leave(*, user: Any, table_id: Any) -> Table:
    with transaction.atomic():
        table = _table_locked(table_id)
        seat = table.seats.select_for_update().filter(player=user).first()
        if seat is None:
            raise Conflict(_("You are not seated at this table."), code="not_seated")
        match = table.matches.select_for_update().filter(status=Match.PLAYING).first()
        if poker.is_poker(table) and match is not None and match.match_seats.filter(player=user).exists():
            # leaving forfeits the hand at once (folded out of turn, seed 001); players stand
            # up only between hands: the seat is freed when the hand ends (platform.md §8.5)
            poker.sit_out(seat, poker.LEAVING)
            match_abandon(match=match, seat=match.match_seats.get(player=user).number)
            broadcast.table_changed(table_id=table.pk, match_id=match.pk, version=match.version)
            return table
        if match is not None and match.match_seats.filter(player=user).exists():
            # leaving during a match is an abandonment: the robot takes the seat (§8.6)
            match_abandon(match=match, seat=match.match_seats.get(player=user).number)
        _stand_up(seat)
        _after_seat_freed(table)
        broadcast.table_changed(table_id=table.pk, match_id=None, version=_current_version(table))
    return table


def table_watch(*, user: Any, table_id: Any) -> Table:
    """A player asks to watch: allowed when the table lets spectators in (and invites them)."""
    table = Table.objects.filter(pk=table_id, status=Table.OPEN).first()
    if table is None:
        raise NotFoundError(_("No such table."))
    if not is_staff_member(user):
        player_play_check(user=user)
    access = table_access(table=table, user=user)
    if access is None:
        raise Forbidden(_("Spectators are not allowed at this table."),
                        code="private_table" if table.private else "permission_denied")
    return table


#: a refusal that only means "this table, not another": Gioca subito tries the next one
_TAKEN_MEANWHILE = ("table_full", "seat_taken", "already_seated")


def table_play_now(*, user: Any, game: Any, ip: str | None = None) -> Table:
    """"Gioca subito": seat ``user`` at the first open public table of ``game`` with a new
    table's settings (no stake, practice or official as the game's default), or open such a
    table. A player already seated at a table of that game goes back to it. Refusals are the
    ones of sitting (platform.md §8.1), in the same order."""
    if not isinstance(game, str) or game not in ENGINES:
        raise ValidationFailed(_("Unknown game."), fields={"game": [_("One of: %(games)s.") % {"games": ", ".join(ENGINES)}]})
    player_play_check(user=user)
    seated = table_seated_waiting(game=game, user=user)
    if seated is not None:
        return Table.objects.get(pk=seated)
    defaults = _validate_settings({}, game=game)
    for table_id in table_ids_to_join(game=game, official=defaults["official"], user=user):
        try:
            return table_sit(user=user, table_id=table_id, ip=ip)
        except (Conflict, NotFoundError) as exc:  # filled, started or closed since it was read
            if isinstance(exc, Conflict) and exc.code not in _TAKEN_MEANWHILE:
                raise
    return table_create(user=user, data={"game": game}, ip=ip)


def table_sit_out(*, user: Any, table_id: Any, out: Any) -> dict[str, Any]:
    """Poker's sit-out toggle (platform.md §8.5): out of the next hands, or back in; no
    confirmation. Coming back in may let a hand be dealt at once."""
    with transaction.atomic():
        table = _table_locked(table_id)
        seat = table.seats.select_for_update().filter(player=user).first()
        if seat is None:
            raise Conflict(_("You are not seated at this table."), code="not_seated")
        poker.seat_sit_out(table=table, seat=seat, out=out)
        broadcast.table_changed(table_id=table.pk, match_id=None, version=_current_version(table))
    if out is False:
        table_start_if_ready(table_id=table.pk)
    return {"out": bool(out), "sitting_out": [
        nickname_of(s.player) for s in Seat.objects.filter(table_id=table.pk, player__isnull=False)
        .exclude(sitting_out="").select_related("player__profile").order_by("number")]}


def table_sit_out_expire(*, table_id: int, seat_id: int) -> int:
    """A player sitting out for 5 minutes is stood up (between hands, charged nothing)."""
    with transaction.atomic():
        table = Table.objects.select_for_update().filter(pk=table_id).first()
        seat = Seat.objects.select_for_update().filter(pk=seat_id).first()
        cutoff = timezone.now() - timedelta(seconds=settings.POKER_SIT_OUT_STAND_UP_SECONDS)
        if (table is None or seat is None or not seat.player_id or seat.sitting_out in ("", poker.LEAVING)
                or seat.sitting_out_since is None or seat.sitting_out_since > cutoff):
            return 0
        broadcast.table_notice(table_id=table.pk, user_id=seat.player_id,
                               text=gettext_noop("You were stood up: you sat out for 5 minutes."))
        _stand_up(seat)
        _after_seat_freed(table)
        broadcast.table_changed(table_id=table.pk, match_id=None, version=_current_version(table))
    return 1


def tables_conto_left_open(*, player_id: int) -> int:
    """The player's conto left ``aperto``: stood up from money tables between matches, charging
    nothing; a match in play finishes (its next start refuses the seat). Returns the seats freed."""
    freed = 0
    table_ids = list(Seat.objects.filter(player_id=player_id).values_list("table_id", flat=True).order_by("table_id"))
    for table_id in table_ids:
        with transaction.atomic():
            table = Table.objects.select_for_update().filter(pk=table_id).first()
            if table is None or not _money_table(table) or table.matches.filter(status=Match.PLAYING).exists():
                continue
            seat = table.seats.select_for_update().filter(player_id=player_id).first()
            if seat is None:
                continue
            broadcast.table_notice(table_id=table.pk, user_id=player_id,
                                   text=gettext_noop("You were stood up: your gaming account cannot play for money now."))
            _stand_up(seat)
            _after_seat_freed(table)
            broadcast.table_changed(table_id=table.pk, match_id=None, version=0)
            freed += 1
    return freed


def tables_busy(*, player_id: int) -> str | None:
    """Why the player cannot close the conto now (§1.8's ``account_busy``), or None."""
    if Seat.objects.filter(player_id=player_id).exists():
        return _("Leave your table first: you cannot close the account while seated.")
    return None
