"""Blocked, closed and dormant conti cannot log in (regulation.md §1.5): the login page says
why, the token endpoint refuses, a held session or token gets 403 but on GET /api/me/account/."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.authtoken.models import Token

from apps.conto import states as S
from apps.conto.models import Conto
from apps.conto.services import conto_ensure
from tests.conftest import api_client, make_user

pytestmark = pytest.mark.django_db
PASSWORD = "pw-Mazziere-1"


def _set(user, state, reason=""):
    conto = conto_ensure(user=user)
    Conto.objects.filter(pk=conto.pk).update(state=state, state_reason=reason)


@pytest.mark.parametrize(("state", "reason"), [(S.BLOCCATO, ""), (S.CHIUSO, S.GIOCATORE), (S.DORMIENTE, "")])
def test_the_login_page_says_why(state, reason):
    player = make_user(nickname="Closed1", password=PASSWORD)
    _set(player, state, reason)
    page = Client().post("/accounts/login/", {"username": player.username, "password": PASSWORD})
    assert page.status_code == 200  # the form again, with the reason
    body = page.content.decode()
    assert "_auth_user_id" not in page.client.session
    assert {"bloccato": "bloccato", "chiuso": "chiuso", "dormiente": "dormiente"}[state] in body.lower() or \
        {"bloccato": "blocked", "chiuso": "closed", "dormiente": "dormant"}[state] in body.lower()


@pytest.mark.parametrize("state", [S.IN_VERIFICA, S.SOSPESO, S.APERTO])
def test_states_that_may_log_in_do(state):
    player = make_user(nickname="Open1", password=PASSWORD)
    _set(player, state, S.OPERATORE if state == S.SOSPESO else "")
    client = Client()
    assert client.post("/accounts/login/", {"username": player.username, "password": PASSWORD}).status_code == 302


def test_the_token_endpoint_refuses_with_the_state():
    player = make_user(nickname="Closed2", password=PASSWORD)
    _set(player, S.CHIUSO, S.OPERATORE)
    response = api_client().post("/api/auth/token/", {"username": player.username, "password": PASSWORD},
                                 format="json")
    assert response.status_code == 403
    assert (response.json()["code"], response.json()["state"], response.json()["state_reason"]) == (
        "account_not_open", "chiuso", "operatore")


def test_a_held_token_or_session_is_refused_everywhere_but_the_account():
    player = make_user(nickname="Held1", password=PASSWORD)
    token = Token.objects.create(user=player)
    client = Client()
    assert client.post("/accounts/login/", {"username": player.username, "password": PASSWORD}).status_code == 302
    _set(player, S.BLOCCATO)
    by_token = api_client()
    by_token.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    for api in (by_token, client):
        wallet = api.get("/api/me/wallet/")
        assert (wallet.status_code, wallet.json()["code"], wallet.json()["state"]) == (403, "account_not_open",
                                                                                        "bloccato")
        account = api.get("/api/me/account/")
        assert account.status_code == 200 and account.json()["state"] == "bloccato"
    page = client.get("/accounts/profile/")
    assert page.status_code == 403 and 'data-code="account_not_open"' in page.content.decode()
    assert "_auth_user_id" not in client.session  # logged out


def test_staff_and_open_players_pay_one_query_at_most(django_assert_max_num_queries, operator):
    player = make_user(nickname="Cheap1", password=PASSWORD)
    conto_ensure(user=player)
    client = Client()
    client.force_login(player)
    client.get("/api/me/account/")  # warm
    from apps.players.account_state import refusal_error
    with django_assert_max_num_queries(1):
        assert refusal_error(player) is None
    with django_assert_max_num_queries(1):
        assert refusal_error(operator) is None
