"""One append-only log of every staff action (platform.md §1, "Audit")."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from apps.common.models import AppendOnlyModel


class AuditLog(AppendOnlyModel):
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                              related_name="+", help_text="null: the system (a task or the tick)")
    action = models.CharField(max_length=60, db_index=True)
    target_type = models.CharField(max_length=40)
    target_id = models.CharField(max_length=60)
    reason = models.TextField(blank=True)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    ip = models.GenericIPAddressField(null=True, blank=True)
    created = models.DateTimeField(db_index=True)

    class Meta:
        verbose_name = _("audit log entry")
        verbose_name_plural = _("audit log entries")
        ordering = ["-created", "-id"]

    def __str__(self) -> str:
        return f"{self.created:%Y-%m-%d %H:%M} {self.action} {self.target_type}:{self.target_id}"
