"""Briscola leaves the counting to the player (issue 25, briscola.md §7): the board shows the
sides' running points when the hand is over, during play only if the table says so."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.utils import translation

from apps.common.errors import ValidationFailed
from apps.games.engines import get_engine
from apps.matches.services import match_action_apply
from apps.tables import selectors, services
from apps.tables.models import Match, Table
from apps.tables.render import render_fragments

from ..conftest import make_user
from .conftest import briscola_table, current_match, play_out

pytestmark = pytest.mark.django_db(transaction=True)


def board_text(table, user) -> str:
    with translation.override("en"):
        html = render_fragments(table_id=table.pk, user=user)[0]
    start = html.index(f'<section id="table-{table.pk}-board"')
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html[start:html.index("</section>", start)]))


def play_until_points_taken(table, users) -> Match:
    """Play first legal actions until some side holds card points, the hand still running."""
    for _ in range(40):
        match = current_match(table)
        state = get_engine("briscola").from_json(match.state)
        if any(state.view(None)["points_taken"]) and not state.trick:
            return match
        seat = state.to_act[0]
        match_action_apply(match_id=match.pk, action=state.legal_actions(seat)[0], version=match.version,
                           user=users[seat])
    raise AssertionError("no card points taken")


def test_the_running_points_are_hidden_during_the_hand_and_shown_at_its_end():
    table, users = briscola_table()
    play_until_points_taken(table, users)
    during = board_text(table, users[0])
    assert "Cards taken" in during and "Points taken" not in during, during
    match = play_out(current_match(table).pk, dict(enumerate(users)))
    final = get_engine("briscola").from_json(match.state).view(None)["points_taken"]
    after = board_text(table, users[0])
    assert "Points taken" in after
    assert re.search(rf"\b{final[0]}\b.*\b{final[1]}\b", after.split("Points taken", 1)[1]), after


def test_a_table_may_show_the_running_points_during_play():
    table, users = briscola_table(show_points=True)
    assert table.show_points and selectors.table_as_dict(table)["show_points"] is True
    match = play_until_points_taken(table, users)
    points = get_engine("briscola").from_json(match.state).view(None)["points_taken"]
    during = board_text(table, users[1])
    assert "Points taken" in during
    with translation.override("it"):
        assert "punti visibili durante la smazzata" in render_fragments(table_id=table.pk, user=users[1])[0]
    rows = during.split("Points taken", 1)[1]
    assert re.search(rf"\b{points[0]}\b.*\b{points[1]}\b", rows), rows


def test_in_a_match_of_hands_the_last_hand_points_are_shown_not_the_running_ones():
    table, users = briscola_table(game_options={"mode": "hands", "hands": 3})
    match = current_match(table)
    for _ in range(500):  # to the first card of the second hand
        match = Match.objects.get(pk=match.pk)
        state = get_engine("briscola").from_json(match.state)
        if state.finished and any(state.view(None)["points_taken"]) or match.status != Match.PLAYING:
            break
        seat = state.to_act[0]
        match_action_apply(match_id=match.pk, action=state.legal_actions(seat)[0], version=match.version,
                           user=users[seat])
    assert match.status == Match.PLAYING and state.finished
    text = board_text(table, users[0])
    assert "Points taken" not in text and "Last hand" in text
    last = state.finished[-1]["points"]
    assert re.search(rf"\b{last[0]}\b.*\b{last[1]}\b", text.split("Last hand", 1)[1]), text


def test_only_a_game_that_hides_its_running_points_offers_the_option():
    user = make_user(nickname="Scopa_pts")
    with pytest.raises(ValidationFailed) as refused:
        services.table_create(user=user, data={"game": "scopa", "show_points": True})
    assert "show_points" in refused.value.extra["fields"]
    with pytest.raises(ValidationFailed):
        services.table_create(user=user, data={"game": "briscola", "show_points": "yes"})


def test_the_create_form_offers_the_option_for_briscola_only():
    user = make_user(nickname="Form_pts")
    client = Client()
    client.force_login(user)
    lobby = client.get("/tables/").content.decode()
    assert 'name="show_points"' in lobby
    assert 'value="briscola"' in lobby and "data-hidden-points" in lobby.split('value="briscola"', 1)[1].split(">", 1)[0]
    assert "data-hidden-points" not in lobby.split('value="scopa"', 1)[1].split(">", 1)[0]
    client.post("/tables/new/", {"game": "briscola", "players": "2", "show_points": "on"})
    assert Table.objects.get(leader=user).show_points
