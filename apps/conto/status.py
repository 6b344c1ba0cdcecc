"""Compliance's state changes and the player closing (regulation.md §1.8). Staff never end a
self-exclusion: on a ``sospeso/autoesclusione`` conto only ``block`` is allowed."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from apps.common.errors import Conflict, NotFoundError, ValidationFailed
from apps.wallet.models import BONUS, CASH
from apps.wallet.selectors import wallet_balances_many, wallet_get
from apps.wallet.services import bonus_forfeit

from . import states as S
from .errors import InvalidTransition
from .models import Conto
from .services import conto_audit, conto_ensure, conto_state_set
from .signals import conto_busy

ACTIONS = ("suspend", "reopen", "block", "unblock", "close")


def _reason(reason: Any, *, required: bool = True) -> str:
    if reason is None and not required:
        return ""
    if not isinstance(reason, str) or (required and not reason.strip()) or len(reason) > 500:
        raise ValidationFailed(_("Give a reason of 1 to 500 characters."),
                               fields={"reason": [_("1 to 500 characters.")]})
    return reason.strip()


def _snapshot(conto: Conto) -> dict[str, str]:
    return {"state": conto.state, "state_reason": conto.state_reason}


def _money_left(player_id: int) -> bool:
    balances = wallet_balances_many(player_ids=[player_id])[player_id]
    return balances[CASH] > 0 or balances[BONUS] > 0  # withdrawals in flight: regulation.md §5


def conto_status_change(*, actor: Any, player_id: Any, action: Any, reason: Any, ip: str | None = None,
                        now: dt.datetime | None = None) -> Conto:
    """§1.8's table; any other move → 409 ``invalid_transition``."""
    if action not in ACTIONS:
        raise ValidationFailed(_("Unknown action."), fields={"action": [", ".join(ACTIONS)]})
    reason = _reason(reason)
    now = now or timezone.now()
    try:
        user_id = int(player_id)
    except (TypeError, ValueError):
        raise NotFoundError() from None
    user = get_user_model().objects.filter(pk=user_id).first()
    if user is None:
        raise NotFoundError(_("No such player."))
    conto = conto_ensure(user=user)
    with transaction.atomic():
        conto = Conto.objects.select_for_update().get(pk=conto.pk)
        before = _snapshot(conto)
        state, why = conto.state, conto.state_reason
        if state == S.SOSPESO and why == S.AUTOESCLUSIONE and action != "block":
            raise Conflict(_("A self-exclusion is active: staff can never end or shorten it."),
                           code="self_exclusion_active")
        if action == "suspend" and state == S.APERTO:
            conto_state_set(conto=conto, state=S.SOSPESO, state_reason=S.OPERATORE, by=actor, reason=reason, now=now)
        elif action == "reopen" and state == S.SOSPESO and why == S.OPERATORE:
            conto_state_set(conto=conto, state=S.APERTO, by=actor, reason=reason, now=now)
        elif action == "reopen" and state == S.CHIUSO:
            conto.kyc_status, conto.submitted_at = S.DOCUMENTS_REQUIRED, None
            conto.submission += 1
            conto.save(update_fields=["kyc_status", "submitted_at", "submission"])
            conto_state_set(conto=conto, state=S.IN_VERIFICA, by=actor, reason=reason, now=now)
        elif action == "block" and state not in (S.DORMIENTE, S.BLOCCATO):
            conto_state_set(conto=conto, state=S.BLOCCATO, by=actor, reason=reason, remember=True, now=now)
        elif action == "unblock" and state == S.BLOCCATO:
            back, _sep, back_reason = (conto.state_before or f"{S.APERTO}/").partition("/")
            conto.state_before = ""
            conto_state_set(conto=conto, state=back, state_reason=back_reason, by=actor, reason=reason, now=now)
        elif action == "close" and (state in (S.IN_VERIFICA, S.APERTO) or
                                    (state == S.SOSPESO and why in (S.OPERATORE, S.DOCUMENTI))):
            if _money_left(conto.user_id):
                raise Conflict(_("The account still holds cash or bonus: it cannot be closed yet."),
                               code="balance_not_zero")
            conto_state_set(conto=conto, state=S.CHIUSO, state_reason=S.OPERATORE, by=actor, reason=reason, now=now)
        else:
            raise InvalidTransition()
        conto_audit(actor=actor, action="account_status_change", conto=conto, reason=reason, before=before,
                    after=_snapshot(conto), ip=ip)
    return conto


def conto_close(*, user: Any, reason: Any = None, now: dt.datetime | None = None) -> Conto:
    """The player closes (§1.8): no cash left, nothing in play; bonus forfeited, credits stay.
    A self-excluded player may close."""
    reason = _reason(reason, required=False) if reason not in (None, "") else ""
    now = now or timezone.now()
    conto = conto_ensure(user=user)
    for _receiver, answer in conto_busy.send(sender=Conto, player_id=user.pk):
        if answer:
            raise Conflict(answer, code="account_busy")
    with transaction.atomic():
        conto = Conto.objects.select_for_update().get(pk=conto.pk)
        if conto.state in (S.CHIUSO, S.BLOCCATO, S.DORMIENTE):
            raise InvalidTransition()
        if wallet_get(player=user)["cash_cents"] > 0:
            raise Conflict(_("Withdraw your cash before closing the account."), code="balance_not_zero")
        bonus_forfeit(player_id=user.pk, reference=f"close:player:{user.pk}")
        conto_state_set(conto=conto, state=S.CHIUSO, state_reason=S.GIOCATORE, by=user,
                        reason=reason or "closed by the player", now=now)
    return conto
