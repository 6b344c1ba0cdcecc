"""Players endpoints of API.md: parse, make one domain call, render."""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.common.api import IsPlayer, Pagination, idempotent, role_permission
from apps.common.errors import ValidationFailed
from apps.common.net import request_ip
from apps.common.roles import COMPLIANCE, FINANCE, OPERATOR
from apps.compliance.selectors import players_status_many, sanction_as_dict, sanctions_active
from apps.conto.selectors import conto_states_many
from apps.wallet import services as wallet_services
from apps.wallet.api import LedgerRow, ledger_page
from apps.wallet.models import CREDITS

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


class ChatPreferenceBody(serializers.Serializer):
    hidden = serializers.BooleanField()


class MeChatView(APIView):
    """``POST /api/me/chat/ {"hidden": true|false}``: the player hides the table chat for
    themselves, or shows it again (seed 000)."""

    permission_classes = [IsPlayer]

    @extend_schema(request=ChatPreferenceBody, responses={200: ChatPreferenceBody})
    def post(self, request):
        data = request.data if isinstance(request.data, dict) else {}
        profile = services.profile_chat_hide(user=request.user, hidden=data.get("hidden"))
        return Response({"hidden": profile.chat_hidden})


class PlayerListView(APIView):
    permission_classes = [role_permission(OPERATOR, FINANCE, COMPLIANCE)]

    @extend_schema(responses=inline_serializer("PlayerRow", {
        "id": serializers.IntegerField(), "username": serializers.CharField(),
        "nickname": serializers.CharField(allow_null=True), "status": serializers.CharField(),
        "cash_cents": serializers.IntegerField(), "bonus_cents": serializers.IntegerField(),
        "credits": serializers.IntegerField(), "frozen_cents": serializers.IntegerField(),
        "sanctions": serializers.ListField(), "account_state": serializers.CharField(),
        "kyc_status": serializers.CharField()}, many=True))
    def get(self, request):
        search = request.query_params.get("search") or None
        paginator = Pagination()
        page = paginator.paginate_queryset(selectors.player_list(search=search), request, view=self)
        rows = players_status_many(players=page)
        states = conto_states_many(player_ids=[row["id"] for row in rows])
        for row in rows:  # regulation.md §12
            row["account_state"], row["kyc_status"] = states[row["id"]]
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


# -- money on a player: the wallet moves it, the player is looked up (and recorded) here --


def _body(request) -> dict:
    if not isinstance(request.data, dict):
        raise ValidationFailed(_("The body must be a JSON object."), fields={"body": [_("A JSON object is required.")]})
    return request.data


class PlayerLedgerView(APIView):
    permission_classes = [role_permission(FINANCE, COMPLIANCE)]

    @extend_schema(responses=LedgerRow)
    def get(self, request, player_id: int):
        return ledger_page(self, request, selectors.player_get(player_id=player_id))


class MeRechargeView(APIView):
    permission_classes = [IsPlayer]

    @extend_schema(request=None, responses={202: inline_serializer("Recharge", {
        "available_at": serializers.DateTimeField(), "credits": serializers.IntegerField()})})
    @idempotent
    def post(self, request):
        recharge = services.recharge_request(player=request.user)
        return Response({"available_at": recharge.available_at.isoformat(), "credits": recharge.credits},
                        status=202)


class AdjustmentBody(serializers.Serializer):
    currency = serializers.ChoiceField(choices=["cash", "bonus", "credits"])
    amount = serializers.IntegerField()
    reason = serializers.CharField(max_length=200)


class PlayerAdjustmentView(APIView):
    permission_classes = [role_permission(FINANCE)]

    @extend_schema(request=AdjustmentBody, responses={201: inline_serializer("AdjustmentResult", {
        "id": serializers.IntegerField(), "player": serializers.IntegerField(),
        "currency": serializers.CharField(), "amount": serializers.IntegerField(),
        "balance_after": serializers.IntegerField(), "reason": serializers.CharField(),
        "created": serializers.DateTimeField()})})
    @idempotent
    def post(self, request, player_id: int):
        player = selectors.player_get(player_id=player_id)
        data = _body(request)
        adjustment, txn = services.player_adjust(
            actor=request.user, player=player, currency=data.get("currency"), amount=data.get("amount"),
            reason=data.get("reason"), ip=request_ip(request))
        return Response({
            "id": adjustment.pk, "player": player.pk, "currency": adjustment.currency,
            "amount": adjustment.amount,
            "balance_after": wallet_services.entry_balance_after(txn, player, adjustment.currency),
            "reason": adjustment.reason, "created": adjustment.created.isoformat(),
        }, status=201)


class PlayerPassportView(APIView):
    permission_classes = [role_permission(FINANCE)]

    @extend_schema(request=None, responses={201: inline_serializer("Passport", {
        "credits": serializers.IntegerField()})})
    @idempotent
    def post(self, request, player_id: int):
        player = selectors.player_get(player_id=player_id)
        credits = services.passport_pay(actor=request.user, player=player, ip=request_ip(request))
        return Response({CREDITS: credits}, status=201)
class TokenBody(serializers.Serializer):
    username = serializers.CharField()
    password = serializers.CharField()
    otp = serializers.CharField(required=False, help_text="Staff: a TOTP or recovery code (regulation.md §10).")


class TokenView(APIView):
    """``POST /api/auth/token/`` (platform.md §12): anyone, counted by the login limits."""

    authentication_classes: list = []  # a stale token header must not stop a fresh login
    permission_classes = [AllowAny]

    @extend_schema(request=TokenBody, responses={200: inline_serializer("Token", {
        "token": serializers.CharField()})})
    def post(self, request):
        if not isinstance(request.data, dict):
            raise ValidationFailed(_("The body must be a JSON object."), fields={"body": [_("A JSON object is required.")]})
        key = services.token_obtain(request=request._request, username=request.data.get("username"),
                                    password=request.data.get("password"), otp=request.data.get("otp"))
        return Response({"token": key})
