"""Chat endpoints of API.md's "Chat and compliance" (platform.md §7.1, §7.3): compliance
searches every line (audited) and hides one (audited)."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.common.api import Pagination, role_permission
from apps.common.net import request_ip
from apps.common.roles import COMPLIANCE

from . import selectors, services
from .models import ChatMessage


def message_as_dict(message: ChatMessage) -> dict:
    return {
        "id": message.pk,
        "created": message.created.isoformat(),
        "player": message.sender_id,
        "nickname": message.nickname,
        "room": message.room,
        "table": message.table_id,
        "match": message.match_id,
        "ip": message.ip,
        "text": message.text,
        "hidden": message.hidden,
        "refused": message.refused,
        "flagged": message.flagged,
        "flag_reasons": list(message.flag_reasons),
        "reports": message.reports,
    }


MessageRow = inline_serializer("ChatMessageRow", {
    "id": serializers.IntegerField(), "created": serializers.DateTimeField(), "player": serializers.IntegerField(),
    "nickname": serializers.CharField(), "room": serializers.CharField(),
    "table": serializers.IntegerField(allow_null=True), "match": serializers.IntegerField(allow_null=True),
    "ip": serializers.CharField(allow_null=True), "text": serializers.CharField(),
    "hidden": serializers.BooleanField(), "refused": serializers.BooleanField(),
    "flagged": serializers.BooleanField(), "flag_reasons": serializers.ListField(),
    "reports": serializers.IntegerField()})

FILTERS = [OpenApiParameter(name, str, required=False, description=text) for name, text in (
    ("player", "user id"), ("nickname", "substring of the nickname used"), ("table", "table id"),
    ("room", "lobby, or a table id"), ("match", "match id"), ("since", "ISO 8601, inclusive"),
    ("until", "ISO 8601, exclusive"), ("q", "substring of the text"), ("flagged", "true: the review queue"),
    ("ip", "exact address"))]


class ChatMessageListView(APIView):
    permission_classes = [role_permission(COMPLIANCE)]

    @extend_schema(parameters=FILTERS, responses=MessageRow)
    def get(self, request):
        filters = services.chat_filters_parse(request.query_params)
        services.chat_search_record(actor=request.user, filters=filters, ip=request_ip(request))
        paginator = Pagination()
        page = paginator.paginate_queryset(selectors.chat_search(filters=filters), request, view=self)
        return paginator.get_paginated_response([message_as_dict(m) for m in page])


class HideBody(serializers.Serializer):
    reason = serializers.CharField(required=False)


class ChatMessageHideView(APIView):
    permission_classes = [role_permission(COMPLIANCE)]

    @extend_schema(request=HideBody, responses=MessageRow)
    def post(self, request, message_id: int):
        data = request.data if isinstance(request.data, dict) else {}
        message = services.chat_message_hide(actor=request.user, message_id=message_id,
                                             reason=data.get("reason", ""), ip=request_ip(request))
        return Response(message_as_dict(message))
