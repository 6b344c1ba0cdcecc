from celery import shared_task

from .tick import tick_run


@shared_task(name="apps.common.tasks.tick", ignore_result=True)
def tick() -> dict:
    return tick_run()
