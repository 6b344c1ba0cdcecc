from django.contrib import admin

from apps.common.admin import ReadOnlyAdmin

from .models import ChatMessage


@admin.register(ChatMessage)
class ChatMessageAdmin(ReadOnlyAdmin):
    list_display = ("created", "nickname", "room", "text", "ip", "hidden", "refused", "flagged")
    list_filter = ("room", "system", "hidden", "refused", "flagged")
    search_fields = ("nickname", "text", "ip")
    date_hierarchy = "created"
