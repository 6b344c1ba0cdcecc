"""A Celery worker keeps its database connection from one task to the next (issue 15: the
fixup closed it around every task, so each robot move paid a new PostgreSQL backend), yet
drops one that failed, as a request does."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from celery.fixups.django import DjangoWorkerFixup
from django.conf import settings
from django.db import connection

from config import celery as celery_config

pytestmark = pytest.mark.django_db(transaction=True)

WORKER_TASK = SimpleNamespace(request=SimpleNamespace(is_eager=False))
EAGER_TASK = SimpleNamespace(request=SimpleNamespace(is_eager=True))


def run_task(body) -> None:
    """What a worker does around a task: the fixup's hooks and ours, then the task."""
    fixup = DjangoWorkerFixup(celery_config.app)
    fixup.on_task_prerun(sender=WORKER_TASK)
    celery_config._connections_before_task(task=WORKER_TASK)
    try:
        body()
    finally:
        fixup.on_task_postrun(sender=WORKER_TASK)
        celery_config._connections_after_task(task=WORKER_TASK)


def test_the_fixup_is_told_to_reuse_connections():
    assert DjangoWorkerFixup(celery_config.app).db_reuse_max == settings.CELERY_DB_REUSE_MAX >= 1000


def test_tasks_run_on_one_connection_without_a_health_check():
    seen, statements = [], []

    def body():
        with (connection.execute_wrapper(lambda execute, sql, *args: statements.append(sql) or execute(sql, *args)),
              connection.cursor() as cursor):
            cursor.execute("SELECT 42")
        seen.append(connection.connection)

    run_task(body)
    pool = getattr(connection, "pool", None)
    opened = pool.get_stats()["connections_num"] if pool else None
    for _ in range(4):
        run_task(body)
    if pool:  # with the pool (PostgreSQL) a task borrows a kept connection: none is opened for it
        assert pool.get_stats()["connections_num"] == opened
        assert len({id(raw) for raw in seen}) <= settings.DATABASES["default"]["OPTIONS"]["pool"]["max_size"]
    else:
        assert seen[0] is not None and all(raw is seen[0] for raw in seen)  # one connection for all five
    assert statements == ["SELECT 42"] * 5  # no SELECT 1 before each task's work


@pytest.mark.skipif(connection.vendor == "sqlite",
                    reason="SQLite's in-memory test database goes with its connection: nothing to reconnect to")
def test_a_connection_that_failed_is_replaced_before_the_next_task():
    seen = []

    def body(fail: bool = False):
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        seen.append(connection.connection)
        if fail:
            connection.connection.close()  # the server went away under it
            connection.errors_occurred = True  # as Django marks a connection whose query failed

    run_task(lambda: body(fail=True))
    run_task(body)
    assert seen[1] is not seen[0] and not seen[1].closed  # a new connection, and it works


def test_an_eager_task_leaves_its_callers_connection_alone():
    connection.ensure_connection()
    raw = connection.connection
    connection.errors_occurred = True  # would be dropped by a worker's hook
    celery_config._connections_before_task(task=EAGER_TASK)
    celery_config._connections_after_task(task=EAGER_TASK)
    assert connection.connection is raw
    connection.errors_occurred = False
