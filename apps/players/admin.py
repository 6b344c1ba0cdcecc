"""Admin for players: search by nickname and username; compliance renames, audited."""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.core.exceptions import PermissionDenied
from django.db.models import Exists, OuterRef, Q
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _
from django_otp.plugins.otp_static.models import StaticDevice
from django_otp.plugins.otp_totp.models import TOTPDevice

from apps.audit.services import audit_record
from apps.common.admin import ReadOnlyAdmin
from apps.common.errors import DomainError
from apps.common.net import request_ip
from apps.common.roles import COMPLIANCE, FINANCE, STAFF_GROUPS, has_role
from apps.compliance.models import ACCOUNT_SUSPENSION, AUTHORITY_REPORT, Sanction
from apps.wallet.services import ADJUSTMENT_MAX

from .models import NicknameChange, Profile
from .selectors import players_with_balances_all
from .services import nickname_rename, passport_pay, player_adjust

User = get_user_model()


class ProfileInline(admin.StackedInline):
    model = Profile
    can_delete = False
    fields = ("nickname", "nickname_set_at", "passport_paid_at")
    readonly_fields = fields

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


class AdjustmentForm(forms.Form):
    currency = forms.ChoiceField(choices=[("cash", "cash"), ("bonus", "bonus"), ("credits", "credits")])
    amount = forms.IntegerField(help_text="cents for cash and bonus; negative to debit",
                                min_value=-ADJUSTMENT_MAX, max_value=ADJUSTMENT_MAX)
    reason = forms.CharField(max_length=200)


class RenameForm(forms.Form):
    nickname = forms.CharField(max_length=40)
    reason = forms.CharField(max_length=200)


admin.site.unregister(User)


class RoleFilter(admin.SimpleListFilter):
    title = _("role")
    parameter_name = "role"

    def lookups(self, request, model_admin):
        return [("player", _("players")), ("staff", _("staff"))]

    def queryset(self, request, queryset):
        staff = Q(is_superuser=True) | Q(groups__name__in=STAFF_GROUPS)
        if self.value() == "player":
            return queryset.exclude(staff)
        if self.value() == "staff":
            return queryset.filter(staff).distinct()
        return queryset


class StatusFilter(admin.SimpleListFilter):
    """A player's status (platform.md §7.4): suspended or reported by an active sanction."""

    title = _("status")
    parameter_name = "status"

    def lookups(self, request, model_admin):
        return [("active", _("active")), ("suspended", _("suspended")), ("reported", _("reported to the authority")),
                ("sanctioned", _("any active sanction"))]

    def queryset(self, request, queryset):
        active = Sanction.objects.active()
        value = self.value()
        if value == "suspended":
            return queryset.filter(pk__in=active.filter(kind=ACCOUNT_SUSPENSION).values("player"))
        if value == "reported":
            return queryset.filter(pk__in=active.filter(kind=AUTHORITY_REPORT).values("player"))
        if value == "sanctioned":
            return queryset.filter(pk__in=active.values("player"))
        if value == "active":
            return queryset.exclude(pk__in=active.filter(kind__in=(ACCOUNT_SUSPENSION, AUTHORITY_REPORT))
                                    .values("player"))
        return queryset


class BalanceFilter(admin.SimpleListFilter):
    title = _("balances")
    parameter_name = "balance"

    def lookups(self, request, model_admin):
        return [("cash", _("has cash")), ("bonus", _("has bonus")), ("frozen", _("has frozen money")),
                ("empty", _("no cash nor bonus"))]

    def queryset(self, request, queryset):
        value = self.value()
        if value in ("cash", "bonus", "frozen"):
            return queryset.filter(**{f"{value}__gt": 0})
        if value == "empty":
            return queryset.filter(cash=0, bonus=0)
        return queryset


def _money(cents: int | None) -> str:
    cents = cents or 0
    return f"{'-' if cents < 0 else ''}{abs(cents) // 100},{abs(cents) % 100:02d}"


