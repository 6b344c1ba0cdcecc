"""Connected means alive, and no frame crashes a socket (platform.md §10.1, §10.3).

Driven by Channels' WebsocketCommunicator through the real ASGI stack and the configured
channel layer (Redis in CI). The killed-server tests start real daphne processes.
"""

from __future__ import annotations

import asyncio
import json
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings
from django.utils import timezone

from apps.chat.models import ChatMessage
from apps.common.tick import tick_run
from apps.matches.models import Match, MatchAction
from apps.tables.models import Seat, SocketConnection

from .conftest import briscola_table
from .test_consumer import connect, drain, next_output, state_of

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(120)]

NESTED = "[" * 3000 + "]" * 3000
#: (what, the frame: text, or bytes for a binary frame)
BAD_FRAMES: list[tuple[str, str | bytes]] = [
    ("nul in chat", json.dumps({"chat": "ciao\u0000tutti"})),
    ("nul in a move", json.dumps({"action": {"type": "play", "card": "\u0000"}, "version": 0})),
    ("nul in a key", json.dumps({"sync": True, "x\u0000": 1})),
    ("lone surrogate escaped", '{"chat": "ciao \\ud800"}'),
    ("lone surrogate in the text", '{"chat": "ciao \ud800"}'),
    ("invalid utf-8", b'{"chat": "\xff\xfe"}'),
    ("3000 nested brackets", NESTED),
    ("nested move", json.dumps({"action": "[" * 40 + "]" * 40, "version": 0})),
    ("33 levels", json.dumps({"sync": True, "x": json.loads("[" * 32 + "]" * 32)})),
    ("deep inside a move string", json.dumps({"action": '{"type": ' + "[" * 40 + "]" * 40 + "}", "version": 0})),
    ("huge integer", json.dumps({"report": 10**30})),
    ("huge version", json.dumps({"action": {"type": "play", "card": "x"}, "version": 10**30})),
    ("huge version string", json.dumps({"action": {"type": "play", "card": "x"}, "version": "9" * 40})),
    ("infinity", '{"action": {"type": "play"}, "version": 1e999}'),
    ("NaN", '{"action": {"type": "play"}, "version": NaN}'),
    ("non-object: list", "[1, 2]"),
    ("non-object: number", "5"),
    ("non-object: string", '"sync"'),
    ("non-object: null", "null"),
    ("chat not text", json.dumps({"chat": ["a"]})),
    ("chat a number", json.dumps({"chat": 5})),
    ("move a number", json.dumps({"action": 5, "version": 0})),
    ("move a list", json.dumps({"action": [1], "version": 0})),
    ("move a JSON list string", json.dumps({"action": "[1]", "version": 0})),
    ("move without version", json.dumps({"action": {"type": "play"}})),
    ("version in superscript digits", json.dumps({"action": {"type": "play"}, "version": "\u00b2"})),
    ("report in superscript digits", json.dumps({"report": "\u00b2"})),
    ("version a float", json.dumps({"action": {"type": "play"}, "version": 0.0})),
    ("version a bool", json.dumps({"action": {"type": "play"}, "version": False})),
    ("vote a number", json.dumps({"cancel_vote": 1})),
    ("report an object", json.dumps({"report": {"id": 1}})),
    ("unknown frame", json.dumps({"hello": 1})),
]


async def opened(comm) -> None:
    """Wait for the first full render (the first test of a run is slow), then drain the rest."""
    first = await next_output(comm, 15)
    assert first is not None and "data-version" in first.get("text", ""), first
    await drain(comm)


