"""Tournament endpoints (API.md "Tournaments", platform.md §5.11, §6)."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.common.api import IsPlayer, Pagination, idempotent, role_permission
from apps.common.errors import ValidationFailed
from apps.common.net import request_ip
from apps.common.roles import OPERATOR

from . import selectors, services
from .models import Tournament

IsOperator = role_permission(OPERATOR)
STATUSES = {s for s, _ in Tournament.STATUSES}


def _body(request) -> dict:
    if not isinstance(request.data, dict):
        raise ValidationFailed("The body must be a JSON object.", fields={"body": ["A JSON object."]})
    return request.data


class TournamentListView(APIView):
    def get_permissions(self):
        return [IsOperator()] if self.request.method == "POST" else [AllowAny()]

    @extend_schema(responses=dict)
    def get(self, request):
        status = request.query_params.get("status") or None
        game = request.query_params.get("game") or None
        if status is not None and status not in STATUSES:
            raise ValidationFailed("Unknown status filter.", fields={"status": [", ".join(sorted(STATUSES))]})
        paginator = Pagination()
        page = paginator.paginate_queryset(selectors.tournament_list(status=status, game=game), request, view=self)
        return paginator.get_paginated_response([selectors.tournament_as_dict(t, nicknames=False) for t in page])

    @extend_schema(request=dict, responses={201: dict})
    def post(self, request):
        t = services.tournament_create(actor=request.user, data=_body(request), ip=request_ip(request))
        return Response(selectors.tournament_as_dict(selectors.tournament_get(tournament_id=t.pk)), status=201)


class TournamentDetailView(APIView):
    def get_permissions(self):
        return [IsOperator()] if self.request.method == "PATCH" else [AllowAny()]

    @extend_schema(responses=dict)
    def get(self, request, tournament_id: int):
        return Response(selectors.tournament_as_dict(selectors.tournament_get(tournament_id=tournament_id)))

    @extend_schema(request=dict, responses=dict)
    def patch(self, request, tournament_id: int):
        services.tournament_update(actor=request.user, tournament_id=tournament_id, data=_body(request),
                                   ip=request_ip(request))
        return Response(selectors.tournament_as_dict(selectors.tournament_get(tournament_id=tournament_id)))


class TournamentPreviewView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses=dict)
    def get(self, request, tournament_id: int):
        t = selectors.tournament_get(tournament_id=tournament_id)
        raw = request.query_params.get("entrants", "")
        if not raw.isdigit() or not 0 <= int(raw) <= t.max_players:
            raise ValidationFailed("entrants must be a whole number from 0 to max_players.",
                                   fields={"entrants": [f"0 to {t.max_players}."]})
        preview = services.prize_preview(t, int(raw))
        return Response({k: preview[k] for k in ("prize_pool_cents", "overlay_cents", "fees_cents",
                                                 "payouts_cents")})


class TournamentRegisterView(APIView):
    permission_classes = [IsPlayer]

    @extend_schema(request=None, responses={201: dict})
    @idempotent
    def post(self, request, tournament_id: int):
        reg = services.tournament_register(user=request.user, tournament_id=tournament_id, ip=request_ip(request))
        return Response({"tournament": reg.tournament_id, "nickname": reg.nickname,
                         "paid_bonus_cents": reg.paid_bonus_cents, "paid_cash_cents": reg.paid_cash_cents,
                         "created": reg.created.isoformat(),
                         # the receipt (regulation.md §7.4): ADM's session and participation codes
                         "adm_session_code": reg.tournament.adm_session_code or None,
                         "adm_participation_code": reg.adm_participation_code or None}, status=201)


class TournamentUnregisterView(APIView):
    permission_classes = [IsPlayer]

    @extend_schema(request=None, responses=dict)
    @idempotent
    def post(self, request, tournament_id: int):
        bonus, cash = services.tournament_unregister(user=request.user, tournament_id=tournament_id)
        return Response({"refunded_bonus_cents": bonus, "refunded_cash_cents": cash})


class TournamentStartView(APIView):
    permission_classes = [IsOperator]

    @extend_schema(request=None, responses=dict)
    @idempotent
    def post(self, request, tournament_id: int):
        services.tournament_start(tournament_id=tournament_id, actor=request.user, ip=request_ip(request))
        return Response(selectors.tournament_as_dict(selectors.tournament_get(tournament_id=tournament_id)))


class TournamentCancelView(APIView):
    permission_classes = [IsOperator]

    @extend_schema(request=dict, responses={202: dict})
    @idempotent
    def post(self, request, tournament_id: int):
        services.tournament_cancel(actor=request.user, tournament_id=tournament_id,
                                   reason=_body(request).get("reason"), ip=request_ip(request))
        return Response(selectors.tournament_as_dict(selectors.tournament_get(tournament_id=tournament_id)),
                        status=202)


class TournamentRegistrationsPauseView(APIView):
    """``POST .../registrations/pause/`` and ``.../registrations/resume/`` (operator) ``{"reason"}``."""

    permission_classes = [IsOperator]
    action = "pause"

    @extend_schema(request=dict, responses=dict)
    @idempotent
    def post(self, request, tournament_id: int):
        write = services.tournament_registrations_pause if self.action == "pause" else \
            services.tournament_registrations_resume
        write(actor=request.user, tournament_id=tournament_id, reason=_body(request).get("reason"),
              ip=request_ip(request))
        return Response(selectors.tournament_as_dict(selectors.tournament_get(tournament_id=tournament_id)))


class TournamentStandingsView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: OpenApiTypes.OBJECT})
    def get(self, request, tournament_id: int):
        t = selectors.tournament_get(tournament_id=tournament_id)
        return Response(selectors.standings_public(selectors.standings(t)))


class TournamentMatchesView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: OpenApiTypes.OBJECT})
    def get(self, request, tournament_id: int):
        t = selectors.tournament_get(tournament_id=tournament_id)
        return Response(selectors.tournament_matches(t))
