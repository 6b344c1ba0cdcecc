"""Tournament pages: the lobby in few queries, the page for players and operators, the demo."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from apps.tournaments.models import Tournament
from tests.conftest import api_client

from .conftest import create, play_round, players, register_all

pytestmark = pytest.mark.django_db(transaction=True)


def test_lobby_with_a_thousand_tournaments_in_few_queries(operator, django_assert_max_num_queries):
    start = timezone.now() + timedelta(days=1)
    Tournament.objects.bulk_create([
        Tournament(name=f"T{i}", game=("scopa", "briscola", "tresette")[i % 3],
                   kind="scheduled" if i % 2 else "sit_and_go", format="knockout", buy_in_cents=1000,
                   fee_cents=100, min_players=2, max_players=8, payouts=[50, 30, 20],
                   starts_at=start if i % 2 else None,
                   registrations_close_at=start - timedelta(minutes=2) if i % 2 else None)
        for i in range(1000)])
    client = Client()
    with django_assert_max_num_queries(10):
        resp = client.get("/tournaments/")
    html = resp.content.decode()
    assert resp.status_code == 200 and html.count('id="tournament-') == 1000
    assert "Sit and Go" in html and "€10,00 (9,00+1,00)" in html
    with django_assert_max_num_queries(10):
        assert client.get("/api/tournaments/?game=scopa").json()["count"] == 334


def test_page_shows_pool_split_entrants_and_register_errors(operator):
    t = create(operator, kind="scheduled", min_players=2, max_players=8, fee_cents=100)
    people = players(2, cash=1000)
    register_all(t["id"], people[:1])
    c = Client()
    c.force_login(people[1])
    html = c.get(f"/tournaments/{t['id']}/").content.decode()
    assert "Pl_" in html and "€10,00 (9,00+1,00)" in html and 'id="register"' in html
    resp = c.post(f"/tournaments/{t['id']}/register/", follow=True)
    assert 'id="unregister"' in resp.content.decode()
    [broke] = players(1)
    c.force_login(broke)
    resp = c.post(f"/tournaments/{t['id']}/register/", follow=True)
    assert "€10,00" in resp.content.decode() and 'class="error"' in resp.content.decode()
    c.cookies["django_language"] = "en"
    assert "Prize pool" in c.get(f"/tournaments/{t['id']}/").content.decode()


def test_cancelled_page_own_breakdown_and_operator_table(operator):
    t = create(operator, max_players=4, payouts=[100])
    people = players(4, cash=1000)
    register_all(t["id"], people)
    play_round(t["id"])
    api_client(operator).post(f"/api/tournaments/{t['id']}/cancel/", {"reason": "Guasto"}, format="json")
    c = Client()
    c.force_login(people[0])
    html = c.get(f"/tournaments/{t['id']}/").content.decode()
    assert 'id="my-refund"' in html and "Guasto" in html and 'id="refund-progress"' not in html
    staff = Client()
    staff.force_login(operator)
    html = staff.get(f"/tournaments/{t['id']}/").content.decode()
    assert 'id="refund-progress"' in html and html.count("<tr>") >= 5
