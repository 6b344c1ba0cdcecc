from django.contrib import admin

from apps.common.admin import ReadOnlyAdmin

from .models import ChatMessage, ChatReport, FlagWord


@admin.register(ChatMessage)
class ChatMessageAdmin(ReadOnlyAdmin):
    """Read-only: hiding, review and sanctions are on the review pages (/compliance/)."""

    list_display = ("created", "nickname", "room", "text", "ip", "hidden", "refused", "flagged", "reports")
    list_filter = ("room", "system", "hidden", "refused", "flagged")
    search_fields = ("nickname", "text", "ip")
    date_hierarchy = "created"


@admin.register(ChatReport)
class ChatReportAdmin(ReadOnlyAdmin):
    list_display = ("created", "message", "reporter", "reason")
    list_select_related = ("message", "reporter")
    list_filter = ("reason",)


@admin.register(FlagWord)
class FlagWordAdmin(ReadOnlyAdmin):
    """Edited on /compliance/words/ (every change audited)."""

    list_display = ("value", "kind", "category", "created")
    list_filter = ("kind", "category")
    search_fields = ("value",)
