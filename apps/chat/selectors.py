"""Reads of chat: a room's recent lines, a line's context, the review queue and searches."""

from __future__ import annotations

import ipaddress
from typing import Any

from django.db.models import Q, QuerySet

from .models import ChatMessage, ChatReport, FlagWord

LOBBY = "lobby"


def table_chat_recent(*, table_id: int, limit: int = 50) -> list[ChatMessage]:
    return room_chat_recent(room=str(table_id), limit=limit)


def room_chat_recent(*, room: str, limit: int = 50) -> list[ChatMessage]:
    rows = ChatMessage.objects.filter(room=room, refused=False, hidden=False).order_by("-created", "-id")[:limit]
    return list(reversed(rows))


def chat_message_get(*, message_id: int) -> ChatMessage | None:
    return ChatMessage.objects.filter(pk=message_id, refused=False).first()


def chat_message_for_review(*, message_id: int) -> ChatMessage | None:
    """Any line, hidden or refused too (compliance sees everything)."""
    return ChatMessage.objects.select_related("sender", "table", "match", "hidden_by", "reviewed_by") \
        .filter(pk=message_id).first()


def chat_messages_existing(*, ids: list[int]) -> set[int]:
    return set(ChatMessage.objects.filter(pk__in=ids).values_list("pk", flat=True))


def chat_search(*, filters: dict[str, Any]) -> QuerySet:
    """Messages matching the parsed filters of platform.md §7.3 (AND), newest first."""
    rows = ChatMessage.objects.select_related("table").order_by("-created", "-id")
    if filters.get("player") is not None:
        rows = rows.filter(sender_id=filters["player"])
    if filters.get("nickname"):
        rows = rows.filter(nickname__icontains=filters["nickname"])
    if filters.get("table") is not None:
        rows = rows.filter(table_id=filters["table"])
    if filters.get("match") is not None:
        rows = rows.filter(match_id=filters["match"])
    if filters.get("room"):
        rows = rows.filter(room=filters["room"])
    if filters.get("since") is not None:
        rows = rows.filter(created__gte=filters["since"])
    if filters.get("until") is not None:
        rows = rows.filter(created__lt=filters["until"])
    if filters.get("q"):
        rows = rows.filter(text__icontains=filters["q"])
    if filters.get("ip"):
        rows = rows.filter(ip=filters["ip"]) if _looks_like_ip(filters["ip"]) else rows.none()
    if filters.get("flagged") is True:
        rows = rows.filter(flagged=True)
    elif filters.get("flagged") is False:
        rows = rows.filter(flagged=False)
    return rows


def _looks_like_ip(value: str) -> bool:
    try:
        ipaddress.ip_address(value)
    except ValueError:
        return False
    return True


def chat_queue(*, reviewed: bool = False) -> QuerySet:
    """The review queue: flagged lines (reports and the word list) nobody has reviewed yet,
    most reported first, then newest."""
    rows = ChatMessage.objects.filter(flagged=True, reviewed_at__isnull=not reviewed)
    return rows.order_by("-reports", "-created", "-id") if not reviewed else rows.order_by("-reviewed_at", "-id")


def chat_reports_of(*, message_ids: list[int]) -> dict[int, list[ChatReport]]:
    out: dict[int, list[ChatReport]] = {mid: [] for mid in message_ids}
    for report in ChatReport.objects.filter(message_id__in=message_ids).select_related("reporter__profile") \
            .order_by("created", "id"):
        out[report.message_id].append(report)
    return out


def chat_context(*, message: ChatMessage, around: int = 10) -> list[ChatMessage]:
    """The lines of the same room around ``message`` (``around`` before and after), refused and
    hidden ones included: what a reviewer needs to judge it."""
    same_room = ChatMessage.objects.filter(room=message.room)
    before = list(same_room.filter(Q(created__lt=message.created) | Q(created=message.created, id__lt=message.pk))
                  .order_by("-created", "-id")[:around])
    after = list(same_room.filter(Q(created__gt=message.created) | Q(created=message.created, id__gt=message.pk))
                 .order_by("created", "id")[:around])
    return [*reversed(before), message, *after]


def flag_words() -> QuerySet:
    return FlagWord.objects.order_by("category", "kind", "value")


def reported_by(*, user: Any, message_ids: list[int]) -> set[int]:
    """Which of these lines ``user`` already reported (the page greys their report button)."""
    return set(ChatReport.objects.filter(reporter=user, message_id__in=message_ids)
               .values_list("message_id", flat=True))
