"""The cashier's endpoints (regulation.md §5, §12). Each parses, makes one domain call and answers;
every money call takes an ``Idempotency-Key`` (platform.md §3.5)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiTypes, extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.common.api import IsPlayer, IsPlayerAccount, Pagination, idempotent, role_permission
from apps.common.errors import ValidationFailed
from apps.common.net import request_ip
from apps.common.roles import COMPLIANCE, FINANCE
from apps.wallet.models import Deposit, Instrument, Withdrawal

from . import selectors, services
from .instruments import instrument_add, instrument_as_dict


def _data(request) -> dict[str, Any]:
    return request.data if isinstance(request.data, dict) else {}


def _page(view: APIView, request, rows, shape) -> Response:
    paginator = Pagination()
    page = paginator.paginate_queryset(rows, request, view=view)
    return paginator.get_paginated_response(shape(list(page)))


class MeInstrumentsView(APIView):
    permission_classes = [IsPlayerAccount]

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request):
        return Response([instrument_as_dict(i) for i in Instrument.objects.filter(player=request.user)])

    @extend_schema(request=OpenApiTypes.OBJECT, responses=OpenApiTypes.OBJECT)
    def post(self, request):
        data = _data(request)
        instrument, created = instrument_add(player=request.user, kind=data.get("kind"),
                                             holder_name=data.get("holder_name"), identifier=data.get("identifier"))
        return Response(instrument_as_dict(instrument), status=status.HTTP_201_CREATED if created else 200)


class MeDepositsView(APIView):
    permission_classes = [IsPlayer]

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request):
        return _page(self, request, Deposit.objects.filter(player=request.user).order_by("-id"),
                     selectors.deposits_as_dicts)

    @extend_schema(request=OpenApiTypes.OBJECT, responses=OpenApiTypes.OBJECT)
    @idempotent
    def post(self, request):
        data = _data(request)
        deposit = services.deposit_create(player=request.user, amount_cents=data.get("amount_cents"),
                                          instrument=data.get("instrument"), test_outcome=data.get("test_outcome"))
        return Response(selectors.deposit_as_dict(deposit), status=status.HTTP_201_CREATED)


class MeWithdrawalsView(APIView):
    permission_classes = [IsPlayer]

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request):
        return _page(self, request, Withdrawal.objects.filter(player=request.user).order_by("-id"),
                     selectors.withdrawals_as_dicts)

    @extend_schema(request=OpenApiTypes.OBJECT, responses=OpenApiTypes.OBJECT)
    @idempotent
    def post(self, request):
        data = _data(request)
        withdrawal = services.withdrawal_request(player=request.user, amount_cents=data.get("amount_cents"),
                                                 instrument=data.get("instrument"))
        return Response(selectors.withdrawal_as_dict(withdrawal), status=status.HTTP_201_CREATED)


class MeWithdrawalCancelView(APIView):
    permission_classes = [IsPlayer]

    @extend_schema(request=None, responses=OpenApiTypes.OBJECT)
    @idempotent
    def post(self, request, withdrawal_id: int):
        withdrawal = services.withdrawal_cancel(player=request.user, withdrawal_id=withdrawal_id)
        return Response(selectors.withdrawal_as_dict(withdrawal))


class CallbackView(APIView):
    """A provider's callback: no login, no CSRF; the signature is the proof (§5.1)."""

    authentication_classes: list = []
    permission_classes = [AllowAny]

    @extend_schema(request=OpenApiTypes.OBJECT, responses=OpenApiTypes.OBJECT)
    def post(self, request, provider: str):
        return Response(services.deposit_callback(provider_name=provider, body=request.body, headers=request.headers))


class WithdrawalsView(APIView):
    permission_classes = [role_permission(FINANCE, COMPLIANCE)]

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request):
        wanted = request.query_params.get("status") or None
        player = request.query_params.get("player") or None
        if wanted is not None and wanted not in Withdrawal.STATUSES:
            raise ValidationFailed(fields={"status": [", ".join(Withdrawal.STATUSES)]})
        if player is not None and not player.isdigit():
            raise ValidationFailed(fields={"player": ["A player id."]})
        rows = selectors.withdrawal_queue(status=wanted, player_id=int(player) if player else None)
        return _page(self, request, rows, lambda page: [selectors.withdrawal_staff_dict(w) for w in page])


class _FinanceStep(APIView):
    permission_classes = [role_permission(FINANCE)]
    step = ""

    @extend_schema(request=OpenApiTypes.OBJECT, responses=OpenApiTypes.OBJECT)
    @idempotent
    def post(self, request, withdrawal_id: int):
        ip = request_ip(request)
        if self.step == "review":
            withdrawal = services.withdrawal_review(actor=request.user, withdrawal_id=withdrawal_id, ip=ip)
        else:
            act = services.withdrawal_approve if self.step == "approve" else services.withdrawal_reject
            withdrawal = act(actor=request.user, withdrawal_id=withdrawal_id, reason=_data(request).get("reason"),
                             ip=ip)
        return Response(selectors.withdrawal_staff_dict(withdrawal))


class WithdrawalReviewView(_FinanceStep):
    step = "review"


class WithdrawalApproveView(_FinanceStep):
    step = "approve"


class WithdrawalRejectView(_FinanceStep):
    step = "reject"
