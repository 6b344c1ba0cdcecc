"""Operators' screens: create and edit tournaments (before the start), start, cancel with a
reason, a prize-split preview for N entrants, and the refund table with its progress.

Every write goes through ``services`` (validated like the API, audited there)."""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from apps.common.errors import DomainError
from apps.common.net import request_ip
from apps.common.roles import OPERATOR, has_role

from . import selectors, services
from .models import Registration, Tournament, TournamentMatch
from .rules import entry_display


class TournamentForm(forms.ModelForm):
    payouts = forms.CharField(required=False, help_text="percentages by position, e.g. [50, 30, 20]")
    game_options = forms.CharField(required=False, help_text='JSON, e.g. {"target": 11}')

    class Meta:
        model = Tournament
        fields = ["name", "game", "kind", "format", "buy_in_cents", "fee_cents", "guaranteed_cents", "prize",
                  "satellite_target", "min_players", "max_players", "starts_at", "payouts", "game_options",
                  "rounds", "turn_seconds", "chat_enabled"]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        for name, default in (("payouts", None), ("game_options", {})):
            raw = self.data.get(name) or ""
            try:
                data[name] = json.loads(raw) if raw.strip() else default
            except ValueError:
                self.add_error(name, "Not valid JSON.")
        return data


class RegistrationInline(admin.TabularInline):
    model = Registration
    fk_name = "tournament"
    fields = ("nickname", "created", "paid_bonus_cents", "paid_cash_cents", "seat_from", "eliminated", "position",
              "vp", "prize_cents", "refund_rule", "refund_cents", "refund_parts", "refund_paid_at")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def get_queryset(self, request):
        return super().get_queryset(request).filter(active=True)

    def has_add_permission(self, request, obj=None) -> bool:
        return False


