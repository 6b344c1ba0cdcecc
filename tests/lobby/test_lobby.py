"""The lobby a player lands on (issue 25): waiting tables to sit at in one click, "Gioca
subito" per game, the tournaments starting next, the player's balances in every page's header,
players online; a fixed number of queries whatever is on offer."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.utils import translation

from apps.compliance.services import sanction_issue
from apps.games.engines import ENGINES
from apps.tables import services
from apps.tables.models import Seat, SocketConnection, Table
from apps.wallet.services import wallet_credit
from tests.conftest import make_user
from tests.tournaments.conftest import create as tournament_create

pytestmark = pytest.mark.django_db


def client_for(user) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="it")
    client.force_login(user)
    return client


def page(client: Client, url: str = "/") -> str:
    resp = client.get(url)
    assert resp.status_code == 200
    return resp.content.decode()


def section(html: str, dom_id: str) -> str:
    match = re.search(rf'<section class="card" id="{dom_id}">(.*?)</section>', html, re.S)
    assert match, f"no #{dom_id}"
    return match.group(1)


def seated(table_id: int, user) -> bool:
    return Seat.objects.filter(table_id=table_id, player=user).exists()


def test_the_lobby_shows_a_waiting_table_and_one_click_seats_the_player():
    giulia, mario = make_user(nickname="Giulia"), make_user(nickname="Mario_88")
    table = services.table_create(user=giulia, data={"game": "briscola"})
    html = page(client_for(mario))
    tables = section(html, "lobby-tables")
    assert f'data-table="{table.pk}"' in tables and "Briscola" in tables and "Giulia" in tables
    assert "manca 1 giocatore" in tables and "Siediti" in tables
    resp = client_for(mario).post(f"/lobby/sit/{table.pk}/")
    assert resp.status_code == 302 and resp["Location"] == f"/tables/{table.pk}/"
    assert seated(table.pk, mario)
    assert table.matches.filter(status="playing").exists()  # the table was full: the match began


def test_a_full_or_private_or_playing_table_is_not_offered():
    a, b, c = (make_user(nickname=n) for n in ("Anna_1", "Bruno_2", "Carla_3"))
    private = services.table_create(user=a, data={"game": "scopa", "private": True})
    full = services.table_create(user=b, data={"game": "briscola"})
    services.table_sit(user=c, table_id=full.pk)
    tables = section(page(client_for(make_user(nickname="Dario_4"))), "lobby-tables")
    assert f'data-table="{private.pk}"' not in tables and f'data-table="{full.pk}"' not in tables
    assert "Nessun tavolo aspetta un giocatore" in tables


def test_my_own_waiting_table_offers_to_go_back_not_to_sit():
    giulia = make_user(nickname="Giulia")
    table = services.table_create(user=giulia, data={"game": "briscola"})
    tables = section(page(client_for(giulia)), "lobby-tables")
    assert f'href="/tables/{table.pk}/"' in tables and "Torna al tuo tavolo" in tables
    assert f"/lobby/sit/{table.pk}/" not in tables


def test_sitting_from_the_lobby_says_why_not():
    giulia, mario = make_user(nickname="Giulia"), make_user(nickname="Mario_88")
    wallet_credit(player=giulia, currency="cash", amount=500, kind="adjustment", reference="t", source="house:cashier")
    table = services.table_create(user=giulia, data={"game": "briscola", "official": True, "stake": 200,
                                                     "currency": "cash"})
    # a cash stake: Mario has no cash
    client = client_for(mario)
    resp = client.post(f"/lobby/sit/{table.pk}/", follow=True)
    assert resp.redirect_chain[-1][0] == "/"
    assert "€2,00 in contanti" in resp.content.decode()
    assert not seated(table.pk, mario)


def test_play_now_seats_the_player_at_the_first_open_table():
    giulia, luca, mario = (make_user(nickname=n) for n in ("Giulia", "LucaScopa", "Mario_88"))
    staked = services.table_create(user=luca, data={"game": "scopa", "official": True, "stake": 50})
    older = services.table_create(user=giulia, data={"game": "scopa", "players": 4})
    closer = services.table_create(user=make_user(nickname="Anna_1"), data={"game": "scopa", "players": 4})
    services.table_sit(user=make_user(nickname="Bruno_2"), table_id=closer.pk)
    resp = client_for(mario).post("/lobby/play/scopa/")
    # the table closest to starting (fewest free seats), never one with a stake
    assert resp.status_code == 302 and resp["Location"] == f"/tables/{closer.pk}/"
    assert seated(closer.pk, mario) and not seated(older.pk, mario) and not seated(staked.pk, mario)
    again = client_for(mario).post("/lobby/play/scopa/")  # already seated there: back to it
    assert again["Location"] == f"/tables/{closer.pk}/"
    assert Seat.objects.filter(player=mario).count() == 1


def test_play_now_prefers_a_table_whose_player_is_there():
    gone, here = make_user(nickname="Andato_1"), make_user(nickname="Presente_2")
    left = services.table_create(user=gone, data={"game": "briscola"})  # then closed the page
    waiting = services.table_create(user=here, data={"game": "briscola"})
    SocketConnection.objects.create(channel_name="here", table=waiting, user=here)
    mario = make_user(nickname="Mario_88")
    tables = section(page(client_for(mario)), "lobby-tables")
    assert tables.index(f'data-table="{waiting.pk}"') < tables.index(f'data-table="{left.pk}"')
    assert client_for(mario).post("/lobby/play/briscola/")["Location"] == f"/tables/{waiting.pk}/"


def test_play_now_opens_a_table_with_the_default_settings_when_none_is_open():
    mario = make_user(nickname="Mario_88")
    before = set(Table.objects.values_list("pk", flat=True))
    resp = client_for(mario).post("/lobby/play/tresette/")
    table = Table.objects.exclude(pk__in=before).get()
    assert resp["Location"] == f"/tables/{table.pk}/"
    assert (table.game, table.leader_id, table.stake, table.official, table.private, table.players) == (
        "tresette", mario.pk, 0, False, False, 2)
    assert seated(table.pk, mario)


def test_play_now_refusals_are_clear_messages():
    staff = make_user(group="operator")
    resp = client_for(staff).post("/lobby/play/briscola/", follow=True)
    assert "Gli account dello staff non possono giocare" in resp.content.decode()
    banned = make_user(nickname="Bandito_1")
    sanction_issue(actor=make_user(group="compliance"), player=banned.pk, kind="lobby_ban", duration="1_month",
                   reason="test")
    resp = client_for(banned).post("/lobby/play/briscola/", follow=True)
    assert resp.status_code == 200 and 'class="error"' in resp.content.decode()
    assert not Seat.objects.filter(player=banned).exists()
    resp = client_for(make_user(nickname="Mario_88")).post("/lobby/play/nogame/", follow=True)
    assert "Gioco sconosciuto" in resp.content.decode()
    assert Client().post("/lobby/play/briscola/")["Location"].startswith("/accounts/login/")


def test_a_visitor_is_asked_to_log_in_then_comes_back_to_the_lobby():
    table = services.table_create(user=make_user(nickname="Giulia"), data={"game": "briscola"})
    html = page(Client(HTTP_ACCEPT_LANGUAGE="it"))
    assert f"/lobby/sit/{table.pk}/" not in html and "/lobby/play/" not in html  # no form a visitor cannot use
    assert html.count('href="/accounts/login/?next=/"') >= 14  # every game's Gioca subito and the waiting table


def test_the_next_tournaments_show_their_entry_and_seats_left():
    operator = make_user(group="operator")
    t = tournament_create(operator, name="Coppa della sera", game="briscola", min_players=8, max_players=8,
                          buy_in_cents=250)
    tournament_create(operator, name="Freeroll del lunedì", game="scopa", kind="scheduled", min_players=2,
                      max_players=4, buy_in_cents=0, prize="bonus", guaranteed_cents=1000)
    html = section(page(client_for(make_user(nickname="Mario_88"))), "lobby-tournaments")
    assert "Coppa della sera" in html and "€2,50" in html and "8 posti liberi" in html
    assert "Freeroll del lunedì" in html and "gratuita" in html and "4 posti liberi" in html
    assert html.index("Freeroll del lunedì") < html.index("Coppa della sera")  # scheduled first, by time
    assert f'/tournaments/{t["id"]}/' in html


def test_balances_in_the_header_of_every_page():
    mario = make_user(nickname="Mario_88")
    wallet_credit(player=mario, currency="cash", amount=1250, kind="adjustment", reference="t", source="house:cashier")
    wallet_credit(player=mario, currency="bonus", amount=300, kind="adjustment", reference="t",
                  source="house:promotions")
    client = client_for(mario)
    for url in ("/", "/tables/", "/tournaments/", "/rankings/briscola/", "/accounts/profile/"):
        header = re.search(r'<a id="header-balances".*?</a>', page(client, url), re.S).group(0)
        header = " ".join(re.sub(r"<[^>]+>", " ", header).split())
        assert "€12,50" in header and "€3,00" in header and "300 crediti" in header, url  # 300 welcome credits
    assert 'id="header-balances"' not in page(client_for(make_user(group="finance")), "/")


def test_players_online_counts_players_with_a_table_socket():
    giulia = make_user(nickname="Giulia")
    table = services.table_create(user=giulia, data={"game": "briscola"})
    SocketConnection.objects.create(channel_name="c1", table=table, user=giulia)
    SocketConnection.objects.create(channel_name="c2", table=table, user=giulia)
    SocketConnection.objects.create(channel_name="c3", table=table, user=make_user(group="operator"))
    assert "1 giocatore online al tavolo" in page(client_for(giulia))
    with translation.override("en"):
        assert "1 player online at a table" in page(Client(HTTP_ACCEPT_LANGUAGE="en"))


def test_the_live_part_is_polled_and_carries_the_balances():
    mario = make_user(nickname="Mario_88")
    html = page(client_for(mario))
    assert 'hx-get="/lobby/live/"' in html and "every 5s" in html
    live = page(client_for(mario), "/lobby/live/")
    assert live.startswith('<div id="lobby-live"') and 'id="header-balances" ' in live and 'hx-swap-oob="true"' in live


def _offer(n: int) -> None:
    operator = make_user(group="operator")
    for i in range(n):
        leader = make_user(nickname=f"Capo_{Table.objects.count()}")
        table = services.table_create(user=leader, data={"game": "scopa", "players": 4})
        SocketConnection.objects.create(channel_name=f"q{table.pk}", table=table, user=leader)
        tournament_create(operator, name=f"Torneo {i}", game="briscola", min_players=8)


@pytest.mark.parametrize("url", ["/", "/lobby/live/"])
def test_the_lobby_reads_a_fixed_number_of_queries(url, django_assert_max_num_queries):
    mario = make_user(nickname="Mario_88")
    client = client_for(mario)
    _offer(2)
    page(client, url)
    with django_assert_max_num_queries(15):  # +1 the conto's state (regulation.md §1.5), +1 the session header (§4.1), +1 the time limit (§2.5)
        small = page(client, url)
    _offer(6)
    with django_assert_max_num_queries(15):  # +1 the conto's state (regulation.md §1.5), +1 the session header (§4.1), +1 the time limit (§2.5)
        big = page(client, url)
    assert big.count("data-table=") == 8 > small.count("data-table=") == 2


def test_play_now_opens_a_table_of_every_game():
    player = make_user(nickname="Tutti_1")
    client = client_for(player)
    for game in ENGINES:
        resp = client.post(f"/lobby/play/{game}/")
        table = Table.objects.filter(game=game, seats__player=player).get()
        assert resp.status_code == 302 and resp["Location"] == f"/tables/{table.pk}/", game
