"""The page /accounts/2fa/ (regulation.md §10): enrolment (secret and otpauth URL as text;
no QR library is installed), the recovery codes shown once, and verification."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from apps.common.errors import DomainError
from apps.common.net import request_ip
from apps.common.otp import otp_enrolled
from apps.common.roles import is_staff_member

from . import two_factor
from .views import _safe_next


@login_required
@require_http_methods(["GET", "POST"])
def two_factor_page(request):
    if not is_staff_member(request.user):
        return redirect("lobby")
    next_url = _safe_next(request, "/backoffice/")
    enrolled = otp_enrolled(request.user)
    error = None
    if request.method == "POST":
        code = request.POST.get("code", "")
        try:
            if enrolled:
                two_factor.otp_verify(request=request, code=code, ip=request_ip(request))
                return redirect(next_url)
            codes = two_factor.otp_device_confirm(request=request, code=code, ip=request_ip(request))
        except DomainError as exc:
            error = exc
        else:
            return render(request, "players/two_factor.html", {"recovery_codes": codes, "next": next_url})
    context = {"error": error, "next": next_url, "enrolled": enrolled,
               "verified": request.user.is_verified()}
    if not enrolled:
        device = two_factor.otp_device_pending_get_or_create(user=request.user, ip=request_ip(request))
        context["device"] = two_factor.otp_device_as_dict(device)
    status = 200 if error is None else error.status
    return render(request, "players/two_factor.html", context, status=status)
