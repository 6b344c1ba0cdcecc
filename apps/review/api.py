"""Sanctions endpoints of API.md's "Chat and compliance" (platform.md §7.4)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.common.api import Pagination, role_permission
from apps.common.errors import ValidationFailed
from apps.common.net import request_ip
from apps.common.roles import COMPLIANCE
from apps.compliance.selectors import sanction_as_api_dict, sanctions_list
from apps.compliance.services import sanction_lift

from .services import sanction_issue_for_messages

SanctionRow = inline_serializer("Sanction", {
    "id": serializers.IntegerField(), "player": serializers.IntegerField(), "kind": serializers.CharField(),
    "duration": serializers.CharField(), "reason": serializers.CharField(),
    "starts_at": serializers.DateTimeField(), "ends_at": serializers.DateTimeField(allow_null=True),
    "active": serializers.BooleanField(), "created_by": serializers.IntegerField(allow_null=True),
    "messages": serializers.ListField(child=serializers.IntegerField()),
    "lifted_at": serializers.DateTimeField(allow_null=True), "lifted_by": serializers.IntegerField(allow_null=True),
    "lift_reason": serializers.CharField(), "decision": serializers.CharField(allow_null=True)})


class SanctionBody(serializers.Serializer):
    player = serializers.IntegerField()
    kind = serializers.ChoiceField(["chat_ban", "lobby_ban", "account_suspension", "authority_report"])
    duration = serializers.ChoiceField(["1_month", "permanent"], required=False)
    reason = serializers.CharField()
    messages = serializers.ListField(child=serializers.IntegerField(), required=False)


class LiftBody(serializers.Serializer):
    reason = serializers.CharField(required=False)
    decision = serializers.ChoiceField(["release", "forfeit"], required=False)


def _bool_param(value: str | None, name: str) -> bool | None:
    if value in (None, ""):
        return None
    if value.lower() in ("true", "1"):
        return True
    if value.lower() in ("false", "0"):
        return False
    raise ValidationFailed(_("The filters are not valid."), fields={name: [_("true or false.")]})


class SanctionListView(APIView):
    permission_classes = [role_permission(COMPLIANCE)]

    @extend_schema(parameters=[OpenApiParameter("player", int, required=False),
                               OpenApiParameter("active", bool, required=False)],
                   responses=SanctionRow)
    def get(self, request):
        player = request.query_params.get("player")
        if player not in (None, "") and not player.strip().isdigit():
            raise ValidationFailed(_("The filters are not valid."), fields={"player": [_("A user id (integer).")]})
        rows = sanctions_list(player_id=int(player) if player else None,
                              active=_bool_param(request.query_params.get("active"), "active"))
        paginator = Pagination()
        page = paginator.paginate_queryset(rows, request, view=self)
        return paginator.get_paginated_response([sanction_as_api_dict(s) for s in page])

    @extend_schema(request=SanctionBody, responses={201: SanctionRow})
    def post(self, request):
        data = request.data if isinstance(request.data, dict) else {}
        sanction = sanction_issue_for_messages(actor=request.user, data=data, ip=request_ip(request))
        return Response(sanction_as_api_dict(sanction), status=201)


class SanctionLiftView(APIView):
    permission_classes = [role_permission(COMPLIANCE)]

    @extend_schema(request=LiftBody, responses=SanctionRow)
    def post(self, request, sanction_id: int):
        data = request.data if isinstance(request.data, dict) else {}
        sanction = sanction_lift(actor=request.user, sanction_id=sanction_id, reason=data.get("reason", ""),
                                 decision=data.get("decision"), ip=request_ip(request))
        return Response(sanction_as_api_dict(sanction))
