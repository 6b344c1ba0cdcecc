from celery import shared_task

from .sending import adm_send as adm_send_service


@shared_task(name="apps.adm.tasks.adm_send", ignore_result=True)
def adm_send(message_id: str) -> None:
    """Takes the id, re-reads the row under its lock; running twice changes nothing (§7.3)."""
    adm_send_service(message_id=message_id)
