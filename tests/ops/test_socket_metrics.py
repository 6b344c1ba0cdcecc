"""/metrics counts every open socket by kind and times a move from its frame to its push,
over the real sockets (channels' WebsocketCommunicator, Redis's channel layer)."""

from __future__ import annotations

import json

import pytest
from asgiref.sync import sync_to_async
from prometheus_client import REGISTRY

from ..chat.test_lobby_socket import lobby
from ..conftest import make_user
from ..tables.conftest import briscola_table, current_match
from ..tables.test_consumer import connect, settled, state_of, until_version

pytestmark = [pytest.mark.django_db(transaction=True)]


def sample(name: str, labels: dict | None = None) -> float:
    return REGISTRY.get_sample_value(name, labels or {}) or 0.0


def open_sockets(kind: str) -> float:
    return sample("mazziere_open_sockets", {"socket": kind})


@pytest.mark.timeout(60)
async def test_a_socket_move_is_timed_and_open_sockets_counted():
    table, players = await sync_to_async(briscola_table)()
    match_id = await sync_to_async(lambda: current_match(table).pk)()
    open_before = open_sockets("TableConsumer")
    timed = sample("mazziere_move_latency_seconds_count")
    comms = {}
    for user in players:
        comm, _, _ = await connect(user, table.pk)
        comms[user.pk] = comm
    await settled(*comms.values())
    assert open_sockets("TableConsumer") == open_before + 2
    match, state = await state_of(match_id)
    seat = state.to_act[0]
    user_id = await sync_to_async(lambda: {ms.number: ms.player_id for ms in match.match_seats.all()})()
    comm = comms[user_id[seat]]
    await comm.send_to(text_data=json.dumps({"action": state.legal_actions(seat)[0], "version": match.version}))
    await until_version(comm, match.version + 1, [], timeout=5)
    assert sample("mazziere_move_latency_seconds_count") == timed + 1
    for comm in comms.values():
        await comm.disconnect()
    assert open_sockets("TableConsumer") == open_before


@pytest.mark.timeout(60)
async def test_every_socket_is_counted_by_kind_not_only_the_match_sockets():
    user = await sync_to_async(make_user)(nickname="Contato_ops")
    before = open_sockets("LobbyChatConsumer")
    comm = await lobby(user)
    assert open_sockets("LobbyChatConsumer") == before + 1
    await comm.disconnect()
    assert open_sockets("LobbyChatConsumer") == before
