from django.contrib import admin

from apps.common.admin import ReadOnlyAdmin

from .models import AuditLog


@admin.register(AuditLog)
class AuditLogAdmin(ReadOnlyAdmin):
    list_display = ("created", "actor", "action", "target_type", "target_id", "reason", "ip")
    list_select_related = ("actor",)  # nullable: select_related() alone would skip it
    list_filter = ("action", "target_type")
    search_fields = ("action", "target_id", "reason", "actor__username")
    date_hierarchy = "created"
