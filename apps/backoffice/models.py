"""Exports run by finance: one row per requested file, with its progress (rows done of total)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Export(models.Model):
    LEDGER, PLAYERS, TOURNAMENT = "ledger", "players", "tournament_results"
    KINDS = [(LEDGER, _("ledger")), (PLAYERS, _("players")), (TOURNAMENT, _("tournament results"))]
    CSV, XLSX = "csv", "xlsx"
    FORMATS = [(CSV, "CSV"), (XLSX, "XLSX")]
    PENDING, RUNNING, DONE, FAILED = "pending", "running", "done", "failed"
    STATUSES = [(PENDING, _("waiting")), (RUNNING, _("running")), (DONE, _("ready")), (FAILED, _("failed"))]

    kind = models.CharField(_("kind"), max_length=20, choices=KINDS)
    format = models.CharField(_("format"), max_length=4, choices=FORMATS)
    #: the filters, as typed by the requester (re-read by the task)
    params = models.JSONField(_("filters"), default=dict, blank=True)
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+",
                                     verbose_name=_("requested by"))
    status = models.CharField(_("status"), max_length=8, choices=STATUSES, default=PENDING)
    rows_total = models.PositiveIntegerField(_("rows in all"), default=0)
    rows_done = models.PositiveIntegerField(_("rows written"), default=0)
    file_name = models.CharField(_("file"), max_length=200, blank=True)
    error = models.CharField(_("error"), max_length=200, blank=True)
    created = models.DateTimeField(_("requested at"), auto_now_add=True)
    finished = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        ordering = ["-id"]
        verbose_name = _("export")
        verbose_name_plural = _("exports")

    def __str__(self) -> str:
        return f"export {self.pk} ({self.kind}.{self.format})"

    @property
    def params_text(self) -> str:
        return ", ".join(f"{k}: {v}" for k, v in sorted(self.params.items())) or "—"

    @property
    def percent(self) -> int:
        return 100 if self.status == self.DONE else (self.rows_done * 100 // self.rows_total if self.rows_total else 0)
