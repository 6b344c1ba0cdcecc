"""Staff see no hidden card before the end (platform.md §8.2, §8.7).

A match dealt from a known seed is probed on every staff surface (the log endpoint, the
match endpoint, the admin replay with ``?seat=``, the Match and MatchAction admin with
their filters, the table page, the player replay page, the table socket) by operator,
compliance, finance and a superuser, while it is in play and after the end. While it
is in play no answer may hold a card code hidden from a spectator, nor the seed; after
the end the log and every seat's replay are open to staff for review.
"""

from __future__ import annotations

import json
import re

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from rest_framework.test import APIClient

from apps.games.engines import get_engine
from apps.matches import services as play
from apps.matches.models import Match, MatchAction
from apps.matches.services import creation as match_creation  # where a match draws its seed
from config.asgi import application

from ..conftest import make_user
from .conftest import briscola_table, play_out

#: not transactional: a flush drops the groups' admin permissions, and the admin screens
#: must open for staff exactly as they do in production (the socket test needs threads)
pytestmark = [pytest.mark.django_db, pytest.mark.timeout(180)]

#: a distinctive seed: its digits in any answer would be a leak
SEED = 271828182845904523536028747135266249775


@pytest.fixture
def known_deal(monkeypatch):
    """A Briscola match in play, dealt from SEED, with one full trick played (the draws
    that follow it put fresh hidden cards in both hands and in the actions' events)."""
    monkeypatch.setattr(match_creation, "new_seed", lambda: SEED)
    table, (alice, bruno) = briscola_table()
    match = table.matches.get()
    assert int(match.seed) == SEED
    users = {0: alice, 1: bruno}
    engine = get_engine("briscola")
    for _ in range(2):
        match.refresh_from_db()
        state = engine.from_json(match.state)
        seat = state.to_act[0]
        play.match_action_apply(match_id=match.pk, action=state.legal_actions(seat)[0], version=match.version,
                                user=users[seat])
    match.refresh_from_db()
    assert match.status == Match.PLAYING and MatchAction.objects.filter(match=match).count() == 2
    return table, match, users


def staff() -> dict[str, object]:
    return {"operator": make_user(group="operator"), "compliance": make_user(group="compliance"),
            "finance": make_user(group="finance"), "superuser": make_user(superuser=True)}


REVIEWERS = ("operator", "compliance", "superuser")


def hidden_now(match: Match) -> list[str]:
    """The card codes a spectator may not see right now: both hands and the stock."""
    state = get_engine(match.game).from_json(match.state)
    hidden = list(state.hidden_from(None))
    assert set(state.view(0)["hand"]) <= set(hidden) and set(state.view(1)["hand"]) <= set(hidden)
    return hidden


def leaks(text: str, hidden: list[str]) -> list[str]:
    """Hidden card codes and the seed found in ``text`` (whole codes only)."""
    found = [c for c in hidden if re.search(rf"(?<![A-Za-z0-9]){re.escape(c)}(?![A-Za-z0-9])", text)]
    return found + (["seed"] if str(SEED) in text else [])


def page_content(html: str) -> str:
    """The page's own content: the admin's chrome (menus, scripts) is not the match."""
    start = html.find('id="content"')
    return html[start:] if start >= 0 else html


