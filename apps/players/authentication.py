"""Token authentication that knows whether a staff token was issued with a second factor
(regulation.md §10): such a token's user is verified, any other staff token is not."""

from __future__ import annotations

from rest_framework.authentication import TokenAuthentication

from apps.common.net import request_ip
from apps.common.roles import is_staff_member
from apps.conto.sessions import session_touch

from .access_log import device_of
from .account_state import exempt, refusal_error
from .models import StaffTokenOtp


class OtpAwareTokenAuthentication(TokenAuthentication):
    def authenticate(self, request):
        found = super().authenticate(request)
        if found is not None and not exempt(request):
            error = refusal_error(found[0])  # regulation.md §1.5: a token still held
            if error is not None:
                raise error
            if not is_staff_member(found[0]):  # regulation.md §4.1: a token's request keeps its session
                session_touch(user=found[0], ip=request_ip(request), device=device_of(request),
                              user_agent=request.META.get("HTTP_USER_AGENT", ""))
        return found

    def authenticate_credentials(self, key):
        user, token = super().authenticate_credentials(key)
        verified = StaffTokenOtp.objects.filter(key=token.key).exists()
        user.is_verified = lambda: verified
        return user, token
