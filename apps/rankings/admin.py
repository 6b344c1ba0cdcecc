from django.contrib import admin

from apps.common.admin import ReadOnlyAdmin

from .models import XpAward


@admin.register(XpAward)
class XpAwardAdmin(ReadOnlyAdmin):
    list_display = ("created", "player", "game", "match", "xp", "won")
    list_filter = ("game", "won")
    list_select_related = ("player", "match")
    date_hierarchy = "created"
