"""The cashier (regulation.md §5): instruments, deposits with the test provider and its
callbacks, withdrawals through escrow and finance's approval; the ledger checked at each step."""

from __future__ import annotations

import datetime as dt
import json
from zoneinfo import ZoneInfo

import pytest

from apps.adm.models import AdmMessage
from apps.aml.models import AmlSignal
from apps.aml.services import aml_case_open
from apps.audit.models import AuditLog
from apps.cashier.providers import callback_signature
from apps.conto.exclusions import self_exclusion_request
from apps.conto.models import Conto
from apps.wallet.models import Deposit, Transaction, Withdrawal
from apps.wallet.selectors import ledger_check, wallet_get
from apps.wallet.services import wallet_credit
from tests.conftest import api_client, make_user

from .helpers import cashier_player, luhn_card

pytestmark = pytest.mark.django_db
ROME = ZoneInfo("Europe/Rome")


def deposit(client, amount, card, **extra):
    return client.post("/api/me/deposits/", {"amount_cents": amount, "instrument": card.pk, **extra}, format="json")


def callback(client, body: dict, *, signature: str | None = None):
    raw = json.dumps(body).encode()
    return client.generic("POST", "/api/cashier/callback/test/", raw, content_type="application/json",
                          HTTP_X_MAZZIERE_SIGNATURE=signature if signature is not None else callback_signature(raw))


def test_instruments_are_in_the_holders_name_valid_and_never_shared():
    player, _card = cashier_player()
    client = api_client(player)
    ok = client.post("/api/me/instruments/", {"kind": "bank_account", "holder_name": "rossi  MARÌO",
                                              "identifier": "IT60 X054 2811 1010 0000 0123 456"}, format="json")
    assert ok.status_code == 201 and ok.json()["masked"] == "IT60 •••• 3456"
    other = client.post("/api/me/instruments/", {"kind": "card", "holder_name": "Luigi Bianchi",
                                                 "identifier": luhn_card(900)}, format="json")
    assert (other.status_code, other.json()["code"]) == (400, "instrument_not_in_holder_name")
    bad = client.post("/api/me/instruments/", {"kind": "card", "holder_name": "Mario Rossi",
                                               "identifier": "4242424242424241"}, format="json")
    assert (bad.status_code, list(bad.json()["fields"])) == (400, ["identifier"])
    card = client.post("/api/me/instruments/", {"kind": "card", "holder_name": "Mario Rossi",
                                                "identifier": luhn_card(901)}, format="json").json()
    assert card["masked"].endswith(luhn_card(901)[-4:]) and luhn_card(901) not in json.dumps(card)
    someone, _ = cashier_player()
    taken = api_client(someone).post("/api/me/instruments/", {"kind": "card", "holder_name": "Mario Rossi",
                                                              "identifier": luhn_card(901)}, format="json")
    assert (taken.status_code, taken.json()["code"]) == (409, "instrument_in_use")
    legacy = make_user(nickname="NoId")
    refused = api_client(legacy).post("/api/me/instruments/", {"kind": "ewallet", "holder_name": "x",
                                                               "identifier": "a@b.it"}, format="json")
    assert (refused.status_code, refused.json()["code"]) == (409, "identity_incomplete")


