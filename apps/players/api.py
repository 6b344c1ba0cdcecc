"""Players endpoints of API.md: parse, make one domain call, render."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.common.api import IsPlayer, role_permission
from apps.common.errors import ValidationFailed
from apps.common.net import request_ip
from apps.common.roles import COMPLIANCE, FINANCE, OPERATOR
from apps.compliance.selectors import sanction_as_dict, sanctions_active

from . import selectors, services


def me_as_dict(user) -> dict:
    return {
        "id": user.pk,
        "username": user.get_username(),
        "nickname": selectors.nickname_of(user),
        "sanctions": [sanction_as_dict(s) for s in sanctions_active(player=user)],
    }


class MeView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses=inline_serializer("Me", {
        "id": serializers.IntegerField(), "username": serializers.CharField(),
        "nickname": serializers.CharField(allow_null=True), "sanctions": serializers.ListField()}))
    def get(self, request):
        return Response(me_as_dict(request.user))


class NicknameBody(serializers.Serializer):
    nickname = serializers.JSONField(required=False)


class MeNicknameView(APIView):
    permission_classes = [IsPlayer]

    @extend_schema(request=NicknameBody, responses={201: NicknameBody})
    def post(self, request):
        data = request.data if isinstance(request.data, dict) else {}
        profile = services.nickname_set(user=request.user, nickname=data.get("nickname"))
        return Response({"nickname": profile.nickname}, status=201)


class PlayerListView(APIView):
    permission_classes = [role_permission(OPERATOR, FINANCE, COMPLIANCE)]

    @extend_schema(responses=inline_serializer("PlayerRow", {
        "id": serializers.IntegerField(), "username": serializers.CharField(),
        "nickname": serializers.CharField(allow_null=True), "status": serializers.CharField(),
        "cash_cents": serializers.IntegerField(), "bonus_cents": serializers.IntegerField(),
        "credits": serializers.IntegerField(), "frozen_cents": serializers.IntegerField(),
        "sanctions": serializers.ListField()}, many=True))
    def get(self, request):
        from apps.common.api import Pagination
        from apps.compliance.selectors import players_status_many

        search = request.query_params.get("search") or None
        paginator = Pagination()
        page = paginator.paginate_queryset(selectors.player_list(search=search), request, view=self)
        rows = players_status_many(players=page)
        return paginator.get_paginated_response(rows)


class RenameBody(serializers.Serializer):
    nickname = serializers.JSONField(required=False)
    reason = serializers.JSONField(required=False)


class PlayerNicknameView(APIView):
    permission_classes = [role_permission(COMPLIANCE)]

    @extend_schema(request=RenameBody, responses={200: NicknameBody})
    def post(self, request, player_id: int):
        player = selectors.player_get(player_id=player_id)
        data = request.data if isinstance(request.data, dict) else {}
        profile = services.nickname_rename(actor=request.user, player=player, nickname=data.get("nickname"),
                                           reason=data.get("reason"), ip=request_ip(request))
        return Response({"id": player.pk, "nickname": profile.nickname})


class TokenBody(serializers.Serializer):
    username = serializers.CharField()
    password = serializers.CharField()


class TokenView(APIView):
    """``POST /api/auth/token/`` (platform.md §12): anyone, counted by the login limits."""

    authentication_classes: list = []  # a stale token header must not stop a fresh login
    permission_classes = [AllowAny]

    @extend_schema(request=TokenBody, responses={200: inline_serializer("Token", {
        "token": serializers.CharField()})})
    def post(self, request):
        if not isinstance(request.data, dict):
            raise ValidationFailed("The body must be a JSON object.", fields={"body": ["A JSON object is required."]})
        key = services.token_obtain(request=request._request, username=request.data.get("username"),
                                    password=request.data.get("password"))
        return Response({"token": key})
