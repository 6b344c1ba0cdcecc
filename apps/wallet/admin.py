"""Ledger screens: read-only. Corrections are new transactions (adjustments), never edits."""

from django.contrib import admin

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


@admin.register(Account)
class AccountAdmin(ReadOnlyAdmin):
    list_display = ("code", "currency", "balance", "allow_negative", "closed")
    search_fields = ("code", "player__username", "player__profile__nickname")
    list_filter = ("currency", "closed")


@admin.register(Transaction)
class TransactionAdmin(ReadOnlyAdmin):
    list_display = ("id", "created", "kind", "reference", "created_by", "memo")
    list_select_related = ("created_by",)  # nullable: select_related() alone would skip it
    search_fields = ("kind", "reference", "idempotency_key")
    list_filter = ("kind",)
    inlines = [EntryInline]


@admin.register(Entry)
class EntryAdmin(ReadOnlyAdmin):
    list_display = ("id", "created", "account", "currency", "amount", "balance_after")
    search_fields = ("account__code",)
    list_filter = ("currency",)


@admin.register(Adjustment)
class AdjustmentAdmin(ReadOnlyAdmin):
    list_display = ("id", "created", "player", "currency", "amount", "reason", "created_by")
    search_fields = ("player__username", "player__profile__nickname", "reason")


@admin.register(CreditRecharge)
class CreditRechargeAdmin(ReadOnlyAdmin):
    list_display = ("id", "player", "requested_at", "available_at", "credited_at", "credits")
