"""``GET /api/audit/`` (regulation.md §11.2): compliance reads the audit log, newest first."""

from __future__ import annotations

from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiTypes, extend_schema
from rest_framework.views import APIView

from apps.common.api import Pagination, role_permission
from apps.common.errors import ValidationFailed
from apps.common.roles import COMPLIANCE

from .models import AuditLog


def audit_as_dict(row: AuditLog) -> dict:
    return {"id": row.pk, "created": row.created.isoformat(), "actor": row.actor_id, "action": row.action,
            "target_type": row.target_type, "target_id": row.target_id, "reason": row.reason, "before": row.before,
            "after": row.after, "ip": row.ip}


class AuditListView(APIView):
    permission_classes = [role_permission(COMPLIANCE)]

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request):
        rows = AuditLog.objects.all().order_by("-created", "-id")
        errors: dict[str, list[str]] = {}
        params = request.query_params
        for name in ("action", "target_type", "target_id"):
            value = params.get(name)
            if value:
                if len(value) > 100:
                    errors[name] = [_("At most 100 characters.")]
                else:
                    rows = rows.filter(**{name: value})
        actor = params.get("actor")
        if actor:
            if actor.isdigit():
                rows = rows.filter(actor_id=int(actor))
            else:
                errors["actor"] = [_("A user id.")]
        for name, lookup in (("since", "created__gte"), ("until", "created__lt")):
            value = params.get(name)
            if value:
                moment = parse_datetime(value) if len(value) <= 40 else None
                if moment is None:
                    errors[name] = [_("An ISO 8601 date and time.")]
                else:
                    rows = rows.filter(**{lookup: moment})
        if errors:
            raise ValidationFailed(_("Some filters are not valid."), fields=errors)
        paginator = Pagination()
        page = paginator.paginate_queryset(rows, request, view=self)
        return paginator.get_paginated_response([audit_as_dict(r) for r in page])
