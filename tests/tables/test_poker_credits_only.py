"""Poker tables are credits only (seed 001), declared by the game's registration
(``Engine.currencies``), and the recharge button sits on the poker entry screen and at the
poker table, its rules beside it (platform.md §4)."""

from __future__ import annotations

import pytest
from django.test import Client

from apps.games.engines import ENGINES, get_engine
from apps.tables.models import Table
from apps.wallet.models import CreditRecharge

from ..conftest import make_user
from .conftest import fund

pytestmark = pytest.mark.django_db(transaction=True)
RULES = "300 crediti, due ore dopo la richiesta, quando ne hai meno di 50; al massimo due volte al giorno."


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_games_registration_says_which_currencies_it_is_played_for():
    assert get_engine("poker_italiana").currencies == ("credits",)
    assert all(set(e.currencies) == {"credits", "cash"} for e in ENGINES.values() if e.id != "poker_italiana")


def test_api_refuses_a_cash_poker_table_and_a_change_to_cash(api):
    anna = make_user(nickname="Anna_pc1")
    fund(anna, cash=10_000)
    refused = api(anna).post("/api/tables/", {"game": "poker_italiana", "official": True, "stake": 100,
                                              "currency": "cash"}, format="json")
    assert refused.status_code == 400
    body = refused.json()
    assert body["code"] == "validation_error" and "currency" in body["fields"]
    assert "credits only" in body["fields"]["currency"][0] or "crediti" in body["fields"]["currency"][0]
    assert not Table.objects.exists()
    ok = api(anna).post("/api/tables/", {"game": "poker_italiana", "official": True, "stake": 10}, format="json")
    assert ok.status_code == 201 and ok.json()["currency"] == "credits"
    patched = api(anna).patch(f"/api/tables/{ok.json()['id']}/", {"currency": "cash"}, format="json")
    assert patched.status_code == 400 and "currency" in patched.json()["fields"]
    assert Table.objects.get().currency == "credits"
    scopa = api(anna).post("/api/tables/", {"game": "scopa", "official": True, "stake": 100, "currency": "cash"},
                           format="json")
    assert scopa.status_code == 201  # other games keep both


def test_the_form_offers_no_cash_for_poker_and_refuses_it_in_words():
    anna = make_user(nickname="Anna_pc2")
    client = logged_in(anna)
    page = client.get("/tables/").content.decode()
    assert 'data-credits-only="poker_italiana"' in page
    answer = client.post("/tables/new/", {"game": "poker_italiana", "players": "2", "stake": "1,00",
                                          "currency": "cash", "official": "on", "turn_seconds": "30"}, follow=True)
    assert "Poker all&#x27;italiana si gioca solo a crediti." in answer.content.decode()
    assert not Table.objects.exists()


def test_the_recharge_button_is_on_the_poker_entry_screen_and_at_the_poker_table(clock):
    anna = make_user(nickname="Anna_pc3")
    fund(anna, credits=20 - 300)  # under 50: a recharge is allowed
    client = logged_in(anna)
    entry = client.get("/tables/?game=poker_italiana").content.decode()
    assert 'id="recharge-button"' in entry and RULES in entry and 'id="recharge-credits">20<' in entry
    assert 'id="recharge-button"' not in client.get("/tables/?game=scopa").content.decode()
    asked = client.post("/accounts/profile/recharge/", {"next": "/tables/?game=poker_italiana"})
    assert asked.status_code == 302 and asked["Location"] == "/tables/?game=poker_italiana"
    assert CreditRecharge.objects.filter(player=anna).count() == 1
    again = client.get("/tables/?game=poker_italiana").content.decode()
    assert 'id="recharge-pending"' in again
    assert client.post("/accounts/profile/recharge/", {"next": "https://evil.example/"})["Location"] == "/accounts/profile/"
    table = Table.objects.create(game="poker_italiana", players=2, leader=anna)
    at_table = client.get(f"/tables/{table.pk}/").content.decode()
    assert 'id="recharge-button"' in at_table and RULES in at_table
    scopa = Table.objects.create(game="scopa", players=2, leader=anna)
    assert 'id="recharge-button"' not in client.get(f"/tables/{scopa.pk}/").content.decode()
