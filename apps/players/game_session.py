"""Game sessions on every request (regulation.md §4.1): a login opens one; each request by
session touches it at most once a minute (the Django session remembers when it last did, so
most requests cost no query); an idle page session is logged out."""

from __future__ import annotations

import time
from typing import Any

from django.contrib import messages
from django.contrib.auth import logout
from django.shortcuts import redirect
from django.utils import timezone
from django.utils.translation import gettext as _

from apps.common.net import request_ip
from apps.common.roles import is_staff_member
from apps.conto.sessions import session_end, session_open, session_previous_start, session_touch

from .access_log import access_log_record, device_of

SEEN_KEY, SESSION_KEY = "mz_gs_seen", "mz_gs"
EXEMPT = ("/static/", "/i18n/", "/accounts/login/", "/accounts/logout/")


def _info(request: Any) -> dict[str, Any]:
    return {"ip": request_ip(request), "device": device_of(request),
            "user_agent": request.META.get("HTTP_USER_AGENT", "")}


class GameSessionMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated and hasattr(request, "session") and \
                not request.path.startswith(EXEMPT) and not is_staff_member(user):
            seen = request.session.get(SEEN_KEY, 0)
            if time.time() - seen >= 60:
                session, timed_out = session_touch(user=user, **_info(request))
                if timed_out and not request.path.startswith("/api/"):
                    access_log_record(event="timeout", request=request, user=user)
                    logout(request)
                    messages.info(request, _("You were logged out after 30 minutes without activity."))
                    return redirect(f"/accounts/login/?next={request.path}")
                request.session[SEEN_KEY] = time.time()
                request.session[SESSION_KEY] = {"id": str(session.pk), "started": session.started_at.isoformat()}
        return self.get_response(request)


def on_logged_in(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    """A login opens a game session (staff have none)."""
    if is_staff_member(user):
        return
    previous = session_previous_start(user_id=user.pk)
    session = session_open(user=user, **(_info(request) if request is not None else {}))
    if request is not None and hasattr(request, "session"):
        if previous is not None:  # regulation.md §4.1: "Ultimo accesso" at login
            messages.info(request, _("Last access: %(when)s") % {
                "when": timezone.localtime(previous).strftime("%d/%m/%Y %H:%M")}, fail_silently=True)
        request.session[SEEN_KEY] = time.time()
        request.session[SESSION_KEY] = {"id": str(session.pk), "started": session.started_at.isoformat()}


def on_logged_out(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    if user is not None and not is_staff_member(user):
        session_end(user_id=user.pk)