async def test_each_bad_frame_gets_bad_frame_and_the_socket_stays_open(settings):
    """One socket takes every kind of malformed frame in turn (one table: a table per kind
    costs seconds each): each gets ``bad_frame``, the socket answers the next frame, nothing changes."""
    settings.WS_MAX_FRAMES_PER_SECOND = 10_000  # the flood rule has its own test
    table, (alice, bruno) = await sync_to_async(briscola_table)()
    match, _ = await state_of(await sync_to_async(lambda: table.matches.get().pk)())
    comm, ok, _ = await connect(alice, table.pk)
    assert ok
    await opened(comm)
    for name, frame in BAD_FRAMES:
        if isinstance(frame, bytes):
            await comm.send_to(bytes_data=frame)
        else:
            await comm.send_to(text_data=frame)
        reply = await next_output(comm)
        assert reply is not None and reply["type"] == "websocket.send", (name, reply)
        assert 'data-code="bad_frame"' in reply["text"] and 'role="alert"' in reply["text"], (name, reply)
        assert "could not be handled" not in reply["text"], (name, "refused by the last-resort guard, not a check")
        # the socket is still open and still works
        await comm.send_to(text_data=json.dumps({"sync": True}))
        render = await next_output(comm)
        assert render is not None and render["type"] == "websocket.send", (name, render)
        assert "data-version" in render["text"], (name, render)
        await drain(comm, 0.05)
    # nothing changed: no move, no chat line, the connection still counted
    after, _ = await state_of(match.pk)
    assert (after.version, after.state) == (match.version, match.state)
    assert not await sync_to_async(ChatMessage.objects.exists)()
    assert await sync_to_async(SocketConnection.objects.filter(user=alice).count)() == 1
    await comm.disconnect()
    assert not await sync_to_async(SocketConnection.objects.filter(user=alice).exists)()


# -- connected means alive -------------------------------------------------------------------------


async def wait_for(predicate, timeout: float = 5.0) -> bool:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while loop.time() < deadline:
        if await sync_to_async(predicate)():
            return True
        await asyncio.sleep(0.05)
    return False


async def seated_match():
    """A Briscola match with both players' sockets open; (table, match, mover, other, sockets by user).
    Two minutes a turn: the turn timer stays out of the way of the lease's minute."""
    table, (alice, bruno) = await sync_to_async(briscola_table)(turn_seconds=120)
    match, state = await state_of(await sync_to_async(lambda: table.matches.get().pk)())
    users = {0: alice, 1: bruno}
    mover, other = users[state.to_act[0]], users[1 - state.to_act[0]]
    comms = {}
    for user in (mover, other):
        comm, ok, _ = await connect(user, table.pk)
        assert ok
        await opened(comm)
        comms[user.pk] = comm
    return table, match, mover, other, comms


async def test_a_killed_socket_leaves_its_row_then_the_tick_hands_the_seat_to_the_robot_and_grace_runs_out(
        settings, clock):
    """A process killed mid-match runs no disconnect: its row stays until its lease runs
    out; then the tick treats the seat as disconnected (robot at once, 3 minutes of grace)
    and, when the grace runs out, the abandonment rule settles the match."""
    settings.WS_LEASE_RENEW_SECONDS = 0.05  # the live socket renews on every step of the fake clock
    table, match, mover, other, comms = await seated_match()
    comms[mover.pk].future.cancel()  # killed: no websocket.disconnect, no cleanup of any kind
    await asyncio.sleep(0.2)
    assert await sync_to_async(SocketConnection.objects.filter(user=mover).exists)()  # left behind

    clock.advance(seconds=30)  # within the lease: the seat is still the player's
    await asyncio.sleep(0.2)
    await sync_to_async(tick_run)()
    seat = await sync_to_async(lambda: match.match_seats.get(player=mover))()
    assert not seat.robot_playing and await sync_to_async(SocketConnection.objects.filter(user=mover).exists)()

    clock.advance(seconds=31)  # 61 s without a renewal: dead
    assert await wait_for(lambda: SocketConnection.objects.filter(
        user=other, renewed__gte=clock.now - timedelta(seconds=1)).exists())  # the live one renewed
    await sync_to_async(tick_run)()
    assert not await sync_to_async(SocketConnection.objects.filter(user=mover).exists)()
    assert await sync_to_async(SocketConnection.objects.filter(user=other).exists)()
    seat = await sync_to_async(lambda: match.match_seats.get(player=mover))()
    assert seat.robot_playing and seat.grace_deadline == clock.now + timedelta(seconds=180)
    by = await sync_to_async(lambda: list(MatchAction.objects.filter(match=match).values_list("by", "seat")))()
    assert by and by[0] == ("robot", seat.number)  # the robot played the dead seat's turn at once

    clock.advance(seconds=179)  # the grace period is still running
    await asyncio.sleep(0.2)
    await sync_to_async(tick_run)()
    assert await sync_to_async(Match.objects.filter(pk=match.pk, status=Match.PLAYING).exists)()
    clock.advance(seconds=2)
    await asyncio.sleep(0.2)
    await sync_to_async(tick_run)()
    after = await sync_to_async(Match.objects.get)(pk=match.pk)
    assert after.status == Match.FINISHED and after.result["abandoned"] == [seat.number]
    assert after.result["winner"] != seat.number  # two sides: the abandoning side loses at once
    assert not await sync_to_async(Seat.objects.filter(table=table, player=mover).exists)()  # stood up
    await comms[other.pk].disconnect()


