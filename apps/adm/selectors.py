"""Reading the ADM outbox."""

from __future__ import annotations

import datetime as dt
from typing import Any
from zoneinfo import ZoneInfo

from django.db.models import QuerySet
from django.utils import timezone

from .models import AdmMessage

ROME = ZoneInfo("Europe/Rome")


def adm_accepted(*, type: str, reference: str) -> bool:  # noqa: A002
    """Whether ADM accepted a message of this type and reference (e.g. ``account_open``
    before a KYC approval, §1.7)."""
    return AdmMessage.objects.filter(type=type, reference=reference, status=AdmMessage.ACCEPTED).exists()


def _day_bounds(day: dt.date) -> tuple[dt.datetime, dt.datetime]:
    start = dt.datetime.combine(day, dt.time(0), tzinfo=ROME)
    return start, dt.datetime.combine(day + dt.timedelta(days=1), dt.time(0), tzinfo=ROME)


def adm_day_summary(*, day: dt.date) -> dict[str, Any]:
    """regulation.md §7.5: the messages created that Rome day: sent (tried at least once),
    accepted, rejected, pending (no final answer), per type."""
    start, end = _day_bounds(day)
    rows = AdmMessage.objects.filter(created__gte=start, created__lt=end)
    by_type: dict[str, dict[str, int]] = {}
    totals = {"total": 0, "sent": 0, "accepted": 0, "rejected": 0, "pending": 0}
    for type_, status, attempts in rows.values_list("type", "status", "attempts"):
        row = by_type.setdefault(type_, {"total": 0, "accepted": 0, "rejected": 0, "pending": 0})
        row["total"] += 1
        row[status] += 1
        totals["total"] += 1
        totals[status] += 1
        totals["sent"] += 1 if attempts else 0
    return {"day": day.isoformat(), **totals, "by_type": dict(sorted(by_type.items()))}


def adm_messages(*, day: dt.date | None = None, status: str | None = None, type: str | None = None,  # noqa: A002
                 reference: str | None = None) -> QuerySet[AdmMessage]:
    rows = AdmMessage.objects.order_by("-created")
    if day is not None:
        start, end = _day_bounds(day)
        rows = rows.filter(created__gte=start, created__lt=end)
    if status:
        rows = rows.filter(status=status)
    if type:
        rows = rows.filter(type=type)
    if reference:
        rows = rows.filter(reference=reference)
    return rows


def adm_message_as_dict(message: AdmMessage) -> dict[str, Any]:
    return {"id": str(message.pk), "type": message.type, "reference": message.reference, "status": message.status,
            "attempts": message.attempts, "code": message.code or None, "reject_code": message.reject_code or None,
            "reason": message.reason or None, "created": timezone.localtime(message.created).isoformat(),
            "answered_at": timezone.localtime(message.answered_at).isoformat() if message.answered_at else None}


def adm_covered_transactions(*, transaction_ids: list[int]) -> dict[int, str]:
    """Per transaction id, the best status of a message that covers it (accepted first)."""
    found: dict[int, str] = {}
    rank = {AdmMessage.ACCEPTED: 0, AdmMessage.PENDING: 1, AdmMessage.REJECTED: 2}
    wanted = set(transaction_ids)
    for ids, status in AdmMessage.objects.exclude(transaction_ids=[]).values_list("transaction_ids", "status"):
        for txn in ids or []:
            if txn in wanted and (txn not in found or rank[status] < rank[found[txn]]):
                found[txn] = status
    return found


def movement_codes(references: list[str]) -> dict[str, str]:
    """ADM's movement code per reference (``deposit:{id}``, ``withdrawal:{id}``, ``adjustment:{id}``),
    once accepted (regulation.md §7.4)."""
    return dict(AdmMessage.objects.filter(type="movement", reference__in=references, status=AdmMessage.ACCEPTED)
                .values_list("reference", "code"))


#: the ledger kinds whose ADM code is a movement's (§7.4); buy-ins and stakes carry participations
MOVEMENT_KINDS = ("deposit", "withdrawal_request", "withdrawal_return", "withdrawal_paid", "adjustment")


def participation_codes(*, player_ids: list[int], transaction_ids: list[int]) -> dict[int, dict[str, str]]:
    """Per ledger transaction (a buy-in, a stake) the accepted participation covering it: its
    code and the session's (regulation.md §7.4)."""
    wanted = set(transaction_ids)
    found: dict[int, dict[str, str]] = {}
    if not wanted:
        return found
    rows = AdmMessage.objects.filter(type="participation", status=AdmMessage.ACCEPTED, player_id__in=player_ids)
    for ids, code, payload in rows.exclude(transaction_ids=[]).values_list("transaction_ids", "code", "payload"):
        for txn in ids or []:
            if txn in wanted:
                found[txn] = {"code": code, "session_code": (payload or {}).get("session_code") or ""}
    return found
