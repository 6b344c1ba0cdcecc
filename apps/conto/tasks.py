from celery import shared_task

from .nightly import conto_nightly


@shared_task(name="apps.conto.tasks.regulation_nightly", ignore_result=True)
def regulation_nightly() -> dict:
    """Celery beat, daily 03:30 Rome (regulation.md §11.1); safe to run twice."""
    return conto_nightly()
