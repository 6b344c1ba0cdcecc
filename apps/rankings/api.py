from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.common.errors import NotFoundError, ValidationFailed
from apps.games.engines import ENGINES

from .selectors import leaderboard


class LeaderboardView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses=dict)
    def get(self, request, game: str):
        if game not in ENGINES:
            raise NotFoundError(_("No such game."))
        period = request.query_params.get("period", "all")
        if period not in ("all", "month"):
            raise ValidationFailed(_("period is all or month."), fields={"period": [_("all or month")]})
        return Response(leaderboard(game=game, period=period))
