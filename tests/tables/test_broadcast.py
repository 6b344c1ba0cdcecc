"""Hidden cards never travel in a shared message (platform.md §10.3).

A listener channel joins the groups on the real channel layer (channels-redis when
REDIS_URL is set) and receives everything ``group_send`` delivers during a whole match:
moves by both players, a disconnection with robot moves, a chat line and the settlement.
"""

from __future__ import annotations

import asyncio
import json
import re

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer

from apps.games.engines import get_engine
from apps.matches.models import Match
from apps.matches.services import match_action_apply
from apps.tables import broadcast

from .conftest import briscola_table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(120)]

#: every shared message's type and the only keys it may carry
ALLOWED = {
    "table.changed": {"type", "version", "match", "revision", "move"},  # revision: the table's; move: a flag
    "table.settings": {"type", "changes"},
    "table.notice": {"type", "table", "text", "params"},
    "chat.message": {"type", "id"},
    "socket.close": {"type", "code"},
}


def all_cards(match: Match) -> set[str]:
    engine = get_engine(match.game)
    state = engine.new_game(match.players, options=match.options, seed=int(match.seed), deck=match.deck)
    data = state.to_json()
    cards = set(state.hidden_from(None)) | {data["trump_card"]}
    for hand in data["hands"]:
        cards |= set(hand)
    return cards


def card_codes_in(message: dict, cards: set[str]) -> list[str]:
    text = json.dumps(message)
    return sorted(c for c in cards if re.search(rf"(?<![A-Za-z0-9]){re.escape(c)}(?![A-Za-z0-9])", text))


def play_to_the_end(match_id: int, users: dict[int, object]) -> Match:
    """Both players move through the service; halfway one of them drops (the robot plays on)."""
    from apps.chat.services import chat_post
    from apps.tables.services import socket_connected, socket_disconnected

    match = Match.objects.get(pk=match_id)
    table = match.table_link.table
    for seat, user in users.items():
        socket_connected(table_id=table.pk, user=user, channel_name=f"fake.{seat}")
    chat_post(user=users[0], text="Buona partita", table=table, match=match, ip="10.0.0.9")
    for step in range(500):
        match = Match.objects.get(pk=match_id)
        if match.status != Match.PLAYING:
            return match
        if step == 10:
            socket_disconnected(table_id=table.pk, user=users[1], channel_name="fake.1")
            continue
        state = get_engine(match.game).from_json(match.state)
        seat = state.to_act[0]
        match_action_apply(match_id=match_id, action=state.legal_actions(seat)[0], version=match.version,
                           user=users[seat])
    raise AssertionError("match did not end")


async def test_no_shared_message_carries_a_card_during_a_whole_match():
    table, (alice, bruno) = await sync_to_async(briscola_table)()
    match = await sync_to_async(lambda: table.matches.get())()
    layer = get_channel_layer()
    listener = await layer.new_channel()
    groups = [broadcast.table_group(table.pk), match.group,
              broadcast.user_group(alice.pk), broadcast.user_group(bruno.pk)]
    for group in groups:
        await layer.group_add(group, listener)
    received: list[dict] = []

    async def listen():
        while True:
            received.append(await layer.receive(listener))

    task = asyncio.create_task(listen())  # drains as it goes: a channel's capacity is bounded
    try:
        finished = await sync_to_async(play_to_the_end)(match.pk, {0: alice, 1: bruno})
        await asyncio.sleep(0.5)
    finally:
        task.cancel()
        for group in groups:
            await layer.group_discard(group, listener)
    assert finished.status == Match.FINISHED
    changed = [m for m in received if m["type"] == "table.changed"]
    # the capture saw the whole match: one push per version on the table and on the match group
    assert {m["version"] for m in changed} >= set(range(1, finished.version + 1))
    assert any(m["type"] == "chat.message" for m in received)
    cards = await sync_to_async(all_cards)(finished)
    assert len(cards) == 40
    for message in received:
        assert not card_codes_in(message, cards), message
        assert message["type"] in ALLOWED, message
        assert set(message) <= ALLOWED[message["type"]], message
        if message["type"] == "table.changed":  # plain numbers and a flag, nothing else
            assert all(type(message.get(k, 0)) is int for k in ("version", "revision")), message
            assert message.get("move", True) is True, message
    # every move's push names the table's revision, so a socket that drew it skips the push
    assert all(type(m.get("revision")) is int for m in changed if m.get("move")), changed
