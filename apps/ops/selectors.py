"""What /health/ and /metrics read: the database, Redis, the worker's heartbeat, the queue."""

from __future__ import annotations

from datetime import datetime

import redis  # the broker's client (a dependency of channels-redis)
from django.conf import settings
from django.utils import timezone

from .models import Heartbeat
from .services import WORKER


def heartbeat_age(*, name: str = WORKER, now: datetime | None = None) -> float | None:
    """Seconds since ``name`` last beat; None when it never did."""
    at = Heartbeat.objects.filter(name=name).values_list("at", flat=True).first()
    if at is None:
        return None
    return max(0.0, ((now or timezone.now()) - at).total_seconds())


def redis_url() -> str:
    """The Redis the site uses (channel layer, broker, cache); '' on the embedded defaults."""
    return str(getattr(settings, "REDIS_URL", "") or "")


def celery_queue_length() -> int | None:
    """Tasks waiting in the Redis broker's default queue; None without a Redis broker."""
    url = str(getattr(settings, "CELERY_BROKER_URL", "") or "")
    if not url.startswith("redis"):
        return None
    prefix = (getattr(settings, "CELERY_BROKER_TRANSPORT_OPTIONS", {}) or {}).get("global_keyprefix", "")
    client = redis.Redis.from_url(url, socket_timeout=1, socket_connect_timeout=1)
    try:
        return int(client.llen(f"{prefix}celery"))
    finally:
        client.close()
