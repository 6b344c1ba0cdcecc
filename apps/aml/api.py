"""Compliance's AML endpoints (regulation.md §6, §12)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.contrib.auth import get_user_model
from django.utils.dateparse import parse_datetime
from drf_spectacular.utils import OpenApiTypes, extend_schema
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.common.api import Pagination, role_permission
from apps.common.errors import NotFoundError, ValidationFailed
from apps.common.net import request_ip
from apps.common.roles import COMPLIANCE, is_staff_member

from . import services
from .models import RULES, AmlCase, AmlSignal
from .selectors import case_as_dict, signal_as_dict

COMPLIANCE_ONLY = [role_permission(COMPLIANCE)]


def _data(request) -> dict[str, Any]:
    return request.data if isinstance(request.data, dict) else {}


def _player_param(raw: str | None) -> int | None:
    if raw in (None, ""):
        return None
    if not raw.isdigit():
        raise ValidationFailed(fields={"player": ["A player id."]})
    return int(raw)


def _page(view, request, rows, shape) -> Response:
    paginator = Pagination()
    page = paginator.paginate_queryset(rows, request, view=view)
    return paginator.get_paginated_response([shape(r) for r in page])


class SignalsView(APIView):
    permission_classes = COMPLIANCE_ONLY

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request):
        rows = AmlSignal.objects.order_by("-id")
        player = _player_param(request.query_params.get("player"))
        if player is not None:
            rows = rows.filter(player_id=player)
        rule = request.query_params.get("rule")
        if rule:
            if rule not in RULES:
                raise ValidationFailed(fields={"rule": [", ".join(RULES)]})
            rows = rows.filter(rule=rule)
        since = request.query_params.get("since")
        if since:
            moment = parse_datetime(since)
            if moment is None:
                try:
                    moment = dt.datetime.combine(dt.date.fromisoformat(since), dt.time(0))
                except ValueError:
                    raise ValidationFailed(fields={"since": ["An ISO 8601 date or date and time."]}) from None
            rows = rows.filter(created__gte=moment)
        return _page(self, request, rows, signal_as_dict)


class CasesView(APIView):
    permission_classes = COMPLIANCE_ONLY

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request):
        rows = AmlCase.objects.prefetch_related("signals", "notes", "history").order_by("-id")
        wanted = request.query_params.get("status")
        if wanted:
            if wanted not in AmlCase.STATUSES:
                raise ValidationFailed(fields={"status": [", ".join(AmlCase.STATUSES)]})
            rows = rows.filter(status=wanted)
        player = _player_param(request.query_params.get("player"))
        if player is not None:
            rows = rows.filter(player_id=player)
        return _page(self, request, rows, case_as_dict)

    @extend_schema(request=OpenApiTypes.OBJECT, responses=OpenApiTypes.OBJECT)
    def post(self, request):
        data = _data(request)
        player_id = data.get("player")
        player = get_user_model().objects.filter(pk=player_id).first() if type(player_id) is int else None
        if player is None or is_staff_member(player):
            raise ValidationFailed(fields={"player": ["A player id."]})
        case = services.aml_case_open(actor=request.user, player=player, summary=data.get("summary"),
                                      signals=data.get("signals"), ip=request_ip(request))
        return Response(case_as_dict(case), status=status.HTTP_201_CREATED)


def _case(case_id: int) -> AmlCase:
    case = AmlCase.objects.filter(pk=case_id).first()
    if case is None:
        raise NotFoundError("No such AML case.")
    return case


class CaseView(APIView):
    permission_classes = COMPLIANCE_ONLY

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, case_id: int):
        return Response(case_as_dict(_case(case_id)))


class CaseReviewView(APIView):
    permission_classes = COMPLIANCE_ONLY

    @extend_schema(request=None, responses=OpenApiTypes.OBJECT)
    def post(self, request, case_id: int):
        return Response(case_as_dict(services.aml_case_review(actor=request.user, case_id=case_id,
                                                              ip=request_ip(request))))


class CaseCloseView(APIView):
    permission_classes = COMPLIANCE_ONLY

    @extend_schema(request=OpenApiTypes.OBJECT, responses=OpenApiTypes.OBJECT)
    def post(self, request, case_id: int):
        return Response(case_as_dict(services.aml_case_close(actor=request.user, case_id=case_id,
                                                             data=_data(request), ip=request_ip(request))))


class CaseNotesView(APIView):
    permission_classes = COMPLIANCE_ONLY

    @extend_schema(request=OpenApiTypes.OBJECT, responses=OpenApiTypes.OBJECT)
    def post(self, request, case_id: int):
        note = services.aml_case_note(actor=request.user, case_id=case_id, text=_data(request).get("text"),
                                      ip=request_ip(request))
        return Response({"id": note.pk, "text": note.text, "author": note.author_id,
                         "created": note.created.isoformat()}, status=status.HTTP_201_CREATED)
