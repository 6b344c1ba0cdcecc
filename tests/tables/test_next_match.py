"""The next match only by confirmation (platform.md §8.1), the cancellation vote of a
player in the grace period (§8.4), and moves for someone else's seat."""

from __future__ import annotations

import json

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.core.management import call_command

from apps.games.engines import get_engine
from apps.matches.models import Match, MatchAction
from apps.tables import services
from apps.tables.models import Table
from apps.wallet.selectors import ledger_check, wallet_get
from config.asgi import application

from ..conftest import api_client, make_user
from .conftest import fund, play_out

pytestmark = pytest.mark.django_db(transaction=True)

STAKE = 100


def staked_table(a, b):
    fund(a, cash=1000)
    fund(b, cash=1000)
    response = api_client(a).post("/api/tables/", {"game": "briscola", "official": True, "stake": STAKE,
                                                    "currency": "cash"}, format="json")
    assert response.status_code == 201, response.json()
    table_id = response.json()["id"]
    assert api_client(b).post(f"/api/tables/{table_id}/sit/", {}, format="json").status_code == 200
    return Table.objects.get(pk=table_id)


def play_rest(match_id, users):
    """Play to the end through the REST API, the first legal action every time."""
    for _ in range(500):
        match = Match.objects.get(pk=match_id)
        if match.status != Match.PLAYING:
            return match
        state = get_engine(match.game).from_json(match.state)
        seat = state.to_act[0]
        response = api_client(users[seat]).post(f"/api/matches/{match_id}/actions/", {
            "action": state.legal_actions(seat)[0], "version": match.version}, format="json")
        assert response.status_code == 200, response.json()
    raise AssertionError("match did not end")


async def table_socket(user, table_id):
    communicator = WebsocketCommunicator(application, f"/ws/tables/{table_id}/",
                                         headers=[(b"origin", b"http://testserver"), (b"host", b"testserver")])
    communicator.scope["user"] = user
    connected, _ = await communicator.connect()
    assert connected
    await communicator.receive_from(timeout=5)  # the first render
    return communicator


def cash(user) -> int:
    return wallet_get(player=user)["cash_cents"]


async def test_players_who_closed_the_tab_are_never_charged_again(clock):
    """Two players at a staked table play a match with the page open, then close their tabs:
    nothing starts 10 s later, and 60 s after the end both seats are free, nothing charged."""
    a = await sync_to_async(make_user)(nickname="Tab_Alice")
    b = await sync_to_async(make_user)(nickname="Tab_Bruno")
    table = await sync_to_async(staked_table)(a, b)
    sockets = [await table_socket(a, table.pk), await table_socket(b, table.pk)]
    first = await sync_to_async(lambda: table.matches.get())()
    await sync_to_async(play_rest)(first.pk, {0: a, 1: b})
    for communicator in sockets:
        await communicator.disconnect()
    after_first = (await sync_to_async(cash)(a), await sync_to_async(cash)(b))
    assert sum(after_first) == 2000 - 20  # the bank took its 10% of the 200 pot once (the cash regime)

    for seconds in (11, 30, 21):  # 11 s (the old pause), 41 s, then 62 s after the end
        clock.advance(seconds=seconds)
        await sync_to_async(call_command)("tournaments_tick")
        assert await sync_to_async(lambda: table.matches.count())() == 1
    assert (await sync_to_async(cash)(a), await sync_to_async(cash)(b)) == after_first
    seats = await sync_to_async(lambda: list(table.seats.values_list("player_id", flat=True)))()
    assert seats == [None, None]
    assert await sync_to_async(ledger_check)() is None


