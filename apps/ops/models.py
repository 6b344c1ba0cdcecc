"""The worker's heartbeat: a row the tick writes every few seconds, read by /health/."""

from __future__ import annotations

from django.db import models


class Heartbeat(models.Model):
    """``name`` beat last at ``at`` (the Celery worker running the tick: ``worker``)."""

    name = models.CharField(max_length=40, unique=True)
    at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.name} at {self.at:%Y-%m-%d %H:%M:%S}"
