"""The operator's actions on tables: each one's effect, its audit row, and what the players are told."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.core.management import call_command
from django.test import Client

from apps.audit.models import AuditLog
from apps.chat.models import ChatMessage
from apps.common.errors import Conflict, Forbidden, ValidationFailed
from apps.matches.models import Match
from apps.tables.broadcast import table_group, user_group
from apps.tables.models import Table
from apps.tables.staff import seat_stand_up, table_close, table_message
from apps.wallet.selectors import wallet_get

from ..conftest import make_user
from ..tables.conftest import briscola_table, current_match, fund, play_out

# waits for quiet periods on the channel layer (drain): one worker runs these with the socket tests
pytestmark = [pytest.mark.django_db, pytest.mark.xdist_group("sockets")]


def listen(group: str) -> tuple[object, str]:
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(group, channel)
    return layer, channel


def drain(layer, channel) -> list[dict]:
    """Every message the channel got (waits 0.3 s after the last one)."""
    async def collect() -> list[dict]:
        out = []
        while True:
            try:
                out.append(await asyncio.wait_for(layer.receive(channel), timeout=0.3))
            except TimeoutError:
                return out

    return async_to_sync(collect)()


@pytest.fixture
def cash_match(db):
    players = [make_user(nickname="CloseA"), make_user(nickname="CloseB")]
    for p in players:
        fund(p, cash=1_000)
    table, _ = briscola_table(official=True, stake=200, currency="cash", players=players)
    return table, players


def test_close_table_cancels_the_match_and_returns_stakes(cash_match, operator, django_capture_on_commit_callbacks):
    table, (a, b) = cash_match
    match = current_match(table)
    assert match.status == Match.PLAYING and wallet_get(player=a)["cash_cents"] == 800
    layer, channel = listen(user_group(a.pk))
    with django_capture_on_commit_callbacks(execute=True):
        table_close(actor=operator, table_id=table.pk, reason="server maintenance")
    match.refresh_from_db()
    table.refresh_from_db()
    assert match.status == Match.CANCELLED and table.status == Table.CLOSED
    assert wallet_get(player=a)["cash_cents"] == 1_000 and wallet_get(player=b)["cash_cents"] == 1_000
    assert not table.seats.filter(player__isnull=False).exists()
    row = AuditLog.objects.get(action="table_closed")
    assert row.actor == operator and row.reason == "server maintenance" and row.target_id == str(table.pk)
    assert row.before["match"] == match.pk and sorted(row.before["seated"]) == sorted([a.pk, b.pk])
    notices = [m for m in drain(layer, channel) if m["type"] == "table.notice"]
    assert notices and notices[0]["params"] == {"reason": "server maintenance"} and "stake" in notices[0]["text"]
    call_command("check_ledger")  # the match escrow is back to 0
    with pytest.raises(Conflict):
        table_close(actor=operator, table_id=table.pk, reason="again")


def test_stand_up_only_between_matches(cash_match, operator, django_capture_on_commit_callbacks):
    table, (a, b) = cash_match
    with pytest.raises(Conflict) as refused:
        seat_stand_up(actor=operator, table_id=table.pk, player_id=b.pk, reason="rude")
    assert refused.value.code == "match_in_progress"
    play_out(current_match(table).pk, {0: a, 1: b})
    layer, channel = listen(user_group(b.pk))
    with django_capture_on_commit_callbacks(execute=True):
        seat_stand_up(actor=operator, table_id=table.pk, player_id=b.pk, reason="rude in chat")
    assert not table.seats.filter(player=b).exists() and table.seats.filter(player=a).exists()
    row = AuditLog.objects.get(action="seat_stood_up")
    assert row.reason == "rude in chat" and row.before["player"] == b.pk
    notices = [m for m in drain(layer, channel) if m["type"] == "table.notice"]
    assert any(n["params"].get("reason") == "rude in chat" for n in notices)
    with pytest.raises(Conflict):
        seat_stand_up(actor=operator, table_id=table.pk, player_id=b.pk, reason="twice")


def test_message_a_table_is_a_system_chat_line(cash_match, operator, django_capture_on_commit_callbacks):
    table, _ = cash_match
    layer, channel = listen(table_group(table.pk))
    with django_capture_on_commit_callbacks(execute=True):
        message = table_message(actor=operator, table_id=table.pk, text="Torneo alle 21!", reason="announcement")
    assert ChatMessage.objects.get(pk=message.pk).system and message.table_id == table.pk
    assert AuditLog.objects.get(action="table_messaged").after["text"] == "Torneo alle 21!"
    pushed = [m for m in drain(layer, channel) if m["type"] == "chat.message"]
    assert pushed == [{"type": "chat.message", "id": message.pk}]
    from apps.play.render import render_chat_line

    assert "chat-system" in render_chat_line(message=message)


def test_actions_need_an_operator_and_a_reason(cash_match, finance, operator):
    table, (a, _) = cash_match
    with pytest.raises(Forbidden):
        table_close(actor=finance, table_id=table.pk, reason="x")
    with pytest.raises(ValidationFailed):
        table_close(actor=operator, table_id=table.pk, reason="  ")
    with pytest.raises(ValidationFailed):
        table_message(actor=operator, table_id=table.pk, text="", reason="x")
    assert Table.objects.get(pk=table.pk).status == Table.OPEN and not AuditLog.objects.filter(
        action__startswith="table_").exists()


def test_tables_page_and_its_forms(cash_match, operator):
    table, (a, _) = cash_match
    client = Client()
    client.force_login(operator)
    html = client.get("/backoffice/tables/").content.decode()
    assert f'id="table-{table.pk}"' in html and "CloseA" in html
    refused = client.post(f"/backoffice/tables/{table.pk}/close/", {"reason": ""}, follow=True)
    assert Table.objects.get(pk=table.pk).status == Table.OPEN and refused.status_code == 200
    done = client.post(f"/backoffice/tables/{table.pk}/close/", {"reason": "test"})
    assert done.status_code == 302 and Table.objects.get(pk=table.pk).status == Table.CLOSED
