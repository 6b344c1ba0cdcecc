"""Tokens and login limits (platform.md §12): django-axes locks a username after 10 failures
and an IP after 50 within 15 minutes, page and API; DRF throttles users and anonymous IPs."""

from __future__ import annotations

import itertools
from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.core.cache import cache
from django.db.models import F
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from config.settings import base
from tests.conftest import LONG

pytestmark = pytest.mark.django_db
PASSWORD = "pw-Mazziere-1"
_ips = itertools.count(1)


def _client(ip: str | None = None) -> APIClient:
    client = APIClient()
    client.defaults["REMOTE_ADDR"] = ip or f"10.200.{next(_ips) // 250}.{next(_ips) % 250 + 1}"
    return client


def _token(client, username, password):
    return client.post("/api/auth/token/", {"username": username, "password": password}, format="json")


def _page_login(client, username, password):
    return client.post("/accounts/login/", {"username": username, "password": password},
                       HTTP_ACCEPT_LANGUAGE="en")


def _locked(answer):
    assert answer.status_code == 429, (answer.status_code, answer.content[:200])
    body = answer.json()
    assert body["code"] == "throttled" and "try again in 15 minutes" in body["detail"]
    assert 0 < body["wait"] <= 15 * 60 and int(answer["Retry-After"]) == body["wait"]


def test_token_is_the_same_every_time(user_factory):
    user = user_factory()
    first = _token(_client(), user.username, PASSWORD)
    assert first.status_code == 200 and set(first.json()) == {"token"}
    assert _token(_client(), user.username, PASSWORD).json() == first.json()
    assert Token.objects.get(user=user).key == first.json()["token"]
    me = APIClient()
    me.credentials(HTTP_AUTHORIZATION=f"Token {first.json()['token']}")
    assert me.get("/api/me/").json()["id"] == user.pk


@pytest.mark.parametrize(("body", "field"), [({}, "username"), ({"username": "x"}, "password"),
                                              ({"username": 5, "password": "x"}, "username"),
                                              ({"username": "x", "password": ["x"]}, "password")])
def test_token_body_is_validated(body, field):
    answer = _client().post("/api/auth/token/", body, format="json")
    assert answer.status_code == 400 and answer.json()["code"] == "validation_error"
    assert field in answer.json()["fields"]


def test_wrong_password_unknown_user_and_inactive_user_are_invalid_credentials(user_factory):
    user = user_factory()
    inactive = user_factory()
    inactive.is_active = False
    inactive.save()
    for username, password in ((user.username, "wrong"), ("nobody-here", PASSWORD), (inactive.username, PASSWORD)):
        answer = _token(_client(), username, password)
        assert answer.status_code == 400
        assert answer.json() == {"detail": "The username or password is not correct.", "code": "invalid_credentials"}
    assert not Token.objects.exists()


def test_stale_token_header_does_not_stop_a_login(user_factory):
    user = user_factory()
    client = _client()
    client.credentials(HTTP_AUTHORIZATION="Token revoked")
    assert _token(client, user.username, PASSWORD).status_code == 200


@LONG  # nine failures lock (the tests below); 300 of them: make test-long
def test_300_wrong_passwords_then_the_right_one_does_not_log_in_by_api(user_factory):
    user = user_factory()
    client = _client()
    codes = [_token(client, user.username, f"wrong{n}").status_code for n in range(300)]
    assert codes[:9] == [400] * 9 and set(codes[9:]) == {429}
    _locked(_token(client, user.username, PASSWORD))
    _locked(_token(_client(), user.username, PASSWORD))  # from anywhere: the username is locked
    assert not Token.objects.filter(user=user).exists()


@LONG
def test_300_wrong_passwords_then_the_right_one_does_not_log_in_by_page(client, user_factory):
    user = user_factory()
    for n in range(300):
        _page_login(client, user.username, f"wrong{n}")
    answer = _page_login(client, user.username, PASSWORD)
    assert answer.status_code == 429
    assert "Too many failed logins" in answer.content.decode()
    assert "_auth_user_id" not in client.session


def test_nine_failures_do_not_lock(user_factory):
    user = user_factory()
    client = _client()
    for n in range(9):
        assert _token(client, user.username, f"wrong{n}").status_code == 400
    assert _token(client, user.username, PASSWORD).status_code == 200


