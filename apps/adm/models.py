"""The ADM outbox (regulation.md §7.1): each message to the central system is a row, kept
forever (§0.4). Payloads are Mazziere's own; a real transport maps them to PGDA and PACG."""

from __future__ import annotations

import uuid

from django.db import models
from django.utils.translation import gettext_lazy as _


class AdmMessage(models.Model):
    PENDING, ACCEPTED, REJECTED = "pending", "accepted", "rejected"
    STATUSES = [(PENDING, PENDING), (ACCEPTED, ACCEPTED), (REJECTED, REJECTED)]

    #: also the idempotency key the transport sends
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    type = models.CharField(max_length=24)
    reference = models.CharField(max_length=100)
    payload = models.JSONField(default=dict)
    #: the ledger transactions the message covers (ids: the outbox sits below the wallet)
    transaction_ids = models.JSONField(default=list, blank=True)
    #: the player the message is about, if any (a user id: the outbox sits below the players)
    player_id = models.IntegerField(null=True, blank=True, db_index=True)
    sync = models.BooleanField(default=False)
    status = models.CharField(max_length=10, choices=STATUSES, default=PENDING)
    attempts = models.PositiveIntegerField(default=0)
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    last_error = models.CharField(max_length=500, blank=True, default="")
    code = models.CharField(max_length=32, blank=True, default="")
    reject_code = models.CharField(max_length=32, blank=True, default="")
    reason = models.CharField(max_length=500, blank=True, default="")
    created = models.DateTimeField(auto_now_add=True, db_index=True)
    first_sent_at = models.DateTimeField(null=True, blank=True)
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("ADM message")
        verbose_name_plural = _("ADM messages")
        ordering = ["-created"]
        indexes = [models.Index(fields=["status", "next_attempt_at"], name="adm_due"),
                   models.Index(fields=["type", "reference"], name="adm_type_reference")]

    def __str__(self) -> str:
        return f"{self.type} {self.reference} ({self.status})"
