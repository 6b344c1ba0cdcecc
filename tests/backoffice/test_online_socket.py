"""The dashboard's staff socket /ws/backoffice/online/: "online now" and the busiest hour move
as players come and go (over the channel layer, after commit), for operators and finance only."""

from __future__ import annotations

import re

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.utils import timezone

from apps.backoffice.periods import ROME, rome_today
from apps.tables.models import SocketConnection
from apps.tables.services import table_create, table_sit
from config.asgi import application

from ..conftest import make_user
from ..tables.test_consumer import connect, drain, next_output, session_cookie

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(120)]


@pytest.fixture(autouse=True)
def quick_pushes(settings):
    settings.BACKOFFICE_ONLINE_COALESCE_SECONDS = 0.05


async def staff_socket(user, query="period=today", language=b"en"):
    headers = [(b"origin", b"http://testserver"), (b"host", b"testserver"), (b"accept-language", language)]
    if user is not None:
        headers.append((b"cookie", f"sessionid={await sync_to_async(session_cookie)(user)}".encode()))
    comm = WebsocketCommunicator(application, f"/ws/backoffice/online/?{query}", headers=headers)
    connected, _ = await comm.connect(timeout=5)
    assert connected
    return comm


def figure(frame: str, key: str) -> int:
    found = re.search(rf'data-key="{key}">(\d+)<', frame)
    assert found, frame[:300]
    return int(found.group(1))


async def online_until(comm, key: str, value: int, timeout_frames: int = 10) -> str:
    """Frames until the online box shows ``value`` for ``key`` (a push may fold several changes)."""
    for _ in range(timeout_frames):
        output = await next_output(comm, 10.0)
        assert output is not None and output["type"] == "websocket.send", f"no push with {key}={value}"
        if figure(output["text"], key) == value:
            return output["text"]
    raise AssertionError(f"{key} never reached {value}")


async def closed_with(comm) -> int | None:
    output = await next_output(comm)
    return output["code"] if output and output["type"] == "websocket.close" else None


@pytest.mark.parametrize("role, code", [(None, 4401), ("player", 4403), ("compliance", 4403)])
async def test_only_operators_and_finance_are_admitted(role, code):
    user = None
    if role == "player":
        user = await sync_to_async(make_user)(nickname="NoStaff")
    elif role:
        user = await sync_to_async(make_user)(group=role)
    comm = await staff_socket(user)
    assert await closed_with(comm) == code
    await comm.disconnect(timeout=10)  # the application ends here, not at the loop's teardown


async def test_players_coming_and_going_move_the_figures_live():
    operator = await sync_to_async(make_user)(group="operator")
    host, guest = (await sync_to_async(make_user)(nickname="LiveHost"),
                   await sync_to_async(make_user)(nickname="LiveGuest"))
    table = await sync_to_async(table_create)(user=host, data={"game": "briscola"})
    staff = await staff_socket(operator)
    first = await online_until(staff, "players_online", 0)
    assert 'id="online-now" hx-swap-oob="true"' in first and 'id="fig-activity_by_hour"' in first
    assert figure(first, "tables_open") == 1 and figure(first, "matches_playing") == 0

    player, connected, _ = await connect(host, table.pk)
    assert connected
    frame = await online_until(staff, "players_online", 1)
    assert figure(frame, "tables_connected") == 1

    await sync_to_async(table_sit)(user=guest, table_id=table.pk)  # the match starts
    frame = await online_until(staff, "matches_playing", 1)
    hour = timezone.now().astimezone(ROME).hour
    row = re.search(rf"<th scope=\"row\">{hour:02d}</th>" + r"<td class=\"num\">(\d+)</td>" * 3, frame)
    assert row and row.groups() == ("1", "0", "2"), "this hour: one table in play, no tournament match, two players"

    await player.disconnect(timeout=10)
    await online_until(staff, "players_online", 0)
    await drain(staff, 0.3)
    await staff.disconnect(timeout=10)


async def test_a_finance_socket_keeps_its_custom_period():
    finance = await sync_to_async(make_user)(group="finance")
    day = rome_today().isoformat()
    comm = await staff_socket(finance, f"period=custom&first={day}&last={day}")
    first = await online_until(comm, "players_online", 0)
    assert 'id="fig-activity_by_hour"' in first and "Players online" in first
    bad = await staff_socket(finance, "period=custom&first=nope")
    assert 'id="online-now"' in (await online_until(bad, "players_online", 0))  # a bad period: 7 days
    await comm.disconnect(timeout=10)
    await bad.disconnect(timeout=10)


async def test_without_redis_the_socket_also_rereads_what_other_processes_changed(settings):
    """A change that sends no signal here (another process's, under the in-memory layer):
    the poll finds it and pushes it; an unchanged poll pushes nothing."""
    settings.BACKOFFICE_ONLINE_POLL_SECONDS = 0.2
    operator = await sync_to_async(make_user)(group="operator")
    host = await sync_to_async(make_user)(nickname="PollHost")
    table = await sync_to_async(table_create)(user=host, data={"game": "briscola"})
    comm = await staff_socket(operator)
    await online_until(comm, "players_online", 0)
    assert await next_output(comm, 0.6) is None  # nothing changed: no push
    await sync_to_async(SocketConnection.objects.bulk_create)(  # bulk_create sends no post_save
        [SocketConnection(channel_name="elsewhere", table=table, user=host)])
    await online_until(comm, "players_online", 1)
    await comm.disconnect(timeout=10)


async def test_pushes_speak_the_page_language():
    operator = await sync_to_async(make_user)(group="operator")
    italian = await staff_socket(operator, language=b"it-IT,it;q=0.9,en;q=0.5")
    frame = await online_until(italian, "players_online", 0)
    assert "Giocatori collegati" in frame and "Players online" not in frame
    await italian.disconnect(timeout=10)


def test_the_socket_language_follows_cookie_then_browser():
    from apps.backoffice.consumers import socket_language

    assert socket_language([(b"cookie", b"django_language=it; sessionid=x"), (b"accept-language", b"en")]) == "it"
    assert socket_language([(b"accept-language", b"fr-FR, it;q=0.8")]) == "it"
    assert socket_language([(b"cookie", b"bad;;=\x00"), (b"accept-language", b"*")]) == "it"
