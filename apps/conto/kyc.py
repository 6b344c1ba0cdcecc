"""KYC review by compliance (regulation.md §1.7): the queue, oldest first, and the three
decisions, each under the conto's lock, with its history row and audit."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from apps.adm.selectors import adm_accepted
from apps.common.errors import Conflict, NotFoundError, ValidationFailed

from . import states as S
from .codice_fiscale import codice_fiscale_checks
from .models import Conto, KycEvent
from .presenters import current_documents, document_as_dict
from .registry import RegistryUnavailable, registry_check
from .services import conto_audit, conto_state_set


def kyc_queue() -> QuerySet:
    return Conto.objects.filter(kyc_status=S.PENDING).select_related("user").order_by("submitted_at", "user_id")


def kyc_overdue(conto: Conto, *, now: dt.datetime | None = None) -> bool:
    now = now or timezone.now()
    hours = int(getattr(settings, "KYC_REVIEW_SLA_HOURS", 72))
    return conto.submitted_at is not None and now - conto.submitted_at > dt.timedelta(hours=hours)


def kyc_checks(conto: Conto) -> dict[str, Any]:
    """§1.7's ``checks``: the codice fiscale (valid, consistent), name letters, age, registry."""
    checks = codice_fiscale_checks(conto)
    try:
        answer = registry_check(conto.codice_fiscale or "")
        checks["registry"] = {"excluded": bool(answer.get("excluded")), "scope": answer.get("scope")}
    except RegistryUnavailable:
        checks["registry"] = None
    return checks


def kyc_item(conto: Conto, *, now: dt.datetime | None = None) -> dict[str, Any]:
    now = now or timezone.now()
    age_hours = None if conto.submitted_at is None else int((now - conto.submitted_at).total_seconds() // 3600)
    return {
        "player": conto.user_id, "username": conto.user.get_username(), "first_name": conto.first_name,
        "last_name": conto.last_name, "sex": conto.sex,
        "birth_date": conto.birth_date.isoformat() if conto.birth_date else None, "birth_place": conto.birth_place,
        "codice_fiscale": conto.codice_fiscale, "document": conto.document,
        "submitted_at": None if conto.submitted_at is None else timezone.localtime(conto.submitted_at).isoformat(),
        "age_hours": age_hours, "overdue": kyc_overdue(conto, now=now), "checks": kyc_checks(conto),
        "documents": [{k: v for k, v in document_as_dict(d).items() if k != "uploaded_at"}
                      for d in current_documents(conto)],
    }


def _reason(reason: Any, *, required: bool) -> str:
    if reason is None:
        reason = ""
    if not isinstance(reason, str) or (required and not reason.strip()) or len(reason) > 500:
        raise ValidationFailed(_("Give a reason of 1 to 500 characters.") if required else
                               _("The reason can be at most 500 characters."),
                               fields={"reason": [_("1 to 500 characters.") if required else _("At most 500 characters.")]})
    return reason.strip()


def _locked_pending(player_id: Any) -> Conto:
    try:
        player_id = int(player_id)
        if not 0 < player_id < 2**63:  # no such id; SQLite's driver refuses to bind a larger one at all
            raise Conto.DoesNotExist
        conto = Conto.objects.select_for_update().get(user_id=player_id)
    except (Conto.DoesNotExist, TypeError, ValueError):
        raise NotFoundError(_("No gaming account for this player.")) from None
    if conto.kyc_status != S.PENDING:
        raise Conflict(_("This player's documents are not waiting for review."), code="kyc_not_pending")
    return conto


def _answer(conto: Conto) -> dict[str, Any]:
    return {"player": conto.user_id, "kyc_status": conto.kyc_status, "kyc_reason": conto.kyc_reason,
            "state": conto.state, "state_reason": conto.state_reason}


def _snapshot(conto: Conto) -> dict[str, Any]:
    return {"kyc_status": conto.kyc_status, "state": conto.state, "state_reason": conto.state_reason}


def kyc_approve(*, actor: Any, player_id: Any, reason: Any = "", ip: str | None = None) -> dict[str, Any]:
    reason = _reason(reason, required=False)
    now = timezone.now()
    with transaction.atomic():
        conto = _locked_pending(player_id)
        if not adm_accepted(type="account_open", reference=f"player:{conto.user_id}"):
            raise Conflict(_("ADM has not accepted this account's opening yet: try again in a few minutes."),
                           code="adm_not_accepted")
        before = _snapshot(conto)
        conto.kyc_status, conto.kyc_reason, conto.kyc_verified_at = S.APPROVED, reason, now
        expires = (conto.document or {}).get("expires_at")
        conto.document_expires_at = dt.date.fromisoformat(expires) if expires else None
        conto.save(update_fields=["kyc_status", "kyc_reason", "kyc_verified_at", "document_expires_at"])
        KycEvent.objects.create(conto=conto, action=KycEvent.APPROVED, reason=reason, by=actor, at=now)
        if conto.state == S.IN_VERIFICA or (conto.state == S.SOSPESO and conto.state_reason == S.DOCUMENTI):
            conto_state_set(conto=conto, state=S.APERTO, by=actor, reason=reason or "KYC approved", now=now)
        conto_audit(actor=actor, action="kyc_approve", conto=conto, reason=reason, before=before,
                    after=_snapshot(conto), ip=ip)
    return _answer(conto)


def kyc_resubmit(*, actor: Any, player_id: Any, reason: Any, ip: str | None = None) -> dict[str, Any]:
    reason = _reason(reason, required=True)
    now = timezone.now()
    with transaction.atomic():
        conto = _locked_pending(player_id)
        before = _snapshot(conto)
        conto.kyc_status, conto.kyc_reason, conto.submitted_at = S.RESUBMISSION_REQUIRED, reason, None
        conto.submission += 1
        conto.save(update_fields=["kyc_status", "kyc_reason", "submitted_at", "submission"])
        KycEvent.objects.create(conto=conto, action=KycEvent.RESUBMISSION_REQUESTED, reason=reason, by=actor, at=now)
        conto_audit(actor=actor, action="kyc_resubmit", conto=conto, reason=reason, before=before,
                    after=_snapshot(conto), ip=ip)
    return _answer(conto)


def kyc_reject(*, actor: Any, player_id: Any, reason: Any, ip: str | None = None) -> dict[str, Any]:
    reason = _reason(reason, required=True)
    now = timezone.now()
    with transaction.atomic():
        conto = _locked_pending(player_id)
        before = _snapshot(conto)
        conto.kyc_status, conto.kyc_reason = S.REJECTED, reason
        conto.save(update_fields=["kyc_status", "kyc_reason"])
        KycEvent.objects.create(conto=conto, action=KycEvent.REJECTED, reason=reason, by=actor, at=now)
        if conto.state in (S.IN_VERIFICA, S.APERTO) or (conto.state == S.SOSPESO and conto.state_reason == S.DOCUMENTI):
            conto_state_set(conto=conto, state=S.CHIUSO, state_reason=S.OPERATORE, by=actor, reason=reason, now=now)
        conto_audit(actor=actor, action="kyc_reject", conto=conto, reason=reason, before=before,
                    after=_snapshot(conto), ip=ip)
    return _answer(conto)
