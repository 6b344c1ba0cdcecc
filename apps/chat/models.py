"""Every chat line, stored before it is delivered (platform.md §7.1). Never edited or
deleted: compliance may only hide a line, which is kept for review."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class ChatMessage(models.Model):
    sender = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="chat_messages")
    nickname = models.CharField(max_length=16, help_text="the sender's nickname when the line was written")
    room = models.CharField(max_length=20, db_index=True, help_text="'lobby' or the table id")
    table = models.ForeignKey("tables.Table", null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    match = models.ForeignKey("matches.Match", null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    text = models.TextField()
    ip = models.GenericIPAddressField(null=True, blank=True)
    created = models.DateTimeField(db_index=True)
    hidden = models.BooleanField(default=False)
    refused = models.BooleanField(default=False, help_text="refused (sanction): stored, never delivered")
    flagged = models.BooleanField(default=False, db_index=True)
    reports = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["-created", "-id"]

    def __str__(self) -> str:
        return f"{self.nickname}@{self.room}: {self.text[:30]}"