def test_the_confirmation_that_completes_the_set_starts_the_match(clock):
    a, b = make_user(nickname="Conf_A"), make_user(nickname="Conf_B")
    table = staked_table(a, b)
    play_out(table.matches.get().pk, {0: a, 1: b})
    before = cash(a), cash(b)
    clock.advance(seconds=30)
    call_command("tournaments_tick")
    assert table.matches.count() == 1

    first = api_client(a).post(f"/api/tables/{table.pk}/ready/")
    assert first.status_code == 200
    assert first.json() == {"ready": ["Conf_A"], "waiting": ["Conf_B"], "match": None}
    again = api_client(a).post(f"/api/tables/{table.pk}/ready/")  # a second confirmation changes nothing
    assert again.json() == first.json()
    assert (cash(a), cash(b)) == before

    last = api_client(b).post(f"/api/tables/{table.pk}/ready/")
    assert last.status_code == 200
    second = table.matches.get(status=Match.PLAYING)
    assert last.json() == {"ready": ["Conf_A", "Conf_B"], "waiting": [], "match": second.pk}
    assert (cash(a), cash(b)) == (before[0] - STAKE, before[1] - STAKE)
    during = api_client(a).post(f"/api/tables/{table.pk}/ready/")
    assert during.status_code == 409 and during.json()["code"] == "match_in_progress"
    assert ledger_check() is None


def test_only_who_did_not_confirm_is_stood_up(clock):
    a, b = make_user(nickname="Late_A"), make_user(nickname="Late_B")
    table = staked_table(a, b)
    play_out(table.matches.get().pk, {0: a, 1: b})
    before = cash(a), cash(b)
    assert api_client(a).post(f"/api/tables/{table.pk}/ready/").status_code == 200
    clock.advance(seconds=59)
    call_command("tournaments_tick")
    assert table.seats.filter(player=b).exists()
    clock.advance(seconds=2)
    call_command("tournaments_tick")
    assert not table.seats.filter(player=b).exists() and table.seats.filter(player=a, ready=True).exists()
    assert (cash(a), cash(b)) == before and table.matches.count() == 1
    late = api_client(b).post(f"/api/tables/{table.pk}/ready/")
    assert late.status_code == 409 and late.json()["code"] == "not_seated"
    # a new player sits down (asking for a match by sitting): a, who confirmed, plays on
    c = make_user(nickname="Late_C")
    fund(c, cash=500)
    assert api_client(c).post(f"/api/tables/{table.pk}/sit/", {}, format="json").status_code == 200
    assert table.matches.filter(status=Match.PLAYING).count() == 1
    assert cash(a) == before[0] - STAKE and cash(b) == before[1]
    assert ledger_check() is None


def test_a_cancelled_match_also_waits_for_confirmation(clock):
    a, b = make_user(nickname="Canc_A"), make_user(nickname="Canc_B")
    table = staked_table(a, b)
    match = table.matches.get()
    for user in (a, b):
        assert api_client(user).post(f"/api/matches/{match.pk}/cancel-vote/", {"accept": True},
                                     format="json").status_code == 200
    assert Match.objects.get(pk=match.pk).status == Match.CANCELLED
    assert cash(a) == 1000 and cash(b) == 1000
    clock.advance(seconds=20)
    call_command("tournaments_tick")
    assert table.matches.count() == 1
    assert ledger_check() is None


def test_a_settings_change_between_matches_asks_everyone_again(clock):
    a, b = make_user(nickname="Set_A"), make_user(nickname="Set_B")
    table = staked_table(a, b)
    play_out(table.matches.get().pk, {0: a, 1: b})
    assert api_client(b).post(f"/api/tables/{table.pk}/ready/").status_code == 200
    clock.advance(seconds=40)
    patch = api_client(a).patch(f"/api/tables/{table.pk}/", {"stake": 300}, format="json")
    assert patch.status_code == 200, patch.json()
    assert not table.seats.filter(ready=True).exists()  # b confirmed a 100 stake, not 300
    clock.advance(seconds=30)  # 70 s after the end, 30 s after the change: still in the new window
    call_command("tournaments_tick")
    assert table.seats.filter(player__isnull=False).count() == 2
    assert table.matches.count() == 1


