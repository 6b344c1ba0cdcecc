"""The player's conto endpoints (regulation.md §1.1, §1.6, §1.9, §12): parse, one domain call,
render."""

from __future__ import annotations

from django.contrib.auth import login
from drf_spectacular.utils import OpenApiTypes, extend_schema
from rest_framework.authtoken.models import Token
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.common.api import IsPlayerAccount
from apps.common.errors import Forbidden

from .presenters import conto_as_dict
from .services import conto_ensure
from .signup import conto_identity_update, conto_sign_up


class SignupView(APIView):
    """``POST /api/auth/signup/``: anonymous; the new player is logged in and gets a token."""

    permission_classes = [AllowAny]

    @extend_schema(request=OpenApiTypes.OBJECT, responses={201: OpenApiTypes.OBJECT})
    def post(self, request):
        if request.user and request.user.is_authenticated:
            raise Forbidden()
        user, conto = conto_sign_up(data=request.data)
        login(request._request, user, backend="django.contrib.auth.backends.ModelBackend")
        token, _created = Token.objects.get_or_create(user=user)
        return Response({"id": user.pk, "username": user.get_username(), "state": conto.state,
                         "kyc_status": conto.kyc_status, "token": token.key}, status=201)


class MeAccountView(APIView):
    """``GET``/``PATCH /api/me/account/``: the player's conto; staff have none (403)."""

    permission_classes = [IsPlayerAccount]

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request):
        return Response(conto_as_dict(conto_ensure(user=request.user)))

    @extend_schema(request=OpenApiTypes.OBJECT, responses=OpenApiTypes.OBJECT)
    def patch(self, request):
        return Response(conto_as_dict(conto_identity_update(user=request.user, data=request.data)))
