"""The responsible-gaming pages (regulation.md §2, §3, §4.3): limits with pending raises, and
self-exclusion with a confirmation that says what it means."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from apps.common.errors import DomainError
from apps.common.input import euros_to_cents
from apps.common.roles import is_staff_member

from .exclusions import exclusions_of, self_exclusion_request
from .limits import KEYS, limit_pending_cancel, limits_change, limits_view
from .models import GameSession
from .services import conto_ensure
from .sessions import reality_check_answer, session_row

MONEY_KEYS = [k for k in KEYS if k != "time_day"]


@login_required
@require_http_methods(["GET", "POST"])
def limits(request):
    if is_staff_member(request.user):
        return redirect("lobby")
    conto = conto_ensure(user=request.user)
    if request.method == "POST":
        values = {}
        for key in KEYS:
            raw = request.POST.get(key, "").strip()
            if raw == "":
                continue
            if key == "time_day":
                values[key] = int(raw) if raw.isdigit() else raw
            else:
                values[key] = euros_to_cents(raw)
        current = limits_view(conto=conto)
        values = {k: v for k, v in values.items() if v != current[k]["value"] or current[k]["pending"]}
        try:
            if values:
                limits_change(user=request.user, values=values)
        except DomainError as exc:
            fields = exc.extra.get("fields") or {}
            messages.error(request, " ".join([exc.detail] + [f"{k}: {' '.join(map(str, v))}" for k, v in fields.items()]))
        else:
            messages.success(request, _("Limits saved. A lower limit holds at once; a higher one after 7 days."))
        return redirect("conto:limits")
    shape = limits_view(conto=conto)
    rows = [{"key": key, "money": key != "time_day", **shape[key]} for key in KEYS]
    return render(request, "conto/limits.html", {"rows": rows, "young": shape["young"],
                                                 "caps": shape["first_activation_caps"]})


@login_required
@require_POST
def limit_cancel(request, key: str):
    try:
        limit_pending_cancel(user=request.user, key=key)
    except DomainError as exc:
        messages.error(request, exc.detail)
    else:
        messages.success(request, _("The pending raise is cancelled."))
    return redirect("conto:limits")


@login_required
@require_http_methods(["GET", "POST"])
def self_exclusion(request):
    if is_staff_member(request.user):
        return redirect("lobby")
    conto = conto_ensure(user=request.user)
    if request.method == "POST":
        if request.POST.get("confirm") != "yes":
            messages.error(request, _("Tick the confirmation: a self-exclusion cannot be undone or shortened."))
            return redirect("conto:self_exclusion")
        period = request.POST.get("period", "")
        data = {"scope": request.POST.get("scope")}
        if period == "indefinite":
            data["indefinite"] = True
        else:
            data["days"] = int(period) if period.isdigit() else period
        try:
            self_exclusion_request(user=request.user, data=data)
        except DomainError as exc:
            messages.error(request, exc.detail)
        else:
            messages.success(request, _("Your self-exclusion has started."))
        return redirect("conto:self_exclusion")
    return render(request, "conto/self_exclusion.html", {"exclusions": exclusions_of(conto=conto),
                                                         "periods": [7, 30, 60, 90, 180, 270]})


@login_required
@require_POST
def reality_check(request):
    """The reality check's three choices (regulation.md §4.2). From a table (htmx) the box goes
    away in place and the match goes on; elsewhere the page reloads."""
    try:
        answer = reality_check_answer(user=request.user, choice=request.POST.get("choice"))
    except DomainError as exc:
        if request.htmx:
            return HttpResponse('<div id="reality-check-slot"></div>')
        messages.error(request, exc.detail)
        return redirect("lobby")
    if answer["logged_out"]:
        logout(request)
        target = reverse("lobby")
    elif answer["choice"] == "history":  # the session's movements (regulation.md §4.2)
        target = reverse("players:history") + "?session=current"
    elif request.htmx:
        return HttpResponse('<div id="reality-check-slot"></div>')
    else:
        target = request.META.get("HTTP_REFERER") or reverse("lobby")
    return HttpResponseClientRedirect(target) if request.htmx else redirect(target)


@login_required
def sessions(request):
    """The player's game sessions (regulation.md §4.1)."""
    if is_staff_member(request.user):
        return redirect("lobby")
    rows = [session_row(s) for s in GameSession.objects.filter(user=request.user).order_by("-started_at")[:100]]
    return render(request, "conto/sessions.html", {"rows": rows})
