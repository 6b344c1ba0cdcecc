"""A Sit&Go's start reaches its players' open pages (issue 25): every page of a player has its
own socket (/ws/tournaments/me/) that says "your table is ready" with the link as soon as their
match starts; and the match's first turn clock waits for a player who has not sat down yet,
until they open the match (its socket) or the grace ends (platform.md §5.7: never longer)."""

from __future__ import annotations

import asyncio
import json
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.core.management import call_command
from django.test import Client

from apps.games.engines import get_engine
from apps.matches.models import Match, MatchSeat
from apps.tournaments import play, services
from config.asgi import application

from .conftest import create, players, playing_matches, register_all

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(120)]


def _cookie(user) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


HEADERS = [(b"origin", b"http://testserver"), (b"host", b"testserver")]


async def _socket(user, path: str, language: str = "it") -> WebsocketCommunicator:
    headers = [*HEADERS, (b"accept-language", language.encode()),
               (b"cookie", f"sessionid={await sync_to_async(_cookie)(user)}".encode())]
    comm = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await comm.connect()
    assert connected
    return comm


async def _me_socket(user, language: str = "it") -> WebsocketCommunicator:
    return await _socket(user, "/ws/tournaments/me/", language)


async def test_every_open_page_hears_your_table_is_ready_when_the_sit_and_go_fills(operator):
    t = await sync_to_async(create)(operator, max_players=2, payouts=[100])
    first, last = await sync_to_async(players)(2, cash=1000)
    await sync_to_async(register_all)(t["id"], [first])
    italian, english = await _me_socket(first, "it"), await _me_socket(first, "en")
    assert await italian.receive_nothing(timeout=0.3)  # no match yet: nothing to say
    await sync_to_async(services.tournament_register)(user=last, tournament_id=t["id"])  # full: it starts
    [match_id] = await sync_to_async(playing_matches)(t["id"])
    frame = json.loads(await asyncio.wait_for(italian.receive_from(), timeout=5))
    assert frame["matches"] == [match_id]
    assert "Il tuo tavolo è pronto" in frame["html"] and f'href="/tournaments/matches/{match_id}/"' in frame["html"]
    assert "hidden" not in frame["html"].split(">", 1)[0]
    frame_en = json.loads(await asyncio.wait_for(english.receive_from(), timeout=5))
    assert "Your table is ready" in frame_en["html"]
    # a page opened later offers the match already in play at once
    later = await _me_socket(last)
    assert json.loads(await asyncio.wait_for(later.receive_from(), timeout=5))["matches"] == [match_id]
    for comm in (italian, english, later):
        await comm.disconnect()
    # opening the match's own socket seats the player: their turn clock, which waited, starts now
    match = await sync_to_async(Match.objects.get)(pk=match_id)
    seat = await sync_to_async(lambda: get_engine(match.game).from_json(match.state).to_act[0])()
    to_act = await sync_to_async(lambda: MatchSeat.objects.get(match=match, number=seat).player)()
    table = await _socket(to_act, f"/ws/tournaments/matches/{match_id}/")
    await table.receive_from(timeout=5)
    seated = await sync_to_async(MatchSeat.objects.get)(match=match, number=seat)
    fresh = await sync_to_async(Match.objects.get)(pk=match_id)
    assert seated.awaited_until is None and fresh.turn_deadline < match.turn_deadline
    await table.disconnect()
    # the players' socket is for players: anonymous users and staff are refused
    anonymous = WebsocketCommunicator(application, "/ws/tournaments/me/", headers=HEADERS)
    assert (await anonymous.connect())[0]
    assert (await anonymous.receive_output(timeout=3))["code"] == 4401
    await anonymous.disconnect()
    staff = await _me_socket(operator)
    assert (await staff.receive_output(timeout=3))["code"] == 4403
    await staff.disconnect()


def _started_match(operator, turn_seconds: int = 30):
    t = create(operator, max_players=2, payouts=[100], turn_seconds=turn_seconds)
    people = players(2, cash=1000)
    register_all(t["id"], people)
    [match_id] = playing_matches(t["id"])
    match = Match.objects.get(pk=match_id)
    seat = get_engine(match.game).from_json(match.state).to_act[0]
    to_act = MatchSeat.objects.get(match=match, number=seat).player
    return match, to_act


def test_the_first_turn_clock_waits_for_an_absent_player_until_the_grace_ends(operator, clock, settings):
    settings.TOURNAMENT_SEAT_GRACE_SECONDS = 60
    start = clock()
    match, _ = _started_match(operator)
    assert set(MatchSeat.objects.filter(match=match).values_list("awaited_until", flat=True)) == {
        start + timedelta(seconds=60)}
    assert match.turn_deadline == start + timedelta(seconds=90)  # the grace, then the turn
    clock.advance(seconds=89)
    call_command("tournaments_tick")
    assert Match.objects.get(pk=match.pk).version == match.version  # no robot move yet
    clock.advance(seconds=2)
    call_command("tournaments_tick")
    assert Match.objects.get(pk=match.pk).version > match.version  # the grace is over: the timer played


def test_the_first_turn_clock_starts_when_the_player_sits_down(operator, clock, settings):
    settings.TOURNAMENT_SEAT_GRACE_SECONDS = 60
    match, to_act = _started_match(operator)
    clock.advance(seconds=31)  # past a turn: nothing moves while they are not seated
    call_command("tournaments_tick")
    assert Match.objects.get(pk=match.pk).version == match.version
    seated_at = clock()
    assert play.match_seat_back(match_id=match.pk, user=to_act)  # their match's socket opened
    fresh = Match.objects.get(pk=match.pk)
    assert fresh.turn_deadline == seated_at + timedelta(seconds=30)
    assert MatchSeat.objects.get(match=match, player=to_act).awaited_until is None
    clock.advance(seconds=29)
    call_command("tournaments_tick")
    assert Match.objects.get(pk=match.pk).version == match.version
    clock.advance(seconds=2)
    call_command("tournaments_tick")
    assert Match.objects.get(pk=match.pk).version > match.version  # their clock ran out
