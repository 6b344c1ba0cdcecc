"""What a seat says when its player is away (issue 25): not "Giulia gioca il Robot" (it means
the reverse) but "Giulia non è in linea · torna entro 2:45" while the grace period runs, with a
countdown, and "il computer gioca per Giulia" when the robot plays the seat."""

from __future__ import annotations

import pytest
from django.test import Client

from apps.matches.models import MatchSeat
from apps.tables import services

from ..conftest import make_user
from .conftest import briscola_table, current_match

pytestmark = pytest.mark.django_db


def table_page(table, user, language: str = "it") -> str:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    resp = client.get(f"/tables/{table.pk}/")
    assert resp.status_code == 200
    return " ".join(resp.content.decode().split())


def test_a_disconnected_player_is_shown_with_the_grace_countdown(clock):
    giulia, mario = make_user(nickname="Giulia"), make_user(nickname="Mario_88")
    table, _ = briscola_table(players=[mario, giulia])
    services.socket_connected(table_id=table.pk, user=giulia, channel_name="g1")
    services.socket_disconnected(table_id=table.pk, user=giulia, channel_name="g1")
    seat = MatchSeat.objects.get(match=current_match(table), player=giulia)
    assert seat.robot_playing and seat.grace_deadline is not None
    clock.advance(seconds=15)
    html = table_page(table, mario)
    assert 'Giulia non è in linea · torna entro <span class="left">2:45</span>' in html
    assert f'data-grace="{seat.grace_deadline.isoformat()}"' in html  # the page counts down from it
    assert "gioca il Robot" not in html and "il computer gioca per Giulia" not in html
    english = table_page(table, mario, "en")
    assert 'Giulia is not connected · back within <span class="left">2:45</span>' in english


def test_the_computer_plays_for_a_connected_player_who_is_away():
    giulia, mario = make_user(nickname="Giulia"), make_user(nickname="Mario_88")
    table, _ = briscola_table(players=[mario, giulia])
    MatchSeat.objects.filter(match=current_match(table), player=giulia).update(robot_playing=True)  # timeouts
    html = table_page(table, mario)
    assert "il computer gioca per Giulia" in html and "non è in linea" not in html
    assert "the computer plays for Giulia" in table_page(table, mario, "en")
