"""The operator's actions on live tables (issue 16): close a table, stand a player up between
matches, message a table, switch its chat off or on. Each needs a reason, writes an audit row and tells the players.

Closing a table with a match in play cancels that match on the friendly-cancellation path
(platform.md §8.4's money rules: every stake back, no bank; an abandoning player's stake
goes to the others), so the escrow is emptied exactly as a unanimous vote would.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from apps.audit.services import audit_record
from apps.chat.services import chat_system_post
from apps.common.errors import Conflict, Forbidden, NotFoundError, ValidationFailed
from apps.common.roles import OPERATOR, has_role
from apps.matches.models import Match
from apps.matches.services import match_cancel_by_owner

from . import broadcast
from .models import Table
from .services.core import _after_seat_freed, _stand_up
from .services.table_matches import _close_ended_matches

REASON_MAX = 200


def _checked(actor, reason: object) -> str:
    if not has_role(actor, OPERATOR):
        raise Forbidden(_("Only operators act on tables."))
    if not isinstance(reason, str) or not reason.strip():
        raise ValidationFailed(_("Give a reason: the players are told, and it is audited."),
                               fields={"reason": [_("Required.")]})
    if len(reason.strip()) > REASON_MAX:
        raise ValidationFailed(_("A reason has at most %(n)s characters.") % {"n": REASON_MAX},
                               fields={"reason": [_("At most %(n)s characters.") % {"n": REASON_MAX}]})
    return reason.strip()


def _open_table_locked(table_id: Any) -> Table:
    table = Table.objects.select_for_update().filter(pk=table_id).first()
    if table is None:
        raise NotFoundError(_("No such table."))
    if table.status != Table.OPEN:
        raise Conflict(_("This table is already closed."), code="table_closed")
    return table


def table_close(*, actor, table_id: Any, reason: object, ip: str | None = None) -> Table:
    """Close a table: a match in play is cancelled with its stakes returned, every seat freed,
    and everyone at the table told why."""
    reason = _checked(actor, reason)
    with transaction.atomic():
        table = _open_table_locked(table_id)
        match = Match.objects.select_for_update().filter(table_link__table=table, status=Match.PLAYING).first()
        seated = list(table.seats.select_for_update().filter(player__isnull=False))
        players = sorted(s.player_id for s in seated)
        before = {"status": table.status, "match": match.pk if match else None, "seated": players}
        if match is not None:
            match_cancel_by_owner(match=match)
        _close_ended_matches(table)  # the table handles the end now (the hook after commit finds it done)
        for seat in table.seats.select_for_update().filter(robot=True):
            seat.robot = False
            seat.save(update_fields=["robot"])
        for seat in seated:
            _stand_up(seat)
        table.status, table.closed_at = Table.CLOSED, timezone.now()
        table.next_match_at = table.confirm_deadline = None
        table.save(update_fields=["status", "closed_at", "next_match_at", "confirm_deadline"])
        audit_record(actor=actor, action="table_closed", target=table, reason=reason, before=before,
                     after={"status": table.status, "match_cancelled": match.pk if match else None}, ip=ip)
        text = (gettext_noop("An operator closed this table: %(reason)s. The match in play was cancelled and every "
                             "stake returned.") if match is not None
                else gettext_noop("An operator closed this table: %(reason)s"))
        broadcast.table_notice(table_id=table.pk, user_id=None, text=text, params={"reason": reason})
        for player_id in players:
            broadcast.table_notice(table_id=table.pk, user_id=player_id, text=text, params={"reason": reason})
        broadcast.table_changed(table_id=table.pk, match_id=match.pk if match else None,
                                version=match.version if match else 0)
    return table


def seat_stand_up(*, actor, table_id: Any, player_id: Any, reason: object, ip: str | None = None) -> Table:
    """Free a player's seat between matches (409 match_in_progress while they play one)."""
    reason = _checked(actor, reason)
    with transaction.atomic():
        table = _open_table_locked(table_id)
        seat = table.seats.select_for_update().filter(player_id=player_id).first() \
            if str(player_id).isdigit() else None
        if seat is None:
            raise Conflict(_("That player is not seated at this table."), code="not_seated")
        if Match.objects.filter(table_link__table=table, status=Match.PLAYING,
                                match_seats__player_id=seat.player_id).exists():
            raise Conflict(_("A match is being played: stand a player up between matches."),
                           code="match_in_progress")
        audit_record(actor=actor, action="seat_stood_up", target=table, reason=reason,
                     before={"seat": seat.number, "player": seat.player_id}, after={"seat": seat.number}, ip=ip)
        broadcast.table_notice(table_id=table.pk, user_id=seat.player_id,
                               text=gettext_noop("An operator stood you up from table %(table)s: %(reason)s"),
                               params={"table": table.pk, "reason": reason})
        _stand_up(seat)
        _after_seat_freed(table)
        broadcast.table_changed(table_id=table.pk, match_id=None, version=0)
    return table


def table_message(*, actor, table_id: Any, text: object, reason: object, ip: str | None = None):
    """A system line in the table's chat, seen by every player and spectator there."""
    reason = _checked(actor, reason)
    if not isinstance(text, str) or not text.strip():
        raise ValidationFailed(_("Write the message."), fields={"text": [_("Required.")]})
    with transaction.atomic():
        table = _open_table_locked(table_id)
        message = chat_system_post(actor=actor, table=table, text=text, ip=ip)
        audit_record(actor=actor, action="table_messaged", target=table, reason=reason,
                     after={"message": message.pk, "text": message.text}, ip=ip)
    return message


def table_chat_set(*, actor, table_id: Any, enabled: object, reason: object, ip: str | None = None) -> Table:
    """The operator switches a table's chat off or on again (seed 000: "se la stessa è
    abilitata"): audited with the reason; the players are told and their chat box redrawn.
    Lines already written stay recorded; while it is off nothing can be written."""
    reason = _checked(actor, reason)
    if type(enabled) is not bool:
        raise ValidationFailed(_("Say whether the chat is on or off."), fields={"enabled": [_("true or false")]})
    with transaction.atomic():
        table = _open_table_locked(table_id)
        if table.chat_enabled == enabled:
            return table
        table.chat_enabled = enabled
        table.save(update_fields=["chat_enabled"])
        audit_record(actor=actor, action="table_chat_enabled" if enabled else "table_chat_disabled", target=table,
                     reason=reason, before={"chat_enabled": not enabled}, after={"chat_enabled": enabled}, ip=ip)
        text = (gettext_noop("An operator switched the chat on at this table.") if enabled
                else gettext_noop("An operator switched the chat off at this table: %(reason)s"))
        broadcast.table_notice(table_id=table.pk, user_id=None, text=text, params={"reason": reason})
        broadcast.chat_switched(table_id=table.pk)
    return table
