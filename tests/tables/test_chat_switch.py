"""Chat can be switched off (seed 000: the chat's lines are recorded "se la stessa è
abilitata", issue 25): the operator switches a table's chat off (back office, audited) or a
tournament's (a tournament field, in the admin); a player hides the chat for themselves (a
toggle on the table page, ``POST /api/me/chat/``). Then the box is not drawn and a line is
refused with 409 ``chat_disabled``; what was written before stays recorded."""

from __future__ import annotations

import json

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from django.utils import translation

from apps.audit.models import AuditLog
from apps.chat.models import ChatMessage
from apps.common.errors import DomainError
from apps.tables.models import Table
from apps.tables.staff import table_chat_set

from ..conftest import make_user
from .conftest import briscola_table
from .test_consumer import connect, drain, frames_with, next_frame, settled

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(120)]


def page_of(user, table_id: int) -> str:
    client = Client()
    client.force_login(user)
    with translation.override("it"):
        return client.get(f"/tables/{table_id}/", HTTP_ACCEPT_LANGUAGE="it").content.decode()


async def test_the_operator_switches_a_tables_chat_off_and_on_again():
    table, (alice, bruno) = await sync_to_async(briscola_table)()
    operator = await sync_to_async(make_user)(group="operator")
    a, _, _ = await connect(alice, table.pk)
    b, _, _ = await connect(bruno, table.pk)
    await settled(a, b)
    await a.send_to(text_data=json.dumps({"chat": "prima riga"}))
    assert await frames_with(b, "prima riga")
    await drain(a)

    await sync_to_async(table_chat_set)(actor=operator, table_id=table.pk, enabled=False, reason="insulti")
    # the open pages lose the box at once: a swap of each reader's chat box, with no lines in it
    switched = await frames_with(b, f'id="table-{table.pk}-chatbox"')
    assert switched and 'hx-swap-oob="true"' in switched[-1] and "prima riga" not in switched[-1]
    assert 'name="chat"' not in switched[-1]
    await drain(a)
    await drain(b)
    await a.send_to(text_data=json.dumps({"chat": "dopo lo stop"}))
    refused = await next_frame(a)
    assert 'data-code="chat_disabled"' in refused, refused
    assert await drain(b, 0.3) == []  # nothing delivered
    assert not await sync_to_async(ChatMessage.objects.filter(text="dopo lo stop").exists)()
    # what was written before stays recorded, as it was
    assert await sync_to_async(ChatMessage.objects.filter(text="prima riga", hidden=False).count)() == 1
    page = await sync_to_async(page_of)(bruno, table.pk)
    assert "La chat è disattivata a questo tavolo." in page and 'name="chat"' not in page
    assert "prima riga" not in page
    audit = await sync_to_async(lambda: list(AuditLog.objects.filter(action="table_chat_disabled")
                                             .values_list("actor_id", "reason")))()
    assert audit == [(operator.pk, "insulti")]

    await sync_to_async(table_chat_set)(actor=operator, table_id=table.pk, enabled=True, reason="chiarito")
    assert await frames_with(a, f'id="table-{table.pk}-chatbox"')
    await drain(a)
    await drain(b)
    await a.send_to(text_data=json.dumps({"chat": "di nuovo"}))
    assert await frames_with(b, "di nuovo")
    await a.disconnect()
    await b.disconnect()


def test_only_an_operator_switches_it_and_the_leader_cannot():
    table, (alice, _bruno) = briscola_table()
    with pytest.raises(DomainError) as refused:
        table_chat_set(actor=alice, table_id=table.pk, enabled=False, reason="x")
    assert refused.value.status == 403
    operator = make_user(group="operator")
    with pytest.raises(DomainError) as no_reason:
        table_chat_set(actor=operator, table_id=table.pk, enabled=False, reason=" ")
    assert no_reason.value.code == "validation_error"
    assert Table.objects.get(pk=table.pk).chat_enabled
    # the leader's settings (§8.2) do not reach it
    client = Client()
    client.force_login(alice)
    client.patch(f"/api/tables/{table.pk}/", {"chat_enabled": False}, content_type="application/json")
    assert Table.objects.get(pk=table.pk).chat_enabled


def test_the_back_office_button_switches_it():
    table, _players = briscola_table()
    operator = make_user(group="operator")
    client = Client()
    client.force_login(operator)
    page = client.get("/backoffice/tables/").content.decode()
    assert f'action="/backoffice/tables/{table.pk}/chat/"' in page
    client.post(f"/backoffice/tables/{table.pk}/chat/", {"enabled": "0", "reason": "spam"})
    assert not Table.objects.get(pk=table.pk).chat_enabled
    client.post(f"/backoffice/tables/{table.pk}/chat/", {"enabled": "1", "reason": "ok"})
    assert Table.objects.get(pk=table.pk).chat_enabled


async def test_a_player_hides_the_chat_for_themselves(api):
    table, (alice, bruno) = await sync_to_async(briscola_table)()
    answer = await sync_to_async(lambda: api(alice).post("/api/me/chat/", {"hidden": True}, format="json"))()
    assert answer.status_code == 200 and answer.json() == {"hidden": True}
    bad = await sync_to_async(lambda: api(alice).post("/api/me/chat/", {"hidden": "yes"}, format="json"))()
    assert bad.status_code == 400 and bad.json()["code"] == "validation_error"
    page = await sync_to_async(page_of)(alice, table.pk)
    assert "Mostra la chat" in page and 'name="chat"' not in page
    assert "Nascondi la chat" in await sync_to_async(page_of)(bruno, table.pk)  # only for her
    a, _, _ = await connect(alice, table.pk)
    b, _, _ = await connect(bruno, table.pk)
    await settled(a, b)
    await a.send_to(text_data=json.dumps({"chat": "nascosta"}))
    refused = await next_frame(a)
    assert 'data-code="chat_disabled"' in refused, refused
    assert await drain(b, 0.3) == []
    # the others still chat, and what they write is recorded as always
    await b.send_to(text_data=json.dumps({"chat": "ciao a tutti"}))
    assert await frames_with(b, "ciao a tutti")
    assert await sync_to_async(ChatMessage.objects.filter(text="ciao a tutti").count)() == 1
    # the page's toggle shows it again
    client = Client()
    await sync_to_async(client.force_login)(alice)
    answer = await sync_to_async(client.post)(f"/tables/{table.pk}/chat/", {"hidden": "0"})
    assert answer.status_code == 302
    page = await sync_to_async(page_of)(alice, table.pk)
    assert 'name="chat"' in page and "ciao a tutti" in page
    await a.disconnect()
    await b.disconnect()


def test_a_tournaments_chat_switch_is_a_field_the_admin_edits():
    from apps.tournaments.admin import TournamentForm
    from apps.tournaments.models import Tournament

    assert "chat_enabled" in TournamentForm.Meta.fields
    field = Tournament._meta.get_field("chat_enabled")
    assert field.default is True


async def test_a_tournament_with_chat_off_refuses_a_line_with_chat_disabled():
    from apps.tournaments import consumers

    consumer = consumers.TournamentMatchConsumer()
    consumer.chat_enabled = False
    with pytest.raises(DomainError) as refused:
        await consumer._chat("ciao")
    assert refused.value.code == "chat_disabled" and refused.value.status == 409
