"""Login limits (platform.md §12), on django-axes: a username is locked after 10 failed logins
within 15 minutes and an IP address after 50, page and API alike.

Axes counts failures per lockout parameter (username, IP) but has one failure limit; the
handler below keeps its counting and storage and only applies the IP's own, higher limit.
"""

from __future__ import annotations

import math
from datetime import timedelta

from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_client_username
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.auth.forms import AuthenticationForm
from django.db.models import Max, Q, Sum
from django.http import JsonResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext as _

from apps.common.net import request_ip


def client_ip(request) -> str | None:
    """The address axes counts: the same one chat lines and seats record (trusted proxies)."""
    return request_ip(request)


def _sum(attempts) -> int:
    return attempts.aggregate(n=Sum("failures_since_start"))["n"] or 0


class LoginLimitsHandler(AxesDatabaseHandler):
    """Axes' database handler with a per-username limit (AXES_FAILURE_LIMIT) and a per-IP one
    (LOGIN_IP_FAILURE_LIMIT)."""

    def get_failures(self, request, credentials: dict | None = None) -> int:
        by_username, by_ip = self.get_user_attempts(request, credentials)
        username_failures = _sum(by_username) if get_client_username(request, credentials) else 0
        if _sum(by_ip) >= settings.LOGIN_IP_FAILURE_LIMIT:
            return max(username_failures, settings.AXES_FAILURE_LIMIT)  # the IP is locked
        return username_failures

    def user_logged_out(self, sender, request, user, **kwargs):
        """A logout sent without a request (the sockets' own logout signal, a management
        command) has nothing for axes to record; axes itself would fail on it."""
        if request is None:
            return None
        return super().user_logged_out(sender, request, user, **kwargs)


def seconds_to_wait(request, credentials: dict | None = None) -> int:
    """Until the lock lifts: the cool-off counted from the latest failure that keeps it."""
    username = get_client_username(request, credentials)
    ip = getattr(request, "axes_ip_address", None) or client_ip(request)
    cool_off: timedelta = settings.AXES_COOLOFF_TIME
    recent = AccessAttempt.objects.filter(attempt_time__gte=timezone.now() - cool_off)
    recent = recent.filter(Q(username=username) | Q(ip_address=ip)) if username else recent.filter(ip_address=ip)
    latest = recent.aggregate(t=Max("attempt_time"))["t"]
    if latest is None:
        return int(cool_off.total_seconds())
    return max(1, math.ceil((latest + cool_off - timezone.now()).total_seconds()))


def lockout_response(request, original_response=None, credentials: dict | None = None):
    """What a locked login gets: 429 ``throttled`` with the wait on the API, the login page
    saying so elsewhere (AXES_LOCKOUT_CALLABLE)."""
    wait = seconds_to_wait(request, credentials)
    minutes = max(1, math.ceil(wait / 60))
    if request.path.startswith("/api/"):
        response = JsonResponse({
            "detail": f"Too many failed logins: try again in {minutes} minutes.",
            "code": "throttled", "wait": wait}, status=429)
    else:
        form = AuthenticationForm(request, data=None, initial={"username": get_client_username(request, credentials)})
        message = _("Too many failed logins: this account or address is locked. Try again in %(minutes)s minutes.") % {
            "minutes": minutes}
        response = render(request, "players/login.html", {"form": form, "locked": message,
                                                          "next": request.POST.get("next", "")}, status=429)
    response["Retry-After"] = str(wait)
    return response
