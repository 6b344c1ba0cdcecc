"""Staff's reading of a player's conto, exclusions and notes (regulation.md §1.9, §3.5, §9)."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiTypes, extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.common.api import Pagination, role_permission
from apps.common.net import request_ip
from apps.common.roles import COMPLIANCE, FINANCE, OPERATOR

from .exclusions import exclusions_of
from .notes import note_as_dict, player_note_add, player_notes, player_of
from .presenters import conto_staff_dict
from .services import conto_ensure

STAFF = role_permission(OPERATOR, FINANCE, COMPLIANCE)


class PlayerAccountView(APIView):
    permission_classes = [STAFF]

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, player_id: int):
        conto = conto_ensure(user=player_of(player_id))
        return Response(conto_staff_dict(conto, reader=request.user))


class PlayerSelfExclusionsView(APIView):
    permission_classes = [STAFF]

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, player_id: int):
        return Response(exclusions_of(conto=conto_ensure(user=player_of(player_id))))


class PlayerNotesView(APIView):
    permission_classes = [STAFF]

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, player_id: int):
        player_of(player_id)
        paginator = Pagination()
        page = paginator.paginate_queryset(player_notes(player_id=player_id), request, view=self)
        return paginator.get_paginated_response([note_as_dict(n) for n in page])

    @extend_schema(request=OpenApiTypes.OBJECT, responses={201: OpenApiTypes.OBJECT})
    def post(self, request, player_id: int):
        data = request.data if isinstance(request.data, dict) else {}
        note = player_note_add(author=request.user, player_id=player_id, text=data.get("text"),
                               ip=request_ip(request))
        return Response(note_as_dict(note), status=201)
