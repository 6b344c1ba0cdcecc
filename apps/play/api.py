"""``/api/matches/``: a match for its reader, whoever owns it (spec/API.md)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.common.api import IsPlayer, json_body
from apps.common.errors import ValidationFailed
from apps.matches import selectors as match_selectors
from apps.matches import services as match_services

from .selectors import match_view_get


class MatchDetailView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses=dict)
    def get(self, request, match_id: int):
        match = match_selectors.match_get(match_id=match_id)
        return Response(match_view_get(match=match, user=request.user))


class MatchActionView(APIView):
    permission_classes = [IsPlayer]

    @extend_schema(request=dict, responses=dict)
    def post(self, request, match_id: int):
        match_selectors.match_get(match_id=match_id)  # an unknown match is 404 whatever the body
        data = json_body(request)
        if "action" not in data or "version" not in data:
            raise ValidationFailed(_("A move is {\"action\": {...}, \"version\": n}."),
                                   fields={k: ["Required."] for k in ("action", "version") if k not in data})
        match_services.match_action_apply(match_id=match_id, action=data["action"], version=data["version"],
                                user=request.user, seat=data.get("seat"))  # the service checks it is yours
        match = match_selectors.match_get(match_id=match_id)
        return Response(match_view_get(match=match, user=request.user))


class MatchCancelVoteView(APIView):
    permission_classes = [IsPlayer]

    @extend_schema(request=dict, responses=dict)
    def post(self, request, match_id: int):
        match_selectors.match_get(match_id=match_id)  # an unknown match is 404 whatever the body
        return Response(match_services.match_cancel_vote(match_id=match_id, user=request.user,
                                               accept=json_body(request).get("accept")))


class MatchLogView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses=dict)
    def get(self, request, match_id: int):
        match = match_selectors.match_get(match_id=match_id)
        return Response(match_selectors.match_log_get(match=match, user=request.user))