def test_username_lock_spans_page_and_api_and_lifts_after_15_minutes(client, user_factory):
    user = user_factory()
    other = user_factory()
    for n in range(9):
        assert _page_login(client, user.username, f"wrong{n}").status_code == 200
    tenth = _page_login(client, user.username, "wrong9")
    assert tenth.status_code == 429
    page = tenth.content.decode()
    assert "Too many failed logins" in page and "15 minutes" in page and 'name="password"' in page
    _locked(_token(_client(), user.username, PASSWORD))
    assert _page_login(client, user.username, PASSWORD).status_code == 429
    assert "_auth_user_id" not in client.session
    # another username from the same address is not locked (10 < 50)
    assert _page_login(client, other.username, PASSWORD).status_code == 302
    # 15 minutes later the failures have expired
    AccessAttempt.objects.update(attempt_time=F("attempt_time") - timedelta(minutes=15, seconds=1))
    assert _token(_client(), user.username, PASSWORD).status_code == 200


def test_italian_lockout_page(client, user_factory):
    user = user_factory()
    for n in range(10):
        answer = client.post("/accounts/login/", {"username": user.username, "password": f"x{n}"},
                             HTTP_ACCEPT_LANGUAGE="it")
    assert answer.status_code == 429 and "Troppi accessi falliti" in answer.content.decode()


def test_ip_is_locked_after_50_failures(user_factory):
    ip = "10.201.0.1"
    victims = [user_factory() for _ in range(10)]
    fresh, later = user_factory(), user_factory()
    client = _client(ip)
    for n in range(49):
        assert _token(client, victims[n % 10].username, "wrong").status_code == 400  # 4-5 each: no username lock
    assert _token(client, fresh.username, PASSWORD).status_code == 200  # 49 failures: still open
    assert _token(client, victims[9].username, "wrong").status_code == 429  # the 50th locks the address
    _locked(_token(client, later.username, PASSWORD))
    assert _token(_client("10.201.0.2"), later.username, PASSWORD).status_code == 200
    assert _token(_client("10.201.0.2"), victims[0].username, PASSWORD).status_code == 200


def test_admin_login_is_limited_too(client, superuser):
    for n in range(10):
        client.post("/admin/login/?next=/admin/", {"username": superuser.username, "password": f"x{n}"})
    answer = client.post("/admin/login/?next=/admin/", {"username": superuser.username, "password": PASSWORD})
    assert answer.status_code == 429 and "_auth_user_id" not in client.session


# -- DRF throttles ---------------------------------------------------------------------


def test_configured_rates_are_the_platform_ones():
    assert base.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"] == {"user": "600/min", "anon": "120/min"}
    assert base.AXES_FAILURE_LIMIT == 10 and base.LOGIN_IP_FAILURE_LIMIT == 50
    assert base.AXES_COOLOFF_TIME.total_seconds() == 15 * 60


@pytest.fixture
def real_rates(settings):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK,
                               "DEFAULT_THROTTLE_RATES": base.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]}


def _forget(*idents) -> None:
    cache.delete_many([f"throttle_{scope}_{ident}" for scope in ("user", "anon") for ident in idents])


def _throttled(answer):
    assert answer.status_code == 429
    body = answer.json()
    assert body["code"] == "throttled" and body["detail"] and int(answer["Retry-After"]) >= 1


def test_anonymous_ip_gets_120_a_minute(real_rates):
    ip, other_ip = "10.202.0.1", "10.202.0.2"
    _forget(ip, other_ip)
    client = _client(ip)
    codes = [client.get("/api/rankings/no-such-game/").status_code for _ in range(120)]
    assert set(codes) == {404}
    _throttled(client.get("/api/rankings/no-such-game/"))
    _throttled(client.post("/api/auth/token/", {"username": "a", "password": "b"}, format="json"))
    assert _client(other_ip).get("/api/rankings/no-such-game/").status_code == 404


def test_each_user_gets_600_a_minute(real_rates, api, user_factory):
    user, other = user_factory(), user_factory()
    _forget(user.pk, other.pk)
    client = api(user)
    codes = [client.get("/api/rankings/no-such-game/").status_code for _ in range(600)]
    assert set(codes) == {404}
    _throttled(client.get("/api/me/"))
    assert api(other, ip=client.defaults["REMOTE_ADDR"]).get("/api/me/").status_code == 200
