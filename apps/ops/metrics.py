"""What /metrics reads at scrape time (the counters the apps move live in apps/common/metrics.py)."""

from __future__ import annotations

from collections.abc import Iterator

from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from .selectors import celery_queue_length, heartbeat_age


class ScrapeCollector(Collector):
    """The Celery queue's length and the worker heartbeat's age, read when scraped."""

    def collect(self) -> Iterator[Metric]:
        try:
            queued = celery_queue_length()
        except Exception:  # a scrape never fails for one figure: it is left out
            queued = None
        if queued is not None:
            yield GaugeMetricFamily("mazziere_celery_queue_length", "Tasks waiting in the broker's default queue.",
                                    value=queued)
        age = heartbeat_age()
        if age is not None:
            yield GaugeMetricFamily("mazziere_worker_heartbeat_age_seconds",
                                    "Seconds since the worker last ran the tick (the Celery queue's lag).", value=age)
