"""What /health/ and /metrics read: the database, Redis, the worker's heartbeat, the queue."""

from __future__ import annotations

import json
import time
from datetime import datetime

import redis  # the broker's client (a dependency of channels-redis)
from django.conf import settings
from django.utils import timezone
from redis.backoff import NoBackoff
from redis.retry import Retry

from .models import Heartbeat
from .services import WORKER


def heartbeat_age(*, name: str = WORKER, now: datetime | None = None) -> float | None:
    """Seconds since ``name`` last beat; None when it never did."""
    at = Heartbeat.objects.filter(name=name).values_list("at", flat=True).first()
    if at is None:
        return None
    return max(0.0, ((now or timezone.now()) - at).total_seconds())


_clients: dict[str, redis.Redis] = {}


def redis_client(url: str) -> redis.Redis:
    """One client (and connection pool) per URL for the process: the balancer asks every few
    seconds, so a check reuses a connection; a second at most and no retry, so a Redis that
    hangs makes /health/ slow by a second, not by the client's retries."""
    client = _clients.get(url)
    if client is None:
        client = _clients[url] = redis.Redis.from_url(url, socket_timeout=1, socket_connect_timeout=1,
                                                      retry=Retry(NoBackoff(), 0))
    return client


def redis_url() -> str:
    """The Redis the site uses (channel layer, broker, cache); '' on the embedded defaults."""
    return str(getattr(settings, "REDIS_URL", "") or "")


def _broker_queue() -> tuple[str, str]:
    """The Redis broker's URL and its default queue's key ('' for the URL without a Redis broker)."""
    url = str(getattr(settings, "CELERY_BROKER_URL", "") or "")
    if not url.startswith("redis"):
        return "", ""
    prefix = (getattr(settings, "CELERY_BROKER_TRANSPORT_OPTIONS", {}) or {}).get("global_keyprefix", "")
    return url, f"{prefix}celery"


def celery_queue_length() -> int | None:
    """Tasks waiting in the Redis broker's default queue; None without a Redis broker."""
    url, key = _broker_queue()
    return int(redis_client(url).llen(key)) if url else None


def celery_oldest_task_age(*, now: float | None = None) -> float | None:
    """Seconds the oldest task waiting in the Redis broker's default queue has waited, from the
    ``sent_at`` header every task is sent with (config/celery.py); 0 when none waits; None
    without a Redis broker or when the oldest has no such header (sent by an older process).
    kombu pushes on the list's head and the worker pops its tail: the tail is the oldest, read
    in O(1). A task with a countdown is held by the worker, not the queue: it never counts."""
    url, key = _broker_queue()
    if not url:
        return None
    raw = redis_client(url).lindex(key, -1)
    if raw is None:
        return 0.0
    try:
        sent = float(json.loads(raw)["headers"]["sent_at"])
    except (ValueError, KeyError, TypeError):
        return None
    return max(0.0, (now if now is not None else time.time()) - sent)
