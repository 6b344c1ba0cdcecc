"""Celery tasks of the match lifecycle: they take ids, re-read the state, and may run twice.

``services`` enqueues them by name (``ROBOT_TURNS_TASK``, ``TURN_TIMEOUT_TASK``) because
these tasks call ``services``."""

from celery import shared_task

from .services import (
    ROBOT_TURNS_TASK,
    TURN_TIMEOUT_TASK,
    TURN_TIMER_TASK,
    match_robot_turns,
    match_turn_timeout,
    match_turn_timer,
)


@shared_task(name=ROBOT_TURNS_TASK, ignore_result=True)
def robot_turns(match_id: int) -> int:
    return match_robot_turns(match_id=match_id)


@shared_task(name=TURN_TIMER_TASK, ignore_result=True)
def turn_timer(match_id: int, due: str) -> bool:
    return match_turn_timer(match_id=match_id, due=due)


@shared_task(name=TURN_TIMEOUT_TASK, ignore_result=True)
def turn_timeout(match_id: int, version: int) -> bool:
    return match_turn_timeout(match_id=match_id, version=version)
