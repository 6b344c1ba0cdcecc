"""A tournament match's page (platform.md §5.7, §10): the table's view of a match with no
table. Its seated players see their own hand and play by clicking; anyone else logged in,
staff included, sees the spectator's view only; the page's socket pushes "changed" after
the other seat's move and takes a move through the action service."""

from __future__ import annotations

import asyncio
import re

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from apps.games.engines import get_engine
from apps.matches.models import Match
from apps.matches.services import match_action_apply
from apps.tournaments.models import TournamentMatch
from config.asgi import application
from tests.conftest import make_user

from .conftest import create, play_match, players, register_all

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(120)]
CARD = re.compile(r'data-card="([^"]+)"')


def heads_up(operator, game: str = "briscola"):
    """A Sit&Go of two, started: its one match in play and the two players in seat order."""
    t = create(operator, game=game, max_players=2, payouts=[100])
    people = players(2, cash=2000)
    register_all(t["id"], people)
    tm = TournamentMatch.objects.get(tournament_id=t["id"])
    match = Match.objects.get(pk=tm.match_id)
    by_id = {p.pk: p for p in people}
    seated = [by_id[ms.player_id] for ms in match.match_seats.order_by("number")]
    return t, match, seated


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_seated_player_sees_own_hand_others_and_staff_no_hidden_card(operator, compliance):
    t, match, (first, second) = heads_up(operator)
    state = get_engine(match.game).from_json(match.state)
    url = f"/tournaments/matches/{match.pk}/"

    tournament_page = logged_in(first).get(f"/tournaments/{t['id']}/").content.decode()
    assert "Gioca la tua partita" in tournament_page and f'href="{url}"' in tournament_page
    assert f'href="{url}"' in logged_in(first).get("/tournaments/").content.decode()

    page = logged_in(first).get(url)
    html = page.content.decode()
    assert page.status_code == 200
    assert f'ws-connect="/ws/tournaments/matches/{match.pk}/"' in html and f'id="match-{match.pk}-board"' in html
    shown = set(CARD.findall(html))
    assert set(state.view(0)["hand"]) <= shown and not (shown & set(state.hidden_from(0)))
    assert "Gioca ancora" not in html and "annullare" not in html.lower()

    other = logged_in(second).get(url).content.decode()
    assert not (set(CARD.findall(other)) & set(state.hidden_from(1)))
    to_act = html if 0 in state.to_act else other
    assert 'ws-send class="action"' in to_act  # the seat to play has its cards as clickable moves
    for watcher in (operator, compliance, make_user(superuser=True), make_user(nickname="Curioso")):
        resp = logged_in(watcher).get(url)
        seen = set(CARD.findall(resp.content.decode()))
        assert resp.status_code == 200 and not (seen & set(state.hidden_from(None)))
        assert 'ws-send class="action"' not in resp.content.decode()

    anonymous = Client().get(url)
    assert anonymous.status_code == 302 and "/login" in anonymous["Location"]
    assert logged_in(first).get("/tournaments/matches/999999/").status_code == 404


def _cookie(user) -> str:
    return logged_in(user).cookies["sessionid"].value


async def _connect(user, match_id: int) -> WebsocketCommunicator:
    headers = [(b"origin", b"http://testserver"), (b"host", b"testserver"),
               (b"cookie", f"sessionid={await sync_to_async(_cookie)(user)}".encode())]
    comm = WebsocketCommunicator(application, f"/ws/tournaments/matches/{match_id}/", headers=headers)
    connected, _ = await comm.connect()
    assert connected
    return comm


async def _frame_at(comm, match_id: int, version: int, timeout: float = 5.0) -> str:
    """Read frames until the board shows ``version``."""
    pattern = re.compile(rf'id="match-{match_id}-board"[^>]*data-version="(\d+)"')
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while loop.time() < deadline:
        frame = await asyncio.wait_for(comm.receive_from(), timeout=max(0.05, deadline - loop.time()))
        found = pattern.search(frame)
        if found and int(found.group(1)) >= version:
            return frame
    raise AssertionError(f"no render of version {version}")


def _to_act(match_id: int) -> tuple[int, int, dict]:
    match = Match.objects.get(pk=match_id)
    state = get_engine(match.game).from_json(match.state)
    seat = state.to_act[0]
    return seat, match.version, state.legal_actions(seat)[0]


async def test_other_seats_move_is_pushed_and_a_move_through_the_socket_works(operator):
    t, match, seated = await sync_to_async(heads_up)(operator)
    seat, version, action = await sync_to_async(_to_act)(match.pk)
    mover, watcher = seated[seat], seated[1 - seat]
    comm = await _connect(watcher, match.pk)
    await _frame_at(comm, match.pk, version)
    # the other seat moves (through the REST API's service): this socket is told and re-renders
    await sync_to_async(match_action_apply)(match_id=match.pk, action=action, version=version, user=mover)
    frame = await _frame_at(comm, match.pk, version + 1)
    state = await sync_to_async(lambda: get_engine(match.game).from_json(Match.objects.get(pk=match.pk).state))()
    assert not (set(CARD.findall(frame)) & set(state.hidden_from(1 - seat)))
    # now it is this seat's turn: its move goes through the page's socket
    seat2, version2, action2 = await sync_to_async(_to_act)(match.pk)
    assert seat2 == 1 - seat and 'ws-send class="action"' in frame
    await comm.send_json_to({"action": action2, "version": version2})
    await _frame_at(comm, match.pk, version2 + 1)
    assert await sync_to_async(lambda: Match.objects.get(pk=match.pk).version)() > version2
    # a friendly cancellation does not exist here: refused to the sender, nothing changes
    await comm.send_json_to({"cancel_vote": True})
    error = await asyncio.wait_for(comm.receive_from(), timeout=3)
    assert f'id="match-{match.pk}-error"' in error and 'data-code="not_allowed_in_tournament"' in error
    await comm.disconnect()


async def test_the_socket_refuses_an_anonymous_user_and_an_unknown_match(operator):
    t, match, seated = await sync_to_async(heads_up)(operator)
    anon = WebsocketCommunicator(application, f"/ws/tournaments/matches/{match.pk}/",
                                 headers=[(b"origin", b"http://testserver"), (b"host", b"testserver")])
    connected, code = await anon.connect()
    if connected:
        out = await anon.receive_output(timeout=3)
        assert out == {"type": "websocket.close", "code": 4401}
    headers = [(b"origin", b"http://testserver"), (b"host", b"testserver"),
               (b"cookie", f"sessionid={await sync_to_async(_cookie)(seated[0])}".encode())]
    gone = WebsocketCommunicator(application, "/ws/tournaments/matches/999999/", headers=headers)
    connected, code = await gone.connect()
    if connected:
        assert (await gone.receive_output(timeout=3)) == {"type": "websocket.close", "code": 4404}


def test_a_finished_match_shows_the_outcome_and_the_way_back_not_play_again(operator):
    t, match, (first, second) = heads_up(operator)
    play_match(match.pk)
    match.refresh_from_db()
    assert match.status == "finished"
    html = logged_in(first).get(f"/tournaments/matches/{match.pk}/").content.decode()
    assert "Torna al torneo" in html and f'href="/tournaments/{t["id"]}/"' in html
    assert ("Hai vinto!" in html) or ("Hai perso." in html) or ("Pareggio." in html)
    assert "Gioca ancora" not in html and 'id="ready-button"' not in html
