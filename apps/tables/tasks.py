"""Celery tasks for tables: they take ids, re-read the state, and may run twice.

``services`` enqueues them by name (``NEXT_MATCH_TASK``) because these tasks call it."""

from celery import shared_task

from .services import NEXT_MATCH_TASK, table_next_match_due


@shared_task(name=NEXT_MATCH_TASK, ignore_result=True)
def next_match(table_id: int) -> bool:
    return table_next_match_due(table_id=table_id)
