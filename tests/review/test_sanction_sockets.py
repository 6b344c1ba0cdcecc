"""One sanction that keeps a player out of the lobby closes every open socket of theirs at once
(platform.md §7.4): the lobby room, the table and the tournament page, each with 4403, and a
new connection to any of them is refused; a chat ban closes none of them."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from apps.compliance.services import sanction_issue
from config.asgi import application

from ..conftest import make_user
from ..tables.conftest import briscola_table
from ..tables.test_consumer import drain, next_output, session_cookie
from ..tournaments.conftest import create

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(120)]


async def socket(user, path: str):
    headers = [(b"origin", b"http://testserver"), (b"host", b"testserver"),
               (b"cookie", f"sessionid={await sync_to_async(session_cookie)(user)}".encode())]
    comm = WebsocketCommunicator(application, path, headers=headers)
    comm.scope["client"] = ("10.4.0.1", 50000)
    connected, _ = await comm.connect(timeout=5)
    assert connected, path
    return comm


async def closed_with(comm) -> int | None:
    for _ in range(10):
        output = await next_output(comm)
        if output is None:
            return None
        if output["type"] == "websocket.close":
            return output["code"]
    return None


async def test_a_lobby_ban_closes_the_lobby_table_and_tournament_sockets_at_once():
    compliance = await sync_to_async(make_user)(group="compliance")
    operator = await sync_to_async(make_user)(group="operator")
    table, (alice, _) = await sync_to_async(briscola_table)()
    t = await sync_to_async(create)(operator, kind="scheduled", min_players=2)
    paths = ["/ws/lobby/", f"/ws/tables/{table.pk}/", f"/ws/tournaments/{t['id']}/"]
    comms = [await socket(alice, path) for path in paths]
    for comm in comms:
        await drain(comm)
    await sync_to_async(sanction_issue)(actor=compliance, player=alice.pk, kind="chat_ban", duration="1_month",
                                        reason="insulti")
    # a chat ban keeps the sockets open (the three listened to at once: each waits seconds of silence)
    assert await asyncio.gather(*(closed_with(comm) for comm in comms)) == [None, None, None]
    await sync_to_async(sanction_issue)(actor=compliance, player=alice.pk, kind="lobby_ban", duration="permanent",
                                        reason="abuso")
    assert [await closed_with(comm) for comm in comms] == [4403, 4403, 4403]
    for path in paths:  # and a new connection is refused
        again = await socket(alice, path)
        assert await closed_with(again) == 4403, path


async def test_anyone_else_still_watches_a_tournament_page():
    operator = await sync_to_async(make_user)(group="operator")
    viewer = await sync_to_async(make_user)(nickname="Spettatore_T")
    t = await sync_to_async(create)(operator, kind="scheduled", min_players=2)
    comm = await socket(viewer, f"/ws/tournaments/{t['id']}/")
    assert await closed_with(comm) is None
    anonymous = WebsocketCommunicator(application, f"/ws/tournaments/{t['id']}/",
                                      headers=[(b"origin", b"http://testserver"), (b"host", b"testserver")])
    connected, _ = await anonymous.connect(timeout=5)
    assert connected
    await anonymous.disconnect()
    await comm.disconnect()
