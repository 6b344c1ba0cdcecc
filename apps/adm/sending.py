"""Sending the outbox (regulation.md §7.2, §7.3): one message at a time under its row lock,
with backoff when ADM does not answer; sending twice changes nothing."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from apps.common.errors import Conflict, DomainError, keep_after_rollback

from .models import AdmMessage
from .signals import adm_message_answered
from .transport import AdmUnavailable, transport


class AdmUnavailableError(DomainError):
    status = 503
    code = "adm_unavailable"


def backoff(attempts: int) -> dt.timedelta:
    """min(ADM_RETRY_MAX_SECONDS, ADM_RETRY_BASE_SECONDS × 2^(attempts − 1))."""
    base = int(getattr(settings, "ADM_RETRY_BASE_SECONDS", 30))
    top = int(getattr(settings, "ADM_RETRY_MAX_SECONDS", 3600))
    return dt.timedelta(seconds=min(top, base * 2 ** max(0, attempts - 1)))


def _record(message: AdmMessage, answer: dict[str, Any], now: dt.datetime, also: tuple[str, ...] = ()) -> None:
    message.status = AdmMessage.ACCEPTED if answer.get("accepted") else AdmMessage.REJECTED
    message.code = str(answer.get("code") or "")[:32]
    message.reject_code = str(answer.get("reject_code") or "")[:32]
    message.reason = str(answer.get("reason") or "")[:500]
    message.answered_at = now
    message.next_attempt_at = None
    message.last_error = ""
    fields = ["status", "code", "reject_code", "reason", "answered_at", "next_attempt_at", "last_error", *also]
    message.save(update_fields=fields)
    info = {"message_id": str(message.pk), "type": message.type, "reference": message.reference,
            "player_id": message.player_id, "accepted": message.status == AdmMessage.ACCEPTED, "code": message.code}
    transaction.on_commit(lambda: adm_message_answered.send(sender=AdmMessage, **info))


def adm_send(*, message_id: Any, now: dt.datetime | None = None) -> AdmMessage | None:
    """Send one pending, due message. Returns it, or None when there was nothing to do."""
    now = now or timezone.now()
    with transaction.atomic():
        message = AdmMessage.objects.select_for_update(skip_locked=True).filter(pk=message_id).first()
        if message is None or message.status != AdmMessage.PENDING:
            return None
        if message.next_attempt_at is not None and message.next_attempt_at > now:
            return None
        message.attempts += 1
        message.first_sent_at = message.first_sent_at or now
        try:
            answer = transport().send(message)
        except AdmUnavailable as exc:
            message.next_attempt_at = now + backoff(message.attempts)
            message.last_error = str(exc)[:500] or "unavailable"
            message.save(update_fields=["attempts", "first_sent_at", "next_attempt_at", "last_error"])
            return message
        message.save(update_fields=["attempts", "first_sent_at"])
        _record(message, answer, now)
    return message


def adm_send_due(*, now: dt.datetime | None = None, limit: int = 500) -> int:
    """Every pending asynchronous message due now (the tick, ``manage.py adm_send_due``)."""
    now = now or timezone.now()
    ids = list(AdmMessage.objects.filter(status=AdmMessage.PENDING, sync=False, next_attempt_at__lte=now)
               .order_by("next_attempt_at").values_list("pk", flat=True)[:limit])
    return sum(1 for pk in ids if adm_send(message_id=pk, now=now) is not None)


def adm_send_sync(*, type: str, reference: str, payload: dict[str, Any] | None = None,  # noqa: A002
                  player_id: int | None = None) -> AdmMessage:
    """A synchronous message (§7.3), sent inside the request after every local check and before
    any write: 409 ``adm_rejected`` or 503 ``adm_unavailable`` and the caller writes nothing.
    The row is kept whatever the answer: a refusal inside the caller's transaction carries the
    row (``keep_after_rollback``), and a participation ADM never answered is cancelled."""
    now = timezone.now()
    message = AdmMessage.objects.create(type=type, reference=reference, payload=payload or {},
                                        player_id=player_id, sync=True, next_attempt_at=now)
    try:
        answer = transport().send(message)
    except AdmUnavailable as exc:
        AdmMessage.objects.filter(pk=message.pk).update(attempts=1, first_sent_at=now, last_error=str(exc)[:500])
        message.attempts, message.first_sent_at, message.last_error = 1, now, str(exc)[:500]
        error = AdmUnavailableError(_("ADM's central system does not answer: nothing was charged, try again in a "
                                      "few minutes."))
        keep_after_rollback(error, lambda: adm_keep(message, cancel=type == "participation"))
        raise error from exc
    # the row is this request's own (nobody else knows its id yet): one write records the answer
    message.attempts, message.first_sent_at = 1, now
    _record(message, answer, timezone.now(), also=("attempts", "first_sent_at"))
    if message.status == AdmMessage.REJECTED:
        error = Conflict(_("ADM did not validate this: nothing was charged."), code="adm_rejected",
                         adm_reason=message.reason or _("iscrizione non convalidata"))
        keep_after_rollback(error, lambda: adm_keep(message))
        raise error
    return message


def adm_keep(message: AdmMessage, *, cancel: bool = False) -> None:
    """The row as it stood when the caller's work was refused, written again if that work's
    rollback took it; ``cancel``: ADM may hold a participation it never confirmed, so it is told
    to drop it (§7.3)."""
    fields = {f.attname: getattr(message, f.attname) for f in AdmMessage._meta.concrete_fields if not f.primary_key}
    AdmMessage.objects.update_or_create(pk=message.pk, defaults=fields)
    if cancel:  # due now: the tick sends it (the caller's commit, if any, is not this one's)
        AdmMessage.objects.create(type="participation_cancel", reference=message.reference,
                                  player_id=message.player_id, next_attempt_at=timezone.now(),
                                  payload={"participation": str(message.pk), "reason": "unanswered"})
