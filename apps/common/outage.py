"""A service the site needs is unreachable (Redis: the cache behind the API's throttles, the
channel layer, the Celery broker): the request answers 503 ``service_unavailable``, never a
500 with a traceback, and the outage is logged once, then at most once a minute with how many
requests it refused meanwhile (not a traceback per request while it lasts)."""

from __future__ import annotations

import logging
import threading
import time

import kombu.exceptions
import redis.exceptions

log = logging.getLogger("mazziere.outage")

#: what a client of Redis or of the broker raises when it cannot reach it
OUTAGE_ERRORS: tuple[type[BaseException], ...] = (
    redis.exceptions.ConnectionError, redis.exceptions.TimeoutError, kombu.exceptions.OperationalError,
)
#: seconds between two log lines about one lasting outage
LOG_EVERY = 60.0
#: what a 503 tells the client to wait before trying again (seconds)
RETRY_AFTER = 30

_lock = threading.Lock()
_logged_at: float | None = None
_refused = 0


def is_outage(exc: BaseException | None) -> bool:
    """Whether ``exc`` (or what caused it: a library may wrap the client's error) is an outage."""
    seen = 0
    while exc is not None and seen < 10:
        if isinstance(exc, OUTAGE_ERRORS):
            return True
        exc, seen = exc.__cause__ or exc.__context__, seen + 1
    return False


def outage_log(exc: BaseException, *, where: str) -> None:
    """Log the outage once a minute at most, the first time with its traceback."""
    global _logged_at, _refused
    with _lock:
        _refused += 1
        now = time.monotonic()
        if _logged_at is not None and now - _logged_at < LOG_EVERY:
            return
        first, refused = _logged_at is None, _refused
        _logged_at, _refused = now, 0
    log.error("a service is unreachable (%s: %s): answering 503 service_unavailable (%s; %d request(s) since the "
              "last report)", type(exc).__name__, exc, where, refused, exc_info=exc if first else None)


def outage_reset() -> None:
    """Forget the outage (tests; a new one is logged in full again)."""
    global _logged_at, _refused
    with _lock:
        _logged_at, _refused = None, 0
