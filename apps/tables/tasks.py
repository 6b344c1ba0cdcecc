"""Celery tasks for tables: they take ids, re-read the state, and may run twice."""

from celery import shared_task


@shared_task(name="apps.tables.tasks.robot_turns", ignore_result=True)
def robot_turns(match_id: int) -> int:
    from .play import match_robot_turns

    return match_robot_turns(match_id=match_id)


@shared_task(name="apps.tables.tasks.turn_timeout", ignore_result=True)
def turn_timeout(match_id: int, version: int) -> bool:
    from .play import match_turn_timeout

    return match_turn_timeout(match_id=match_id, version=version)


@shared_task(name="apps.tables.tasks.next_match", ignore_result=True)
def next_match(table_id: int) -> bool:
    from django.utils import timezone

    from .models import Table
    from .services import table_start_if_ready

    table = Table.objects.filter(pk=table_id).first()
    if table is None or (table.next_match_at is not None and table.next_match_at > timezone.now()):
        return False  # not due yet (an eager countdown runs at once): the tick or a later task starts it
    return table_start_if_ready(table_id=table_id) is not None
