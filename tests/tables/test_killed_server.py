"""A daphne killed mid-match (SIGKILL, SIGTERM) leaves its connection rows behind: the tick's
lease expiry and the next start of the same server remove them (platform.md §10.1).

Real daphne processes on pytest-django's test database and the test run's channel prefix.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import connections

from apps.common.tick import tick_run
from apps.games.engines import get_engine
from apps.matches.models import MatchAction
from apps.tables.models import SocketConnection

from .conftest import briscola_table, current_match
from .test_multi_process import (
    _POSTGRES,
    board_at,
    database_url,
    free_port,
    open_socket,
    session_cookie,
    stop,
    wait_listening,
)

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [
    pytest.mark.skipif(not (settings.REDIS_URL and _POSTGRES),
                       reason="needs REDIS_URL and PostgreSQL: real daphne processes share the database"),
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(90),
]


def start_named_daphne(port: int, log: Path, name: str) -> subprocess.Popen:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.test", "DATABASE_URL": database_url(),
           "REDIS_URL": settings.REDIS_URL, "MAZZIERE_CHANNEL_PREFIX": os.environ["MAZZIERE_CHANNEL_PREFIX"],
           "MAZZIERE_SERVER_NAME": name}
    with log.open("ab") as out:
        return subprocess.Popen(
            [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"],
            cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)


async def killed_mid_match(tmp_path, how: signal.Signals, name: str):
    """A match whose player to act had their socket on a daphne that was then killed."""
    table, players = await sync_to_async(briscola_table)(turn_seconds=120)
    match = await sync_to_async(current_match)(table)
    mover = players[get_engine(match.game).from_json(match.state).to_act[0]]
    port, log = free_port(), tmp_path / "daphne.log"
    proc = start_named_daphne(port, log, name)
    try:
        await asyncio.to_thread(wait_listening, proc, port, log)
        ws = await open_socket(port, table.pk, await sync_to_async(session_cookie)(mover))
        await board_at(ws, 0)
        row = await sync_to_async(SocketConnection.objects.get)(user=mover)
        assert row.server == name and row.process
        os.killpg(proc.pid, how)
        await asyncio.to_thread(proc.wait, 15)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(ws.close(), 2)
    finally:
        await asyncio.to_thread(stop, proc)
    # the killed server never removed its row: the seat still looks connected
    assert await sync_to_async(SocketConnection.objects.filter(pk=row.pk).exists)()
    seat = await sync_to_async(lambda: match.match_seats.get(player=mover))()
    assert not seat.robot_playing
    return table, match, mover, seat, log


async def test_sigkill_then_the_tick_removes_the_dead_row_and_the_robot_plays(tmp_path, clock):
    clock.set(datetime.now(UTC))
    table, match, mover, seat, _ = await killed_mid_match(tmp_path, signal.SIGKILL, f"kill-{free_port()}")
    clock.set(datetime.now(UTC) + timedelta(seconds=settings.WS_LEASE_SECONDS + 1))
    await sync_to_async(tick_run)()
    assert not await sync_to_async(SocketConnection.objects.filter(user=mover).exists)()
    seat = await sync_to_async(lambda: match.match_seats.get(pk=seat.pk))()
    assert seat.robot_playing and seat.grace_deadline == clock.now + timedelta(seconds=180)
    by = await sync_to_async(lambda: list(MatchAction.objects.filter(match=match).values_list("by", "seat")))()
    assert by[:1] == [("robot", seat.number)]
    await sync_to_async(connections.close_all)()


@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGKILL], ids=["sigterm", "sigkill"])
async def test_a_server_that_starts_again_removes_the_rows_of_its_killed_process(tmp_path, how):
    name = f"restart-{free_port()}"
    table, match, mover, seat, log = await killed_mid_match(tmp_path, how, name)
    port = free_port()
    proc = start_named_daphne(port, log, name)  # the same server, a new process
    try:
        await asyncio.to_thread(wait_listening, proc, port, log)
        assert not await sync_to_async(SocketConnection.objects.filter(user=mover).exists)()
        seat = await sync_to_async(lambda: match.match_seats.get(pk=seat.pk))()
        assert seat.robot_playing and seat.grace_deadline is not None
    finally:
        await asyncio.to_thread(stop, proc)
        await sync_to_async(connections.close_all)()
