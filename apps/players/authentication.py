"""Token authentication that knows whether a staff token was issued with a second factor
(regulation.md §10): such a token's user is verified, any other staff token is not."""

from __future__ import annotations

from rest_framework.authentication import TokenAuthentication

from .account_state import exempt, refusal_error
from .models import StaffTokenOtp


class OtpAwareTokenAuthentication(TokenAuthentication):
    def authenticate(self, request):
        found = super().authenticate(request)
        if found is not None and not exempt(request):
            error = refusal_error(found[0])  # regulation.md §1.5: a token still held
            if error is not None:
                raise error
        return found

    def authenticate_credentials(self, key):
        user, token = super().authenticate_credentials(key)
        verified = StaffTokenOtp.objects.filter(key=token.key).exists()
        user.is_verified = lambda: verified
        return user, token
