"""The player's limits and self-exclusions (regulation.md §2, §3, §12): parse, one domain
call, render. Staff can neither change a limit nor lift an exclusion: no endpoint does."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiTypes, extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.common.api import IsPlayerAccount
from apps.common.errors import NotFoundError

from .exclusions import exclusion_as_dict, exclusions_of, self_exclusion_request, self_exclusion_revoke
from .limits import KEYS, limit_pending_cancel, limits_change, limits_view
from .services import conto_ensure


class MeLimitsView(APIView):
    permission_classes = [IsPlayerAccount]

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request):
        return Response(limits_view(conto=conto_ensure(user=request.user)))

    @extend_schema(request=OpenApiTypes.OBJECT, responses=OpenApiTypes.OBJECT)
    def put(self, request):
        conto_ensure(user=request.user)
        return Response(limits_change(user=request.user, values=request.data))


class MeLimitPendingView(APIView):
    permission_classes = [IsPlayerAccount]

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def delete(self, request, key: str):
        if key not in KEYS:
            raise NotFoundError()
        conto_ensure(user=request.user)
        return Response(limit_pending_cancel(user=request.user, key=key))


class MeSelfExclusionsView(APIView):
    permission_classes = [IsPlayerAccount]

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request):
        return Response(exclusions_of(conto=conto_ensure(user=request.user)))

    @extend_schema(request=OpenApiTypes.OBJECT, responses={201: OpenApiTypes.OBJECT, 200: OpenApiTypes.OBJECT})
    def post(self, request):
        exclusion, created = self_exclusion_request(user=request.user, data=request.data)
        return Response(exclusion_as_dict(exclusion), status=201 if created else 200)


class MeSelfExclusionRevokeView(APIView):
    permission_classes = [IsPlayerAccount]

    @extend_schema(request=None, responses={202: OpenApiTypes.OBJECT})
    def post(self, request, exclusion_id: int):
        return Response(exclusion_as_dict(self_exclusion_revoke(user=request.user, exclusion_id=exclusion_id)),
                        status=202)
