"""The player closes the conto (regulation.md §1.8): a page that says what closing means."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from apps.common.errors import DomainError
from apps.common.roles import is_staff_member
from apps.wallet.selectors import wallet_get

from .status import conto_close


@login_required
@require_http_methods(["GET", "POST"])
def close(request):
    if is_staff_member(request.user):
        return redirect("lobby")
    error = None
    if request.method == "POST":
        if request.POST.get("confirm") != "yes":
            error = _("Tick the confirmation to close the account.")
        else:
            try:
                conto_close(user=request.user, reason=request.POST.get("reason", ""))
            except DomainError as exc:
                error = exc.detail
            else:
                logout(request)
                messages.success(request, _("Your gaming account is closed."))
                return redirect("lobby")
    return render(request, "conto/close.html", {"wallet": wallet_get(player=request.user), "error": error},
                  status=409 if error and request.method == "POST" else 200)
