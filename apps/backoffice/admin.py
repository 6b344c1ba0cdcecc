from django.contrib import admin

from apps.common.admin import ReadOnlyAdmin
from apps.common.roles import FINANCE, has_role

from .models import Export


@admin.register(Export)
class ExportAdmin(ReadOnlyAdmin):
    list_display = ("id", "kind", "format", "status", "rows_done", "rows_total", "requested_by", "created")
    list_filter = ("kind", "format", "status")
    list_select_related = ("requested_by",)
    date_hierarchy = "created"

    def has_view_permission(self, request, obj=None) -> bool:
        return has_role(request.user, FINANCE)

    def has_module_permission(self, request) -> bool:
        return has_role(request.user, FINANCE)
