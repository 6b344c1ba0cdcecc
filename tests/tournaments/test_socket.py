"""The tournament page's socket: it says "changed, version n" after every committed change
(a registration here), and nothing else; an unknown tournament closes with 4404."""

from __future__ import annotations

import asyncio
import json

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from apps.tournaments import services
from apps.tournaments.models import Tournament
from config.asgi import application

from .conftest import create, players

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(120)]
HEADERS = [(b"origin", b"http://testserver"), (b"host", b"testserver")]


async def test_socket_announces_each_change(operator):
    t = await sync_to_async(create)(operator, kind="scheduled", min_players=2)
    [p] = await sync_to_async(players)(1, cash=1000)
    comm = WebsocketCommunicator(application, f"/ws/tournaments/{t['id']}/", headers=HEADERS)
    connected, _ = await comm.connect()
    assert connected
    first = json.loads(await comm.receive_from(timeout=3))
    await sync_to_async(services.tournament_register)(user=p, tournament_id=t["id"])
    pushed = json.loads(await asyncio.wait_for(comm.receive_from(), timeout=5))
    version = await sync_to_async(lambda: Tournament.objects.get(pk=t["id"]).version)()
    assert pushed == {"version": version} and version > first["version"]
    await comm.disconnect()
    gone = WebsocketCommunicator(application, "/ws/tournaments/999999/", headers=HEADERS)
    connected, code = await gone.connect()
    assert not connected or code == 4404
    # end the refused socket's consumer here: left to the loop's teardown, its channel-layer
    # receive was cancelled mid-read and the teardown once hung past the test's timeout (CI)
    await gone.disconnect()


async def test_socket_announces_a_pause_of_the_registrations(operator):
    """Pausing (and resuming) is a change the page shows: its socket says so at once."""
    t = await sync_to_async(create)(operator, max_players=8)
    comm = WebsocketCommunicator(application, f"/ws/tournaments/{t['id']}/", headers=HEADERS)
    connected, _ = await comm.connect()
    assert connected
    first = json.loads(await comm.receive_from(timeout=3))
    await sync_to_async(services.tournament_registrations_pause)(actor=operator, tournament_id=t["id"],
                                                                 reason="maintenance")
    pushed = json.loads(await asyncio.wait_for(comm.receive_from(), timeout=5))
    assert pushed["version"] == first["version"] + 1
    await sync_to_async(services.tournament_registrations_resume)(actor=operator, tournament_id=t["id"],
                                                                  reason="done")
    again = json.loads(await asyncio.wait_for(comm.receive_from(), timeout=5))
    assert again["version"] == pushed["version"] + 1
    await comm.disconnect()
