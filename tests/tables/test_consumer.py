"""The table socket, driven by Channels' WebsocketCommunicator through the real ASGI stack
(origin check, session login) and the configured channel layer (Redis in CI)."""

from __future__ import annotations

import asyncio
import json
import re

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from apps.games.engines import get_engine
from apps.matches.models import Match, MatchAction
from config.asgi import application

from ..conftest import make_user, sanction_give
from .conftest import briscola_table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(120)]
VERSION = re.compile(r'id="table-\d+-board"[^>]*data-version="(\d+)"')


def session_cookie(user) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


async def connect(user, table_id, origin="http://testserver"):
    headers = [(b"origin", origin.encode()), (b"host", b"testserver")]
    if user is not None:
        headers.append((b"cookie", f"sessionid={await sync_to_async(session_cookie)(user)}".encode()))
    comm = WebsocketCommunicator(application, f"/ws/tables/{table_id}/", headers=headers)
    comm.scope["client"] = (f"10.2.0.{getattr(user, 'pk', 0) % 250 + 1}", 50000)  # the socket peer
    connected, code = await comm.connect()
    return comm, connected, code


async def next_output(comm, timeout=3.0):
    """The next message from the application, or None; never cancels the application
    (asgiref cancels it when ``receive_output`` times out)."""
    if await comm.receive_nothing(timeout=timeout, interval=0.01):
        return None
    return await comm.receive_output()


async def next_frame(comm, timeout=3.0) -> str | None:
    output = await next_output(comm, timeout)
    return None if output is None else output.get("text", "")


async def drain(comm, timeout=0.3) -> list[str]:
    frames = []
    while (frame := await next_frame(comm, timeout)) is not None:
        frames.append(frame)
    return frames


