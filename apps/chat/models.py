"""Every chat line, stored before it is delivered (platform.md §7.1). Never edited or
deleted: compliance may only hide a line (recorded and audited), which is kept for review."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


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
    hidden_at = models.DateTimeField(null=True, blank=True)
    hidden_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                                  related_name="+")
    refused = models.BooleanField(default=False, help_text="refused (sanction): stored, never delivered")
    flagged = models.BooleanField(default=False, db_index=True)
    #: why it is in the review queue: word-list entries it matched and "report"
    flag_reasons = models.JSONField(default=list, blank=True)
    reports = models.PositiveIntegerField(default=0)
    #: compliance looked at it and took it out of the queue (the line itself never changes)
    reviewed_at = models.DateTimeField(null=True, blank=True)
    reviewed_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                                    related_name="+")
    #: the sanction this line justified: reviewed with an action, not "no action"
    actioned_by = models.ForeignKey("compliance.Sanction", null=True, blank=True, on_delete=models.PROTECT,
                                    related_name="+")
    #: a line from the operator (sent by a staff member, shown as the room's own notice)
    system = models.BooleanField(default=False)

    class Meta:
        verbose_name = _("chat message")
        verbose_name_plural = _("chat messages")
        ordering = ["-created", "-id"]
        indexes = [models.Index(fields=["room", "created"]), models.Index(fields=["sender", "created"])]

    def __str__(self) -> str:
        return f"{self.nickname}@{self.room}: {self.text[:30]}"


class ChatReport(models.Model):
    """A player's report of a line, with the reason: one per line and reporter (platform.md §7.2)."""

    REASONS = ("insult", "cheating", "spam", "contact", "other")

    message = models.ForeignKey(ChatMessage, on_delete=models.PROTECT, related_name="report_rows")
    reporter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    reason = models.CharField(max_length=20)
    note = models.CharField(max_length=200, blank=True)
    created = models.DateTimeField()

    class Meta:
        ordering = ["-created", "-id"]
        constraints = [models.UniqueConstraint(fields=["message", "reporter"], name="chat_report_once")]
        verbose_name = _("chat report")
        verbose_name_plural = _("chat reports")

    def __str__(self) -> str:
        return f"report of {self.message_id} by {self.reporter_id} ({self.reason})"


class FlagWord(models.Model):
    """One entry of the word list that flags (never blocks) a line (platform.md §7.2).

    ``word``: a whole word, ``*`` at its end for any ending (``idiot*``); ``pattern``: a
    regular expression (phone numbers, e-mail addresses, links). Edited by compliance on
    their pages; every change audited."""

    WORD, PATTERN = "word", "pattern"
    CATEGORIES = ("insult", "slur", "contact", "phone", "email", "link", "cheating", "other")

    kind = models.CharField(max_length=10, default=WORD, choices=[(WORD, WORD), (PATTERN, PATTERN)])
    value = models.CharField(max_length=200)
    category = models.CharField(max_length=20, default="insult")
    created = models.DateTimeField()

    class Meta:
        ordering = ["category", "value"]
        constraints = [models.UniqueConstraint(fields=["kind", "value"], name="flag_word_unique")]
        verbose_name = _("word list entry")
        verbose_name_plural = _("word list entries")

    def __str__(self) -> str:
        return self.value
