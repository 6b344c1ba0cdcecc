"""Sanctions (platform.md §7.4). Write them with save(), never queryset.update(): every save
updates the wallet's freeze (apps/compliance/services.py). The spine reads them."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

CHAT_BAN, LOBBY_BAN, ACCOUNT_SUSPENSION, AUTHORITY_REPORT = (
    "chat_ban", "lobby_ban", "account_suspension", "authority_report")
KINDS = (CHAT_BAN, LOBBY_BAN, ACCOUNT_SUSPENSION, AUTHORITY_REPORT)
KIND_CHOICES = [(k, k) for k in KINDS]
DURATION_CHOICES = [("1_month", "1_month"), ("permanent", "permanent")]


class SanctionQuerySet(models.QuerySet):
    def active(self, now=None):
        now = now or timezone.now()
        return self.filter(lifted_at__isnull=True, starts_at__lte=now).filter(
            Q(ends_at__isnull=True) | Q(ends_at__gt=now))


class Sanction(models.Model):
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="sanctions")
    kind = models.CharField(max_length=20, choices=KIND_CHOICES)
    duration = models.CharField(max_length=10, choices=DURATION_CHOICES)
    reason = models.TextField()
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField(null=True, blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT, related_name="+")
    lifted_at = models.DateTimeField(null=True, blank=True)
    lifted_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                                  related_name="+")
    lift_reason = models.TextField(blank=True)
    decision = models.CharField(max_length=10, blank=True)
    #: the chat lines that justify it (ids of chat.ChatMessage; chat sits above compliance)
    message_ids = models.JSONField(default=list, blank=True)
    #: set by the tick once ``ends_at`` has passed, for display; activity never depends on it
    expired_at = models.DateTimeField(null=True, blank=True)

    objects = SanctionQuerySet.as_manager()

    class Meta:
        verbose_name = _("sanction")
        verbose_name_plural = _("sanctions")
        ordering = ["-starts_at", "-id"]

    def __str__(self) -> str:
        return f"{self.kind} for {self.player_id} ({self.duration})"

    @property
    def active(self) -> bool:
        now = timezone.now()
        return self.lifted_at is None and self.starts_at <= now and (self.ends_at is None or now < self.ends_at)
