"""Writing the conto (regulation.md §1): the on-demand legacy conto, state changes with their
history, the money-play check every floor above calls before it writes anything."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from apps.adm.services import adm_enqueue
from apps.audit.services import audit_record
from apps.common.errors import Forbidden
from apps.common.roles import is_staff_member

from . import states as S
from .errors import AccountNotOpen
from .models import Conto, StateChange
from .selectors import conto_may_money_play, effective_state
from .signals import conto_left_open


def conto_ensure(*, user: Any) -> Conto:
    """The player's conto; a player made before the conto existed (or by the admin or
    ``create_user``) gets a legacy one on first need (§1.6). Staff have none: 403."""
    if is_staff_member(user):
        raise Forbidden()
    try:
        return Conto.objects.get(user_id=user.pk)
    except Conto.DoesNotExist:
        pass
    now = timezone.now()
    try:
        with transaction.atomic():
            conto = Conto.objects.create(user_id=user.pk, origin=S.ORIGIN_LEGACY, state=S.APERTO,
                                         kyc_status=S.LEGACY, state_changed_at=now, last_activity_at=now)
            StateChange.objects.create(conto=conto, state=S.APERTO, reason="legacy account", at=now)
    except IntegrityError:  # a concurrent first need made it
        return Conto.objects.get(user_id=user.pk)
    return conto


def conto_check_money_play(*, user: Any, now: dt.datetime | None = None) -> Conto:
    """§1.5: 403 ``account_not_open`` unless the conto may play for money now. Called by every
    money-play point before any write (§0.3, §4.4's order)."""
    conto = conto_ensure(user=user)
    if not conto_may_money_play(conto, now=now):
        state, reason = effective_state(conto, now=now)
        raise AccountNotOpen(state=state, state_reason=reason)
    return conto


def conto_state_set(*, conto: Conto, state: str, state_reason: str = "", by: Any = None, reason: str = "",
                    remember: bool = False, now: dt.datetime | None = None) -> Conto:
    """Move a locked conto to ``state``: history row, ADM ``account_status``, and after commit
    ``conto_left_open`` when it left ``aperto``. Callers check the move is allowed (§1.4)."""
    now = now or timezone.now()
    before_state, before_reason = conto.state, conto.state_reason
    if remember:
        conto.state_before = f"{before_state}/{before_reason}"
    conto.state, conto.state_reason, conto.state_changed_at = state, state_reason, now
    conto.save(update_fields=["state", "state_reason", "state_before", "state_changed_at"])
    StateChange.objects.create(conto=conto, from_state=before_state, from_reason=before_reason, state=state,
                               state_reason=state_reason, reason=reason, by=by if getattr(by, "pk", None) else None,
                               at=now)
    adm_enqueue(type="account_status", reference=f"player:{conto.user_id}", player_id=conto.user_id,
                payload={"state": state, "state_reason": state_reason,
                         "adm_reason": S.ADM_REASON.get((state, state_reason if state != S.BLOCCATO else ""))})
    if before_state == S.APERTO and state != S.APERTO:
        player_id = conto.user_id
        transaction.on_commit(lambda: conto_left_open.send(sender=Conto, player_id=player_id, state=state,
                                                           state_reason=state_reason))
    return conto


def conto_audit(*, actor: Any, action: str, conto: Conto, reason: str = "", before: Any = None,
                after: Any = None, ip: str | None = None) -> None:
    """Audit a staff action on a player's conto (§11.2: target ``player``, the user id)."""
    audit_record(actor=actor, action=action, target_type="player", target_id=conto.user_id, reason=reason,
                 before=before, after=after, ip=ip)