def test_the_spec_example_deposit_request_and_both_endings(clock):
    """§5.5: deposit €100; request €40 (cash 6,000, pending 4,000); paid or rejected."""
    clock.set(dt.datetime(2026, 12, 7, 9, tzinfo=ROME))
    player, card = cashier_player()
    finance = make_user(group="finance")
    client = api_client(player)
    made = deposit(client, 10_000, card)
    assert made.status_code == 201 and made.json()["status"] == "confirmed"
    assert wallet_get(player=player)["cash_cents"] == 10_000
    assert AdmMessage.objects.filter(type="movement", reference=f"deposit:{made.json()['id']}").exists()
    asked = client.post("/api/me/withdrawals/", {"amount_cents": 4_000, "instrument": card.pk}, format="json")
    assert asked.status_code == 201 and asked.json()["status"] == "requested"
    wallet = client.get("/api/me/wallet/").json()
    assert (wallet["cash_cents"], wallet["withdrawals_pending_cents"]) == (6_000, 4_000)
    assert ledger_check() is None
    paid = api_client(finance).post(f"/api/withdrawals/{asked.json()['id']}/approve/", {"reason": "ok"},
                                    format="json")
    assert paid.status_code == 200 and paid.json()["status"] == "paid"
    assert ledger_check() is None and client.get("/api/me/wallet/").json()["withdrawals_pending_cents"] == 0
    second = client.post("/api/me/withdrawals/", {"amount_cents": 4_000, "instrument": card.pk}, format="json").json()
    rejected = api_client(finance).post(f"/api/withdrawals/{second['id']}/reject/", {"reason": "documento illeggibile"},
                                        format="json")
    assert rejected.json()["status"] == "rejected"
    assert wallet_get(player=player)["cash_cents"] == 6_000 and ledger_check() is None
    mine = client.get("/api/me/withdrawals/").json()["results"]
    assert mine[0]["reason"] == "documento illeggibile"  # the player sees a rejection's reason
    kinds = list(Transaction.objects.filter(reference__startswith="withdrawal:").values_list("kind", flat=True))
    assert sorted(kinds) == ["withdrawal_paid", "withdrawal_request", "withdrawal_request", "withdrawal_return"]
    assert set(AuditLog.objects.filter(target_type="withdrawal").values_list("action", flat=True)) == {
        "withdrawal_approve", "withdrawal_reject"}


def test_the_worked_example_of_the_deposit_limit(clock):
    """§2.6: 09:00, deposit_day 10,000: €60 → 4,000 left; €50 → 409 remaining 4,000; €40 → 0 left."""
    clock.set(dt.datetime(2026, 12, 7, 9, tzinfo=ROME))
    player, card = cashier_player(limits={"deposit_day": 10_000, "deposit_week": 70_000, "deposit_month": 300_000})
    client = api_client(player)
    assert deposit(client, 6_000, card).status_code == 201
    refused = deposit(client, 5_000, card)
    body = refused.json()
    assert (refused.status_code, body["code"], body["limit"], body["remaining_cents"]) == (
        409, "deposit_limit_exceeded", "deposit_day", 4_000)
    assert body["resets_at"] == "2026-12-08T00:00:00+01:00"
    assert Deposit.objects.filter(player=player).count() == 1  # the refusal left nothing
    assert deposit(client, 4_000, card).status_code == 201
    limits = client.get("/api/me/limits/").json()
    assert (limits["deposit_day"]["used"], limits["deposit_day"]["remaining"]) == (10_000, 0)
    clock.set(dt.datetime(2026, 12, 8, 0, 0, tzinfo=ROME))
    assert client.get("/api/me/limits/").json()["deposit_day"]["remaining"] == 10_000


def test_pending_deposits_wait_for_a_signed_callback_once(clock):
    player, card = cashier_player()
    client = api_client(player)
    made = deposit(client, 2_500, card, test_outcome="pending").json()
    assert made["status"] == "pending" and made["redirect_url"]
    assert wallet_get(player=player)["cash_cents"] == 0
    anonymous = api_client(None)
    forged = callback(anonymous, {"event_id": "e1", "deposit": made["id"], "status": "confirmed"}, signature="00" * 32)
    assert (forged.status_code, forged.json()["code"]) == (400, "callback_invalid")
    missing = anonymous.post("/api/cashier/callback/test/", {"event_id": "e1", "deposit": made["id"],
                                                             "status": "confirmed"}, format="json")
    assert missing.status_code == 400 and wallet_get(player=player)["cash_cents"] == 0
    done = callback(anonymous, {"event_id": "e1", "deposit": made["id"], "status": "confirmed"})
    assert done.status_code == 200 and done.json()["status"] == "confirmed"
    replay = callback(anonymous, {"event_id": "e1", "deposit": made["id"], "status": "confirmed"})
    assert replay.json() == {"duplicate": True}
    late = callback(anonymous, {"event_id": "e2", "deposit": made["id"], "status": "declined"})
    assert late.json()["status"] == "confirmed"  # a final deposit does not change
    assert wallet_get(player=player)["cash_cents"] == 2_500 and ledger_check() is None
    declined = deposit(client, 1_500, card, test_outcome="declined").json()
    assert declined["status"] == "declined" and wallet_get(player=player)["cash_cents"] == 2_500
    assert ledger_check() is None


