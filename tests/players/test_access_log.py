"""The access log (regulation.md §4.3, §10): logins by page, admin and token, failures,
logouts and two-factor events, with IP, user agent and device; append-only."""

from __future__ import annotations

import pytest
from django.test import Client

from apps.common.models import AppendOnlyError
from apps.players.access_log import access_log_for
from apps.players.models import AccessLogEntry
from apps.players.two_factor import otp_device_create
from tests.conftest import api_client, make_user

pytestmark = pytest.mark.django_db
PASSWORD = "pw-Mazziere-1"


def test_page_login_failure_and_logout_are_logged_with_device_and_agent():
    player = make_user(nickname="Logged1", password=PASSWORD)
    client = Client(HTTP_USER_AGENT="Mozilla/5.0 (Test)", REMOTE_ADDR="10.9.8.7")
    client.get("/accounts/login/")
    device = client.cookies["mz_device"].value
    assert len(device) == 32
    client.post("/accounts/login/", {"username": player.username, "password": "wrong"})
    client.post("/accounts/login/", {"username": player.username, "password": PASSWORD})
    client.post("/accounts/logout/")
    rows = list(AccessLogEntry.objects.order_by("id").values_list("event", "username", "channel", "ip", "device",
                                                                   "user_agent"))
    assert [r[0] for r in rows] == ["login_failed", "login", "logout"]
    assert all(r[1] == player.username and r[2] == "page" and r[3] == "10.9.8.7" and r[4] == device
               and r[5] == "Mozilla/5.0 (Test)" for r in rows)
    assert [e.event for e in access_log_for(user_id=player.pk)] == ["logout", "login"]


def test_token_logins_and_their_failures():
    player = make_user(nickname="Tokened1", password=PASSWORD)
    api_client(ip="10.2.2.2").post("/api/auth/token/", {"username": player.username, "password": "nope"}, format="json")
    api_client(ip="10.2.2.2").post("/api/auth/token/", {"username": player.username, "password": PASSWORD},
                                   format="json")
    assert list(AccessLogEntry.objects.order_by("id").values_list("event", "channel")) == [
        ("login_failed", "token"), ("token", "token")]


def test_two_factor_events_join_the_log(operator):
    otp_device_create(user=operator, ip="10.3.3.3")
    entry = AccessLogEntry.objects.get(event="otp_device_created")
    assert (entry.user_id, entry.ip) == (operator.pk, "10.3.3.3")


def test_the_log_is_append_only():
    entry = AccessLogEntry.objects.create(event="login", username="x", created="2026-12-05T10:00:00Z")
    with pytest.raises(AppendOnlyError):
        entry.delete()
    with pytest.raises(AppendOnlyError):
        AccessLogEntry.objects.filter(pk=entry.pk).update(event="logout")
