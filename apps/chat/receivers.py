"""What the lobby room does when a line is stored or hidden, or a sanction is issued
(connected in ChatConfig.ready). Pushes go after commit and never fail the request."""

from __future__ import annotations

from apps.common.push import push_after_commit
from apps.compliance.selectors import LOBBY_BLOCKING

from .consumers import LOBBY_GROUP, lobby_user_group


def push_lobby_line(sender, message, **kwargs) -> None:
    if message.table_id is None and message.room == "lobby":
        push_after_commit(LOBBY_GROUP, {"type": "chat.message", "id": message.pk})


def push_lobby_hidden(sender, message, **kwargs) -> None:
    if message.room == "lobby":
        push_after_commit(LOBBY_GROUP, {"type": "chat.hidden", "id": message.pk})


def close_lobby_sockets_of_sanctioned(sender, sanction_id, player_id, kind, **kwargs) -> None:
    """A sanction that keeps a player out of the lobby closes their lobby room at once (4403);
    ``sanction_started``, after the sanction's commit."""
    if kind in LOBBY_BLOCKING:
        push_after_commit(lobby_user_group(player_id), {"type": "socket.close", "code": 4403})
