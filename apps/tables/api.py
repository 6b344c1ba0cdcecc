"""Tables and matches endpoints (API.md, platform.md §8)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.common.api import IsPlayer, idempotent, json_body
from apps.common.errors import Forbidden
from apps.common.net import request_ip

from . import selectors, services


class TableListView(APIView):
    def get_permissions(self):
        return [IsPlayer()] if self.request.method == "POST" else [AllowAny()]

    @extend_schema(responses=dict)
    def get(self, request):
        tables = selectors.table_list(game=request.query_params.get("game") or None, user=request.user)
        return Response([selectors.table_as_dict(t) for t in tables[:200]])

    @extend_schema(request=dict, responses={201: dict})
    @idempotent
    def post(self, request):
        table = services.table_create(user=request.user, data=json_body(request), ip=request_ip(request))
        return Response(selectors.table_as_dict(table), status=201)


class TableDetailView(APIView):
    def get_permissions(self):
        return [IsAuthenticated()] if self.request.method == "PATCH" else [AllowAny()]

    @extend_schema(responses=dict)
    def get(self, request, table_id: int):
        table = selectors.table_get(table_id=table_id)
        if table.private and selectors.table_access(table=table, user=request.user) is None:
            raise Forbidden(_("This table is private."), code="private_table")
        return Response(selectors.table_as_dict(table))

    @extend_schema(request=dict, responses=dict)
    def patch(self, request, table_id: int):
        table = services.table_settings_update(user=request.user, table_id=table_id, data=json_body(request))
        return Response(selectors.table_as_dict(table))


class TableSitView(APIView):
    permission_classes = [IsPlayer]

    @extend_schema(request=dict, responses=dict)
    @idempotent
    def post(self, request, table_id: int):
        data = request.data if isinstance(request.data, dict) else {}
        table = services.table_sit(user=request.user, table_id=table_id, seat=data.get("seat"),
                                   ip=request_ip(request))
        return Response(selectors.table_as_dict(table))


class TableLeaveView(APIView):
    permission_classes = [IsPlayer]

    @extend_schema(request=None, responses=dict)
    def post(self, request, table_id: int):
        table = services.table_leave(user=request.user, table_id=table_id)
        return Response(selectors.table_as_dict(table))


class TableReadyView(APIView):
    """``POST /api/tables/{id}/ready/``: ask for the next match (platform.md §8.1)."""

    permission_classes = [IsPlayer]

    @extend_schema(request=None, responses=dict)
    def post(self, request, table_id: int):
        services.table_ready(user=request.user, table_id=table_id)
        return Response(selectors.table_readiness(table_id=table_id))


class TableSitOutView(APIView):
    """``POST /api/tables/{id}/sit-out/`` ``{"out": true|false}``: poker's sit-out toggle (platform.md §8.5)."""

    permission_classes = [IsPlayer]

    @extend_schema(request=dict, responses=dict)
    def post(self, request, table_id: int):
        return Response(services.table_sit_out(user=request.user, table_id=table_id, out=json_body(request).get("out")))


class TableRobotView(APIView):
    permission_classes = [IsPlayer]

    @extend_schema(request=dict, responses=dict)
    def post(self, request, table_id: int):
        table = services.table_robot_add(user=request.user, table_id=table_id, seat=json_body(request).get("seat"))
        return Response(selectors.table_as_dict(table))


class TableInviteView(APIView):
    permission_classes = [IsPlayer]

    @extend_schema(request=dict, responses={201: dict})
    def post(self, request, table_id: int):
        invite = services.table_invite(user=request.user, table_id=table_id,
                                       nickname=json_body(request).get("nickname"))
        return Response({"table": invite.table_id, "nickname": json_body(request).get("nickname")}, status=201)


class TableWatchView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses=dict)
    def post(self, request, table_id: int):
        table = services.table_watch(user=request.user, table_id=table_id)
        return Response(selectors.table_as_dict(table))