def test_robots_never_play_on_alone(clock):
    a = make_user(nickname="Robo_Lead")
    table = services.table_create(user=a, data={"game": "briscola"})
    services.table_robot_add(user=a, table_id=table.pk, seat=1)
    match = table.matches.get()
    services.table_leave(user=a, table_id=table.pk)  # an abandonment: the two-sided match ends
    assert Match.objects.get(pk=match.pk).status == Match.FINISHED
    for _ in range(3):
        clock.advance(seconds=61)
        call_command("tournaments_tick")
    assert table.matches.count() == 1
    assert services.table_start_if_ready(table_id=table.pk) is None


def test_the_page_shows_play_again_between_matches(client, clock):
    a, b = make_user(nickname="Page_A"), make_user(nickname="Page_B")
    table = staked_table(a, b)
    play_out(table.matches.get().pk, {0: a, 1: b})
    client.force_login(a)
    page = client.get(f"/tables/{table.pk}/").content.decode()
    assert 'id="ready-button"' in page and "Gioca ancora" in page
    assert client.post(f"/tables/{table.pk}/ready/").status_code == 302
    page = client.get(f"/tables/{table.pk}/").content.decode()
    assert 'id="ready-button"' not in page and "Page_B" in page



def test_play_again_is_offered_with_the_outcome_before_the_table_handles_the_end(client, clock):
    """The outcome and "Gioca ancora" come in one render: until the table's after-match hook has
    run (after the commit), the seats' ready flags are those of sitting down for the match just
    played, and must not read as "you asked for the next match" (issue 12, scala40 in CI)."""
    from apps.tables.models import TableMatch

    a, b = make_user(nickname="Early_A"), make_user(nickname="Early_B")
    table = staked_table(a, b)
    match_id = table.matches.get().pk
    play_out(match_id, {0: a, 1: b})
    TableMatch.objects.filter(match_id=match_id).update(ended=False)  # as before the hook runs
    Table.objects.filter(pk=table.pk).update(confirm_deadline=None)
    table.seats.update(ready=True)
    client.force_login(a)
    page = client.get(f"/tables/{table.pk}/").content.decode()
    assert 'id="ready-button"' in page and "Gioca ancora" in page, "the outcome came without Play again"
    assert "Hai chiesto la prossima partita" not in page
    assert client.post(f"/tables/{table.pk}/ready/").status_code == 302  # asking now opens the window first
    page = client.get(f"/tables/{table.pk}/").content.decode()
    assert 'id="ready-button"' not in page and "Hai chiesto la prossima partita" in page and "Early_B" in page
    assert TableMatch.objects.get(match_id=match_id).ended

# -- §8.4: a player in the grace period still votes ---------------------------------------------


def test_a_disconnected_player_cannot_be_cancelled_out_of_the_match():
    a, b = make_user(nickname="Vote_A"), make_user(nickname="Vote_B")
    table = staked_table(a, b)
    match = table.matches.get()
    services.socket_connected(table_id=table.pk, user=b, channel_name="vote-b")
    services.socket_disconnected(table_id=table.pk, user=b, channel_name="vote-b")  # b's socket blinks
    assert match.match_seats.get(player=b).robot_playing
    alone = api_client(a).post(f"/api/matches/{match.pk}/cancel-vote/", {"accept": True}, format="json")
    assert alone.status_code == 200
    assert alone.json()["proposal"] == {"votes": {"Vote_A": True}, "waiting": ["Vote_B"], "cancelled": False}
    assert Match.objects.get(pk=match.pk).status == Match.PLAYING
    # b, still in the grace period, votes (here without a socket) and refuses: the match goes on
    refused = api_client(b).post(f"/api/matches/{match.pk}/cancel-vote/", {"accept": False}, format="json")
    assert refused.status_code == 200, refused.json()
    assert refused.json()["proposal"]["votes"] == {"Vote_A": True, "Vote_B": False}
    assert Match.objects.get(pk=match.pk).status == Match.PLAYING
    assert cash(a) == 1000 - STAKE and cash(b) == 1000 - STAKE


