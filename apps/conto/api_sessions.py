"""Game sessions and reality checks (regulation.md §4.1, §4.2, §12)."""

from __future__ import annotations

from django.contrib.auth import logout
from drf_spectacular.utils import OpenApiTypes, extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.common.api import IsPlayerAccount, Pagination, role_permission
from apps.common.net import request_ip
from apps.common.roles import COMPLIANCE, OPERATOR

from .models import GameSession
from .notes import player_of
from .sessions import reality_check_answer, session_as_dict, session_row, session_touch


class MeSessionView(APIView):
    permission_classes = [IsPlayerAccount]

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request):
        session, _timed_out = session_touch(user=request.user, ip=request_ip(request))
        return Response(session_as_dict(session))


class MeSessionsView(APIView):
    permission_classes = [IsPlayerAccount]

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request):
        paginator = Pagination()
        page = paginator.paginate_queryset(GameSession.objects.filter(user=request.user).order_by("-started_at"),
                                           request, view=self)
        return paginator.get_paginated_response([session_row(s) for s in page])


class MeRealityCheckView(APIView):
    permission_classes = [IsPlayerAccount]

    @extend_schema(request=OpenApiTypes.OBJECT, responses=OpenApiTypes.OBJECT)
    def post(self, request):
        data = request.data if isinstance(request.data, dict) else {}
        answer = reality_check_answer(user=request.user, choice=data.get("choice"))
        if answer["logged_out"]:
            logout(request._request)
        return Response(answer)


class PlayerSessionsView(APIView):
    permission_classes = [role_permission(OPERATOR, COMPLIANCE)]

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, player_id: int):
        player = player_of(player_id)
        paginator = Pagination()
        page = paginator.paginate_queryset(GameSession.objects.filter(user=player).order_by("-started_at"),
                                           request, view=self)
        return paginator.get_paginated_response([session_row(s) for s in page])
