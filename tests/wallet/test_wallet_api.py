"""Wallet, ledger, adjustments, passport, idempotency, append-only rows, check_ledger."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import DatabaseError, connection, transaction

from apps.audit.models import AuditLog
from apps.common.models import AppendOnlyError
from apps.wallet import services
from apps.wallet.models import Account, Adjustment, Entry, Transaction
from apps.wallet.selectors import ledger_check

pytestmark = pytest.mark.django_db


def test_wallet_and_ledger_of_a_new_player(api, player):
    client = api(player)
    assert client.get("/api/me/wallet/").json() == {"cash_cents": 0, "bonus_cents": 0, "credits": 300,
                                                    "frozen": False, "withdrawals_pending_cents": 0}
    page = client.get("/api/me/ledger/").json()
    assert page["count"] == 1 and page["next"] is None and page["previous"] is None
    row = page["results"][0]
    assert set(row) == {"id", "created", "kind", "currency", "amount", "balance_after", "reference", "adm_code",
                        "adm_session_code"}
    assert (row["kind"], row["currency"], row["amount"], row["balance_after"]) == ("credits_welcome", "credits",
                                                                                    300, 300)


def test_adjustment_credit_debit_audited(api, player, finance):
    client = api(finance)
    answer = client.post(f"/api/players/{player.pk}/adjustments/",
                         {"currency": "cash", "amount": 1500, "reason": "deposit"}, format="json")
    assert answer.status_code == 201
    body = answer.json()
    assert set(body) == {"id", "player", "currency", "amount", "balance_after", "reason", "created"}
    assert (body["player"], body["currency"], body["amount"], body["balance_after"]) == (player.pk, "cash",
                                                                                        1500, 1500)
    debit = client.post(f"/api/players/{player.pk}/adjustments/",
                        {"currency": "cash", "amount": -500, "reason": "withdrawal"}, format="json")
    assert debit.status_code == 201 and debit.json()["balance_after"] == 1000
    too_much = client.post(f"/api/players/{player.pk}/adjustments/",
                           {"currency": "cash", "amount": -1001, "reason": "withdrawal"}, format="json")
    assert too_much.status_code == 409 and too_much.json()["code"] == "negative_balance"
    assert api(player).get("/api/me/wallet/").json()["cash_cents"] == 1000
    rows = AuditLog.objects.filter(action="ledger_adjustment").order_by("id")
    assert [r.reason for r in rows] == ["deposit", "withdrawal"] and rows[0].actor == finance
    assert Account.objects.get(code="house:cashier", currency="cash").balance == -1000
    ledger = api(player).get("/api/me/ledger/").json()["results"]
    assert [(r["kind"], r["amount"]) for r in ledger[:2]] == [("adjustment", -500), ("adjustment", 1500)]
    assert ledger[0]["reference"].startswith("adjustment:")


@pytest.mark.parametrize("body", [
    {"currency": "euro", "amount": 5, "reason": "x"},
    {"currency": "cash", "amount": 0, "reason": "x"},
    {"currency": "cash", "amount": "5", "reason": "x"},
    {"currency": "cash", "amount": 5.5, "reason": "x"},
    {"currency": "cash", "amount": True, "reason": "x"},
    {"currency": "cash", "amount": 5, "reason": ""},
    {"currency": "cash", "amount": 5, "reason": "   "},
    {"currency": "cash", "amount": 5, "reason": "x" * 201},
    {"currency": "cash", "amount": 5},
    {},
])
def test_bad_adjustments_change_nothing(api, player, finance, body):
    before = (Transaction.objects.count(), Adjustment.objects.count(), AuditLog.objects.count())
    answer = api(finance).post(f"/api/players/{player.pk}/adjustments/", body, format="json")
    assert answer.status_code == 400
    assert answer.json()["code"] == "validation_error" and answer.json()["fields"]
    assert (Transaction.objects.count(), Adjustment.objects.count(), AuditLog.objects.count()) == before


def test_adjustment_targets(api, finance, operator):
    assert api(finance).post("/api/players/999999/adjustments/", {"currency": "cash", "amount": 5,
                                                                   "reason": "x"}, format="json").status_code == 404
    staff = api(finance).post(f"/api/players/{operator.pk}/adjustments/",
                              {"currency": "cash", "amount": 5, "reason": "x"}, format="json")
    assert staff.status_code == 400 and staff.json()["code"] == "validation_error"


def test_idempotency_replay_and_conflict(api, player, finance):
    client = api(finance)
    url = f"/api/players/{player.pk}/adjustments/"
    body = {"currency": "bonus", "amount": 300, "reason": "promo"}
    first = client.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="abc-1")
    second = client.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="abc-1")
    assert first.status_code == second.status_code == 201 and first.content == second.content
    assert api(player).get("/api/me/wallet/").json()["bonus_cents"] == 300
    other = client.post(url, {**body, "amount": 301}, format="json", HTTP_IDEMPOTENCY_KEY="abc-1")
    assert other.status_code == 409 and other.json()["code"] == "idempotency_conflict"
    assert api(player).get("/api/me/wallet/").json()["bonus_cents"] == 300
    # an error answer is replayed too, and a bad key is refused
    bad = client.post(url, {"currency": "bonus", "amount": -1000, "reason": "x"}, format="json",
                      HTTP_IDEMPOTENCY_KEY="abc-2")
    assert bad.status_code == 409 and bad.json()["code"] == "negative_balance"
    assert client.post(url, {"currency": "bonus", "amount": -1000, "reason": "x"}, format="json",
                       HTTP_IDEMPOTENCY_KEY="abc-2").content == bad.content
    for key in ["", "x" * 101, "caffè"]:
        refused = client.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY=key)
        assert refused.status_code == 400 and refused.json()["code"] == "validation_error"
    # keys are scoped to the requesting user
    other_finance = __import__("tests.conftest", fromlist=["make_user"]).make_user(group="finance")
    assert api(other_finance).post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="abc-1").status_code == 201
    assert api(player).get("/api/me/wallet/").json()["bonus_cents"] == 600


def test_passport_once(api, player, finance):
    client = api(finance)
    answer = client.post(f"/api/players/{player.pk}/passport/", format="json")
    assert answer.status_code == 201 and answer.json() == {"credits": 1300}
    again = client.post(f"/api/players/{player.pk}/passport/", format="json")
    assert again.status_code == 409 and again.json()["code"] == "passport_already_paid"
    assert api(player).get("/api/me/wallet/").json()["credits"] == 1300
    assert AuditLog.objects.filter(action="credits_passport", target_id=str(player.pk)).count() == 1


def test_players_list_for_staff(api, player, operator, user_factory):
    user_factory(nickname="Zorro_9")
    page = api(operator).get("/api/players/", {"search": "zorro"}).json()
    assert page["count"] == 1
    row = page["results"][0]
    assert row["nickname"] == "Zorro_9"
    assert set(row) == {"id", "username", "nickname", "status", "cash_cents", "bonus_cents", "credits",
                        "frozen_cents", "sanctions", "account_state", "kyc_status"}
    assert row["status"] == "active" and row["credits"] == 300
    assert (row["account_state"], row["kyc_status"]) == ("aperto", "legacy")  # regulation.md §12
    names = {r["username"] for r in api(operator).get("/api/players/").json()["results"]}
    assert operator.username not in names and player.username in names


def test_ledger_rows_are_append_only(player, finance):
    services.wallet_adjust(actor=finance, player=player, currency="cash", amount=100, reason="deposit")
    entry = Entry.objects.filter(account__player=player).first()
    txn = entry.transaction
    with pytest.raises(AppendOnlyError):
        entry.amount = 5
        entry.save()
    with pytest.raises(AppendOnlyError):
        entry.delete()
    with pytest.raises(AppendOnlyError):
        Entry.objects.filter(pk=entry.pk).update(amount=5)
    with pytest.raises(AppendOnlyError):
        Transaction.objects.filter(pk=txn.pk).delete()
    with pytest.raises(AppendOnlyError):
        AuditLog.objects.all().update(reason="x")
    # and the database itself refuses, whatever the ORM is asked
    table = Entry._meta.db_table
    with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(f"UPDATE {table} SET amount = 1 WHERE id = %s", [entry.pk])
    if connection.vendor == "postgresql":
        with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(f"DELETE FROM {table} WHERE id = %s", [entry.pk])
    assert Entry.objects.get(pk=entry.pk).amount == 100


def test_check_ledger_command(player, finance, capsys):
    services.wallet_adjust(actor=finance, player=player, currency="cash", amount=100, reason="deposit")
    call_command("check_ledger")
    assert "ledger OK" in capsys.readouterr().out
    # break rule 2: a cached balance that no longer matches its entries
    Account.objects.filter(code=f"player:{player.pk}", currency="cash").update(balance=99)
    with pytest.raises(CommandError, match="rule 2"):
        call_command("check_ledger")
    Account.objects.filter(code=f"player:{player.pk}", currency="cash").update(balance=100)
    # rule 4: a closed escrow that still holds money
    services.wallet_debit(player=player, currency="cash", amount=40, kind="stake", reference="match:1",
                          destination="escrow:match:1")
    Account.objects.filter(code="escrow:match:1").update(closed=True)
    assert "rule 4" in ledger_check()
    services.wallet_credit(player=player, currency="cash", amount=40, kind="stake_return",
                           reference="match:1", source="escrow:match:1")
    assert ledger_check() is None


def test_unbalanced_transactions_are_impossible(player):
    with pytest.raises(services.LedgerError):
        services.ledger_post(kind="x", reference="y", legs=[services.Leg(f"player:{player.pk}", "cash", 5)])
    with pytest.raises(services.LedgerError):
        services.ledger_post(kind="x", reference="y", legs=[
            services.Leg(f"player:{player.pk}", "cash", 5), services.Leg("house:cashier", "bonus", -5)])
    assert ledger_check() is None


def test_database_forbids_negative_player_balance(player):
    account = services.account_get(f"player:{player.pk}", "cash")
    with pytest.raises(DatabaseError), transaction.atomic():
        Account.objects.filter(pk=account.pk).update(balance=-1)


APPEND_ONLY_TABLES = ["wallet_transaction", "wallet_entry", "wallet_adjustment", "audit_auditlog",
                      "players_nicknamechange", "matches_matchaction", "rankings_xpaward"]


def test_every_append_only_table_has_its_trigger():
    """A schema change can drop a trigger (SQLite rebuilds tables): check them all."""
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute("SELECT tbl_name FROM sqlite_master WHERE type = 'trigger' AND name LIKE '%append_only'")
        else:
            cursor.execute("SELECT event_object_table FROM information_schema.triggers "
                           "WHERE trigger_name LIKE '%append_only'")
        guarded = {row[0] for row in cursor.fetchall()}
    assert set(APPEND_ONLY_TABLES) <= guarded, set(APPEND_ONLY_TABLES) - guarded