def test_deposit_refusals_come_in_the_spec_order_and_change_nothing(settings):
    player, card = cashier_player()
    client = api_client(player)
    staff = api_client(make_user(group="finance"))
    assert staff.post("/api/me/deposits/", {"amount_cents": 5_000, "instrument": 1}, format="json").json()["code"] \
        == "staff_cannot_play"
    assert deposit(client, 999, card).status_code == 400
    assert deposit(client, 5_000, card, test_outcome="maybe").status_code == 400
    someone, their_card = cashier_player()
    assert deposit(client, 5_000, their_card).status_code == 400  # not the player's
    settings.CASHIER_TEST_UNAVAILABLE = True
    down = deposit(client, 5_000, card)
    assert (down.status_code, down.json()["code"]) == (503, "provider_unavailable")
    settings.CASHIER_TEST_UNAVAILABLE = False
    no_limits, _ = cashier_player(limits={"deposit_day": 5_000})
    card2 = no_limits.instruments.first()
    assert deposit(api_client(no_limits), 1_000, card2).json()["code"] == "limits_required"
    self_exclusion_request(user=player, data={"scope": "all", "days": 30})
    excluded = deposit(client, 5_000, card)
    assert (excluded.status_code, excluded.json()["code"]) == (403, "self_excluded")
    assert not Deposit.objects.filter(player=player).exists() and ledger_check() is None


def test_withdrawals_only_of_cash_never_bonus_and_only_when_the_checks_pass(settings):
    player, card = cashier_player()
    finance = api_client(make_user(group="finance"))
    compliance_user = make_user(group="compliance")
    wallet_credit(player=player, currency="cash", amount=3_000, kind="deposit_test", reference="t",
                  source="house:cashier")
    wallet_credit(player=player, currency="bonus", amount=5_000, kind="adjustment", reference="b",
                  source="house:promotions")
    client = api_client(player)
    too_much = client.post("/api/me/withdrawals/", {"amount_cents": 4_000, "instrument": card.pk}, format="json")
    assert (too_much.status_code, too_much.json()["code"], too_much.json()["withdrawable_cents"]) == (
        409, "not_withdrawable", 3_000)
    asked = client.post("/api/me/withdrawals/", {"amount_cents": 3_000, "instrument": card.pk}, format="json").json()
    case = aml_case_open(actor=compliance_user, player=player, summary="depositi e prelievi senza gioco")
    row = finance.get("/api/withdrawals/?status=requested").json()["results"][0]
    assert {c["name"]: c["ok"] for c in row["checks"]}["no_aml_case"] is False
    blocked = finance.post(f"/api/withdrawals/{asked['id']}/approve/", {"reason": "ok"}, format="json")
    assert (blocked.status_code, blocked.json()["code"], blocked.json()["failed"]) == (
        409, "withdrawal_checks_failed", ["no_aml_case"])
    mine = json.dumps(client.get("/api/me/withdrawals/").json())
    assert "aml" not in mine.lower() and "requested" in mine  # no tipping off: the player sees it waiting
    from apps.aml.services import aml_case_close
    aml_case_close(actor=compliance_user, case_id=case.pk, data={"outcome": "no_action", "reason": "spiegato"})
    assert finance.post(f"/api/withdrawals/{asked['id']}/review/").json()["status"] == "in_review"
    assert finance.post(f"/api/withdrawals/{asked['id']}/review/").json()["code"] == "invalid_transition"
    assert client.post(f"/api/me/withdrawals/{asked['id']}/cancel/").json()["code"] == "withdrawal_not_cancellable"
    settings.CASHIER_TEST_PAYOUT = "failed"
    failed = finance.post(f"/api/withdrawals/{asked['id']}/approve/", {"reason": "ok"}, format="json").json()
    assert failed["status"] == "in_review" and ledger_check() is None  # still in escrow
    settings.CASHIER_TEST_PAYOUT = "paid"
    assert finance.post(f"/api/withdrawals/{asked['id']}/approve/", {"reason": "ok"}, format="json").json()[
        "status"] == "paid"
    assert wallet_get(player=player)["bonus_cents"] == 5_000 and ledger_check() is None
    assert api_client(compliance_user).post(f"/api/withdrawals/{asked['id']}/approve/", {"reason": "x"},
                                            format="json").status_code == 403  # compliance reads only


