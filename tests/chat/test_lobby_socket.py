"""The lobby room /ws/lobby/ (platform.md §7.1, §10): lines recorded before delivery, with
sender, room, time and IP; reports with a reason; sanctions refuse and close it."""

from __future__ import annotations

import json

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from apps.chat.models import ChatMessage, ChatReport
from apps.chat.services import chat_message_hide
from apps.compliance.services import sanction_issue
from config.asgi import application

from ..conftest import make_user
from ..tables.test_consumer import drain, frames_with, next_frame, next_output, session_cookie, settled

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(120)]


async def lobby(user, ip="10.3.0.1"):
    headers = [(b"origin", b"http://testserver"), (b"host", b"testserver")]
    if user is not None:
        headers.append((b"cookie", f"sessionid={await sync_to_async(session_cookie)(user)}".encode()))
    comm = WebsocketCommunicator(application, "/ws/lobby/", headers=headers)
    comm.scope["client"] = (ip, 50000)
    connected, _ = await comm.connect(timeout=5)
    assert connected
    return comm


async def closed_with(comm) -> int | None:
    for _ in range(10):
        output = await next_output(comm)
        if output is not None and output["type"] == "websocket.close":
            return output["code"]
    return None


async def test_lines_reach_everyone_and_are_recorded_with_the_ip():
    anna, bruno = await sync_to_async(make_user)(nickname="Anna_L"), await sync_to_async(make_user)(nickname="Bruno_L")
    a, b = await lobby(anna, "10.3.0.7"), await lobby(bruno)
    await a.send_to(text_data=json.dumps({"chat": "  ciao lobby  "}))
    line = await next_frame(b)
    assert "ciao lobby" in line and 'id="lobby-chat-lines"' in line and "Anna_L" in line
    assert 'name="report"' in line  # the report button on every line
    row = await sync_to_async(ChatMessage.objects.get)(text="ciao lobby")
    assert (row.room, row.table_id, row.match_id, row.ip, row.sender_id) == ("lobby", None, None, "10.3.0.7", anna.pk)
    await b.send_to(text_data=json.dumps({"report": str(row.pk), "reason": "spam"}))
    frames = await drain(b)
    assert any("Segnalazione inviata" in f for f in frames)
    report = await sync_to_async(ChatReport.objects.get)(message=row)
    assert (report.reporter_id, report.reason) == (bruno.pk, "spam")
    await b.send_to(text_data=json.dumps({"report": row.pk, "reason": "spam"}))
    assert any('data-code="already_reported"' in f for f in await drain(b))
    for frame, code in [({"chat": "x" * 301}, "chat_too_long"), ({"chat": "   "}, "chat_empty"),
                        ({"chat": 5}, "bad_frame"), ({"hello": 1}, "bad_frame")]:
        await a.send_to(text_data=json.dumps(frame))
        assert any(f'data-code="{code}"' in f for f in await drain(a)), frame
    await a.send_to(text_data="not json")
    assert any('data-code="bad_frame"' in f for f in await drain(a))
    for n in range(5):
        await a.send_to(text_data=json.dumps({"chat": f"riga {n}"}))
    frames = await drain(a, 0.5)
    assert any('data-code="chat_rate_limited"' in f for f in frames)  # 5 in 10 s: the 6th line is refused
    compliance = await sync_to_async(make_user)(group="compliance")
    await drain(b)
    await sync_to_async(chat_message_hide)(actor=compliance, message_id=row.pk)
    assert any(f'id="chat-line-{row.pk}" hx-swap-oob="delete"' in f for f in await drain(b, 0.5))
    await a.disconnect()
    await b.disconnect()


async def test_sanctions_refuse_the_room_and_close_an_open_one():
    carla = await sync_to_async(make_user)(nickname="Carla_L")
    compliance = await sync_to_async(make_user)(group="compliance")
    comm = await lobby(carla)
    await sync_to_async(sanction_issue)(actor=compliance, player=carla.pk, kind="chat_ban", duration="1_month",
                                        reason="insulti")
    await comm.send_to(text_data=json.dumps({"chat": "ciao"}))
    assert any('data-code="sanctioned"' in f for f in await drain(comm))  # still reads, cannot write
    await sync_to_async(sanction_issue)(actor=compliance, player=carla.pk, kind="lobby_ban", duration="permanent",
                                        reason="abuso")
    assert await closed_with(comm) == 4403
    again = await lobby(carla)
    assert await closed_with(again) == 4403
    anonymous = await lobby(None)
    assert await closed_with(anonymous) == 4401


async def test_a_table_line_is_reported_with_its_reason_on_the_table_socket():
    from ..tables.conftest import briscola_table
    from ..tables.test_consumer import connect

    table, (alice, bruno) = await sync_to_async(briscola_table)()
    a, _, _ = await connect(alice, table.pk)
    b, _, _ = await connect(bruno, table.pk)
    await settled(a, b)
    await a.send_to(text_data=json.dumps({"chat": "sei un idiota"}))
    lines = await frames_with(b, "sei un idiota")
    assert lines and 'name="report"' in lines[0]
    row = await sync_to_async(ChatMessage.objects.get)(text="sei un idiota")
    assert row.flagged and row.match_id
    await b.send_to(text_data=json.dumps({"report": str(row.pk), "reason": "insult"}))
    assert any("Segnalazione inviata" in f for f in await drain(b))
    assert await sync_to_async(ChatReport.objects.filter(message=row, reporter=bruno, reason="insult").exists)()
    await a.disconnect()
    await b.disconnect()
