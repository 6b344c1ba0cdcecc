"""The audit log's screen, and the base for admin screens whose every edit is audited."""

from django.contrib import admin
from django.forms.models import model_to_dict

from apps.common.admin import ReadOnlyAdmin
from apps.common.net import request_ip

from .models import AuditLog
from .services import audit_record


@admin.register(AuditLog)
class AuditLogAdmin(ReadOnlyAdmin):
    list_display = ("created", "actor", "action", "target_type", "target_id", "reason", "ip")
    list_select_related = ("actor",)  # nullable: select_related() alone would skip it
    list_filter = ("action", "target_type")
    search_fields = ("action", "target_id", "reason", "actor__username")
    date_hierarchy = "created"


def _jsonable(data: dict) -> dict:
    return {k: (v if isinstance(v, str | int | float | bool | type(None)) else str(v)) for k, v in data.items()}


class AuditedAdmin(admin.ModelAdmin):
    """Every admin save and delete writes an audit row with before/after (platform.md §1)."""

    def save_model(self, request, obj, form, change):
        before = None
        if change and obj.pk:
            before = _jsonable(model_to_dict(type(obj).objects.get(pk=obj.pk)))
        super().save_model(request, obj, form, change)
        audit_record(actor=request.user, action=f"admin_{'change' if change else 'add'}", target=obj,
                     before=before, after=_jsonable(model_to_dict(obj)), ip=request_ip(request),
                     reason="admin edit")

    def delete_model(self, request, obj):
        before = _jsonable(model_to_dict(obj))
        audit_record(actor=request.user, action="admin_delete", target=obj, before=before,
                     ip=request_ip(request), reason="admin delete")
        super().delete_model(request, obj)
