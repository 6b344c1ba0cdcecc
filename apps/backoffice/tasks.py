"""Celery tasks of the back office: they take ids, re-read the row, and may run twice."""

from celery import shared_task

from .exports import export_run


@shared_task(name="apps.backoffice.tasks.export_run", ignore_result=True)
def export_run_task(export_id: int) -> str:
    export = export_run(export_id=export_id)
    return export.status if export else "missing"
