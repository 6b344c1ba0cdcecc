"""What the lobby room does when a line is stored or hidden, or a sanction is issued
(connected in ChatConfig.ready). Pushes go after commit and never fail the request."""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

from apps.compliance.selectors import LOBBY_BLOCKING

from .consumers import LOBBY_GROUP, lobby_user_group

log = logging.getLogger(__name__)


def _send_after_commit(group: str, message: dict) -> None:
    def send() -> None:
        try:
            layer = get_channel_layer()
            if layer is not None:
                async_to_sync(layer.group_send)(group, message)
        except Exception:  # a push never fails the request (platform.md §0.8)
            log.exception("push to %s failed", group)

    transaction.on_commit(send)


def push_lobby_line(sender, message, **kwargs) -> None:
    if message.table_id is None and message.room == "lobby":
        _send_after_commit(LOBBY_GROUP, {"type": "chat.message", "id": message.pk})


def push_lobby_hidden(sender, message, **kwargs) -> None:
    if message.room == "lobby":
        _send_after_commit(LOBBY_GROUP, {"type": "chat.hidden", "id": message.pk})


def close_lobby_sockets_of_sanctioned(sender, instance, created, **kwargs) -> None:
    """A sanction that keeps a player out of the lobby closes their lobby room at once (4403)."""
    if created and instance.kind in LOBBY_BLOCKING:
        _send_after_commit(lobby_user_group(instance.player_id), {"type": "socket.close", "code": 4403})
