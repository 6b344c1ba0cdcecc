"""A socket frame far too large (1 MB) gets ``bad_frame`` and a close with 1009, message too big
(issue 25: the server dropped the connection with no close code). Every socket of the site:
the table, the lobby chat, a tournament's and the back office's online figures (one base,
apps/common/sockets.py); and on the wire, through daphne as ``serve`` starts it."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.db import connections
from websockets.asyncio.client import connect as ws_connect
from websockets.exceptions import ConnectionClosed

from apps.common.sockets import CLOSE_TOO_BIG
from config.asgi import application

from ..conftest import make_user
from ..tables.conftest import briscola_table
from ..tables.test_consumer import connect, drain, next_frame, next_output, session_cookie, settled
from ..tables.test_multi_process import _POSTGRES, database_url, free_port, stop, wait_listening
from ..tournaments.conftest import create

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(120)]

ROOT = Path(__file__).resolve().parents[2]
MEGABYTE = "x" * 1_000_000


async def closed_with(comm, timeout: float = 3.0) -> int | None:
    """Read until the application closes the socket; its close code."""
    for _ in range(20):
        message = await next_output(comm, timeout)
        if message is None:
            return None
        if message["type"] == "websocket.close":
            return message.get("code")
    return None


async def socket(path: str, user=None) -> WebsocketCommunicator:
    headers = [(b"origin", b"http://testserver"), (b"host", b"testserver"), (b"accept-language", b"en")]
    if user is not None:
        headers.append((b"cookie", f"sessionid={await sync_to_async(session_cookie)(user)}".encode()))
    comm = WebsocketCommunicator(application, path, headers=headers)
    connected, code = await comm.connect()
    assert connected, code
    return comm


async def test_table_socket_answers_bad_frame_then_closes_with_1009():
    table, (alice, bruno) = await sync_to_async(briscola_table)()
    comm, ok, _ = await connect(alice, table.pk)
    assert ok
    await settled(comm)
    await comm.send_to(text_data="x" * 9000)  # too large for a frame, not absurd: the socket stays
    assert 'data-code="bad_frame"' in await next_frame(comm)
    await comm.send_to(text_data=MEGABYTE)
    reply = await next_frame(comm)
    assert 'data-code="bad_frame"' in reply and 'role="alert"' in reply
    assert await closed_with(comm) == CLOSE_TOO_BIG
    await comm.wait()


async def test_lobby_chat_socket_answers_bad_frame_then_closes_with_1009():
    player = await sync_to_async(make_user)(nickname="Frame_1")
    comm = await socket("/ws/lobby/", player)
    await drain(comm, 0.5)  # whatever the room sends on joining
    await comm.send_to(bytes_data=MEGABYTE.encode())
    assert 'data-code="bad_frame"' in await next_frame(comm)
    assert await closed_with(comm) == CLOSE_TOO_BIG
    await comm.wait()


async def test_tournament_and_back_office_sockets_close_with_1009(operator):
    t = await sync_to_async(create)(operator, kind="scheduled", min_players=2)
    for path, user in ((f"/ws/tournaments/{t['id']}/", None), ("/ws/backoffice/online/?period=today", operator)):
        comm = await socket(path, user)
        await drain(comm, 1.0)  # the first figures or version
        await comm.send_to(text_data=MEGABYTE)
        assert json.loads(await next_frame(comm))["code"] == "bad_frame", path
        assert await closed_with(comm) == CLOSE_TOO_BIG, path
        await comm.wait()


@pytest.mark.skipif(not (settings.REDIS_URL and _POSTGRES),
                    reason="needs REDIS_URL and PostgreSQL: a served daphne on the test database")
async def test_on_the_wire_a_megabyte_frame_gets_bad_frame_and_close_code_1009(tmp_path):
    """daphne as serve starts it: 1 MB reaches the socket (bad_frame, 1009); a frame above daphne's
    own ceiling is refused by daphne with 1009 too, never a dropped connection."""
    table, players = await sync_to_async(briscola_table)()
    cookie = await sync_to_async(session_cookie)(players[0])
    port, log = free_port(), tmp_path / "daphne.log"
    biggest = str(settings.WS_SERVER_MAX_MESSAGE_BYTES)
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.test", "DATABASE_URL": database_url(),
           "REDIS_URL": settings.REDIS_URL, "MAZZIERE_CHANNEL_PREFIX": os.environ["MAZZIERE_CHANNEL_PREFIX"]}
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "--websocket-max-message-size",
             biggest, "--websocket-max-frame-size", biggest, "config.asgi:application"],
            cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        await asyncio.to_thread(wait_listening, proc, port, log)
        for size, says_bad_frame in ((1_048_577, True), (settings.WS_SERVER_MAX_MESSAGE_BYTES + 1, False)):
            ws = await ws_connect(f"ws://127.0.0.1:{port}/ws/tables/{table.pk}/", origin=f"http://127.0.0.1:{port}",
                                  additional_headers={"Cookie": f"sessionid={cookie}"}, proxy=None, max_size=None)
            await ws.recv()  # the table
            frames = []
            with contextlib.suppress(ConnectionClosed):
                # daphne may refuse the frame above its ceiling (1009) while it is still being sent
                await ws.send("x" * size)
                while True:
                    frames.append(await asyncio.wait_for(ws.recv(), 10))
            assert ws.close_code == CLOSE_TOO_BIG, (size, ws.close_code, log.read_text()[-2000:])
            assert any('data-code="bad_frame"' in f for f in frames) == says_bad_frame, frames
    finally:
        await asyncio.to_thread(stop, proc)
        await sync_to_async(connections.close_all)()
