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
from django.utils import timezone

from apps.chat.models import ChatMessage
from apps.tables.models import Match, MatchAction, Seat, SocketConnection

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
