from django.contrib import admin

from apps.common.admin import ReadOnlyAdmin

from .models import Sanction


@admin.register(Sanction)
class SanctionAdmin(ReadOnlyAdmin):
    list_display = ("player", "kind", "duration", "starts_at", "ends_at", "lifted_at", "created_by")
    list_select_related = ("player", "created_by")  # created_by is nullable
    list_filter = ("kind", "duration", "starts_at")
    date_hierarchy = "starts_at"
    search_fields = ("player__username", "player__profile__nickname", "reason")
