"""Table pages: the tables lobby and its create form, the table page, replays (player, admin)."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from apps.games.engines import get_engine
from apps.matches.models import Match
from apps.tables.models import Table

from ..conftest import make_user
from .conftest import briscola_table, play_out

pytestmark = pytest.mark.django_db(transaction=True)


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_lobby_lists_open_tables_and_creates_one():
    alice = make_user(nickname="Lobby_Alice")
    client = logged_in(alice)
    page = client.get("/tables/")
    assert page.status_code == 200 and "Crea un tavolo" in page.content.decode()
    answer = client.post("/tables/new/", {"game": "scopa", "players": "2", "stake": "0", "currency": "credits",
                                          "turn_seconds": "30", "spectators": "on", "opt-scopa-target": "11",
                                          "opt-scopa-hands": "5"})
    table = Table.objects.get()
    assert answer.status_code == 302 and answer["Location"] == f"/tables/{table.pk}/"
    assert table.game == "scopa" and table.leader == alice and table.game_options == {"hands": 5}  # 11 is the default
    listing = client.get("/tables/?game=scopa", HTTP_HX_REQUEST="true").content.decode()
    assert f'data-table="{table.pk}"' in listing and "Lobby_Alice" in listing
    bad = client.post("/tables/new/", {"game": "scopa", "players": "3"}, follow=True)
    assert "Giocatori per Scopa" in bad.content.decode() and Table.objects.count() == 1


def test_table_page_shows_own_hand_only_and_connects_the_socket():
    table, (alice, bruno) = briscola_table()
    match = table.matches.get()
    state = get_engine("briscola").from_json(match.state)
    page = logged_in(alice).get(f"/tables/{table.pk}/").content.decode()
    assert f'ws-connect="/ws/tables/{table.pk}/"' in page and f'id="table-{table.pk}-board"' in page
    mine = set(state.view(0)["hand"])
    shown = set(re.findall(r'data-card="([^"]+)"', page))
    assert mine <= shown and not (shown & set(state.hidden_from(0)))
    watcher = logged_in(make_user(nickname="Curious"))
    spectator_page = watcher.get(f"/tables/{table.pk}/").content.decode()
    assert not (set(re.findall(r'data-card="([^"]+)"', spectator_page)) & set(state.hidden_from(None)))
    assert "ws-send class=\"action\"" not in spectator_page


def test_sit_and_leave_from_the_page():
    alice, bruno = make_user(nickname="Page_A"), make_user(nickname="Page_B")
    client = logged_in(alice)
    client.post("/tables/new/", {"game": "briscola", "spectators": "on"})
    table = Table.objects.get()
    other = logged_in(bruno)
    assert other.post(f"/tables/{table.pk}/sit/").status_code == 302
    assert table.matches.filter(status="playing").exists()
    full = logged_in(make_user(nickname="Page_C")).post(f"/tables/{table.pk}/sit/", follow=True)
    assert "Il tavolo è al completo." in full.content.decode()


def test_player_replays_own_finished_match_seeing_only_own_view():
    table, (alice, bruno) = briscola_table()
    match = play_out(table.matches.get().pk, {0: alice, 1: bruno})
    client = logged_in(alice)
    assert f"/tables/matches/{match.pk}/replay/" in client.get("/tables/matches/mine/").content.decode()
    log_states = []
    engine = get_engine("briscola")
    state = engine.new_game(2, options=match.options, seed=int(match.seed), deck=match.deck)
    log_states.append(engine.from_json(state.to_json()))
    for action in match.actions.order_by("seq"):
        state.apply(action.seat, action.action)
        log_states.append(engine.from_json(state.to_json()))
    for step in (0, 5, len(log_states) - 1):
        page = client.get(f"/tables/matches/{match.pk}/replay/?step={step}").content.decode()
        shown = set(re.findall(r'data-card="([^"]+)"', page))
        assert set(log_states[step].view(0)["hand"]) <= shown
        assert not (shown & set(log_states[step].hidden_from(0))), step
    stranger = logged_in(make_user(nickname="NotInIt"))
    assert stranger.get(f"/tables/matches/{match.pk}/replay/").status_code == 404


def test_admin_step_through_replay_for_staff_only():
    table, (alice, bruno) = briscola_table()
    match = play_out(table.matches.get().pk, {0: alice, 1: bruno})
    operator = make_user(group="operator")
    finance = make_user(group="finance")
    page = logged_in(operator).get(f"/admin/matches/match/{match.pk}/replay/?step=3&seat=1")
    assert page.status_code == 200 and "step 3" in page.content.decode()
    assert logged_in(finance).get(f"/admin/matches/match/{match.pk}/replay/").status_code == 403
    assert Match.objects.get(pk=match.pk).status == "finished"


def test_a_cancelled_match_says_so_on_the_table_page():
    """After a friendly cancellation the board says "annullata" instead of showing the
    hand as if it were still being played (platform.md §8.4)."""
    from apps.matches.services import match_cancel_vote

    table, (alice, bruno) = briscola_table()
    match = table.matches.get()
    page = logged_in(alice).get(f"/tables/{table.pk}/").content.decode()
    assert "Partita annullata" not in page
    match_cancel_vote(match_id=match.pk, user=alice, accept=True)
    match_cancel_vote(match_id=match.pk, user=bruno, accept=True)
    assert Match.objects.get(pk=match.pk).status == Match.CANCELLED
    for user in (alice, bruno):
        page = logged_in(user).get(f"/tables/{table.pk}/").content.decode()
        assert "Partita annullata" in page and "Partita finita" not in page
        assert "di turno" not in page  # nobody's turn in a match that is over
