"""The ops app's one write: the worker's heartbeat."""

from __future__ import annotations

from django.utils import timezone

from .models import Heartbeat

WORKER = "worker"


def heartbeat_beat(*, name: str = WORKER) -> int:
    """Record that ``name`` is alive now (one statement; the tick calls it)."""
    Heartbeat.objects.update_or_create(name=name, defaults={"at": timezone.now()})
    return 0
