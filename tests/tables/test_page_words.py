"""Words on the pages (issue 25), each as the page renders it: one match is "conclusa", not
"conclusi"; an invitation is "Invito inviato a Giulia" (not "Giulia è invitato"); one satellite
seat is "1 posto" (not "posto/i"); Scala 40 counts rounds from 1 ("Giro 1", not "Giro 0") and
shows no pot at a table with no stake; the tables' button says "Apri" (not "Aperto")."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from apps.tables import services
from tests.tournaments.conftest import create as tournament_create
from tests.tournaments.conftest import players as funded_players
from tests.tournaments.conftest import register_all

from ..conftest import make_user
from .conftest import briscola_table, current_match, play_out

pytestmark = pytest.mark.django_db


def get(user, url: str) -> str:
    client = Client(HTTP_ACCEPT_LANGUAGE="it")
    if user is not None:
        client.force_login(user)
    resp = client.get(url, follow=True)
    assert resp.status_code == 200
    return " ".join(re.sub(r"<[^>]+>", " ", resp.content.decode()).split())


def test_my_matches_says_conclusa_for_one_match():
    a, b = make_user(nickname="Anna_1"), make_user(nickname="Bruno_2")
    table, _ = briscola_table(players=[a, b])
    play_out(current_match(table).pk, {0: a, 1: b})
    text = get(a, "/tables/matches/mine/")
    assert "— conclusa ·" in text and "conclusi" not in text


def test_an_invitation_says_invito_inviato_a():
    leader, giulia = make_user(nickname="Mario_88"), make_user(nickname="Giulia")
    table = services.table_create(user=leader, data={"game": "briscola", "private": True})
    client = Client(HTTP_ACCEPT_LANGUAGE="it")
    client.force_login(leader)
    resp = client.post(f"/tables/{table.pk}/invite/", {"nickname": "Giulia"}, follow=True)
    text = resp.content.decode()
    assert "Invito inviato a Giulia: ora può sedersi a questo tavolo." in text and "è invitato" not in text
    assert giulia


def test_one_satellite_seat_is_one_posto():
    operator = make_user(group="operator")
    target = tournament_create(operator, name="Serata finale", kind="scheduled", min_players=2, max_players=16,
                               buy_in_cents=2500)
    sat = tournament_create(operator, name="Satellite", max_players=8, min_players=8, prize="satellite",
                            satellite_target=target["id"], payouts=None)
    register_all(sat["id"], funded_players(3, cash=1000))
    text = get(None, f"/tournaments/{sat['id']}/")
    assert "Satellite: 1 posto in “Serata finale” (del valore di €25,00)." in text and "posto/i" not in text


def _scala40(stake: int) -> object:
    a, b = make_user(nickname=f"Sara_{stake}"), make_user(nickname=f"Teo_{stake}")
    table = services.table_create(user=a, data={"game": "scala40", "players": 2, "official": bool(stake),
                                                "stake": stake})
    services.table_sit(user=b, table_id=table.pk)
    return table, a


def test_scala40_counts_rounds_from_one_and_shows_no_pot_without_a_stake():
    table, a = _scala40(0)
    text = get(a, f"/tables/{table.pk}/")
    assert "Giro 1 · primo giro" in text and "Giro 0" not in text
    assert "Nel piatto" not in text
    staked, b = _scala40(10)
    assert "Nel piatto: 2 poste" in get(b, f"/tables/{staked.pk}/")


def test_the_tables_button_says_apri():
    leader = make_user(nickname="Mario_88")
    table = services.table_create(user=leader, data={"game": "briscola"})
    html = Client(HTTP_ACCEPT_LANGUAGE="it")
    html.force_login(make_user(nickname="Giulia"))
    page = html.get("/tables/").content.decode()
    assert re.search(rf'<tr data-table="{table.pk}">.*?>Apri</a>', page, re.S) and ">Aperto<" not in page
