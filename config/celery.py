"""The Celery app: tasks take ids, are queued on commit and can run twice."""

import os
import time

from celery import Celery
from celery.signals import before_task_publish, task_postrun, task_prerun, worker_init
from django.conf import settings
from django.db import close_old_connections, connections

from apps.common.collector import collector_settle

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")

app = Celery("mazziere")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


def _eager(task) -> bool:
    """An eager task runs inside its caller (a request, a test): its connections are the caller's."""
    return task is None or bool(getattr(task.request, "is_eager", False))


@before_task_publish.connect
def _sent_at(headers=None, **kwargs) -> None:
    """Every task carries the time it was queued (``sent_at``, epoch seconds): /metrics reads
    the oldest waiting task's age from it (``apps.ops.selectors.celery_oldest_task_age``)."""
    if headers is not None:
        headers.setdefault("sent_at", time.time())


@task_prerun.connect
def _connections_before_task(task=None, **kwargs) -> None:
    """A task starts on the worker's kept connection (``CELERY_DB_REUSE_MAX``), like a request:
    one that failed or outlived ``CONN_MAX_AGE`` is replaced; a live one is used without
    ``CONN_HEALTH_CHECKS``' ``SELECT 1`` (an error marks it, and the task's end drops it).
    With the PostgreSQL pool (``CONN_MAX_AGE`` 0) the task's end gives the connection back to
    the process's pool and the next task borrows a kept one: no new backend per task either."""
    if _eager(task):
        return
    close_old_connections()
    for connection in connections.all(initialized_only=True):
        connection.health_check_done = True


@task_postrun.connect
def _connections_after_task(task=None, **kwargs) -> None:
    if not _eager(task):
        close_old_connections()


@worker_init.connect
def _collector_settled(**kwargs) -> None:
    """The worker's modules and tasks, loaded by now, are frozen out of the collector's full
    passes before the pool starts (a full pass held up every robot move of the process)."""
    if settings.SERVER_GC_SETTLE:
        collector_settle()
