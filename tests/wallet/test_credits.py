"""Play-money credits (platform.md §4) with a controllable clock."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from apps.compliance.models import Sanction
from apps.wallet import services
from apps.wallet.selectors import wallet_get

pytestmark = pytest.mark.django_db


def spend_to(player, credits):
    have = wallet_get(player=player)["credits"]
    services.wallet_debit(player=player, currency="credits", amount=have - credits, kind="stake",
                          reference="test", destination="house:bank")


def test_recharge_rules_and_delay(api, player, clock):
    client = api(player)
    refused = client.post("/api/me/credits/recharge/")
    assert refused.status_code == 409
    assert refused.json()["code"] == "recharge_not_allowed" and refused.json()["reason"] == "balance_not_low"
    spend_to(player, 50)
    assert client.post("/api/me/credits/recharge/").json()["reason"] == "balance_not_low"  # 50 is not < 50
    spend_to(player, 49)
    answer = client.post("/api/me/credits/recharge/")
    assert answer.status_code == 202
    assert answer.json() == {"available_at": (clock.now + timedelta(hours=2)).isoformat(), "credits": 300}
    assert wallet_get(player=player)["credits"] == 49  # not yet: eager Celery must not credit early
    pending = client.post("/api/me/credits/recharge/")
    assert pending.json()["reason"] == "pending" and "arrives" in pending.json()["detail"]
    clock.advance(hours=1, minutes=59)
    call_command("tournaments_tick")
    assert wallet_get(player=player)["credits"] == 49
    clock.advance(minutes=1)
    call_command("tournaments_tick")
    call_command("tournaments_tick")  # twice: credited once
    assert wallet_get(player=player)["credits"] == 349
    ledger = client.get("/api/me/ledger/").json()["results"]
    assert ledger[0]["kind"] == "credits_recharge" and ledger[0]["amount"] == 300


def test_two_requests_per_rome_day(api, player, clock):
    client = api(player)
    # 09:00 in Rome on 30 November
    clock.set(datetime(2026, 11, 30, 8, 0, tzinfo=UTC))
    for _ in range(2):
        spend_to(player, 0)
        assert client.post("/api/me/credits/recharge/").status_code == 202
        clock.advance(hours=2)
        call_command("tournaments_tick")
    spend_to(player, 0)
    third = client.post("/api/me/credits/recharge/")
    assert third.json()["reason"] == "daily_limit" and "tomorrow" in third.json()["detail"]
    clock.set(datetime(2026, 11, 30, 22, 59, tzinfo=UTC))  # 23:59 in Rome: still the same day
    assert client.post("/api/me/credits/recharge/").json()["reason"] == "daily_limit"
    clock.set(datetime(2026, 11, 30, 23, 0, tzinfo=UTC))  # midnight in Rome: a new day
    assert client.post("/api/me/credits/recharge/").status_code == 202


def test_recharge_checks_order(api, newcomer, player, operator, clock):
    assert api(newcomer).post("/api/me/credits/recharge/").json()["code"] == "nickname_required"
    assert api(operator).post("/api/me/credits/recharge/").json()["code"] == "staff_cannot_play"
    spend_to(player, 0)
    Sanction.objects.create(player=player, kind="lobby_ban", duration="1_month", reason="abuse",
                            starts_at=timezone.now(), ends_at=timezone.now() + timedelta(days=30))
    answer = api(player).post("/api/me/credits/recharge/")
    assert answer.status_code == 403 and answer.json()["code"] == "sanctioned"
    assert "lobby ban" in answer.json()["detail"]


def test_welcome_credits_are_once_even_if_called_twice(player):
    services.credits_welcome_grant(player=player)
    assert wallet_get(player=player)["credits"] == 300