@admin.register(User)
class PlayerAdmin(UserAdmin):
    """The players list with each one's balances and status, sortable and filtered (issue 16)."""

    list_display = ("username", "nickname", "status", "cash_eur", "bonus_eur", "credits_col", "frozen_eur",
                    "is_active", "is_staff", "date_joined", "ledger_link")
    list_filter = (RoleFilter, StatusFilter, BalanceFilter, "is_active", "is_staff", "date_joined")
    search_fields = ("username", "profile__nickname", "email")
    date_hierarchy = "date_joined"
    inlines = [ProfileInline]
    change_form_template = "admin/players/user_change_form.html"

    @admin.display(description=_("nickname"), ordering="profile__nickname")
    def nickname(self, obj):
        profile = getattr(obj, "profile", None)
        return profile.nickname if profile else None

    @admin.display(description=_("status"))
    def status(self, obj):
        if obj.reported:
            return _("reported")
        return _("suspended") if obj.suspended else _("active")

    @admin.display(description=_("cash €"), ordering="cash")
    def cash_eur(self, obj):
        return _money(obj.cash)

    @admin.display(description=_("bonus €"), ordering="bonus")
    def bonus_eur(self, obj):
        return _money(obj.bonus)

    @admin.display(description=_("credits"), ordering="credits")
    def credits_col(self, obj):
        return obj.credits

    @admin.display(description=_("frozen €"), ordering="frozen")
    def frozen_eur(self, obj):
        return _money(obj.frozen)

    @admin.display(description=_("ledger"))
    def ledger_link(self, obj):
        return format_html('<a href="{}">{}</a> · <a href="{}?player={}">{}</a>',
                           reverse("backoffice:player", args=[obj.pk]), _("player page"),
                           reverse("backoffice:ledger"), obj.pk, _("ledger"))

    def get_queryset(self, request):
        active = Sanction.objects.active().filter(player=OuterRef("pk"))
        return (players_with_balances_all(super().get_queryset(request)).select_related("profile")
                .annotate(suspended=Exists(active.filter(kind=ACCOUNT_SUSPENSION)),
                          reported=Exists(active.filter(kind=AUTHORITY_REPORT))))

    def get_urls(self):
        urls = super().get_urls()
        extra = [
            path("<int:user_id>/adjust/", self.admin_site.admin_view(self.adjust_view), name="players_adjust"),
            path("<int:user_id>/passport/", self.admin_site.admin_view(self.passport_view),
                 name="players_passport"),
            path("<int:user_id>/rename/", self.admin_site.admin_view(self.rename_view), name="players_rename"),
        ]
        return extra + urls

    def _form_page(self, request, user, form, title, handler):
        if request.method == "POST" and form.is_valid():
            try:
                handler(form.cleaned_data)
            except DomainError as exc:
                form.add_error(None, exc.detail)
            else:
                messages.success(request, _("%(action)s: done.") % {"action": title})
                return redirect(reverse("admin:auth_user_change", args=[user.pk]))
        context = {**self.admin_site.each_context(request), "form": form, "title": f"{title} — {user}",
                   "target": user, "opts": self.model._meta}
        return render(request, "admin/players/action_form.html", context)

    def adjust_view(self, request, user_id: int):
        if not has_role(request.user, FINANCE):
            raise PermissionDenied
        user = get_object_or_404(User, pk=user_id)
        form = AdjustmentForm(request.POST or None)
        return self._form_page(request, user, form, "Ledger adjustment", lambda data: player_adjust(
            actor=request.user, player=user, currency=data["currency"], amount=data["amount"],
            reason=data["reason"], ip=request_ip(request)))

    def passport_view(self, request, user_id: int):
        if not has_role(request.user, FINANCE):
            raise PermissionDenied
        user = get_object_or_404(User, pk=user_id)
        form = forms.Form(request.POST or None)
        return self._form_page(request, user, form, "Passport (+1000 credits)", lambda data: passport_pay(
            actor=request.user, player=user, ip=request_ip(request)))

    def rename_view(self, request, user_id: int):
        if not has_role(request.user, COMPLIANCE):
            raise PermissionDenied
        user = get_object_or_404(User, pk=user_id)
        form = RenameForm(request.POST or None)
        return self._form_page(request, user, form, "Rename nickname", lambda data: nickname_rename(
            actor=request.user, player=user, nickname=data["nickname"], reason=data["reason"],
            ip=request_ip(request)))

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        audit_record(actor=request.user, action="admin_change" if change else "admin_add", target=obj,
                     target_type="user", reason="admin edit",
                     after={"changed": sorted(form.changed_data)}, ip=request_ip(request))


@admin.register(NicknameChange)
class NicknameChangeAdmin(ReadOnlyAdmin):
    list_display = ("created", "profile", "old", "new", "changed_by", "reason")
    date_hierarchy = "created"
    list_select_related = ("profile", "changed_by")  # changed_by is nullable
    search_fields = ("old", "new", "profile__user__username")


# regulation.md §10: second-factor secrets and recovery codes are never shown in the admin;
# a superuser resets a member's devices through POST /api/staff/{id}/2fa/reset/ (audited)
for _otp_model in (TOTPDevice, StaticDevice):
    if admin.site.is_registered(_otp_model):
        admin.site.unregister(_otp_model)
