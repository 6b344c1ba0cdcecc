"""Two daphne behind HAProxy (issue 30, docs/deploy.md): the players of one table reach it
through the balancer and land on different daphne processes; one daphne is killed; its
players' sockets come back through the balancer to the other process and the match goes on,
no move lost and no card shown to the wrong seat. Real processes (HAProxy from Debian's
package, daphne), real websockets, the test's PostgreSQL database and Redis prefix."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import signal
import subprocess
from pathlib import Path

import pytest
from asgiref.sync import sync_to_async

from apps.common.cluster import haproxy_config_write
from apps.games.engines import get_engine
from apps.matches.models import Match

from .conftest import briscola_table, current_match
from .test_multi_process import (
    CARD,
    board_at,
    free_port,
    legal_from,
    open_socket,
    session_cookie,
    start_daphne,
    stop,
    wait_listening,
)
from .test_multi_process import pytestmark as multi_process_marks

HAPROXY = shutil.which("haproxy")
pytestmark = [*multi_process_marks[:2], pytest.mark.timeout(120),
              pytest.mark.skipif(HAPROXY is None, reason="needs Debian's haproxy: apt-get install haproxy (CI does)")]


def start_haproxy(port: int, backends: list[int], tmp_path: Path) -> subprocess.Popen:
    config = haproxy_config_write(tmp_path / "haproxy.cfg", host="127.0.0.1", port=port, backends=backends,
                                  check_seconds=0.5)
    log = (tmp_path / "haproxy.log").open("wb")
    return subprocess.Popen([HAPROXY, "-db", "-f", str(config)], stdout=log, stderr=subprocess.STDOUT,
                            start_new_session=True)


async def closed(ws, timeout: float = 5.0) -> bool:
    """Whether the server side of ``ws`` went away within ``timeout`` (frames drained)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while loop.time() < deadline:
        try:
            await asyncio.wait_for(ws.recv(), max(0.05, deadline - loop.time()))
        except TimeoutError:
            return False
        except Exception:  # ConnectionClosed: the process behind it died
            return True
    return False


def hand_of(match_id: int, seat: int) -> list[str]:
    match = Match.objects.get(pk=match_id)
    return list(get_engine(match.game).from_json(match.state).view(seat).get("hand") or [])


async def test_a_killed_daphne_s_players_come_back_through_the_balancer(tmp_path):
    table, players = await sync_to_async(briscola_table)()
    match = await sync_to_async(current_match)(table)
    first = get_engine(match.game).from_json(match.state).to_act[0]
    seats = {players[first].pk: first, players[1 - first].pk: 1 - first}
    cookies = {u.pk: await sync_to_async(session_cookie)(u) for u in players}

    ports = set()
    while len(ports) < 3:
        ports.add(free_port())
    front, *backends = sorted(ports)
    logs = [tmp_path / f"daphne-{p}.log" for p in backends]
    daphnes = [start_daphne(p, log) for p, log in zip(backends, logs, strict=True)]
    balancer = None
    sockets: dict[int, object] = {}
    try:
        for proc, port, log in zip(daphnes, backends, logs, strict=True):
            await asyncio.to_thread(wait_listening, proc, port, log)
        balancer = start_haproxy(front, backends, tmp_path)
        await asyncio.to_thread(wait_listening, balancer, front, tmp_path / "haproxy.log")
        await asyncio.sleep(1.0)  # both servers checked healthy: leastconn spreads the players
        frames = {}
        for user in players:  # through the balancer, one after the other: one on each daphne
            sockets[user.pk] = await open_socket(front, table.pk, cookies[user.pk])
            frames[user.pk], _ = await board_at(sockets[user.pk], 0)
        mover = players[first]
        action = legal_from(frames[mover.pk])[0]
        await sockets[mover.pk].send(json.dumps({"action": action, "version": 0}))
        for user in players:
            frames[user.pk], _ = await board_at(sockets[user.pk], 1)

        os.killpg(daphnes[0].pid, signal.SIGKILL)  # the first daphne dies, as a crash would
        daphnes[0].wait(timeout=5)
        lost = [pk for pk, ws in sockets.items() if await closed(ws, timeout=6)]
        assert len(lost) == 1, f"leastconn put one player on each daphne (lost: {lost})"
        for pk in lost:  # the page's socket reconnects: through the balancer, to the daphne left
            sockets[pk] = await open_socket(front, table.pk, cookies[pk])
            frames[pk], _ = await board_at(sockets[pk], 1)

        # the match goes on: the second player's move reaches the first, and back
        second = players[1 - first]
        reply = legal_from(frames[second.pk])[0]
        await sockets[second.pk].send(json.dumps({"action": reply, "version": 1}))
        frame, board = await board_at(sockets[mover.pk], 2)
        assert reply["card"] in CARD.findall(board)
        for pk, seat in seats.items():  # nobody's page holds the other seat's hand
            other = await sync_to_async(hand_of)(match.pk, 1 - seat)
            shown = set(CARD.findall((await board_at(sockets[pk], 2))[0] if pk != mover.pk else frame))
            assert not shown & set(other), (pk, shown & set(other))
        after = await sync_to_async(Match.objects.get)(pk=match.pk)
        assert after.version == 2 and after.status == Match.PLAYING
        moves = await sync_to_async(lambda: list(after.actions.order_by("seq").values_list("seq", "seat")))()
        assert moves == [(1, first), (2, 1 - first)]  # no move lost, none twice
    finally:
        for ws in sockets.values():
            with contextlib.suppress(Exception):
                await asyncio.wait_for(ws.close(), 3)
        await asyncio.sleep(0.5)
        for proc in [balancer, *daphnes]:
            if proc is not None:
                await asyncio.to_thread(stop, proc)
