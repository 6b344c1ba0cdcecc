"""A conto that cannot log in (regulation.md §1.5: blocked, closed, dormant): the login
says why, the token endpoint refuses, and a session or token still held gets 403
``account_not_open`` everywhere but ``GET /api/me/account/`` (pages log it out and explain)."""

from __future__ import annotations

from django.contrib.auth import logout
from django.http import JsonResponse
from django.shortcuts import render

from apps.conto.errors import AccountNotOpen
from apps.conto.selectors import login_refusal

#: what a refused conto may still reach
OPEN_PATHS = ("/static/", "/i18n/", "/accounts/login/", "/accounts/logout/", "/favicon")
ACCOUNT_API = "/api/me/account/"


def refusal_error(user) -> AccountNotOpen | None:
    row = login_refusal(user=user)
    if row is None:
        return None
    return AccountNotOpen(state=row[0], state_reason=row[1])


def exempt(request) -> bool:
    return request.path.startswith(OPEN_PATHS) or (request.path == ACCOUNT_API and request.method == "GET")


class ContoStateMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated and not exempt(request):
            error = refusal_error(user)
            if error is not None:
                if request.path.startswith("/api/"):
                    return JsonResponse(error.as_dict(), status=error.status)
                logout(request)
                return render(request, "conto/not_open.html", {"detail": error.detail, "state": error.extra["state"]},
                              status=403)
        return self.get_response(request)