def test_leader_robots_and_abandoned_seats_do_not_vote():
    users = [make_user(nickname=f"Hv{i}_x") for i in range(3)]
    lead = users[0]
    table = services.table_create(user=lead, data={"game": "hearts", "players": 4})
    services.table_sit(user=users[1], table_id=table.pk)
    services.table_sit(user=users[2], table_id=table.pk)
    services.table_robot_add(user=lead, table_id=table.pk, seat=3)
    match = table.matches.get()
    services.table_leave(user=users[2], table_id=table.pk)  # abandons: the robot plays seat 2 on
    first = api_client(users[0]).post(f"/api/matches/{match.pk}/cancel-vote/", {"accept": True}, format="json")
    assert first.json()["proposal"]["waiting"] == ["Hv1_x"]
    second = api_client(users[1]).post(f"/api/matches/{match.pk}/cancel-vote/", {"accept": True}, format="json")
    assert second.json()["proposal"]["cancelled"] is True


# -- only your own seat ----------------------------------------------------------------------------


def _seat_and_legal(match):
    state = get_engine(match.game).from_json(match.state)
    seat = state.to_act[0]
    return seat, state.legal_actions(seat)[0]


def test_a_rest_move_naming_another_seat_is_refused():
    a, b = make_user(nickname="Own_A"), make_user(nickname="Own_B")
    table = staked_table(a, b)
    match = table.matches.get()
    seat, action = _seat_and_legal(match)
    other = {0: b, 1: a}[seat]  # the player who is NOT to act
    named = api_client(other).post(f"/api/matches/{match.pk}/actions/",
                                   {"action": action, "version": match.version, "seat": seat}, format="json")
    assert named.status_code == 403 and named.json()["code"] == "permission_denied", named.json()
    unnamed = api_client(other).post(f"/api/matches/{match.pk}/actions/",
                                     {"action": action, "version": match.version}, format="json")
    assert unnamed.status_code == 409 and unnamed.json()["code"] == "not_your_turn"
    bad = api_client(other).post(f"/api/matches/{match.pk}/actions/",
                                 {"action": action, "version": match.version, "seat": "x"}, format="json")
    assert bad.status_code == 400 and "seat" in bad.json()["fields"]
    match.refresh_from_db()
    assert match.version == 0 and not MatchAction.objects.filter(match=match).exists()


def test_the_action_service_refuses_a_seat_that_is_not_yours():
    from apps.common.errors import Forbidden
    from apps.matches.services import match_action_apply

    a, b = make_user(nickname="Svc_A"), make_user(nickname="Svc_B")
    table = staked_table(a, b)
    match = table.matches.get()
    seat, action = _seat_and_legal(match)
    other = {0: b, 1: a}[seat]
    with pytest.raises(Forbidden):
        match_action_apply(match_id=match.pk, action=action, version=match.version, user=other, seat=seat)
    assert Match.objects.get(pk=match.pk).version == 0


async def test_a_socket_move_naming_another_seat_is_refused():
    a = await sync_to_async(make_user)(nickname="Sock_A")
    b = await sync_to_async(make_user)(nickname="Sock_B")
    table = await sync_to_async(staked_table)(a, b)
    match = await sync_to_async(lambda: table.matches.get())()
    seat, action = _seat_and_legal(match)
    other = {0: b, 1: a}[seat]
    communicator = await table_socket(other, table.pk)
    await communicator.send_to(text_data=json.dumps({"action": action, "version": match.version, "seat": seat}))
    reply = await communicator.receive_from(timeout=5)
    assert 'role="alert"' in reply and 'data-code="permission_denied"' in reply, reply
    await communicator.disconnect()
    assert (await sync_to_async(Match.objects.get)(pk=match.pk)).version == 0
