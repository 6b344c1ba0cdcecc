"""/health/ for the balancer and /metrics for Prometheus: answered to localhost (the balancer,
the scraper on the machine) or to a staff member; anyone else reads 404, as if absent."""

from __future__ import annotations

import ipaddress
import logging
import os

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest, multiprocess
from prometheus_client import REGISTRY as DEFAULT_REGISTRY

from apps.common.roles import is_staff_member

from .health import checks
from .metrics import ScrapeCollector

log = logging.getLogger(__name__)


def _allowed(request: HttpRequest) -> bool:
    """The direct peer is this machine (never a forwarded header: anyone can write one), or
    the user is staff."""
    try:
        local = ipaddress.ip_address(request.META.get("REMOTE_ADDR") or "").is_loopback
    except ValueError:
        local = False
    return local or is_staff_member(getattr(request, "user", None))


def _absent() -> JsonResponse:
    return JsonResponse({"detail": "Not found.", "code": "not_found"}, status=404)


@never_cache
@require_GET
def health(request: HttpRequest) -> JsonResponse:
    """200 when the database, Redis and the worker are up; 503 naming what is down (never a
    500: a check that breaks is down). With the database down the worker's heartbeat is not
    read (its status says ``unknown``): only the database is named. ``?only=process``: this
    process's own (the database and Redis), which a balancer asks of each daphne: a stopped
    worker is no reason to take a web process out of rotation."""
    if not _allowed(request):
        return _absent()
    only = request.GET.get("only")
    if only not in (None, "process"):
        return JsonResponse({"detail": "only=process, or nothing for every check.", "code": "validation_error",
                             "fields": {"only": ["process"]}}, status=400)
    results: dict[str, str] = {}
    for check in checks():
        name = repr(check)
        if name == "worker" and only == "process":
            continue
        if name == "worker" and results.get("database", "OK") != "OK":
            results[name] = "unknown: its heartbeat is in the database"  # not read, not named down
            continue
        try:
            check.run_check()
            results[name] = check.pretty_status()
        except Exception as exc:  # never a 500: a check that breaks is down
            log.warning("health check %s failed: %r", name, exc)
            results[name] = f"unavailable: {exc.__class__.__name__}"
    down = [name for name, status in results.items() if status != "OK" and not status.startswith("unknown")]
    return JsonResponse({"status": "down" if down else "ok", "down": down, "checks": results},
                        status=503 if down else 200)


_SCRAPE = ScrapeCollector()


@never_cache
@require_GET
def metrics(request: HttpRequest) -> HttpResponse:
    """The Prometheus text: this process's counters (or every process's, with
    ``PROMETHEUS_MULTIPROC_DIR``), and what is read at scrape time (queue, heartbeat)."""
    if not _allowed(request):
        return _absent()
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
        text = generate_latest(registry)
    else:
        text = generate_latest(DEFAULT_REGISTRY)
    extra = CollectorRegistry()
    extra.register(_SCRAPE)
    return HttpResponse(text + generate_latest(extra), content_type=CONTENT_TYPE_LATEST)
