"""Anti-money-laundering signals and cases (regulation.md §6). Nothing is deleted (§0.4);
signals and case notes and history never change."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from apps.common.models import AppendOnlyModel

LOW_PLAY_WITHDRAWAL, MANY_INSTRUMENTS = "low_play_withdrawal", "many_instruments"
WITHDRAWAL_BEFORE_KYC, REPEATED_LOSSES = "withdrawal_before_kyc", "repeated_losses"
RULES = (LOW_PLAY_WITHDRAWAL, MANY_INSTRUMENTS, WITHDRAWAL_BEFORE_KYC, REPEATED_LOSSES)


class AmlCase(models.Model):
    OPEN, IN_REVIEW = "open", "in_review"
    CLOSED_NO_ACTION, CLOSED_MEASURE, REPORTED = "closed_no_action", "closed_measure", "reported"
    STATUSES = (OPEN, IN_REVIEW, CLOSED_NO_ACTION, CLOSED_MEASURE, REPORTED)
    LIVE = (OPEN, IN_REVIEW)

    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="aml_cases")
    status = models.CharField(max_length=20, choices=[(s, s) for s in STATUSES], default=OPEN)
    summary = models.CharField(max_length=500)
    opened_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    opened_at = models.DateTimeField(default=timezone.now)
    outcome = models.CharField(max_length=12, blank=True, default="")
    measure = models.CharField(max_length=500, blank=True, default="")
    report_date = models.DateField(null=True, blank=True)
    protocol_number = models.CharField(max_length=50, blank=True, default="")
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("AML case")
        verbose_name_plural = _("AML cases")
        ordering = ["-id"]
        constraints = [models.UniqueConstraint(fields=["player"], condition=models.Q(status__in=("open", "in_review")),
                                               name="aml_one_live_case")]

    def __str__(self) -> str:
        return f"AML case {self.pk} of {self.player_id} ({self.status})"


class AmlSignal(models.Model):
    """One per rule, player, counterparty and Rome day (§6.1); ``case`` is set when a case takes it."""

    rule = models.CharField(max_length=32, choices=[(r, r) for r in RULES])
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="aml_signals")
    counterparty = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                                     related_name="+")
    counterparty_key = models.BigIntegerField(default=0)  # the counterparty's id, 0 for none: the key below
    day = models.DateField()
    amount = models.BigIntegerField(default=0)
    details = models.JSONField(default=dict)
    created = models.DateTimeField(default=timezone.now, db_index=True)
    case = models.ForeignKey(AmlCase, null=True, blank=True, on_delete=models.PROTECT, related_name="signals")

    class Meta:
        verbose_name = _("AML signal")
        verbose_name_plural = _("AML signals")
        ordering = ["-id"]
        constraints = [models.UniqueConstraint(fields=["rule", "player", "counterparty_key", "day"],
                                               name="aml_signal_once_a_day")]

    def __str__(self) -> str:
        return f"{self.rule} {self.player_id} {self.day}"


class AmlCaseNote(AppendOnlyModel):
    case = models.ForeignKey(AmlCase, on_delete=models.PROTECT, related_name="notes")
    text = models.CharField(max_length=2000)
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = _("AML case note")
        verbose_name_plural = _("AML case notes")
        ordering = ["id"]


class AmlCaseEvent(AppendOnlyModel):
    """A case's history: opened, in review, closed (with the outcome)."""

    case = models.ForeignKey(AmlCase, on_delete=models.PROTECT, related_name="history")
    status = models.CharField(max_length=20)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    reason = models.CharField(max_length=500, blank=True, default="")
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = _("AML case event")
        verbose_name_plural = _("AML case events")
        ordering = ["id"]
