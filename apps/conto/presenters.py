"""The conto as the API shows it (regulation.md §1.9): the player's shape, and staff's."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils import timezone

from apps.common.roles import COMPLIANCE, has_role
from apps.compliance.selectors import sanction_as_dict, sanctions_active
from apps.wallet.selectors import wallet_get

from .exclusions import exclusion_active, exclusions_of
from .limits import limits_view
from .models import Conto, KycDocument, KycEvent, StateChange
from .selectors import conto_can, document_valid, effective_state


def _iso(moment: dt.datetime | None) -> str | None:
    return None if moment is None else timezone.localtime(moment).isoformat()


def document_as_dict(document: KycDocument) -> dict[str, Any]:
    return {"id": document.pk, "side": document.side, "content_type": document.content_type, "size": document.size,
            "uploaded_at": _iso(document.uploaded_at)}


def current_documents(conto: Conto) -> list[KycDocument]:
    """The newest file of each side of the current submission."""
    latest: dict[str, KycDocument] = {}
    for document in KycDocument.objects.filter(conto=conto, submission=conto.submission).order_by("uploaded_at", "id"):
        latest[document.side] = document
    return [latest[side] for side in ("front", "back") if side in latest]


def conto_can_now(conto: Conto, *, now: dt.datetime | None = None) -> dict[str, bool]:
    """§1.9's ``can``: the states, legacy mode and the self-exclusions as they stand now."""
    can = conto_can(conto, now=now)
    if can["money_play"] and exclusion_active(conto=conto, what="tournament", now=now) and \
            exclusion_active(conto=conto, what="money_table", now=now):
        can["money_play"] = False
    if can["deposit"] and exclusion_active(conto=conto, what="deposit", now=now):
        can["deposit"] = False
    return can


def conto_as_dict(conto: Conto, *, now: dt.datetime | None = None) -> dict[str, Any]:
    """The player's own shape (``GET /api/me/account/``)."""
    now = now or timezone.now()
    state, reason = effective_state(conto, now=now)
    return {
        "id": conto.user_id, "origin": conto.origin, "state": state, "state_reason": reason,
        "kyc_status": conto.kyc_status, "kyc_reason": conto.kyc_reason, "kyc_verified_at": _iso(conto.kyc_verified_at),
        "play_until": _iso(conto.play_until), "first_name": conto.first_name, "last_name": conto.last_name,
        "sex": conto.sex or None, "birth_date": conto.birth_date.isoformat() if conto.birth_date else None,
        "birth_place": conto.birth_place or None, "codice_fiscale": conto.codice_fiscale,
        "residence": conto.residence or None, "email": conto.email, "mobile": conto.mobile,
        "document": conto.document or None, "document_valid": document_valid(conto, today=timezone.localdate(now)),
        "documents": [document_as_dict(d) for d in current_documents(conto)],
        "adm_account_code": conto.adm_account_code or None, "can": conto_can_now(conto, now=now),
    }


def conto_staff_dict(conto: Conto, *, reader: Any, now: dt.datetime | None = None) -> dict[str, Any]:
    """Staff's shape (``GET /api/players/{id}/account/``): the player's plus the histories,
    limits, exclusions, sanctions, balances, and for compliance whether an AML case is open."""
    now = now or timezone.now()
    shape = conto_as_dict(conto, now=now)
    user = conto.user
    wallet = wallet_get(player=user)
    shape.update({
        "username": user.get_username(),
        "kyc_history": [{"action": e.action, "reason": e.reason, "by": e.by_id, "at": _iso(e.at)}
                        for e in KycEvent.objects.filter(conto=conto)],
        "state_history": [{"state": c.state, "state_reason": c.state_reason, "reason": c.reason, "by": c.by_id,
                           "at": _iso(c.at)} for c in StateChange.objects.filter(conto=conto)],
        "limits": limits_view(conto=conto, now=now),
        "self_exclusions": exclusions_of(conto=conto, now=now),
        "sanctions": [sanction_as_dict(s) for s in sanctions_active(player=user)],
        "balances": {"cash_cents": wallet["cash_cents"], "bonus_cents": wallet["bonus_cents"],
                     "credits": wallet["credits"], "withdrawals_pending_cents": 0},
    })
    if has_role(reader, COMPLIANCE):
        shape["aml_case_open"] = False  # anti-money-laundering cases arrive with regulation.md §6
    return shape
