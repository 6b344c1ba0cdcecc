"""Send a logged-in player without a nickname to the nickname page (platform.md §2)."""

from __future__ import annotations

from django.shortcuts import redirect
from django.urls import reverse

from apps.common.roles import is_staff_member

from .selectors import nickname_of

EXEMPT_PREFIXES = ("/api/", "/admin/", "/static/", "/i18n/", "/ws/", "/accounts/logout/")


class NicknameRequiredMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        if (
            user is not None
            and user.is_authenticated
            and request.method == "GET"
            and not request.path.startswith(EXEMPT_PREFIXES)
            and request.path != reverse("players:nickname")
            and not is_staff_member(user)
            and not nickname_of(user)
        ):
            return redirect(f"{reverse('players:nickname')}?next={request.get_full_path()}")
        return self.get_response(request)