def test_a_self_excluded_player_still_withdraws_and_cancels():
    player, card = cashier_player()
    wallet_credit(player=player, currency="cash", amount=5_000, kind="deposit_test", reference="t",
                  source="house:cashier")
    self_exclusion_request(user=player, data={"scope": "all", "days": 30})
    client = api_client(player)
    asked = client.post("/api/me/withdrawals/", {"amount_cents": 2_000, "instrument": card.pk}, format="json")
    assert asked.status_code == 201
    cancelled = client.post(f"/api/me/withdrawals/{asked.json()['id']}/cancel/")
    assert cancelled.json()["status"] == "cancelled" and wallet_get(player=player)["cash_cents"] == 5_000
    assert ledger_check() is None


def test_a_withdrawal_before_kyc_is_refused_and_signalled_even_with_an_idempotency_key():
    player, _card = cashier_player(verified=False)
    Conto.objects.filter(pk=player.pk).update(kyc_verified_at=None)
    client = api_client(player)
    refused = client.post("/api/me/withdrawals/", {"amount_cents": 2_000, "instrument": 1}, format="json",
                          HTTP_IDEMPOTENCY_KEY="w-1")
    assert (refused.status_code, refused.json()["code"]) == (409, "identity_incomplete")
    assert AmlSignal.objects.filter(player=player, rule="withdrawal_before_kyc").count() == 1
    assert not Withdrawal.objects.filter(player=player).exists()


def test_an_idempotency_key_replays_a_deposit():
    player, card = cashier_player()
    client = api_client(player)
    first = client.post("/api/me/deposits/", {"amount_cents": 2_000, "instrument": card.pk}, format="json",
                        HTTP_IDEMPOTENCY_KEY="dep-1")
    again = client.post("/api/me/deposits/", {"amount_cents": 2_000, "instrument": card.pk}, format="json",
                        HTTP_IDEMPOTENCY_KEY="dep-1")
    assert first.json() == again.json() and Deposit.objects.filter(player=player).count() == 1
    assert wallet_get(player=player)["cash_cents"] == 2_000


def test_low_play_withdrawal_is_signalled_at_the_request():
    player, card = cashier_player()
    client = api_client(player)
    deposit(client, 10_000, card)
    client.post("/api/me/withdrawals/", {"amount_cents": 9_000, "instrument": card.pk}, format="json")
    signal = AmlSignal.objects.get(player=player, rule="low_play_withdrawal")
    assert signal.details["deposited_cents"] == 10_000 and signal.details["played_cents"] == 0


def test_the_optional_hold_on_net_tournament_winnings_blocks_the_approval(settings):
    player, card = cashier_player()
    wallet_credit(player=player, currency="cash", amount=5_000, kind="prize", reference="tournament:1",
                  source="house:cashier")
    asked = api_client(player).post("/api/me/withdrawals/", {"amount_cents": 5_000, "instrument": card.pk},
                                    format="json").json()
    finance = api_client(make_user(group="finance"))
    settings.WITHDRAWAL_WINNINGS_HOLD_HOURS = 24
    held = finance.post(f"/api/withdrawals/{asked['id']}/approve/", {"reason": "ok"}, format="json").json()
    assert (held["code"], held["failed"]) == ("withdrawal_checks_failed", ["winnings_hold"])
    settings.WITHDRAWAL_WINNINGS_HOLD_HOURS = 0  # the default: no hold
    assert finance.post(f"/api/withdrawals/{asked['id']}/approve/", {"reason": "ok"},
                        format="json").json()["status"] == "paid"
    assert ledger_check() is None
