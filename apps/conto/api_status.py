"""Account state changes by compliance and closing by the player (regulation.md §1.8, §12)."""

from __future__ import annotations

from django.contrib.auth import logout
from django.utils import timezone
from drf_spectacular.utils import OpenApiTypes, extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.common.api import IsPlayerAccount, role_permission
from apps.common.net import request_ip
from apps.common.roles import COMPLIANCE

from .presenters import conto_as_dict
from .status import conto_close, conto_status_change


class PlayerAccountStatusView(APIView):
    permission_classes = [role_permission(COMPLIANCE)]

    @extend_schema(request=OpenApiTypes.OBJECT, responses=OpenApiTypes.OBJECT)
    def post(self, request, player_id: int):
        data = request.data if isinstance(request.data, dict) else {}
        conto = conto_status_change(actor=request.user, player_id=player_id, action=data.get("action"),
                                    reason=data.get("reason"), ip=request_ip(request))
        return Response({"player": conto.user_id, "state": conto.state, "state_reason": conto.state_reason,
                         "changed_at": timezone.localtime(conto.state_changed_at).isoformat()})


class MeAccountCloseView(APIView):
    permission_classes = [IsPlayerAccount]

    @extend_schema(request=OpenApiTypes.OBJECT, responses=OpenApiTypes.OBJECT)
    def post(self, request):
        data = request.data if isinstance(request.data, dict) else {}
        conto = conto_close(user=request.user, reason=data.get("reason"))
        body = conto_as_dict(conto)
        logout(request._request)
        return Response(body)