@pytest.mark.skipif(not settings.DATABASES["default"]["ENGINE"].endswith("postgresql"),
                    reason="SQLite's shared in-memory test database stays locked after a consumer dies mid-push")
async def test_a_socket_that_dies_of_an_error_removes_its_row_at_once(monkeypatch):
    """A consumer that raises never gets ``disconnect``: its own row goes as it dies."""
    from apps.matches.services import match_action_apply
    from apps.tables.consumers import TableConsumer

    table, match, mover, other, comms = await seated_match()

    async def broken(self, event):
        if self.user.pk == other.pk:
            raise RuntimeError("a render that blows up")

    monkeypatch.setattr(TableConsumer, "table_changed", broken)
    _, state = await state_of(match.pk)
    await sync_to_async(match_action_apply)(match_id=match.pk, action=state.legal_actions(state.to_act[0])[0],
                                            version=0, user=mover)
    assert await wait_for(lambda: not SocketConnection.objects.filter(user=other).exists())
    assert await wait_for(lambda: match.match_seats.get(player=other).robot_playing)
    seat = await sync_to_async(lambda: match.match_seats.get(player=other))()
    assert seat.grace_deadline is not None
    with pytest.raises(RuntimeError):
        await comms[other.pk].wait(timeout=2)
    await comms[mover.pk].disconnect()


async def test_a_live_socket_renews_its_lease_and_writes_a_removed_row_again(settings):
    settings.WS_LEASE_RENEW_SECONDS = 0.1
    table, match, mover, other, comms = await seated_match()
    row = await sync_to_async(SocketConnection.objects.get)(user=mover)
    assert row.process and row.server == settings.SERVER_NAME
    assert await wait_for(lambda: SocketConnection.objects.get(user=mover).renewed > row.renewed)
    # a stalled process whose row the tick removed: the next beat writes it back, the seat is the player's again
    def expire_once() -> bool:
        SocketConnection.objects.filter(user=mover).update(renewed=timezone.now() - timedelta(seconds=61))
        tick_run()
        return not SocketConnection.objects.filter(pk=row.pk).exists()

    # a renewal may land between back-dating and the tick (it beats every 0.1 s here): try again
    removed = False
    for _ in range(20):
        if await sync_to_async(expire_once)():
            removed = True
            break
    assert removed  # removed as dead
    assert await wait_for(lambda: SocketConnection.objects.filter(user=mover).exists())  # and written again
    assert await wait_for(lambda: not match.match_seats.get(player=mover).robot_playing)
    seat = await sync_to_async(lambda: match.match_seats.get(player=mover))()
    assert seat.grace_deadline is None
    for comm in comms.values():
        await comm.disconnect()
    assert not await sync_to_async(SocketConnection.objects.exists)()


def test_a_starting_server_removes_the_rows_of_its_earlier_processes(db, settings):
    from apps.tables.services import socket_process, socket_server_started

    table, (alice, bruno) = briscola_table()
    match = table.matches.get()
    old = SocketConnection.objects.create(channel_name="old", table=table, user=alice, server="web-1:8000",
                                          process="123-dead")
    mine = SocketConnection.objects.create(channel_name="mine", table=table, user=bruno, server="web-1:8000",
                                           process=socket_process())
    sibling = SocketConnection.objects.create(channel_name="sibling", table=table, user=bruno,
                                              server="web-2:8000", process="456-live")
    assert socket_server_started(server="") == 0  # an unnamed server removes nothing
    assert socket_server_started(server="web-1:8000") == 1
    assert set(SocketConnection.objects.values_list("pk", flat=True)) == {mine.pk, sibling.pk}
    del old
    ms = match.match_seats.get(player=alice)
    assert ms.robot_playing and ms.grace_deadline is not None  # alice had no other socket: disconnected
    assert not match.match_seats.get(player=bruno).robot_playing
