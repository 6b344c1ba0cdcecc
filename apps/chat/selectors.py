from __future__ import annotations

from .models import ChatMessage


def table_chat_recent(*, table_id: int, limit: int = 50) -> list[ChatMessage]:
    rows = ChatMessage.objects.filter(room=str(table_id), refused=False, hidden=False).order_by("-id")[:limit]
    return list(reversed(rows))


def chat_message_get(*, message_id: int) -> ChatMessage | None:
    return ChatMessage.objects.filter(pk=message_id, refused=False).first()
