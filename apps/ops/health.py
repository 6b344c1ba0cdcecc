"""The checks behind /health/, as django-health-check plugins: the database (the library's own),
Redis when the site uses it, and the worker's heartbeat (the tick beats it every few seconds)."""

from __future__ import annotations

import dataclasses

import redis
from django.conf import settings
from django.db import DatabaseError
from health_check import Database, HealthCheck
from health_check.exceptions import ServiceUnavailable

from .selectors import heartbeat_age, redis_client, redis_url


@dataclasses.dataclass
class RedisCheck(HealthCheck):
    """Redis answers PING within a second (skipped on the embedded defaults: no Redis)."""

    def check_status(self) -> None:
        url = redis_url()
        if not url:
            return
        try:
            redis_client(url).ping()
        except (redis.RedisError, OSError) as exc:  # one line in the log, no traceback: the balancer asks often
            self.add_error(ServiceUnavailable(f"Redis did not answer: {exc.__class__.__name__}"))

    def __repr__(self) -> str:
        return "redis"


@dataclasses.dataclass
class WorkerCheck(HealthCheck):
    """The tick ran within ``HEALTH_WORKER_STALE_SECONDS`` (the worker and its beat are up)."""

    def check_status(self) -> None:
        try:
            age = heartbeat_age()
        except DatabaseError as exc:  # the view skips this check when the database is down; a race lands here
            self.add_error(ServiceUnavailable(f"its heartbeat could not be read: {exc.__class__.__name__}"))
            return
        stale = float(getattr(settings, "HEALTH_WORKER_STALE_SECONDS", 60))
        if age is None:
            self.add_error(ServiceUnavailable("the worker has never beaten"))
        elif age > stale:
            self.add_error(ServiceUnavailable(f"the worker last beat {int(age)} s ago"))

    def __repr__(self) -> str:
        return "worker"


def checks() -> list[HealthCheck]:
    """Every check, fresh (a plugin keeps its errors)."""
    return [DatabaseCheck(), RedisCheck(), WorkerCheck()]


class DatabaseCheck(Database):
    """The library's database check, named as the balancer reads it."""

    def __repr__(self) -> str:
        return "database"
