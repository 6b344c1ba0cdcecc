"""Infrastructure rows shared by every app."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class IdempotencyRecord(models.Model):
    """The first answer to a request that carried an ``Idempotency-Key`` (platform.md §3.5).

    The unique constraint on (user, key) is what makes concurrent retries safe: the
    second insert waits for the first transaction and then finds its stored answer.
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=100)
    method = models.CharField(max_length=10)
    path = models.CharField(max_length=300)
    body_hash = models.CharField(max_length=64)
    status_code = models.PositiveSmallIntegerField(default=0)
    #: the exact JSON text of the first answer, so a replay is byte-identical
    response_body = models.TextField(blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("idempotency key")
        verbose_name_plural = _("idempotency keys")
        constraints = [models.UniqueConstraint(fields=["user", "key"], name="idempotency_user_key_unique")]

    def __str__(self) -> str:
        return f"{self.user_id}:{self.key}"


class AppendOnlyError(Exception):
    """Ledger, audit and log rows are never edited or deleted: correct with a new row."""


class AppendOnlyQuerySet(models.QuerySet):
    def update(self, **kwargs):
        raise AppendOnlyError(f"{self.model.__name__} rows are append-only: they cannot be updated")

    def delete(self):
        raise AppendOnlyError(f"{self.model.__name__} rows are append-only: they cannot be deleted")


class AppendOnlyModel(models.Model):
    """Model guard for append-only tables; a database trigger backs it (see ``append_only_sql``)."""

    objects = AppendOnlyQuerySet.as_manager()

    class Meta:
        abstract = True

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise AppendOnlyError(f"{type(self).__name__} rows are append-only: they cannot be updated")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise AppendOnlyError(f"{type(self).__name__} rows are append-only: they cannot be deleted")
