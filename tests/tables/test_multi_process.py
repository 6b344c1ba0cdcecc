"""Two daphne processes share the channel layer (channels-redis) and the database.

A move made on one server's socket reaches a player whose socket is on the other server,
both ways. Real processes, a real websocket client (``websockets``), pytest-django's own
test database (the servers get a DATABASE_URL pointing at it) and the test run's channel
prefix, so parallel runs never hear each other.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import quote

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import connection, connections
from django.test import Client

from apps.games.engines import get_engine
from apps.matches.models import Match

from .conftest import briscola_table, current_match

ROOT = Path(__file__).resolve().parents[2]
_POSTGRES = settings.DATABASES["default"]["ENGINE"].endswith("postgresql")

pytestmark = [
    pytest.mark.skipif(not (settings.REDIS_URL and _POSTGRES),
                       reason="needs REDIS_URL and PostgreSQL: two daphne processes share the channel layer"),
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(60),
]

BOARD = re.compile(r'<section id="table-\d+-board"[^>]*data-version="(\d+)".*?</section>', re.S)
ACTION = re.compile(r"data-action='([^']*)'")
CARD = re.compile(r'data-card="([^"]+)"')


def session_cookie(user) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def database_url() -> str:
    """A DATABASE_URL for the database this test is using (pytest-django's test_<name>)."""
    d = connection.settings_dict
    auth = quote(d.get("USER") or "", safe="")
    if d.get("PASSWORD"):
        auth += ":" + quote(d["PASSWORD"], safe="")
    host = d.get("HOST") or "127.0.0.1"
    port = f":{d['PORT']}" if d.get("PORT") else ""
    return f"postgres://{auth}@{host}{port}/{quote(d['NAME'], safe='')}"


def start_daphne(port: int, log: Path) -> subprocess.Popen:
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
        "DATABASE_URL": database_url(),
        "REDIS_URL": settings.REDIS_URL,
        # config/settings/test.py would draw a fresh random prefix: share the test's own
        "MAZZIERE_CHANNEL_PREFIX": os.environ["MAZZIERE_CHANNEL_PREFIX"],
    }
    with log.open("wb") as out:
        return subprocess.Popen(
            [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"],
            cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)


def wait_listening(proc: subprocess.Popen, port: int, log: Path, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"daphne on {port} exited {proc.returncode}:\n{log.read_text()[-3000:]}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.1)
    raise AssertionError(f"daphne on {port} did not listen within {timeout} s:\n{log.read_text()[-3000:]}")


def stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=5)


async def open_socket(port: int, table_id: int, cookie: str):
    from websockets.asyncio.client import connect  # the dev extra installs it

    return await connect(
        f"ws://127.0.0.1:{port}/ws/tables/{table_id}/", origin=f"http://127.0.0.1:{port}",
        additional_headers={"Cookie": f"sessionid={cookie}"}, proxy=None, open_timeout=10)


async def board_at(ws, version: int, timeout: float = 8.0) -> tuple[str, str]:
    """Read frames until one whose board shows ``version``; (that frame, its board section)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    seen = []
    while loop.time() < deadline:
        try:
            frame = await asyncio.wait_for(ws.recv(), max(0.05, deadline - loop.time()))
        except TimeoutError:
            break
        board = BOARD.search(frame)
        seen.append(board.group(1) if board else "-")
        if board and int(board.group(1)) == version:
            return frame, board.group(0)
    raise AssertionError(f"no render of version {version} within {timeout} s (board versions seen: {seen})")


async def settled(match_id: int, timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not await sync_to_async(Match.objects.filter(pk=match_id, status=Match.PLAYING).exists)():
            return
        await asyncio.sleep(0.1)


def legal_from(frame: str) -> list[dict]:
    return [json.loads(html.unescape(a)) for a in ACTION.findall(frame)]


async def test_a_move_on_one_daphne_reaches_the_player_on_the_other(tmp_path):
    table, players = await sync_to_async(briscola_table)()
    match = await sync_to_async(current_match)(table)
    first = get_engine(match.game).from_json(match.state).to_act[0]
    a, b = players[first], players[1 - first]  # A moves first
    cookie_a = await sync_to_async(session_cookie)(a)
    cookie_b = await sync_to_async(session_cookie)(b)

    ports = [free_port(), free_port()]
    while ports[1] == ports[0]:
        ports[1] = free_port()
    logs = [tmp_path / f"daphne-{p}.log" for p in ports]
    procs: list[subprocess.Popen] = []
    sockets = []
    try:
        for port, log in zip(ports, logs, strict=True):
            procs.append(start_daphne(port, log))
        for proc, port, log in zip(procs, ports, logs, strict=True):
            await asyncio.to_thread(wait_listening, proc, port, log)

        ws_a = await open_socket(ports[0], table.pk, cookie_a)  # A on daphne #1
        sockets.append(ws_a)
        frame_a, _ = await board_at(ws_a, 0)
        ws_b = await open_socket(ports[1], table.pk, cookie_b)  # B on daphne #2
        sockets.append(ws_b)
        _, board_b0 = await board_at(ws_b, 0)

        # A's move through daphne #1 reaches B's socket on daphne #2
        action = legal_from(frame_a)[0]
        assert action["card"] not in CARD.findall(board_b0)  # hidden from B before it is played
        await ws_a.send(json.dumps({"action": action, "version": 0}))
        frame_b, board_b1 = await board_at(ws_b, 1)
        assert action["card"] in CARD.findall(board_b1), "A's card is not on B's board"
        await board_at(ws_a, 1)  # A sees its own move too

        # B's answer through daphne #2 reaches A's socket on daphne #1
        reply = legal_from(frame_b)[0]
        await ws_b.send(json.dumps({"action": reply, "version": 1}))
        _, board_a2 = await board_at(ws_a, 2)
        assert reply["card"] in CARD.findall(board_a2), "B's card is not on A's board"
        await board_at(ws_b, 2)

        after = await sync_to_async(Match.objects.get)(pk=match.pk)
        assert after.version == 2
        by = await sync_to_async(lambda: list(after.actions.order_by("seq").values_list("seat", "by")))()
        assert by == [(first, "player"), (1 - first, "player")]
    finally:
        for ws in sockets:
            with contextlib.suppress(Exception):  # the servers are stopped next whatever happens
                await asyncio.wait_for(ws.close(), 3)
        if sockets:
            # both players left: the robots finish the match on the servers (well under a second);
            # stopping a server in the middle of that makes daphne wait for its shutdown timeout
            await settled(match.pk)
        for proc in procs:
            await asyncio.to_thread(stop, proc)
        # sync_to_async's worker thread keeps its own connection, which would block dropping the test database
        await sync_to_async(connections.close_all)()
