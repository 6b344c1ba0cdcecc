"""What the tables do when a lower floor reports something (docs/layers.md): they own the
sockets and the seats, so matches, compliance and chat never call up here. Connected in
TablesConfig.ready."""

from __future__ import annotations

from apps.compliance.selectors import LOBBY_BLOCKING

from .broadcast import chat_message, send_after_commit, table_group, user_sockets_close
from .services import (
    table_after_match,
    table_match_changed,
    table_seat_abandoned,
    tables_busy,
    tables_conto_left_open,
)


def close_sockets_on_logout(sender, request, user, **kwargs):
    """A logged-out user's sockets are closed (platform.md §10.1, issue: real time)."""
    if user is not None:
        user_sockets_close(user_id=user.pk, code=4401)


def close_sockets_of_sanctioned(sender, sanction_id, player_id, kind, **kwargs):
    """A sanction that keeps a player out of the lobby closes their open sockets (4403);
    ``sanction_started``, after the sanction's commit."""
    if kind in LOBBY_BLOCKING:
        user_sockets_close(user_id=player_id, code=4403)


def push_chat_line(sender, message, **kwargs):
    """A stored table chat line is announced to the table's sockets by id (platform.md §7.1)."""
    if message.table_id is not None:
        chat_message(table_id=message.table_id, message_id=message.pk)


def push_chat_hidden(sender, message, **kwargs):
    """A line hidden by compliance leaves the table's screens (platform.md §7.1)."""
    if message.table_id is not None:
        send_after_commit(table_group(message.table_id), {"type": "chat.hidden", "id": message.pk})


def open_confirmations_after_match(sender, match_id, outcome, **kwargs):
    """A match ended: at its table, the window to confirm the next match opens (§8.1)."""
    table_after_match(match_id=match_id)


def stand_up_abandoned_seat(sender, match_id, player_id, **kwargs):
    """A player's seat was forfeited: they are stood up at the table too."""
    table_seat_abandoned(match_id=match_id, player_id=player_id)


def advance_revision_on_match_change(sender, match_id, version, move=None, **kwargs) -> bool:
    """The table owns its match's push: its revision grows and its sockets are told (True)."""
    return table_match_changed(match_id=match_id, version=version, move=move)


def stand_up_when_conto_left_open(sender, player_id, **kwargs):
    """regulation.md §1.4: sent after the state change's commit."""
    tables_conto_left_open(player_id=player_id)


def busy_when_seated(sender, player_id, **kwargs):
    return tables_busy(player_id=player_id)