async def until_version(comm, version: int, frames: list[str], timeout=5.0) -> None:
    """Read frames until the board shows ``version`` (a full render for that version)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while loop.time() < deadline:
        frame = await next_frame(comm, max(0.05, deadline - loop.time()))
        if frame is None:
            break
        frames.append(frame)
        found = VERSION.search(frame)
        if found and int(found.group(1)) >= version:
            return
    # what did come, so a failure in CI says whether a render was late, refused or missed
    seen = [(m.group(1) if (m := VERSION.search(f)) else re.sub(r"\s+", " ", f)[:160]) for f in frames[-4:]]
    raise AssertionError(f"no render of version {version} within {timeout} s; the last frames: {seen}")


async def settled(*comms) -> None:
    """Each socket's first render, however long a fresh process takes to draw it, then
    quiet: a fixed short drain let a frame sent next queue behind a slow connect (the
    chat tests failed on a loaded machine, with or without the database health check)."""
    for comm in comms:
        await until_version(comm, 0, [], timeout=30.0)
    for comm in comms:
        await drain(comm)


async def frames_with(comm, text: str, timeout: float = 10.0) -> list[str]:
    """Frames up to the first that holds ``text`` (waiting at most ``timeout``): those holding it."""
    seen: list[str] = []
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while loop.time() < deadline and not any(text in f for f in seen):
        frame = await next_frame(comm, max(0.05, deadline - loop.time()))
        if frame is None:
            break
        seen.append(frame)
    return [f for f in seen if text in f]


def hidden_leaks(frame: str, hidden: list[str]) -> list[str]:
    return [c for c in hidden if re.search(rf"(?<![A-Za-z0-9]){re.escape(c)}(?![A-Za-z0-9])", frame)]


@sync_to_async
def state_of(match_id):
    match = Match.objects.get(pk=match_id)
    return match, get_engine(match.game).from_json(match.state)


@sync_to_async
def replay_states(match_id):
    """Every state of the match by version, replayed from the log alone."""
    match = Match.objects.get(pk=match_id)
    engine = get_engine(match.game)
    state = engine.new_game(match.players, options=match.options, seed=int(match.seed), deck=match.deck)
    states = {0: engine.from_json(state.to_json())}
    for entry in MatchAction.objects.filter(match=match).order_by("seq"):
        state.apply(entry.seat, entry.action)
        states[entry.version] = engine.from_json(state.to_json())
    return states


def check_frames(frames_by_version: list[tuple[int, str]], states, seat):
    for version, frame in frames_by_version:
        hidden = states[version].hidden_from(seat)
        leaks = hidden_leaks(frame, hidden)
        assert not leaks, f"seat {seat} saw hidden {leaks} at version {version}"


def versions_of(frames: list[str]) -> list[tuple[int, str]]:
    out = []
    current = 0
    for frame in frames:
        found = VERSION.search(frame)
        if found:
            current = int(found.group(1))
        out.append((current, frame))
    return out


async def test_two_players_play_a_whole_match_while_a_spectator_watches():
    table, (alice, bruno) = await sync_to_async(briscola_table)()
    watcher = await sync_to_async(make_user)(nickname="Spettatore")
    match, state = await state_of(await sync_to_async(lambda: table.matches.get().pk)())
    users = {0: alice, 1: bruno}
    comms = {}
    frames: dict[object, list[str]] = {0: [], 1: [], None: []}
    for key, user in ((0, alice), (1, bruno), (None, watcher)):
        comm, ok, _ = await connect(user, table.pk)
        assert ok
        comms[key] = comm
        frames[key] += await drain(comm)
    moves = 0
    while True:
        match, state = await state_of(match.pk)
        if match.status != "playing":
            break
        seat = state.to_act[0]
        action = state.legal_actions(seat)[0]
        # as htmx sends a form: the action JSON-encoded, the version a numeric string
        await comms[seat].send_to(text_data=json.dumps({"action": json.dumps(action), "version": str(match.version),
                                                        "HEADERS": {"HX-Request": "true"}}))
        for key, comm in comms.items():
            await until_version(comm, match.version + 1, frames[key])
        moves += 1
    assert match.status == "finished" and moves >= 40
    states = await replay_states(match.pk)
    assert states[match.version].to_json() == match.state  # replay from the log equals the live match
    assert states[match.version].result() == match.result
    for key in (0, 1, None):
        check_frames(versions_of(frames[key]), states, key)
    # the detector can fail: seat 0's own frames do show cards that are hidden from seat 1
    assert any(hidden_leaks(f, states[v].hidden_from(1)) for v, f in versions_of(frames[0]))
    # the spectator never got controls; players did
    assert not any("ws-send class=\"action\"" in f for f in frames[None])
    assert any("ws-send class=\"action\"" in f for f in frames[0])
    for comm in comms.values():
        await comm.disconnect()
    del users


async def test_refuses_anonymous_foreign_origin_and_unknown_table():
    table, (alice, _) = await sync_to_async(briscola_table)()
    comm, ok, _ = await connect(None, table.pk)
    assert ok  # accepted then closed with the code
    assert (await next_output(comm))["code"] == 4401
    foreign = WebsocketCommunicator(application, f"/ws/tables/{table.pk}/",
                                    headers=[(b"origin", b"http://evil.example"), (b"host", b"testserver")])
    connected, _ = await foreign.connect()
    assert not connected
    comm, ok, _ = await connect(alice, 999999)
    assert (await next_output(comm))["code"] == 4404


async def test_private_table_without_invitation_is_4403():
    owner = await sync_to_async(make_user)(nickname="Owner_1")
    from apps.tables.services import table_create

    table = await sync_to_async(table_create)(user=owner, data={"game": "briscola", "private": True})
    stranger = await sync_to_async(make_user)(nickname="Stranger_1")
    comm, ok, _ = await connect(stranger, table.pk)
    assert (await next_output(comm))["code"] == 4403


async def test_every_bad_frame_gets_an_error_and_changes_nothing():
    table, (alice, bruno) = await sync_to_async(briscola_table)()
    match, state = await state_of(await sync_to_async(lambda: table.matches.get().pk)())
    mover = {0: alice, 1: bruno}[state.to_act[0]]
    waiter = {0: alice, 1: bruno}[1 - state.to_act[0]]
    comm, _, _ = await connect(mover, table.pk)
    other, _, _ = await connect(waiter, table.pk)
    await settled(comm, other)
    legal = state.legal_actions(state.to_act[0])[0]
    cases = [
        ("x" * 9000, "bad_frame"),
        ("not json", "bad_frame"),
        ("[1, 2]", "bad_frame"),
        (json.dumps({"hello": 1}), "bad_frame"),
        (json.dumps({"action": "{broken", "version": 0}), "bad_frame"),
        (json.dumps({"action": {"type": "play", "card": "Zz"}, "version": 0}), "illegal_action"),
        (json.dumps({"action": {"type": "play"}, "version": 0}), "illegal_action"),
        (json.dumps({"action": legal, "version": "zero"}), "bad_frame"),
        (json.dumps({"chat": "   "}), "chat_empty"),
        (json.dumps({"chat": "x" * 301}), "chat_too_long"),
        (json.dumps({"cancel_vote": "maybe"}), "bad_frame"),
        (json.dumps({"report": "abc"}), "bad_frame"),
    ]
    for text, code in cases:
        await comm.send_to(text_data=text)
        reply = await next_frame(comm)
        assert f'data-code="{code}"' in reply and 'role="alert"' in reply, (text[:40], reply)
    # a stale version is no error for a player: the table is simply shown as it is now,
    # with the error slot cleared
    await comm.send_to(text_data=json.dumps({"action": legal, "version": 99}))
    reply = await next_frame(comm)
    assert f'id="table-{table.pk}-board"' in reply and "data-code=" not in reply, reply[:300]
    await other.send_to(text_data=json.dumps({"action": legal, "version": 0}))
    reply = await next_frame(other)
    assert 'data-code="not_your_turn"' in reply
    assert await drain(other, 0.2) == []  # an error goes only to the sender
    after, _ = await state_of(match.pk)
    assert (after.version, after.state) == (match.version, match.state)
    await comm.disconnect()
    await other.disconnect()


async def test_flooding_is_refused_and_abuse_closes_the_socket():
    table, (alice, _) = await sync_to_async(briscola_table)()
    comm, _, _ = await connect(alice, table.pk)
    await settled(comm)
    for _ in range(30):
        await comm.send_to(text_data=json.dumps({"sync": True}))
    frames = []
    closed = None
    for _ in range(60):
        output = await next_output(comm, 1)
        if output is None:
            break
        if output["type"] == "websocket.close":
            closed = output["code"]
            break
        frames.append(output.get("text", ""))
    assert any('data-code="rate_limited"' in f for f in frames)
    assert closed == 4429


async def test_disconnect_hands_the_turn_to_the_robot_and_reconnect_takes_it_back():
    table, (alice, bruno) = await sync_to_async(briscola_table)()
    match, state = await state_of(await sync_to_async(lambda: table.matches.get().pk)())
    users = {0: alice, 1: bruno}
    first = state.to_act[0]
    comm_first, _, _ = await connect(users[first], table.pk)
    comm_other, _, _ = await connect(users[1 - first], table.pk)
    await drain(comm_first)
    await drain(comm_other)
    await comm_first.disconnect()  # the player to act leaves: the robot plays at once
    await asyncio.sleep(0.5)
    after, _ = await state_of(match.pk)
    assert after.version >= 1
    by = await sync_to_async(lambda: list(MatchAction.objects.filter(match=after).values_list("by", "seat")))()
    assert by[0] == ("robot", first)
    seat_row = await sync_to_async(lambda: after.match_seats.get(number=first))()
    assert seat_row.robot_playing and seat_row.grace_deadline is not None
    comm_back, _, _ = await connect(users[first], table.pk)
    await drain(comm_back)
    seat_row = await sync_to_async(lambda: after.match_seats.get(number=first))()
    assert not seat_row.robot_playing and seat_row.grace_deadline is None
    await comm_back.disconnect()
    await comm_other.disconnect()


async def test_turn_timer_makes_the_automatic_move():
    from datetime import timedelta

    from django.utils import timezone

    from apps.matches.services import match_deadlines_fire

    table, (alice, _) = await sync_to_async(briscola_table)()
    match, _ = await state_of(await sync_to_async(lambda: table.matches.get().pk)())
    comm, _, _ = await connect(alice, table.pk)
    await settled(comm)
    await sync_to_async(lambda: Match.objects.filter(pk=match.pk).update(
        turn_deadline=timezone.now() - timedelta(seconds=1)))()
    assert await sync_to_async(match_deadlines_fire)() >= 1
    frames: list[str] = []
    await until_version(comm, 1, frames)
    by = await sync_to_async(lambda: MatchAction.objects.get(match_id=match.pk).by)()
    assert by == "timeout"
    await comm.disconnect()


async def test_chat_is_recorded_shown_live_and_refused_when_banned():
    from datetime import timedelta

    from django.utils import timezone

    from apps.chat.models import ChatMessage
    from apps.compliance.models import Sanction

    table, (alice, bruno) = await sync_to_async(briscola_table)()
    a, _, _ = await connect(alice, table.pk)
    b, _, _ = await connect(bruno, table.pk)
    await settled(a, b)
    await a.send_to(text_data=json.dumps({"chat": "Buona partita!"}))
    line = (await frames_with(b, "Buona partita!") or [""])[0]
    assert "Buona partita!" in line and 'hx-swap-oob="beforeend"' in line and f"table-{table.pk}-chat" in line
    assert await frames_with(a, "Buona partita!")  # the sender sees their own line too
    row = await sync_to_async(ChatMessage.objects.get)(text="Buona partita!")
    assert row.nickname and row.room == str(table.pk) and row.match_id and row.ip
    await sync_to_async(Sanction.objects.create)(
        player=bruno, kind="chat_ban", duration="1_month", reason="insults", starts_at=timezone.now(),
        ends_at=timezone.now() + timedelta(days=30))
    await b.send_to(text_data=json.dumps({"chat": "vietato"}))
    refused = await next_frame(b)
    assert 'data-code="sanctioned"' in refused
    assert await drain(a, 0.3) == []  # nothing delivered
    assert await sync_to_async(ChatMessage.objects.filter(text="vietato", refused=True).count)() == 1
    await a.disconnect()
    await b.disconnect()


async def test_logout_closes_the_sockets():
    from django.contrib.auth.signals import user_logged_out

    table, (alice, _) = await sync_to_async(briscola_table)()
    comm, _, _ = await connect(alice, table.pk)
    await settled(comm)
    await sync_to_async(user_logged_out.send)(sender=type(alice), request=None, user=alice)
    closed = None
    for _ in range(10):
        output = await next_output(comm)
        if output is not None and output["type"] == "websocket.close":
            closed = output["code"]
            break
    assert closed == 4401


async def test_a_lobby_ban_closes_open_sockets_with_4403():


    table, (alice, _) = await sync_to_async(briscola_table)()
    comm, _, _ = await connect(alice, table.pk)
    await settled(comm)
    await sync_to_async(sanction_give)(alice, "lobby_ban", duration="permanent", reason="abuse")
    closed = None
    for _ in range(10):
        output = await next_output(comm)
        if output is not None and output["type"] == "websocket.close":
            closed = output["code"]
            break
    assert closed == 4403
    again, _, _ = await connect(alice, table.pk)
    assert (await next_output(again))["code"] == 4403


async def test_settings_change_is_announced_to_everyone_at_the_table():
    from apps.tables.services import table_create, table_settings_update

    leader = await sync_to_async(make_user)(nickname="Leader_X")
    watcher = await sync_to_async(make_user)(nickname="Watcher_X")
    table = await sync_to_async(table_create)(user=leader, data={"game": "scopa", "players": 2})
    comm, _, _ = await connect(watcher, table.pk)
    await settled(comm)
    await sync_to_async(table_settings_update)(user=leader, table_id=table.pk, data={"turn_seconds": 45})
    notice = await next_frame(comm)
    assert "Secondi per turno: 30 → 45" in notice and f'id="table-{table.pk}-notice"' in notice
    await comm.disconnect()


async def test_without_a_shared_layer_sockets_notice_changes_made_elsewhere(settings):
    """On the embedded defaults the worker's pushes never reach daphne: the socket polls."""
    from datetime import timedelta

    from django.utils import timezone

    from apps.matches.services import match_deadlines_fire
    from apps.tables import broadcast

    settings.TABLE_POLL_SECONDS = 0.2
    table, (alice, _) = await sync_to_async(briscola_table)()
    match, _ = await state_of(await sync_to_async(lambda: table.matches.get().pk)())
    comm, _, _ = await connect(alice, table.pk)
    await settled(comm)
    original = broadcast.push_now
    broadcast.push_now = lambda group, message: None  # as if another process made the change
    try:
        await sync_to_async(lambda: Match.objects.filter(pk=match.pk).update(
            turn_deadline=timezone.now() - timedelta(seconds=1)))()
        assert await sync_to_async(match_deadlines_fire)() >= 1
        frames: list[str] = []
        await until_version(comm, 1, frames, timeout=3)
    finally:
        broadcast.push_now = original
    await comm.disconnect()


@pytest.mark.timeout(60)
async def test_an_idle_socket_stays_open_and_still_gets_pushes():
    """A player may wait a long time for their turn (redis-py's 5 s read timeout once broke this)."""
    table, (alice, bruno) = await sync_to_async(briscola_table)()
    match, state = await state_of(await sync_to_async(lambda: table.matches.get().pk)())
    watcher_user = {0: bruno, 1: alice}[state.to_act[0]]
    mover_user = {0: alice, 1: bruno}[state.to_act[0]]
    comm, _, _ = await connect(watcher_user, table.pk)
    await settled(comm)
    assert await comm.receive_nothing(timeout=7, interval=0.5)  # idle longer than 5 s
    from apps.matches.services import match_action_apply

    await sync_to_async(match_action_apply)(match_id=match.pk, action=state.legal_actions(state.to_act[0])[0],
                                            version=0, user=mover_user)
    frames: list[str] = []
    await until_version(comm, 1, frames)
    await comm.disconnect()
