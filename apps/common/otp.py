"""Staff two-factor enforcement (regulation.md §10): who still needs a verified second factor.

django-otp's OTPMiddleware marks a session's user verified; this module only decides where
that is required. The setting is read at each use (regulation.md §0.1)."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.utils.translation import gettext_lazy
from django_otp import DEVICE_ID_SESSION_KEY, user_has_device
from django_otp.models import Device

from .errors import DomainError
from .roles import is_staff_member

STAFF_AREAS = ("/admin/", "/backoffice/", "/compliance/")
PAGE = "/accounts/2fa/"
CLOSE_OTP_REQUIRED = 4403


class OtpRequired(DomainError):
    status = 403
    code = "otp_required"
    default_detail = gettext_lazy("Verify your second factor (two-factor authentication) first.")


def otp_enrolled(user: Any) -> bool:
    return user_has_device(user, confirmed=True)


def otp_missing(user: Any) -> bool:
    """True for a staff member or superuser who has not verified a second factor (when required)."""
    if not settings.STAFF_OTP_REQUIRED or not getattr(user, "is_authenticated", False):
        return False
    if not is_staff_member(user):
        return False
    is_verified = getattr(user, "is_verified", None)
    return not (is_verified() if callable(is_verified) else False)


def otp_check(user: Any) -> None:
    """Raise 403 ``otp_required`` (with ``enrolled``) for an unverified staff member."""
    if otp_missing(user):
        raise OtpRequired(enrolled=otp_enrolled(user))


def session_verified(user: Any, session: Any) -> bool:
    """For sockets (no OTPMiddleware): the session's verified device belongs to ``user``."""
    persistent_id = session.get(DEVICE_ID_SESSION_KEY) if session is not None else None
    device = Device.from_persistent_id(persistent_id) if persistent_id else None
    return device is not None and device.user_id == user.pk and device.confirmed


def socket_otp_missing(user: Any, session: Any) -> bool:
    if not settings.STAFF_OTP_REQUIRED or not getattr(user, "is_authenticated", False):
        return False
    return is_staff_member(user) and not session_verified(user, session)


class StaffOtpMiddleware:
    """Staff areas redirect an unverified staff member to the 2FA page (302 with ``next``)."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path.startswith(STAFF_AREAS) and otp_missing(request.user):
            return HttpResponseRedirect(f"{PAGE}?next={quote(request.get_full_path())}")
        return self.get_response(request)
