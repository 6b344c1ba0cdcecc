"""The table's socket rows (platform.md §10.1): a connection's lease, its renewal, a server's start, a seat's presence told to its match."""

from __future__ import annotations

import os
import secrets
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from apps.matches.services import (
    match_seat_presence,
)

from .. import broadcast, poker
from ..models import Match, SocketConnection, Table

_PROCESS: tuple[int, str] = (0, "")


def socket_process() -> str:
    """This process's identity on its connection rows: the pid and a random boot token
    (a pid is reused after a restart; the token is not)."""
    global _PROCESS
    if _PROCESS[0] != os.getpid():
        _PROCESS = (os.getpid(), f"{os.getpid()}-{secrets.token_hex(6)}")
    return _PROCESS[1]


def seat_connection_changed(*, table_id: int, user: Any) -> None:
    """Recompute whether a seated player is connected and tell the table's match
    (the robot plays for one who is not). Locks the table, then the match."""
    with transaction.atomic():
        table = Table.objects.select_for_update().filter(pk=table_id).first()
        if table is None:
            return
        match = table.matches.select_for_update().filter(status=Match.PLAYING).first()  # table, then match
        if match is None:
            return
        connected = SocketConnection.objects.filter(table_id=table_id, user=user).exists()
        match_seat_presence(match=match, player_id=user.pk, connected=connected)


def socket_connected(*, table_id: int, user: Any, channel_name: str) -> None:
    SocketConnection.objects.update_or_create(
        channel_name=channel_name,
        defaults={"renewed": timezone.now()},
        create_defaults={"table_id": table_id, "user": user, "renewed": timezone.now(),
                         "server": settings.SERVER_NAME, "process": socket_process()})
    broadcast.table_touched(table_id=table_id)
    seat_connection_changed(table_id=table_id, user=user)
    _poker_connection(table_id=table_id, user=user)


def _poker_connection(*, table_id: int, user: Any) -> None:
    """Poker: a player whose last socket closed sits out; one whose socket opens comes back in."""
    with transaction.atomic():
        table = Table.objects.select_for_update().filter(pk=table_id, game__in=poker.HAND_AFTER_HAND).first()
        if table is not None:
            poker.connection_changed(table=table, user=user)


def socket_renew(*, table_id: int, user: Any, channel_name: str) -> None:
    """The socket's heartbeat renews its lease. A row the tick removed meanwhile (this
    process stalled past the lease) is written again: the player takes the seat back."""
    if not SocketConnection.objects.filter(channel_name=channel_name).update(renewed=timezone.now()):
        socket_connected(table_id=table_id, user=user, channel_name=channel_name)


def _connections_remove(rows: QuerySet[SocketConnection]) -> int:
    """Remove dead connection rows; every seat that lost its last one is disconnected (robot, grace)."""
    lost: set[tuple[int, int]] = set()
    for pk, table_id, user_id in rows.values_list("pk", "table_id", "user_id"):
        # the condition again in the delete: a row renewed since the read stays
        if rows.filter(pk=pk).delete()[0]:
            lost.add((table_id, user_id))
    users = get_user_model().objects.in_bulk({user_id for _, user_id in lost})
    by_table: dict[int, list[int]] = {}
    for table_id, user_id in sorted(lost):
        by_table.setdefault(table_id, []).append(user_id)
    for table_id, user_ids in by_table.items():
        # one transaction a table: players lost together (a server killed or restarted) are
        # gone at once, so their match waits for them instead of robots playing it alone
        with transaction.atomic():
            broadcast.table_touched(table_id=table_id)
            for user_id in user_ids:
                seat_connection_changed(table_id=table_id, user=users[user_id])
        for user_id in user_ids:
            _poker_connection(table_id=table_id, user=users[user_id])
    return len(lost)


def socket_connections_expire() -> int:
    """The tick's share (platform.md §10.1): rows whose lease ran out belong to dead sockets."""
    cutoff = timezone.now() - timedelta(seconds=settings.WS_LEASE_SECONDS)
    return _connections_remove(SocketConnection.objects.filter(renewed__lt=cutoff))


def socket_server_started(*, server: str) -> int:
    """A server that starts removes the rows its earlier processes of the same name left behind."""
    if not server:
        return 0
    return _connections_remove(SocketConnection.objects.filter(server=server).exclude(process=socket_process()))


def socket_disconnected(*, table_id: int, user: Any, channel_name: str) -> None:
    SocketConnection.objects.filter(channel_name=channel_name).delete()
    broadcast.table_touched(table_id=table_id)
    seat_connection_changed(table_id=table_id, user=user)
    _poker_connection(table_id=table_id, user=user)
