"""Creating and editing a tournament (platform.md §5.1): the operator's input checked, ADM's session opened first."""

from __future__ import annotations

import secrets
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from apps.adm.sending import adm_send_sync
from apps.adm.services import adm_reference_set
from apps.audit.services import audit_record
from apps.common.errors import (
    Conflict,
    ValidationFailed,
)

from .. import broadcast
from ..models import Tournament
from ..validation import CREATE_FIELDS, tournament_validate
from .core import (
    EDITABLE_AFTER_REGISTRATION,
    REGISTRATION_CLOSES_BEFORE,
    _locked,
    _touch,
)


def _snapshot(t: Tournament) -> dict[str, Any]:
    snap = {f: getattr(t, f) for f in CREATE_FIELDS if f not in ("satellite_target", "starts_at")}
    snap["satellite_target"] = t.satellite_target_id
    snap["starts_at"] = t.starts_at.isoformat() if t.starts_at else None
    return snap


def tournament_create(*, actor: User, data: Any, ip: str | None = None) -> Tournament:
    d = tournament_validate(data)
    # regulation.md §7.3: ADM opens the session first; rejected or unanswered, nothing is created
    session = adm_send_sync(type="session_open", reference=f"tournament:new:{secrets.token_hex(6)}", payload={
        "regime": "torneo", "game": d["game"], "name": d["name"], "buy_in_cents": d["buy_in_cents"],
        "fee_cents": d["fee_cents"], "guaranteed_cents": d["guaranteed_cents"],
        "starts_at": d["starts_at"].isoformat() if d["starts_at"] else None})
    with transaction.atomic():
        t = Tournament.objects.create(
            **{k: d[k] for k in CREATE_FIELDS}, created_by=actor if getattr(actor, "pk", None) else None,
            registrations_close_at=(d["starts_at"] - REGISTRATION_CLOSES_BEFORE) if d["starts_at"] else None,
            adm_session_code=session.code)
        adm_reference_set(message=session, reference=f"tournament:{t.pk}")
        audit_record(actor=actor, action="tournament_create", target=t, after=_snapshot(t), ip=ip)
        broadcast.lobby_changed()
    return t


def tournament_update(*, actor: User, tournament_id: Any, data: Any, ip: str | None = None) -> Tournament:
    """Edit while ``open`` and without registrations; after the first one only ``name``."""
    with transaction.atomic():
        t = _locked(tournament_id)
        if t.status != Tournament.OPEN:
            raise Conflict(_("The tournament has started: it can no longer be edited."), code="already_started")
        if not isinstance(data, dict):
            raise ValidationFailed(_("The body must be a JSON object."), fields={"body": [_("A JSON object.")]})
        if t.registrations.filter(active=True).exists():
            locked = sorted(set(data) - set(EDITABLE_AFTER_REGISTRATION))
            if locked:
                raise ValidationFailed(_("Players have registered: only the name can change now."),
                                       fields={f: [_("Cannot change after the first registration.")] for f in locked})
        before = _snapshot(t)
        d = tournament_validate(data, current=t)
        for k in CREATE_FIELDS:
            setattr(t, k, d[k])
        t.registrations_close_at = (t.starts_at - REGISTRATION_CLOSES_BEFORE) if t.starts_at else None
        t.save()
        audit_record(actor=actor, action="tournament_edit", target=t, before=before, after=_snapshot(t), ip=ip)
        _touch(t)
    return t
