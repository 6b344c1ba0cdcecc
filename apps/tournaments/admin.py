"""Operators' screens: create and edit tournaments (before the start), start, cancel with a
reason, a prize-split preview for N entrants, and the refund table with its progress.

Every write goes through ``services`` (validated like the API, audited there)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path, reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from apps.common.errors import DomainError, survivors_run
from apps.common.net import request_ip
from apps.common.roles import OPERATOR, has_role
from apps.games.selectors import game_catalogue

from . import selectors, services
from .amounts import euro_text
from .forms import (
    FORMAT_CHOICES,
    KIND_LABELS,
    PRIZE_LABELS,
    STATUS_LABELS,
    TournamentForm,
    heads_up_games,
    option_fieldsets,
    options_in_words,
    preview_entrants,
    preview_rows,
    split_preview_from_form,
    tournament_body,
)
from .models import Registration, Tournament, TournamentMatch
from .templatetags.tournaments import match_status_label


def _column(field: str, label: Any, *, boolean: bool = False):
    """A read-only inline column with a translated header (the models' fields have none)."""

    def show(self, obj):
        return getattr(obj, field)

    show.__name__ = f"{field}_column"
    return admin.display(description=label, boolean=boolean)(show)


def _nickname_column(field: str, label: Any):
    """A match's seat or winner by the player's nickname ("–" for none)."""

    def show(self, obj):
        registration = getattr(obj, field)
        return registration.nickname if registration is not None else "–"

    show.__name__ = f"{field}_column"
    return admin.display(description=label)(show)


class RegistrationInline(admin.TabularInline):
    model = Registration
    fk_name = "tournament"
    fields = ("nickname_column", "created_column", "paid_bonus", "paid_cash", "seat_from_column",
              "eliminated_column", "position_column", "vp_column", "prize", "refund_rule_column", "refund",
              "refund_parts_column", "refund_paid_at_column")
    readonly_fields = fields
    extra = 0
    can_delete = False
    verbose_name = gettext_lazy("registration")
    verbose_name_plural = gettext_lazy("registrations")

    nickname_column = _column("nickname", gettext_lazy("nickname"))
    created_column = _column("created", gettext_lazy("registered at"))
    seat_from_column = _column("seat_from", gettext_lazy("seat won in"))
    eliminated_column = _column("eliminated", gettext_lazy("eliminated"), boolean=True)
    position_column = _column("position", gettext_lazy("position"))
    vp_column = _column("vp", gettext_lazy("VP"))
    refund_rule_column = _column("refund_rule", gettext_lazy("refund rule"))
    refund_paid_at_column = _column("refund_paid_at", gettext_lazy("refund paid at"))

    def get_queryset(self, request):
        return super().get_queryset(request).filter(active=True)

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    @admin.display(description=gettext_lazy("paid in bonus"))
    def paid_bonus(self, obj: Registration) -> str:
        return euro_text(obj.paid_bonus_cents)

    @admin.display(description=gettext_lazy("paid in cash"))
    def paid_cash(self, obj: Registration) -> str:
        return euro_text(obj.paid_cash_cents)

    @admin.display(description=gettext_lazy("prize"))
    def prize(self, obj: Registration) -> str:
        return euro_text(obj.prize_cents)

    @admin.display(description=gettext_lazy("refund"))
    def refund(self, obj: Registration) -> str:
        return euro_text(obj.refund_cents)

    @admin.display(description=gettext_lazy("refund parts"))
    def refund_parts_column(self, obj: Registration) -> str:
        return " · ".join(f"{part} {euro_text(cents)}" for part, cents in (obj.refund_parts or {}).items()) or "–"


class TournamentMatchInline(admin.TabularInline):
    model = TournamentMatch
    fields = ("round_column", "match_id_column", "first_column", "second_column", "status_column",
              "winner_column", "scores_column", "replay_of_column")
    readonly_fields = fields
    extra = 0
    can_delete = False
    verbose_name = gettext_lazy("tournament match")
    verbose_name_plural = gettext_lazy("tournament matches")

    round_column = _column("round", gettext_lazy("round"))
    match_id_column = _column("match_id", gettext_lazy("match"))
    first_column = _nickname_column("first", gettext_lazy("first seat"))
    second_column = _nickname_column("second", gettext_lazy("second seat"))

    @admin.display(description=gettext_lazy("status"))
    def status_column(self, obj: TournamentMatch) -> str:
        return match_status_label(obj.status)

    winner_column = _nickname_column("winner", gettext_lazy("winner"))
    scores_column = _column("scores", gettext_lazy("scores"))
    replay_of_column = _column("replay_of", gettext_lazy("replay of"))

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("first", "second", "winner")

    def has_add_permission(self, request, obj=None) -> bool:
        return False


#: the add/edit form's sections; each game's options follow, shown for the chosen game only
FIELDSETS = [
    (None, {"fields": ["name", "game", "kind", "format"]}),
    (gettext_lazy("Entry and prizes"), {"fields": ["buy_in_cents", "fee_cents", "guaranteed_cents", "prize",
                                                   "satellite_target", "payouts"]}),
    (gettext_lazy("Players and time"), {"fields": ["min_players", "max_players", "starts_at", "rounds",
                                                   "turn_seconds", "chat_enabled"]}),
]


def _choices_filter(field: str, title: Any, labels) -> type[admin.SimpleListFilter]:
    """A list filter with a translated title and values (the model's choices are English)."""

    class ChoicesFilter(admin.SimpleListFilter):
        parameter_name = field

        def lookups(self, request, model_admin):
            return list((labels() if callable(labels) else labels).items())

        def queryset(self, request, queryset):
            return queryset.filter(**{field: self.value()}) if self.value() else queryset

    ChoicesFilter.title = title
    return ChoicesFilter


def _game_names() -> dict[str, str]:
    return {g["id"]: g["name"] for g in game_catalogue()}

#: what a tournament that can no longer be edited shows (started, finished, cancelled; or to
#: staff who only read): its settings in words and euro
VIEW_FIELDSETS = [
    (None, {"fields": ["name_words", "game_words", "kind_words", "status_words"]}),
    (gettext_lazy("Entry and prizes"), {"fields": ["entry", "guaranteed_words", "prize_words", "payouts_words"]}),
    (gettext_lazy("Players and time"), {"fields": ["players_words", "starts_words", "rounds_words", "turn_words",
                                                   "options_words"]}),
]


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    form = TournamentForm
    list_display = ("name_words", "game_words", "kind_words", "entry", "status_words", "starts_words", "entrants")
    list_display_links = ("name_words",)
    list_filter = (_choices_filter("status", gettext_lazy("status"), STATUS_LABELS),
                   _choices_filter("kind", gettext_lazy("kind"), KIND_LABELS),
                   _choices_filter("format", gettext_lazy("format"), dict(FORMAT_CHOICES)),
                   _choices_filter("prize", gettext_lazy("prize"), PRIZE_LABELS),
                   _choices_filter("game", gettext_lazy("game"), lambda: dict(heads_up_games())))
    search_fields = ("name",)
    inlines = [RegistrationInline, TournamentMatchInline]
    change_form_template = "admin/tournaments/tournament/change_form.html"
    actions = ["registrations_pause_resume"]

    class Media:
        js = ["js/tournament_admin.js"]

    def get_queryset(self, request):
        return selectors.tournament_list()

    def get_inline_instances(self, request, obj=None):
        """A tournament being added has no registrations nor matches to show."""
        return super().get_inline_instances(request, obj) if obj is not None else []

    def get_fieldsets(self, request, obj=None):
        if obj is not None and not self.has_change_permission(request, obj):
            return VIEW_FIELDSETS
        return [*FIELDSETS, *option_fieldsets()]

    @admin.display(description=gettext_lazy("Guaranteed prize pool"))
    def guaranteed_words(self, obj: Tournament) -> str:
        return euro_text(obj.guaranteed_cents)

    @admin.display(description=gettext_lazy("Prize"))
    def prize_words(self, obj: Tournament) -> str:
        words = str(PRIZE_LABELS.get(obj.prize, obj.prize))
        return f"{words}: {obj.satellite_target}" if obj.satellite_target_id else words

    @admin.display(description=gettext_lazy("Prize split by position"))
    def payouts_words(self, obj: Tournament) -> str:
        if obj.prize == Tournament.SATELLITE:
            return "–"
        return " · ".join(f"{place}° {share} %" for place, share in enumerate(obj.payouts or [], start=1))

    @admin.display(description=gettext_lazy("Players"))
    def players_words(self, obj: Tournament) -> str:
        return f"{obj.min_players}–{obj.max_players}" if obj.min_players != obj.max_players else str(obj.max_players)

    @admin.display(description=gettext_lazy("Rounds"))
    def rounds_words(self, obj: Tournament) -> str:
        return str(obj.rounds) if obj.rounds else "–"

    @admin.display(description=gettext_lazy("Seconds per turn"))
    def turn_words(self, obj: Tournament) -> str:
        return str(obj.turn_seconds)

    @admin.display(description=gettext_lazy("Game options"))
    def options_words(self, obj: Tournament) -> str:
        return options_in_words(obj.game, obj.game_options or {}) or _("as the game's defaults")

    def get_form(self, request, obj=None, change=False, **kwargs):
        """The operator's form; after a refused save, with the service's reasons in it."""
        form = super().get_form(request, obj, change=change, **kwargs)
        refused = getattr(request, "_tournament_refused", None)
        return type(form.__name__, (form,), {"refused": refused}) if refused else form

    @admin.display(description=gettext_lazy("name"), ordering="name")
    def name_words(self, obj: Tournament) -> str:
        return format_html("{} <small>#{}</small>", obj.name, obj.pk)

    @admin.display(description=gettext_lazy("game"), ordering="game")
    def game_words(self, obj: Tournament) -> str:
        return _game_names().get(obj.game, obj.game)

    @admin.display(description=gettext_lazy("kind"), ordering="kind")
    def kind_words(self, obj: Tournament) -> str:
        """Kind and format in one column ("Sit and Go · a punti"): the list fits at 1366 px."""
        return f"{KIND_LABELS.get(obj.kind, obj.kind)} · {dict(FORMAT_CHOICES).get(obj.format, obj.format)}"

    @admin.display(description=gettext_lazy("starts at"), ordering="starts_at")
    def starts_words(self, obj: Tournament) -> str:
        if not obj.starts_at:
            return "–"
        when = timezone.localtime(obj.starts_at)
        return date_format(when, "j b H:i" if when.year == timezone.localtime().year else "j b Y H:i")

    @admin.display(description=gettext_lazy("entry"))
    def entry(self, obj: Tournament) -> str:
        if obj.fee_cents:
            return f"{euro_text(obj.buy_in_cents)} ({euro_text(obj.buy_in_cents - obj.fee_cents)}" \
                   f"+{euro_text(obj.fee_cents)})"
        return euro_text(obj.buy_in_cents)

    @admin.display(description=gettext_lazy("status"), ordering="status")
    def status_words(self, obj: Tournament) -> str:
        return str(STATUS_LABELS.get(obj.status, obj.status))

    @admin.display(description=gettext_lazy("entrants"))
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
        """One service call with the form's body; a change sends only what differs."""
        data = dict(form.service_data)
        try:
            if change:
                current = tournament_body(selectors.tournament_get(tournament_id=obj.pk))
                changed = {k: v for k, v in data.items() if current.get(k) != v}
                saved = services.tournament_update(actor=request.user, tournament_id=obj.pk, data=changed,
                                                   ip=request_ip(request))
            else:
                saved = services.tournament_create(actor=request.user, data=data, ip=request_ip(request))
        except DomainError as exc:
            raise _Refused(exc.extra.get("fields") or {"body": [exc.detail]}, refused=exc) from None
        obj.pk = saved.pk

    def changeform_view(self, request, object_id=None, form_url="", extra_context=None):
        """A save the service refuses (a race the form could not see) comes back as the form,
        everything typed kept, the reasons next to the fields."""
        extra_context = {**(extra_context or {}),
                         "preview_url": reverse("admin:tournament_split_preview"),
                         "preview_n": preview_entrants(request.POST.get("preview_entrants"), default=8)}
        try:
            return super().changeform_view(request, object_id, form_url, extra_context)
        except _Refused as exc:
            if exc.refused is not None:
                survivors_run(exc.refused)  # the admin's transaction rolled back: ADM's answer is kept
            request._tournament_refused = exc.fields
            return super().changeform_view(request, object_id, form_url, extra_context)

    def get_urls(self):
        own = [
            path("split-preview/", self.admin_site.admin_view(self.split_preview_view),
                 name="tournament_split_preview"),
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

    def split_preview_view(self, request):
        """The live prize split while the form is typed (htmx posts the form): the rules'
        own numbers for N entrants, in euro. Staff with the form only; nothing is saved."""
        if not (self.has_add_permission(request) or self.has_change_permission(request)):
            raise PermissionDenied
        return _split_preview(request)

    def start_view(self, request, tournament_id: int):
        self._operator(request)
        if request.method == "POST":
            try:
                services.tournament_start(tournament_id=tournament_id, actor=request.user, ip=request_ip(request))
                messages.success(request, _("Tournament started."))
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
                messages.success(request, _("Tournament cancelled: the refunds are being paid."))
                return redirect(reverse("admin:tournament_overview", args=[tournament_id]))
            except DomainError as exc:
                messages.error(request, exc.detail)
        return render(request, "admin/tournaments/tournament/cancel.html",
                      {**self.admin_site.each_context(request), "t": t,
                       "status": STATUS_LABELS.get(t.status, t.status),
                       "title": _("Cancel “%(name)s”") % {"name": t.name}})

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
        detail = selectors.tournament_as_dict(t)
        return render(request, "admin/tournaments/tournament/overview.html", {
            **self.admin_site.each_context(request), "t": t, "title": t.name,
            "status": STATUS_LABELS.get(t.status, t.status), "entry": self.entry(t),
            "detail": detail, "prizes": " · ".join(euro_text(c) for c in detail["payouts_cents"] or []) or "–",
            "rows": selectors.standings(t),
            "progress": selectors.refund_progress(t), "preview_n": entrants,
            "preview": preview_rows(selectors.split_preview(
                buy_in_cents=t.buy_in_cents, fee_cents=t.fee_cents, guaranteed_cents=t.guaranteed_cents,
                prize=t.prize, payouts=t.payouts, satellite_target=t.satellite_target, entrants=entrants)),
            "matches": selectors.tournament_matches(t), "operator": has_role(request.user, OPERATOR),
            "page_url": reverse("tournaments:detail", args=[t.pk]),
        })

    def view_on_site(self, obj):
        return reverse("tournaments:detail", args=[obj.pk])

    @admin.display(description=gettext_lazy("overview"))
    def overview_link(self, obj):
        return format_html('<a href="{}">{}</a>', reverse("admin:tournament_overview", args=[obj.pk]), _("overview"))


@require_POST
def _split_preview(request):
    return render(request, "admin/tournaments/tournament/_split_preview.html",
                  {"preview": split_preview_from_form(request.POST)})


class _Refused(Exception):
    """The service refused a save: ``fields`` are its reasons by field."""

    def __init__(self, fields: dict[str, Any], refused: Exception | None = None) -> None:
        super().__init__(fields)
        self.fields = fields
        self.refused = refused
