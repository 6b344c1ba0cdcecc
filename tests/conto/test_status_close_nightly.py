"""Compliance's state changes, the player closing, and the nightly job (regulation.md §1.4,
§1.8, §11.1)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.management import call_command
from django.utils import timezone

from apps.adm.models import AdmMessage
from apps.audit.models import AuditLog
from apps.conto import states as S
from apps.conto.exclusions import self_exclusion_request
from apps.conto.models import Conto, StateChange
from apps.conto.nightly import conto_nightly
from apps.conto.services import conto_ensure
from apps.tables import services as tables
from apps.tables.models import Seat
from apps.wallet.models import Account, Entry
from apps.wallet.selectors import ledger_check, wallet_get
from tests.conftest import api_client, make_user
from tests.tournaments.conftest import create, fund

pytestmark = pytest.mark.django_db


def _status(compliance, player, action, reason="verifica antifrode"):
    return api_client(compliance).post(f"/api/players/{player.pk}/account/status/",
                                       {"action": action, "reason": reason}, format="json")


def test_suspend_reopen_block_unblock_close(compliance):
    player = make_user(nickname="Moves1")
    conto_ensure(user=player)
    response = _status(compliance, player, "suspend")
    assert response.status_code == 200, response.json()
    assert (response.json()["state"], response.json()["state_reason"]) == ("sospeso", "operatore")
    assert response.json()["changed_at"]
    assert _status(compliance, player, "suspend").json()["code"] == "invalid_transition"
    assert _status(compliance, player, "block").json()["state"] == "bloccato"
    assert _status(compliance, player, "unblock").json()["state_reason"] == "operatore"  # back where it was
    assert _status(compliance, player, "reopen").json()["state"] == "aperto"
    assert _status(compliance, player, "close").json()["state"] == "chiuso"
    reopened = _status(compliance, player, "reopen").json()
    assert reopened["state"] == "in_verifica" and Conto.objects.get(user=player).kyc_status == "documents_required"
    audits = AuditLog.objects.filter(action="account_status_change", target_id=str(player.pk))
    assert audits.count() == 6 and audits.first().before and audits.first().after
    assert AdmMessage.objects.filter(type="account_status", reference=f"player:{player.pk}").count() == 6
    assert list(StateChange.objects.filter(conto__user=player, by=compliance).values_list("reason", flat=True))[0] == \
        "verifica antifrode"


def test_staff_never_end_a_self_exclusion(compliance):
    player = make_user(nickname="Excl1")
    conto_ensure(user=player)
    self_exclusion_request(user=player, data={"scope": "all", "days": 30})
    for action in ("reopen", "suspend", "close", "unblock"):
        response = _status(compliance, player, action)
        assert (response.status_code, response.json()["code"]) == (409, "self_exclusion_active")
    assert _status(compliance, player, "block").json()["state"] == "bloccato"


def test_close_with_money_left_and_bad_input(compliance):
    player = make_user(nickname="Rich1")
    fund(player, cash=100)
    assert _status(compliance, player, "close").json()["code"] == "balance_not_zero"
    assert _status(compliance, player, "close", reason="").json()["code"] == "validation_error"
    assert _status(compliance, player, "explode").json()["code"] == "validation_error"
    assert api_client(compliance).post("/api/players/999999/account/status/", {"action": "block", "reason": "x"},
                                       format="json").status_code == 404
    assert Conto.objects.get(user=player).state == "aperto"


def test_only_compliance_changes_states(operator, finance):
    player = make_user(nickname="Target1")
    for user in (operator, finance, player):
        assert _status(user, player, "block").status_code == 403


def test_the_player_closes_losing_bonus_keeping_credits(operator):
    player = make_user(nickname="Leaver1")
    fund(player, bonus=700)
    client = api_client(player)
    response = client.post("/api/me/account/close/", {"reason": "basta"}, format="json")
    assert response.status_code == 200, response.json()
    assert (response.json()["state"], response.json()["state_reason"]) == ("chiuso", "giocatore")
    wallet = wallet_get(player=player)
    assert wallet["bonus_cents"] == 0 and wallet["credits"] == 300
    assert Entry.objects.filter(transaction__kind="bonus_forfeit", account__code="house:promotions").exists()
    assert ledger_check() is None


def test_the_player_cannot_close_with_cash_or_while_busy(operator):
    rich = make_user(nickname="Rich2")
    fund(rich, cash=1)
    response = api_client(rich).post("/api/me/account/close/", {}, format="json")
    assert (response.status_code, response.json()["code"]) == (409, "balance_not_zero")
    seated = make_user(nickname="Seated1")
    tables.table_create(user=seated, data={"game": "briscola"}, ip="10.0.0.9")
    response = api_client(seated).post("/api/me/account/close/", {}, format="json")
    assert (response.status_code, response.json()["code"]) == (409, "account_busy")
    registered = make_user(nickname="Registered1")
    tournament = create(operator, buy_in_cents=0, max_players=8, guaranteed_cents=1000)
    assert api_client(registered).post(f"/api/tournaments/{tournament['id']}/register/", {},
                                       format="json").status_code in (200, 201)
    response = api_client(registered).post("/api/me/account/close/", {}, format="json")
    assert (response.status_code, response.json()["code"]) == (409, "account_busy")
    assert not Conto.objects.filter(state="chiuso").exists()


def test_leaving_aperto_stands_the_player_up_from_money_tables_between_matches(compliance,
                                                                               django_capture_on_commit_callbacks):
    leader = make_user(nickname="Leader9")
    fund(leader, cash=5000)
    table = tables.table_create(user=leader, data={"game": "briscola", "official": True, "stake": 500,
                                                   "currency": "cash"}, ip="10.0.0.1")
    practice = tables.table_create(user=leader, data={"game": "scopa"}, ip="10.0.0.1")
    with django_capture_on_commit_callbacks(execute=True):
        _status(compliance, leader, "suspend")
    assert not Seat.objects.filter(table=table, player=leader).exists()
    assert Seat.objects.filter(table=practice, player=leader).exists()  # credits: not money play


def test_dormancy_after_36_calendar_months(clock):
    clock.set(dt.datetime(2023, 2, 28, 12, tzinfo=dt.UTC))
    idle = make_user(nickname="Idle1")
    fund(idle, cash=1234, bonus=50)
    conto = conto_ensure(user=idle)
    Conto.objects.filter(pk=conto.pk).update(last_activity_at=timezone.now())
    clock.set(dt.datetime(2026, 2, 27, 12, tzinfo=dt.UTC))
    assert conto_nightly()["dormant"] == 0
    clock.set(dt.datetime(2026, 2, 28, 13, tzinfo=dt.UTC))
    assert conto_nightly()["dormant"] == 1
    conto.refresh_from_db()
    assert conto.state == "dormiente"
    assert wallet_get(player=idle)["cash_cents"] == 0 and wallet_get(player=idle)["bonus_cents"] == 0
    assert Account.objects.get(code="house:erario", currency="cash").balance == 1234
    assert Entry.objects.filter(transaction__idempotency_key=f"dormant:player:{idle.pk}").exists()
    assert AdmMessage.objects.filter(type="movement", reference=f"dormant:{idle.pk}").exists()
    assert AuditLog.objects.filter(action="account_dormant", actor=None, target_id=str(idle.pk)).exists()
    again = conto_nightly()  # a second run changes nothing (the ADM count only counts)
    assert {k: v for k, v in again.items() if k != "adm_unreconciled"} == {
        "documents_expired": 0, "documents_expiring": 0, "legacy_mode_ended": 0, "dormant": 0,
        "aml_low_play_withdrawal": 0, "aml_many_instruments": 0, "aml_repeated_losses": 0}
    assert ledger_check() is None


def test_a_recent_ledger_entry_keeps_a_conto_awake(clock):
    clock.set(dt.datetime(2022, 1, 1, 12, tzinfo=dt.UTC))
    player = make_user(nickname="Awake1")
    conto = conto_ensure(user=player)
    Conto.objects.filter(pk=conto.pk).update(last_activity_at=timezone.now())
    clock.set(dt.datetime(2024, 6, 1, 12, tzinfo=dt.UTC))
    fund(player, cash=100)
    clock.set(dt.datetime(2026, 1, 2, 12, tzinfo=dt.UTC))
    assert conto_nightly()["dormant"] == 0
    assert Conto.objects.get(pk=conto.pk).state == "aperto"


def test_expired_documents_and_legacy_mode_are_recorded_once(clock, settings):
    clock.set(dt.datetime(2026, 12, 5, 4, tzinfo=dt.UTC))
    expired = make_user(nickname="Expired1")
    conto = conto_ensure(user=expired)
    Conto.objects.filter(pk=conto.pk).update(kyc_status=S.APPROVED, origin=S.ORIGIN_SIGNUP,
                                             document_expires_at=dt.date(2026, 12, 4))
    soon = make_user(nickname="Soon1")
    other = conto_ensure(user=soon)
    Conto.objects.filter(pk=other.pk).update(kyc_status=S.APPROVED, document_expires_at=dt.date(2027, 1, 4))
    waiting = make_user(nickname="Waiting1")
    third = conto_ensure(user=waiting)
    Conto.objects.filter(pk=third.pk).update(state=S.IN_VERIFICA, play_until=timezone.now() - dt.timedelta(hours=1))
    call_command("regulation_nightly")
    assert Conto.objects.get(pk=conto.pk).state_reason == "documenti"
    assert Conto.objects.get(pk=third.pk).state == "sospeso"
    assert AuditLog.objects.filter(action="document_expiry_notice", target_id=str(soon.pk)).count() == 1
    again = conto_nightly()  # a second run changes nothing (the ADM count only counts)
    assert {k: v for k, v in again.items() if k != "adm_unreconciled"} == {
        "documents_expired": 0, "documents_expiring": 0, "legacy_mode_ended": 0, "dormant": 0,
        "aml_low_play_withdrawal": 0, "aml_many_instruments": 0, "aml_repeated_losses": 0}
