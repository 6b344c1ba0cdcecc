"""Wallet endpoints of API.md and platform.md §3-§4."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.common.api import IsPlayer, IsPlayerAccount, Pagination, idempotent, role_permission
from apps.common.errors import ValidationFailed
from apps.common.net import request_ip
from apps.common.roles import COMPLIANCE, FINANCE
from apps.players.selectors import player_get

from . import selectors, services
from .models import CREDITS

LedgerRow = inline_serializer("LedgerEntry", {
    "id": serializers.IntegerField(), "created": serializers.DateTimeField(), "kind": serializers.CharField(),
    "currency": serializers.CharField(), "amount": serializers.IntegerField(),
    "balance_after": serializers.IntegerField(), "reference": serializers.CharField()}, many=True)


def _body(request) -> dict:
    if not isinstance(request.data, dict):
        raise ValidationFailed("The body must be a JSON object.", fields={"body": ["A JSON object is required."]})
    return request.data


class MeWalletView(APIView):
    permission_classes = [IsPlayerAccount]

    @extend_schema(responses=inline_serializer("Wallet", {
        "cash_cents": serializers.IntegerField(), "bonus_cents": serializers.IntegerField(),
        "credits": serializers.IntegerField(), "frozen": serializers.BooleanField()}))
    def get(self, request):
        return Response(selectors.wallet_get(player=request.user))


def _ledger_page(view, request, player):
    paginator = Pagination()
    page = paginator.paginate_queryset(selectors.player_ledger(player=player), request, view=view)
    return paginator.get_paginated_response([selectors.ledger_entry_as_dict(e) for e in page])


class MeLedgerView(APIView):
    permission_classes = [IsPlayerAccount]

    @extend_schema(responses=LedgerRow)
    def get(self, request):
        return _ledger_page(self, request, request.user)


class PlayerLedgerView(APIView):
    permission_classes = [role_permission(FINANCE, COMPLIANCE)]

    @extend_schema(responses=LedgerRow)
    def get(self, request, player_id: int):
        return _ledger_page(self, request, player_get(player_id=player_id))


class MeRechargeView(APIView):
    permission_classes = [IsPlayer]

    @extend_schema(request=None, responses={202: inline_serializer("Recharge", {
        "available_at": serializers.DateTimeField(), "credits": serializers.IntegerField()})})
    @idempotent
    def post(self, request):
        recharge = services.credits_recharge_request(player=request.user)
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
        player = player_get(player_id=player_id)
        data = _body(request)
        adjustment, txn = services.wallet_adjust(
            actor=request.user, player=player, currency=data.get("currency"), amount=data.get("amount"),
            reason=data.get("reason"), ip=request_ip(request))
        return Response({
            "id": adjustment.pk, "player": player.pk, "currency": adjustment.currency,
            "amount": adjustment.amount,
            "balance_after": services.entry_balance_after(txn, player, adjustment.currency),
            "reason": adjustment.reason, "created": adjustment.created.isoformat(),
        }, status=201)


class PlayerPassportView(APIView):
    permission_classes = [role_permission(FINANCE)]

    @extend_schema(request=None, responses={201: inline_serializer("Passport", {
        "credits": serializers.IntegerField()})})
    @idempotent
    def post(self, request, player_id: int):
        player = player_get(player_id=player_id)
        credits = services.credits_passport_pay(actor=request.user, player=player, ip=request_ip(request))
        return Response({CREDITS: credits}, status=201)
