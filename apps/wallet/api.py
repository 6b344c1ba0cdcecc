"""Wallet endpoints of API.md and platform.md §3: the player's own wallet and ledger.

The endpoints on a given player (adjustments, passport, ledger) and the recharge request
live in apps/players/api.py: they need the player (or their profile) first."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.common.api import IsPlayerAccount, Pagination

from . import selectors

LedgerRow = inline_serializer("LedgerEntry", {
    "id": serializers.IntegerField(), "created": serializers.DateTimeField(), "kind": serializers.CharField(),
    "currency": serializers.CharField(), "amount": serializers.IntegerField(),
    "balance_after": serializers.IntegerField(), "reference": serializers.CharField()}, many=True)


class MeWalletView(APIView):
    permission_classes = [IsPlayerAccount]

    @extend_schema(responses=inline_serializer("Wallet", {
        "cash_cents": serializers.IntegerField(), "bonus_cents": serializers.IntegerField(),
        "credits": serializers.IntegerField(), "frozen": serializers.BooleanField(),
        "withdrawals_pending_cents": serializers.IntegerField()}))
    def get(self, request):
        return Response(selectors.wallet_get(player=request.user))


def ledger_page(view, request, player):
    """A page of the player's ledger (also served to staff by apps/players/api.py)."""
    paginator = Pagination()
    page = paginator.paginate_queryset(selectors.player_ledger(player=player), request, view=view)
    return paginator.get_paginated_response(selectors.ledger_rows_with_codes(list(page), player_id=player.pk))


class MeLedgerView(APIView):
    permission_classes = [IsPlayerAccount]

    @extend_schema(responses=LedgerRow)
    def get(self, request):
        return ledger_page(self, request, request.user)