class TournamentMatchInline(admin.TabularInline):
    model = TournamentMatch
    fields = ("round", "match_id", "first", "second", "status", "winner", "scores", "replay_of")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    form = TournamentForm
    list_display = ("id", "name", "game", "kind", "format", "entry", "status", "starts_at", "entrants")
    list_filter = ("status", "kind", "format", "prize", "game")
    search_fields = ("name",)
    inlines = [RegistrationInline, TournamentMatchInline]
    change_form_template = "admin/tournaments/tournament/change_form.html"
    actions = ["registrations_pause_resume"]

    def get_queryset(self, request):
        return selectors.tournament_list()

    @admin.display(description="entry")
    def entry(self, obj: Tournament) -> str:
        return entry_display(buy_in_cents=obj.buy_in_cents, fee_cents=obj.fee_cents)

    @admin.display(description="entrants")
    def entrants(self, obj: Tournament) -> int:
        return getattr(obj, "n_entrants", 0)

    def has_delete_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return has_role(request.user, OPERATOR) and (obj is None or obj.status == Tournament.OPEN)

    def has_add_permission(self, request) -> bool:
        return has_role(request.user, OPERATOR)

    def has_view_permission(self, request, obj=None) -> bool:
        return request.user.is_staff

    def save_model(self, request, obj, form, change):
        data = {k: form.cleaned_data.get(k) for k in form.Meta.fields}
        data["satellite_target"] = data["satellite_target"].pk if data["satellite_target"] else None
        data["starts_at"] = data["starts_at"].isoformat() if data["starts_at"] else None
        if data.get("rounds") is None:
            data.pop("rounds")
        try:
            if change:
                changed = {k: v for k, v in data.items() if k in form.changed_data}
                saved = services.tournament_update(actor=request.user, tournament_id=obj.pk, data=changed,
                                                   ip=request_ip(request))
            else:
                saved = services.tournament_create(actor=request.user, data=data, ip=request_ip(request))
        except DomainError as exc:
            fields = exc.extra.get("fields") or {}
            detail = "; ".join(f"{k}: {v[0]}" for k, v in fields.items()) or exc.detail
            raise _Refused(detail) from None
        obj.pk = saved.pk

    def changeform_view(self, request, object_id=None, form_url="", extra_context=None):
        try:
            return super().changeform_view(request, object_id, form_url, extra_context)
        except _Refused as exc:
            messages.error(request, str(exc))
            return redirect(request.get_full_path())

    def get_urls(self):
        own = [
            path("<int:tournament_id>/start/", self.admin_site.admin_view(self.start_view), name="tournament_start"),
            path("<int:tournament_id>/cancel/", self.admin_site.admin_view(self.cancel_view),
                 name="tournament_cancel"),
            path("<int:tournament_id>/overview/", self.admin_site.admin_view(self.overview_view),
                 name="tournament_overview"),
            path("<int:tournament_id>/registrations/<str:action>/",
                 self.admin_site.admin_view(self.registrations_view), name="tournament_registrations"),
        ]
        return own + super().get_urls()

    def _operator(self, request) -> None:
        if not has_role(request.user, OPERATOR):
            raise PermissionDenied

    def start_view(self, request, tournament_id: int):
        self._operator(request)
        if request.method == "POST":
            try:
                services.tournament_start(tournament_id=tournament_id, actor=request.user, ip=request_ip(request))
                messages.success(request, "Tournament started.")
            except DomainError as exc:
                messages.error(request, exc.detail)
        return redirect(reverse("admin:tournament_overview", args=[tournament_id]))

    def cancel_view(self, request, tournament_id: int):
        self._operator(request)
        t = get_object_or_404(Tournament, pk=tournament_id)
        if request.method == "POST":
            try:
                services.tournament_cancel(actor=request.user, tournament_id=tournament_id,
                                           reason=request.POST.get("reason", ""), ip=request_ip(request))
                messages.success(request, "Tournament cancelled: the refunds are being paid.")
                return redirect(reverse("admin:tournament_overview", args=[tournament_id]))
            except DomainError as exc:
                messages.error(request, exc.detail)
        return render(request, "admin/tournaments/tournament/cancel.html",
                      {**self.admin_site.each_context(request), "t": t, "title": f"Cancel {t.name}"})

    def registrations_view(self, request, tournament_id: int, action: str):
        """Pause or resume the registrations, with a reason (issue 16): a form, then one call."""
        self._operator(request)
        if action not in ("pause", "resume"):
            raise PermissionDenied
        t = get_object_or_404(Tournament, pk=tournament_id)
        if request.method == "POST":
            write = services.tournament_registrations_pause if action == "pause" else \
                services.tournament_registrations_resume
            try:
                write(actor=request.user, tournament_id=tournament_id, reason=request.POST.get("reason", ""),
                      ip=request_ip(request))
                messages.success(request, _("Registrations paused.") if action == "pause" else
                                 _("Registrations resumed."))
                return redirect(reverse("admin:tournament_overview", args=[tournament_id]))
            except DomainError as exc:
                messages.error(request, exc.detail)
        return render(request, "admin/tournaments/tournament/registrations.html",
                      {**self.admin_site.each_context(request), "t": t, "action": action,
                       "title": _("Pause registrations") if action == "pause" else _("Resume registrations")})

    @admin.action(description=gettext_lazy("Pause or resume the registrations (asks for a reason)"), permissions=["change"])
    def registrations_pause_resume(self, request, queryset):
        """The list's action: one tournament at a time, to the form that asks for the reason."""
        t = queryset.order_by("pk").first()
        if queryset.count() != 1 or t is None:
            messages.error(request, _("Choose exactly one tournament."))
            return None
        action = "resume" if t.registrations_paused_at else "pause"
        return redirect(reverse("admin:tournament_registrations", args=[t.pk, action]))

    def overview_view(self, request, tournament_id: int):
        """The whole refund table and its live progress, the preview for N entrants, the bracket."""
        t = selectors.tournament_get(tournament_id=tournament_id)
        raw = request.GET.get("entrants", "")
        entrants = int(raw) if raw.isdigit() and int(raw) <= t.max_players else t.max_players
        return render(request, "admin/tournaments/tournament/overview.html", {
            **self.admin_site.each_context(request), "t": t, "title": t.name,
            "detail": selectors.tournament_as_dict(t), "rows": selectors.standings(t),
            "progress": selectors.refund_progress(t), "preview_n": entrants,
            "preview": services.prize_preview(t, entrants),
            "matches": selectors.tournament_matches(t), "operator": has_role(request.user, OPERATOR),
            "page_url": reverse("tournaments:detail", args=[t.pk]),
        })

    def response_change(self, request, obj):
        return super().response_change(request, obj)

    def view_on_site(self, obj):
        return reverse("tournaments:detail", args=[obj.pk])

    @admin.display(description="overview")
    def overview_link(self, obj):
        return format_html('<a href="{}">overview</a>', reverse("admin:tournament_overview", args=[obj.pk]))


class _Refused(Exception):
    pass
