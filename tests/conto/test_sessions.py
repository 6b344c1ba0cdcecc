"""Game sessions, the time limit and reality checks (regulation.md §2.5, §4.1, §4.2)."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest
from django.test import Client

from apps.common.errors import DomainError
from apps.conto.gates import play_time_gate
from apps.conto.limits import limits_set_initial
from apps.conto.models import GameSession
from apps.conto.services import conto_ensure
from apps.conto.sessions import (
    reality_check_answer,
    session_as_dict,
    session_open,
    session_touch,
    sessions_timeouts_record,
    time_used_minutes,
)
from apps.tables import services as tables
from apps.wallet.services import wallet_credit, wallet_debit
from tests.conftest import api_client, make_user

pytestmark = pytest.mark.django_db
ROME = ZoneInfo("Europe/Rome")
PASSWORD = "pw-Mazziere-1"


def test_a_login_opens_a_session_and_logout_ends_it(clock):
    clock.set(dt.datetime(2026, 12, 7, 9, tzinfo=ROME))
    player = make_user(nickname="Sess1", password=PASSWORD)
    client = Client(REMOTE_ADDR="10.7.7.7")
    client.post("/accounts/login/", {"username": player.username, "password": PASSWORD})
    session = GameSession.objects.get(user=player)
    assert session.ip == "10.7.7.7" and session.ended_at is None
    clock.set(dt.datetime(2026, 12, 7, 9, 45, tzinfo=ROME))
    client.post("/accounts/logout/")
    session.refresh_from_db()
    assert session.end_reason == "logout" and session.ended_at == clock.now
    # the next login greets with the previous one
    page = client.post("/accounts/login/", {"username": player.username, "password": PASSWORD}, follow=True)
    assert "07/12/2026 09:00" in page.content.decode()


def test_inactivity_ends_a_session_at_its_last_activity(clock):
    clock.set(dt.datetime(2026, 12, 7, 9, tzinfo=ROME))
    player = make_user(nickname="Sess2")
    first, _ = session_touch(user=player)
    clock.advance(minutes=20)
    assert session_touch(user=player)[0].pk == first.pk
    clock.advance(minutes=31)
    second, timed_out = session_touch(user=player)
    assert timed_out and second.pk != first.pk
    first.refresh_from_db()
    assert (first.end_reason, first.ended_at) == ("timeout", dt.datetime(2026, 12, 7, 9, 20, tzinfo=ROME))
    clock.advance(minutes=31)
    assert sessions_timeouts_record() == 1 and sessions_timeouts_record() == 0


def test_the_session_shape_counts_money_since_it_started(clock):
    clock.set(dt.datetime(2026, 12, 7, 9, tzinfo=ROME))
    player = make_user(nickname="Sess3")
    wallet_credit(player=player, currency="cash", amount=5000, kind="adjustment", reference="t", source="house:cashier")
    previous = session_open(user=player)
    clock.advance(hours=1)
    session = session_open(user=player)
    wallet_debit(player=player, currency="cash", amount=1000, kind="stake", reference="match:1",
                 destination="escrow:match:1")
    wallet_credit(player=player, currency="cash", amount=1800, kind="winnings", reference="match:1",
                  source="house:cashier")
    clock.advance(minutes=10)
    shape = session_as_dict(session)
    assert (shape["played_cents"], shape["won_cents"], shape["net_cents"]) == (1000, 1800, 800)
    assert shape["elapsed_seconds"] == 600
    assert shape["previous_login_at"] == previous.started_at.astimezone(ROME).isoformat()
    assert shape["reality_check"]["pending"] is False and shape["time_limit"]["remaining_minutes"] is None
    body = api_client(player).get("/api/me/session/").json()
    assert body["id"] == str(session.pk)
    rows = api_client(player).get("/api/me/sessions/").json()["results"]
    assert [r["id"] for r in rows] == [str(session.pk), str(previous.pk)]


def test_the_time_limit_counts_the_rome_day_once_and_refuses_new_matches(clock):
    clock.set(dt.datetime(2026, 12, 7, 23, 0, tzinfo=ROME))
    player = make_user(nickname="Sess4")
    limits_set_initial(conto=conto_ensure(user=player), values={"time_day": 30})
    session_open(user=player)
    for minute in range(10, 90, 10):  # active all along
        clock.set(dt.datetime(2026, 12, 7, 23, 0, tzinfo=ROME) + dt.timedelta(minutes=minute))
        session_touch(user=player)
    assert time_used_minutes(user_id=player.pk) == 20  # only today's part
    clock.set(dt.datetime(2026, 12, 8, 0, 26, tzinfo=ROME))
    session_touch(user=player)
    shape = session_as_dict(GameSession.objects.get(user=player, ended_at__isnull=True))
    assert shape["time_limit"] == {"remaining_minutes": 4, "warning": True}
    clock.set(dt.datetime(2026, 12, 8, 0, 30, tzinfo=ROME))
    with pytest.raises(DomainError) as refused:
        tables.table_create(user=player, data={"game": "briscola"})  # credits and practice too
    assert refused.value.code == "time_limit_reached"
    assert refused.value.extra["resets_at"] == "2026-12-09T00:00:00+01:00"


def test_a_reality_check_is_due_every_hour_and_blocks_new_play_until_answered(clock):
    clock.set(dt.datetime(2026, 12, 7, 9, tzinfo=ROME))
    player = make_user(nickname="Sess5")
    session_open(user=player)
    play_time_gate(user=player)
    response = api_client(player).post("/api/me/session/reality-check/", {"choice": "continue"}, format="json")
    assert (response.status_code, response.json()["code"]) == (409, "invalid_transition")
    for _ in range(6):
        clock.advance(minutes=10)
        session_touch(user=player)
    with pytest.raises(DomainError) as refused:
        play_time_gate(user=player)
    assert refused.value.code == "reality_check_pending"
    answer = reality_check_answer(user=player, choice="continue")
    assert answer == {"choice": "continue", "next_due_at": "2026-12-07T11:00:00+01:00", "logged_out": False}
    play_time_gate(user=player)
    for _ in range(6):
        clock.advance(minutes=10)
        session_touch(user=player)
    assert reality_check_answer(user=player, choice="leave")["logged_out"] is True
    assert GameSession.objects.get(user=player).end_reason == "logout"
    bad = api_client(player).post("/api/me/session/reality-check/", {"choice": "nap"}, format="json")
    assert bad.status_code == 400
