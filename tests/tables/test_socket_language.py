"""A table socket speaks the language of its page (issue 12): its fragments and refusals
are in the player's language, and an engine's own sentence never reaches a player."""

from __future__ import annotations

import json
import re

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from apps.common.socket_language import socket_language
from config.asgi import application
from tests.test_i18n import untranslated

from .conftest import briscola_table
from .test_consumer import drain, next_frame, session_cookie, state_of

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(120)]


async def connect(user, table_id, *, cookie_language=None, accept=None):
    cookies = f"sessionid={await sync_to_async(session_cookie)(user)}"
    if cookie_language:
        cookies += f"; django_language={cookie_language}"
    headers = [(b"origin", b"http://testserver"), (b"host", b"testserver"), (b"cookie", cookies.encode())]
    if accept:
        headers.append((b"accept-language", accept.encode()))
    comm = WebsocketCommunicator(application, f"/ws/tables/{table_id}/", headers=headers)
    connected, _code = await comm.connect()
    assert connected
    return comm


@pytest.mark.parametrize(("cookie", "accept", "bad_frame", "illegal", "not_your_turn"), [
    ("it", None, "Un messaggio è un oggetto JSON", "Questa mossa ora non è consentita", "Non è il tuo turno."),
    ("en", None, "A frame is a JSON object.", "That move is not allowed now", "It is not your turn."),
    (None, "en-GB,en;q=0.8", "A frame is a JSON object.", "That move is not allowed now", "It is not your turn."),
    (None, None, "Un messaggio è un oggetto JSON", "Questa mossa ora non è consentita", "Non è il tuo turno."),
])
async def test_refusals_come_in_the_page_language(cookie, accept, bad_frame, illegal, not_your_turn):
    table, (alice, bruno) = await sync_to_async(briscola_table)()
    match, state = await state_of(await sync_to_async(lambda: table.matches.get().pk)())
    mover = {0: alice, 1: bruno}[state.to_act[0]]
    waiter = {0: alice, 1: bruno}[1 - state.to_act[0]]
    comm = await connect(mover, table.pk, cookie_language=cookie, accept=accept)
    other = await connect(waiter, table.pk, cookie_language=cookie, accept=accept)
    frames = ""
    while f'id="table-{table.pk}-board"' not in frames:  # the whole table, as the socket renders it on connecting
        frame = await next_frame(comm, 20)
        assert frame is not None, "no render on connecting"
        frames += frame
    frames += "".join(await drain(comm, 1.0))
    await drain(other, 3.0)
    language = "it" if bad_frame.startswith("Un") else "en"
    assert f'id="table-{table.pk}-board"' in frames
    assert not untranslated(frames, language), untranslated(frames, language)
    await comm.send_to(text_data="[1, 2]")
    assert bad_frame in await next_frame(comm, 20)
    # an engine's refusal: the page says it in words of its language, never the engine's English
    await comm.send_to(text_data=json.dumps({"action": {"type": "play", "card": "Zz"}, "version": match.version}))
    reply = await next_frame(comm, 20)
    assert 'data-code="illegal_action"' in reply and illegal in reply
    assert "Zz" not in reply and "seat" not in reply
    legal = state.legal_actions(state.to_act[0])[0]
    await other.send_to(text_data=json.dumps({"action": legal, "version": match.version}))
    assert not_your_turn in await next_frame(other, 20)
    await comm.disconnect()
    await other.disconnect()


def test_socket_language_reads_the_cookie_then_the_browser():
    assert socket_language({"cookies": {"django_language": "en"}, "headers": []}) == "en"
    assert socket_language({"cookies": {"django_language": "xx"}, "headers": [(b"accept-language", b"en")]}) == "en"
    assert socket_language({"cookies": {}, "headers": [(b"accept-language", b"de-DE,en;q=0.5")]}) == "en"
    assert socket_language({"cookies": {}, "headers": [(b"accept-language", b"de-DE")]}) == "it"
    assert socket_language({"headers": []}) == "it"


@pytest.mark.parametrize(("cookie", "expected", "keys"), [
    ("it", ["Posta per giocatore: €1,00 → €2,50", "Secondi per turno: 30 → 45", "Spettatori ammessi: sì → no",
            "Punti per vincere: 11 → 21"], ["Impostazioni cambiate:"]),
    ("en", ["Stake per player: €1,00 → €2,50", "Seconds per turn: 30 → 45", "Spectators allowed: yes → no",
            "Points to win: 11 → 21"], ["Settings changed:"]),
])
async def test_a_settings_change_is_told_in_the_page_words(cookie, expected, keys):
    """The notice names each setting as the create-table form does and its values as a player
    reads them (euro, yes/no), never the field keys or cents (issue 12)."""
    from apps.tables.services import table_create, table_settings_update
    from tests.conftest import make_user

    from .conftest import fund

    leader = await sync_to_async(make_user)(nickname=f"Leader_{cookie}")
    watcher = await sync_to_async(make_user)(nickname=f"Watcher_{cookie}")
    await sync_to_async(fund)(leader, cash=10_000)
    table = await sync_to_async(table_create)(user=leader, data={
        "game": "scopa", "players": 2, "official": True, "currency": "cash", "stake": 100})
    comm = await connect(watcher, table.pk, cookie_language=cookie)
    await drain(comm, 1.0)
    await sync_to_async(table_settings_update)(user=leader, table_id=table.pk, data={
        "stake": 250, "turn_seconds": 45, "spectators": False, "game_options": {"target": 21}})
    notice = ""
    while f'id="table-{table.pk}-notice"' not in notice:
        frame = await next_frame(comm, 10)
        assert frame is not None, "no notice"
        notice += frame
    for words in expected + keys:
        assert words in notice, (words, notice)
    text = re.search(rf'id="table-{table.pk}-notice"[^>]*>(.*?)</div>', notice, re.S).group(1)
    for raw in ("stake", "turn_seconds", "spectators", "game_options", "target", "250", "True"):
        assert raw not in text, (raw, text)
    await comm.disconnect()


async def test_a_notice_from_the_tick_speaks_each_socket_language():
    """The sender of a notice (the tick, a worker) has no page: each socket translates it."""
    from django.db import transaction

    from apps.tables import broadcast

    table, (alice, bruno) = await sync_to_async(briscola_table)()
    italian = await connect(alice, table.pk, cookie_language="it")
    english = await connect(bruno, table.pk, cookie_language="en")
    await drain(italian, 1.0)
    await drain(english, 1.0)

    def send():
        with transaction.atomic():
            for user in (alice, bruno):
                broadcast.table_notice(table_id=table.pk, user_id=user.pk, text=(
                    "You were stood up: you did not confirm the next match within %(seconds)s seconds. "
                    "Nothing was charged."), params={"seconds": 60})

    await sync_to_async(send)()
    heard_it = "".join(await drain(italian, 1.0))
    heard_en = "".join(await drain(english, 1.0))
    assert "60" in heard_it and "Nothing was charged" not in heard_it and "Non ti è stato addebitato" in heard_it
    assert "you did not confirm the next match within 60 seconds. Nothing was charged." in heard_en
    await italian.disconnect()
    await english.disconnect()
