"""The table socket and the player's session (regulation.md §2.5, §4.1, §4.2): the reality
check is drawn at the seat's next turn boundary, never during its turn; the time limit's one
notice; a player's frames keep the game session alive."""

from __future__ import annotations

import datetime as dt

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.utils import timezone

from apps.conto.limits import limits_set_initial
from apps.conto.models import GameSession
from apps.conto.services import conto_ensure
from apps.games.engines import get_engine
from apps.play import consumers
from config.asgi import application

from ..conftest import make_user
from .conftest import briscola_table, current_match
from .test_consumer import drain, frames_with, next_frame, settled

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(120)]
BOX = 'data-testid="reality-check"'


def _login_backdated(user, *, minutes: int) -> str:
    """A page login whose game session started ``minutes`` ago and was active a moment ago."""
    client = Client()
    client.force_login(user)
    now = timezone.now()
    GameSession.objects.filter(user=user, ended_at__isnull=True).update(
        started_at=now - dt.timedelta(minutes=minutes), last_seen_at=now - dt.timedelta(seconds=5))
    return client.cookies["sessionid"].value


async def _open(user, table_id, *, minutes: int) -> WebsocketCommunicator:
    cookie = await sync_to_async(_login_backdated)(user, minutes=minutes)
    comm = WebsocketCommunicator(application, f"/ws/tables/{table_id}/", headers=[
        (b"origin", b"http://testserver"), (b"host", b"testserver"), (b"cookie", f"sessionid={cookie}".encode())])
    connected, _code = await comm.connect()
    assert connected
    return comm


@sync_to_async
def _to_act(table):
    match = current_match(table)
    state = get_engine(match.game).from_json(match.state)
    return match, state.to_act[0], state


async def test_the_reality_check_waits_for_the_end_of_the_turn_and_shows_at_once_to_the_seat_not_to_act():
    table, players = await sync_to_async(briscola_table)()
    match, seat, state = await _to_act(table)
    seats = {ms.number: ms.player_id for ms in await sync_to_async(list)(match.match_seats.all())}
    acting = next(p for p in players if p.pk == seats[seat])
    waiting = next(p for p in players if p.pk != seats[seat])
    comm_acting = await _open(acting, table.pk, minutes=61)
    comm_waiting = await _open(waiting, table.pk, minutes=61)
    first_acting = await next_frame(comm_acting, 30.0)
    first_waiting = await next_frame(comm_waiting, 30.0)
    assert BOX not in first_acting  # its turn: never during the turn
    assert BOX in first_waiting and 'value="continue"' in first_waiting  # not to act: at once
    await drain(comm_acting)
    await drain(comm_waiting)
    await comm_acting.send_json_to({"action": state.legal_actions(seat)[0], "version": match.version})
    assert await frames_with(comm_acting, BOX)  # right after the move
    for comm in (comm_acting, comm_waiting):
        await comm.disconnect()


async def test_the_time_limit_sends_one_notice_and_a_page_refreshes_the_session():
    table, players = await sync_to_async(briscola_table)()
    player = players[0]

    def limit():
        limits_set_initial(conto=conto_ensure(user=player), values={"time_day": 3})
    await sync_to_async(limit)()
    comm = await _open(player, table.pk, minutes=1)  # ≤ 5 minutes left today
    notices = await frames_with(comm, "⏱", timeout=30.0)
    assert len(notices) == 1
    await drain(comm)
    await comm.send_json_to({"sync": True})
    frames = await drain(comm, 1.0)
    assert not any("⏱" in f for f in frames)  # one notice, not one a render
    await comm.disconnect()


async def test_a_players_frames_keep_the_game_session_alive(monkeypatch):
    monkeypatch.setattr(consumers, "TOUCH_SECONDS", 0.0)  # a minute since this socket last touched it
    table, players = await sync_to_async(briscola_table)()
    player = players[0]
    comm = await _open(player, table.pk, minutes=10)
    await settled(comm)

    def stale():  # the last request was two minutes ago
        GameSession.objects.filter(user=player, ended_at__isnull=True).update(
            last_seen_at=timezone.now() - dt.timedelta(minutes=2))
        return GameSession.objects.get(user=player, ended_at__isnull=True).last_seen_at
    before = await sync_to_async(stale)()
    await comm.send_json_to({"sync": True})
    await drain(comm, 1.0)
    after = await sync_to_async(lambda: GameSession.objects.get(user=player, ended_at__isnull=True).last_seen_at)()
    assert after > before
    await comm.disconnect()


@pytest.mark.django_db
def test_the_reality_check_answered_from_a_table_goes_away_in_place(client):
    player = make_user(nickname="RcHtmx")
    client.force_login(player)
    GameSession.objects.filter(user=player, ended_at__isnull=True).update(
        started_at=timezone.now() - dt.timedelta(minutes=61))
    answer = client.post("/accounts/session/reality-check/", {"choice": "continue"}, HTTP_HX_REQUEST="true")
    assert answer.status_code == 200 and answer.content.decode() == '<div id="reality-check-slot"></div>'
    assert client.post("/accounts/session/reality-check/", {"choice": "continue"},
                       HTTP_HX_REQUEST="true").status_code == 200  # none pending: nothing to show
    GameSession.objects.filter(user=player, ended_at__isnull=True).update(
        started_at=timezone.now() - dt.timedelta(minutes=125), reality_check_base_minutes=0)
    leave = client.post("/accounts/session/reality-check/", {"choice": "leave"}, HTTP_HX_REQUEST="true")
    assert leave.headers["HX-Redirect"] == "/"
    assert not GameSession.objects.filter(user=player, ended_at__isnull=True).exists()
