"""Writing to the ADM outbox (regulation.md §7). Asynchronous messages are queued here, inside
the caller's transaction, and sent after its commit; the sending lives in ``transport`` and
``tasks``."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import transaction
from django.utils import timezone

from apps.common.outage import is_outage

from .models import AdmMessage
from .tasks import adm_send


def adm_enqueue(*, type: str, reference: str, payload: dict[str, Any] | None = None,  # noqa: A002
                player_id: int | None = None, transaction_ids: Iterable[int] = ()) -> AdmMessage:
    """Queue an asynchronous message: a row now, due at once; sent after the caller's commit."""
    message = AdmMessage.objects.create(type=type, reference=reference, payload=payload or {},
                                        player_id=player_id, transaction_ids=list(transaction_ids),
                                        next_attempt_at=timezone.now())
    _after_commit_send(message)
    return message


def _after_commit_send(message: AdmMessage) -> None:
    """The Celery task ``adm_send(message_id)`` after the caller's commit (§7.3); the tick
    sends it later if the broker was unreachable."""
    message_id = str(message.pk)

    def enqueue() -> None:
        try:
            adm_send.delay(message_id)
        except Exception as exc:  # a broker outage: the tick sends it when due
            if not is_outage(exc):
                raise

    transaction.on_commit(enqueue)


def adm_cancel(*, message: AdmMessage, reason: str = "") -> AdmMessage:
    """``participation_cancel`` of an accepted participation (queued, §7.1): a refund, or a
    registration or start that did not happen after ADM had accepted it."""
    return adm_enqueue(type="participation_cancel", reference=message.reference, player_id=message.player_id,
                       payload={"participation": str(message.pk), "code": message.code, "reason": reason})


def adm_reference_set(*, message: AdmMessage, reference: str, transaction_ids: Iterable[int] = ()) -> None:
    """A synchronous message sent before its object had an id takes the object's reference, and
    the ledger transactions it covers (the reconciliation reads them, §7.5)."""
    ids = list(transaction_ids)
    AdmMessage.objects.filter(pk=message.pk).update(reference=reference, **({"transaction_ids": ids} if ids else {}))
    message.reference = reference
