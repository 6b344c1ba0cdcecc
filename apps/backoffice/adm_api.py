"""The ADM adapter's back-office endpoints (regulation.md §7.5): the day's summary, the messages,
the reconciliation. Operators, finance and compliance read them."""

from __future__ import annotations

import datetime as dt

from drf_spectacular.utils import OpenApiTypes, extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.adm.models import AdmMessage
from apps.adm.selectors import adm_day_summary, adm_message_as_dict, adm_messages
from apps.common.api import Pagination, role_permission
from apps.common.errors import ValidationFailed
from apps.common.roles import COMPLIANCE, FINANCE, OPERATOR
from apps.conto.selectors import rome_today
from apps.wallet.selectors import adm_reconciliation

STAFF = [role_permission(OPERATOR, FINANCE, COMPLIANCE)]


def day_param(raw: str | None, *, default: dt.date | None) -> dt.date | None:
    if not raw:
        return default
    try:
        return dt.date.fromisoformat(raw)
    except ValueError:
        raise ValidationFailed(fields={"day": ["A day, YYYY-MM-DD."]}) from None


class AdmSummaryView(APIView):
    permission_classes = STAFF

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request):
        return Response(adm_day_summary(day=day_param(request.query_params.get("day"), default=rome_today())))


class AdmMessagesView(APIView):
    permission_classes = STAFF

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request):
        status = request.query_params.get("status") or None
        if status is not None and status not in dict(AdmMessage.STATUSES):
            raise ValidationFailed(fields={"status": ["pending, accepted or rejected."]})
        reference = request.query_params.get("reference") or None
        type_ = request.query_params.get("type") or None
        for name, value in (("reference", reference), ("type", type_)):
            if value is not None and len(value) > 100:
                raise ValidationFailed(fields={name: ["At most 100 characters."]})
        rows = adm_messages(day=day_param(request.query_params.get("day"), default=None), status=status,
                            type=type_, reference=reference)
        paginator = Pagination()
        page = paginator.paginate_queryset(rows, request, view=self)
        return paginator.get_paginated_response([adm_message_as_dict(m) for m in page])


class AdmReconciliationView(APIView):
    permission_classes = STAFF

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request):
        return Response(adm_reconciliation())