def web(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_no_staff_surface_shows_a_hidden_card_or_the_seed_in_play(known_deal):
    table, match, _ = known_deal
    hidden = hidden_now(match)
    spectator_view = get_engine("briscola").from_json(match.state).view(None)
    action = MatchAction.objects.filter(match=match).order_by("seq").last()
    for role, user in staff().items():
        reviewer = role in REVIEWERS
        # the log endpoint: 403 for everyone, staff included, while in play
        log = api(user).get(f"/api/matches/{match.pk}/log/")
        assert log.status_code == 403 and log.json()["code"] == "permission_denied", (role, log.content[:200])
        assert not leaks(log.content.decode(), hidden), role
        # the match endpoint: a silent spectator's view(None), no controls
        detail = api(user).get(f"/api/matches/{match.pk}/")
        if reviewer:
            assert detail.status_code == 200, role
            assert detail.json()["view"] == json.loads(json.dumps(spectator_view)), role
            assert detail.json()["legal_actions"] == [] and detail.json()["seat"] is None, role
        assert not leaks(detail.content.decode(), hidden), role
        client = web(user)
        # the admin step-through replay, asked for a seat's view and a past step
        for query in ("", "?seat=0", "?seat=1&step=1", "?step=2&seat=0"):
            replay = client.get(f"/admin/matches/match/{match.pk}/replay/{query}")
            assert replay.status_code == (200 if reviewer else 403), (role, query)
            assert not leaks(page_content(replay.content.decode()), hidden), (role, query)
        if reviewer:
            shown = set(re.findall(r'data-card="([^"]+)"', replay.content.decode()))
            assert shown and not (shown & set(hidden)), role  # the live spectator board is drawn
        # the Match admin: no state, seed or deck on its page; no filter on them either
        change = client.get(f"/admin/matches/match/{match.pk}/change/")
        assert change.status_code == (200 if reviewer else 403), role
        assert not leaks(page_content(change.content.decode()), hidden), role
        for probe in (f"seed={SEED}", f"seed__startswith={str(SEED)[:3]}", f"state__icontains={hidden[0]}",
                      "deck__isnull=True", f"state__hands__0__contains=%5B%22{hidden[0]}%22%5D"):
            filtered = client.get(f"/admin/matches/match/?{probe}")
            assert filtered.status_code in (400, 403), (role, probe, filtered.status_code)
        # the MatchAction admin: no row, no action, no events of a match in play
        actions = client.get("/admin/matches/matchaction/")
        assert actions.status_code == (200 if reviewer else 403), role
        assert not leaks(page_content(actions.content.decode()), hidden), role
        one = client.get(f"/admin/matches/matchaction/{action.pk}/change/")
        assert one.status_code != 200 or not leaks(page_content(one.content.decode()), hidden), role
        for probe in (f"events__icontains={hidden[0]}", f"action__card={hidden[0]}"):
            filtered = client.get(f"/admin/matches/matchaction/?{probe}")
            assert filtered.status_code != 200 or f"/matchaction/{action.pk}/" not in filtered.content.decode()
        # the table page and the player's replay page
        page = client.get(f"/tables/{table.pk}/")
        assert not (set(re.findall(r'data-card="([^"]+)"', page.content.decode())) & set(hidden)), role
        mine = client.get(f"/tables/matches/{match.pk}/replay/?step=2")
        assert mine.status_code in (403, 404), role
    assert Match.objects.get(pk=match.pk).status == Match.PLAYING


@pytest.mark.django_db(transaction=True)
async def test_a_reviewer_socket_renders_only_the_spectator_view_in_play(known_deal):
    table, match, _ = known_deal
    hidden = await sync_to_async(hidden_now)(match)
    for role, user in (await sync_to_async(staff)()).items():
        if role not in REVIEWERS:
            continue
        client = await sync_to_async(web)(user)
        comm = WebsocketCommunicator(application, f"/ws/tables/{table.pk}/", headers=[
            (b"origin", b"http://testserver"), (b"host", b"testserver"),
            (b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode())])
        connected, _ = await comm.connect()
        assert connected, role
        frames = []
        while not await comm.receive_nothing(timeout=0.5, interval=0.01):
            output = await comm.receive_output()
            frames.append(output.get("text", ""))
        await comm.disconnect()
        text = "".join(frames)
        assert f'id="table-{table.pk}-board"' in text, role
        assert not (set(re.findall(r'data-card="([^"]+)"', text)) & set(hidden)), role
        assert str(SEED) not in text, role


def test_after_the_end_the_log_and_every_seat_are_open_to_staff(known_deal):
    table, match, users = known_deal
    engine = get_engine("briscola")
    dealt = engine.new_game(2, options=match.options, seed=SEED, deck=match.deck)
    first_hand = dealt.view(0)["hand"]
    match = play_out(match.pk, users)
    assert match.status == Match.FINISHED
    action = MatchAction.objects.filter(match=match).order_by("seq").first()
    for role, user in staff().items():
        reviewer = role in REVIEWERS
        log = api(user).get(f"/api/matches/{match.pk}/log/")
        assert log.status_code == (200 if reviewer else 403), role
        if reviewer:
            assert log.json()["seed"] == SEED and len(log.json()["actions"]) == match.version, role
        client = web(user)
        replay = client.get(f"/admin/matches/match/{match.pk}/replay/?seat=0&step=0")
        assert replay.status_code == (200 if reviewer else 403), role
        if reviewer:
            shown = set(re.findall(r'data-card="([^"]+)"', replay.content.decode()))
            assert set(first_hand) <= shown, role  # seat 0's hand at the deal
            assert "step 0 /" in replay.content.decode(), role
            change = client.get(f"/admin/matches/match/{match.pk}/change/").content.decode()
            assert str(SEED) in change, role  # the seed is shown for review
            actions = client.get(f"/admin/matches/matchaction/?match__id__exact={match.pk}").content.decode()
            assert f"/matchaction/{action.pk}/" in actions, role
            assert client.get(f"/admin/matches/matchaction/{action.pk}/change/").status_code == 200, role
            assert client.get(f"/tables/matches/{match.pk}/replay/").status_code == 200, role


def test_a_hidden_move_stays_out_of_the_action_admin_until_the_end(monkeypatch):
    """Hearts' pass names three cards nobody else may see: its MatchAction row (action
    and events) is not shown to staff while the match is in play."""
    from apps.tables import services

    monkeypatch.setattr(match_creation, "new_seed", lambda: SEED)
    players = [make_user(nickname=f"Cuori_{n}") for n in range(4)]
    table = services.table_create(user=players[0], data={"game": "hearts", "players": 4}, ip="10.0.3.1")
    for n, user in enumerate(players[1:], start=2):
        services.table_sit(user=user, table_id=table.pk, ip=f"10.0.3.{n}")
    match = table.matches.get()
    state = get_engine("hearts").from_json(match.state)
    seat = state.to_act[0]
    passed = state.legal_actions(seat)[0]
    play.match_action_apply(match_id=match.pk, action=passed, version=match.version, user=players[seat])
    match.refresh_from_db()
    hidden = hidden_now(match)
    assert set(passed["cards"]) <= set(hidden)
    row = MatchAction.objects.get(match=match)
    for role, user in staff().items():
        client = web(user)
        listing = client.get("/admin/matches/matchaction/")
        assert f"/matchaction/{row.pk}/" not in listing.content.decode(), role
        one = client.get(f"/admin/matches/matchaction/{row.pk}/change/")
        assert one.status_code != 200 or not leaks(page_content(one.content.decode()), passed["cards"]), role
        for probe in (f"action__icontains={passed['cards'][0]}", f"events__icontains={passed['cards'][0]}"):
            filtered = client.get(f"/admin/matches/matchaction/?{probe}")
            assert filtered.status_code != 200 or f"/matchaction/{row.pk}/" not in filtered.content.decode(), role
        replay = client.get(f"/admin/matches/match/{match.pk}/replay/?seat={seat}&step=1")
        assert not leaks(page_content(replay.content.decode()), passed["cards"]), role
