"""Recording the access log (regulation.md §4.3) and the device cookie it names.

The cookie ``mz_device`` is a random id set on the first response that lacks it: the log
shows which logins came from one device."""

from __future__ import annotations

import secrets
from typing import Any

from django.utils import timezone

from apps.common.net import request_ip

from .models import AccessLogEntry

DEVICE_COOKIE = "mz_device"
DEVICE_MAX_AGE = 5 * 365 * 24 * 3600


def _channel(request: Any) -> str:
    path = getattr(request, "path", "") or ""
    if path.startswith("/admin/"):
        return "admin"
    if path.startswith("/api/auth/token/"):
        return "token"
    if path.startswith("/api/"):
        return "api"
    return "page"


def device_of(request: Any) -> str:
    if request is None:
        return ""
    return getattr(request, "mz_device", None) or request.COOKIES.get(DEVICE_COOKIE, "")[:64]


def access_log_record(*, event: str, request: Any = None, user: Any = None, username: str = "",
                      ip: str | None = None, channel: str = "") -> AccessLogEntry:
    meta = getattr(request, "META", {}) if request is not None else {}
    return AccessLogEntry.objects.create(
        event=event, user=user if getattr(user, "pk", None) else None,
        username=(username or (user.get_username() if getattr(user, "pk", None) else ""))[:150],
        channel=channel or (_channel(request) if request is not None else ""),
        ip=ip or (request_ip(request) if request is not None else None),
        user_agent=(meta.get("HTTP_USER_AGENT") or "")[:300], device=device_of(request), created=timezone.now())


def access_log_for(*, user_id: int, limit: int = 200) -> list[AccessLogEntry]:
    return list(AccessLogEntry.objects.filter(user_id=user_id).order_by("-created", "-id")[:limit])


class DeviceCookieMiddleware:
    """Give every browser a random device id (``mz_device``) the access log records."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if not request.COOKIES.get(DEVICE_COOKIE):
            request.mz_device = secrets.token_hex(16)
        response = self.get_response(request)
        if getattr(request, "mz_device", None) and not request.path.startswith(("/static/", "/api/")):
            response.set_cookie(DEVICE_COOKIE, request.mz_device, max_age=DEVICE_MAX_AGE, httponly=True,
                                samesite="Lax", secure=request.is_secure())
        return response


# -- receivers (connected in PlayersConfig.ready) ------------------------------------------------


def on_logged_in(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    if request is not None:
        access_log_record(event=AccessLogEntry.LOGIN, request=request, user=user)


def on_login_failed(sender: Any, credentials: dict, request: Any = None, **kwargs: Any) -> None:
    access_log_record(event=AccessLogEntry.LOGIN_FAILED, request=request,
                      username=str((credentials or {}).get("username") or "")[:150])


def on_logged_out(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    if request is not None and user is not None:
        access_log_record(event=AccessLogEntry.LOGOUT, request=request, user=user)


OTP_EVENTS = ("otp_device_created", "otp_device_confirmed", "otp_verified", "otp_failed", "otp_recovery_used",
              "otp_recovery_regenerated", "otp_reset")


def on_audit_row(sender: Any, instance: Any, created: bool, **kwargs: Any) -> None:
    """A two-factor event is audited by its service; the access log gets it too (§10)."""
    if created and instance.action in OTP_EVENTS:
        target = instance.actor if instance.action != "otp_reset" else None
        AccessLogEntry.objects.create(event=instance.action, user_id=int(instance.target_id) if
                                      str(instance.target_id).isdigit() else getattr(target, "pk", None),
                                      channel="", ip=instance.ip, created=instance.created)
