"""What /metrics reads at scrape time (the counters the apps move live in apps/common/metrics.py)."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator

from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from .selectors import celery_oldest_task_age, celery_queue_length, heartbeat_age

log = logging.getLogger(__name__)


class ScrapeCollector(Collector):
    """The Celery queue's length and its oldest task's age, and the worker heartbeat's age,
    read when scraped (a figure that cannot be read is left out: a scrape never fails for one)."""

    def collect(self) -> Iterator[Metric]:
        queued = _read(celery_queue_length)
        if queued is not None:
            yield GaugeMetricFamily("mazziere_celery_queue_length", "Tasks waiting in the broker's default queue.",
                                    value=queued)
        oldest = _read(celery_oldest_task_age)
        if oldest is not None:
            yield GaugeMetricFamily("mazziere_celery_oldest_task_age_seconds",
                                    "Seconds the oldest task waiting in the broker's default queue has waited "
                                    "(0 when none waits): the queue's lag.", value=oldest)
        age = _read(heartbeat_age)
        if age is not None:
            yield GaugeMetricFamily("mazziere_worker_heartbeat_age_seconds",
                                    "Seconds since the worker last ran the tick (every 5 s when all is well).",
                                    value=age)


def _read(selector: Callable[[], float | None]) -> float | None:
    try:
        return selector()
    except Exception as exc:  # one line, no traceback: Prometheus scrapes every few seconds
        log.warning("/metrics left out %s: %r", selector.__name__, exc)
        return None
