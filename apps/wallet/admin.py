"""Ledger screens: read-only. Corrections are new transactions (adjustments), never edits."""

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from apps.common.admin import ReadOnlyAdmin

from .models import Account, Adjustment, CreditRecharge, Entry, Transaction


class EntryInline(admin.TabularInline):
    model = Entry
    fields = ("account", "currency", "amount", "balance_after", "player")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


class AccountKindFilter(admin.SimpleListFilter):
    title = _("owner")
    parameter_name = "owner"

    def lookups(self, request, model_admin):
        return [("player", _("players")), ("house", _("house")), ("escrow", _("escrows"))]

    def queryset(self, request, queryset):
        if self.value() == "player":
            return queryset.filter(player__isnull=False)
        if self.value() in ("house", "escrow"):
            return queryset.filter(code__startswith=f"{self.value()}:")
        return queryset


@admin.register(Account)
class AccountAdmin(ReadOnlyAdmin):
    list_display = ("code", "nickname", "currency", "balance", "allow_negative", "closed")
    list_select_related = ("player__profile",)  # nullable
    search_fields = ("code", "player__username", "player__profile__nickname")
    list_filter = (AccountKindFilter, "currency", "closed")

    @admin.display(description=_("nickname"), ordering="player__profile__nickname")
    def nickname(self, obj):
        profile = getattr(obj.player, "profile", None) if obj.player_id else None
        return profile.nickname if profile else ""


@admin.register(Transaction)
class TransactionAdmin(ReadOnlyAdmin):
    list_display = ("id", "created", "kind", "reference", "created_by", "memo")
    list_select_related = ("created_by",)  # nullable: select_related() alone would skip it
    search_fields = ("kind", "reference", "idempotency_key")
    list_filter = ("kind",)
    date_hierarchy = "created"
    inlines = [EntryInline]


@admin.register(Entry)
class EntryAdmin(ReadOnlyAdmin):
    list_display = ("id", "created", "account", "nickname", "kind", "currency", "amount", "balance_after",
                    "reference")
    list_select_related = ("account", "transaction", "player__profile")  # player is nullable
    search_fields = ("account__code", "transaction__reference", "player__username", "player__profile__nickname")
    list_filter = ("currency", "kind")
    date_hierarchy = "created"

    @admin.display(description=_("nickname"), ordering="player__profile__nickname")
    def nickname(self, obj):
        profile = getattr(obj.player, "profile", None) if obj.player_id else None
        return profile.nickname if profile else ""

    @admin.display(description=_("reference"), ordering="transaction__reference")
    def reference(self, obj):
        return obj.transaction.reference


@admin.register(Adjustment)
class AdjustmentAdmin(ReadOnlyAdmin):
    list_display = ("id", "created", "player", "currency", "amount", "reason", "created_by")
    list_select_related = ("player", "created_by")
    search_fields = ("player__username", "player__profile__nickname", "reason")
    list_filter = ("currency",)
    date_hierarchy = "created"


@admin.register(CreditRecharge)
class CreditRechargeAdmin(ReadOnlyAdmin):
    list_display = ("id", "player", "requested_at", "available_at", "credited_at", "credits")
    list_select_related = ("player",)
    date_hierarchy = "requested_at"
