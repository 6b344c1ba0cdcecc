"""Writing audit rows. Services call this inside the transaction of the action itself,
so an action and its audit row are committed (or rolled back) together."""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from .models import AuditLog


def audit_record(
    *,
    actor: Any,
    action: str,
    target: Any = None,
    target_type: str = "",
    target_id: Any = "",
    reason: str = "",
    before: Any = None,
    after: Any = None,
    ip: str | None = None,
) -> AuditLog:
    if target is not None:
        target_type = target_type or target._meta.model_name
        target_id = target_id or target.pk
    return AuditLog.objects.create(
        actor=actor if getattr(actor, "pk", None) else None,
        action=action,
        target_type=target_type,
        target_id=str(target_id),
        reason=reason or "",
        before=before,
        after=after,
        ip=ip,
        created=timezone.now(),
    )
