"""Pushes after commit: "tournament changed, version n" to its page's sockets, and "the
lobby changed". Never fails a request (platform.md §0.8); each socket renders its own view."""

from __future__ import annotations

from apps.common.push import push_after_commit

LOBBY_GROUP = "tournaments_lobby"


def tournament_group(tournament_id: int) -> str:
    return f"tournament_{tournament_id}"


def tournament_user_group(user_id: int) -> str:
    """Every tournament socket of one player: closed at once by a sanction (receivers.py)."""
    return f"tournament_user_{user_id}"


def player_group(user_id: int) -> str:
    """A player's own socket on every page they have open (/ws/tournaments/me/): told when a
    match of theirs starts, so each page offers the table at once."""
    return f"tournament_player_{user_id}"


def sockets_close(*, user_id: int, code: int) -> None:
    """Close every tournament socket of ``user_id`` once the transaction commits."""
    group = tournament_user_group(user_id)
    push_after_commit(group, {"type": "socket.close", "code": code})


def tournament_changed(*, tournament_id: int, version: int) -> None:
    message = {"type": "tournament.changed", "version": version}
    push_after_commit(tournament_group(tournament_id), message)


def lobby_changed() -> None:
    push_after_commit(LOBBY_GROUP, {"type": "lobby.changed"})


def tables_ready(*, user_ids: list[int], match_id: int) -> None:
    """After commit: "your table is ready" to every open page of each of ``user_ids`` (each
    socket reads and renders its own player's matches: nothing but the id travels)."""
    message = {"type": "tournament.table_ready", "match": match_id}
    groups = [player_group(user_id) for user_id in user_ids]
    push_after_commit(groups, message)
