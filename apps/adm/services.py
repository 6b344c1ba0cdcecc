"""Writing to the ADM outbox (regulation.md §7). Asynchronous messages are queued here, inside
the caller's transaction, and sent after its commit; the sending lives in ``transport`` and
``tasks``."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.utils import timezone

from .models import AdmMessage


def adm_enqueue(*, type: str, reference: str, payload: dict[str, Any] | None = None,  # noqa: A002
                player_id: int | None = None, transaction_ids: Iterable[int] = ()) -> AdmMessage:
    """Queue an asynchronous message: a row now, due at once; sent after the caller's commit."""
    message = AdmMessage.objects.create(type=type, reference=reference, payload=payload or {},
                                        player_id=player_id, transaction_ids=list(transaction_ids),
                                        next_attempt_at=timezone.now())
    _after_commit_send(message)
    return message


def _after_commit_send(message: AdmMessage) -> None:
    """Filled by the sending side (tasks.adm_send on commit)."""
