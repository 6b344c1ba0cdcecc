"""The cashier's pages: the player's /accounts/cashier/, finance's queue, compliance's AML pages."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from django.utils import timezone

from apps.adm.models import AdmMessage
from apps.aml.models import AmlCase, AmlSignal
from apps.conto.models import GameSession
from apps.wallet.models import Deposit, Withdrawal
from apps.wallet.selectors import ledger_check, wallet_get
from tests.conftest import make_user

from .helpers import cashier_player, luhn_card

pytestmark = pytest.mark.django_db


def _client(user) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="it")
    client.force_login(user)
    return client


def test_a_player_deposits_withdraws_and_cancels_from_the_page_and_a_double_send_moves_once():
    player, card = cashier_player()
    client = _client(player)
    page = client.get("/accounts/cashier/").content.decode()
    assert "Cassa" in page and card.masked in page and luhn_card(1) not in page
    for _ in range(2):  # the same form sent twice
        client.post("/accounts/cashier/deposits/", {"amount": "25,50", "instrument": card.pk, "form_key": "k1"})
    assert Deposit.objects.filter(player=player).count() == 1 and wallet_get(player=player)["cash_cents"] == 2_550
    refused = client.post("/accounts/cashier/deposits/", {"amount": "abc", "instrument": card.pk, "form_key": "k2"},
                          follow=True)
    assert refused.status_code == 200 and Deposit.objects.filter(player=player).count() == 1
    client.post("/accounts/cashier/withdrawals/", {"amount": "20", "instrument": card.pk, "form_key": "k3"})
    withdrawal = Withdrawal.objects.get(player=player)
    page = client.get("/accounts/cashier/").content.decode()
    assert "€20,00" in page and "richiesto" in page.lower()
    client.post(f"/accounts/cashier/withdrawals/{withdrawal.pk}/cancel/", {"form_key": "k4"})
    withdrawal.refresh_from_db()
    assert withdrawal.status == "cancelled" and wallet_get(player=player)["cash_cents"] == 2_550
    added = client.post("/accounts/cashier/instruments/", {"kind": "ewallet", "holder_name": "Mario Rossi",
                                                           "identifier": "mario@example.it", "form_key": "k5"},
                        follow=True)
    assert "m•••@example.it" in added.content.decode()
    assert ledger_check() is None
    assert _client(make_user(group="finance")).get("/accounts/cashier/").status_code == 302  # staff have no cashier


def test_finance_approves_and_rejects_from_the_queue_and_compliance_only_reads_it():
    player, card = cashier_player()
    client = _client(player)
    client.post("/accounts/cashier/deposits/", {"amount": "100", "instrument": card.pk, "form_key": "a"})
    client.post("/accounts/cashier/withdrawals/", {"amount": "40", "instrument": card.pk, "form_key": "b"})
    client.post("/accounts/cashier/withdrawals/", {"amount": "10", "instrument": card.pk, "form_key": "c"})
    first, second = Withdrawal.objects.filter(player=player).order_by("id")
    finance = _client(make_user(group="finance"))
    queue = finance.get("/backoffice/withdrawals/").content.decode()
    assert "no_aml_case" in queue and "€40,00" in queue
    finance.post(f"/backoffice/withdrawals/{first.pk}/approve/", {"reason": "controlli ok"})
    finance.post(f"/backoffice/withdrawals/{second.pk}/reject/", {"reason": "IBAN da verificare"})
    first.refresh_from_db()
    second.refresh_from_db()
    assert (first.status, second.status) == ("paid", "rejected")
    assert "IBAN da verificare" in client.get("/accounts/cashier/").content.decode()
    compliance = _client(make_user(group="compliance"))
    assert compliance.get("/backoffice/withdrawals/?status=paid").status_code == 200
    assert compliance.post(f"/backoffice/withdrawals/{second.pk}/approve/", {"reason": "x"}).status_code == 403
    assert finance.get("/backoffice/aml/").status_code == 403
    assert finance.post(f"/backoffice/withdrawals/{first.pk}/nope/").status_code == 404
    assert ledger_check() is None
    tab = finance.get(f"/backoffice/players/{player.pk}/?tab=cashier").content.decode()
    assert card.masked in tab and "€40,00" in tab


def test_compliance_opens_reviews_and_closes_a_case_from_the_pages():
    player, card = cashier_player()
    client = _client(player)
    client.post("/accounts/cashier/deposits/", {"amount": "100", "instrument": card.pk, "form_key": "a"})
    client.post("/accounts/cashier/withdrawals/", {"amount": "90", "instrument": card.pk, "form_key": "b"})
    signal = AmlSignal.objects.get(player=player, rule="low_play_withdrawal")
    compliance = _client(make_user(group="compliance"))
    assert "low_play_withdrawal" in compliance.get("/backoffice/aml/").content.decode()
    compliance.post("/backoffice/aml/cases/", {"player": player.pk, "signal": signal.pk, "summary": "deposito e prelievo"})
    case = AmlCase.objects.get(player=player)
    assert compliance.get(f"/backoffice/aml/cases/{case.pk}/").status_code == 200
    compliance.post(f"/backoffice/aml/cases/{case.pk}/review/")
    compliance.post(f"/backoffice/aml/cases/{case.pk}/note/", {"text": "chiesto chiarimento"})
    compliance.post(f"/backoffice/aml/cases/{case.pk}/close/", {"outcome": "measure", "reason": "rischio",
                                                                "measure": "conto sospeso"})
    case.refresh_from_db()
    assert (case.status, case.measure, case.notes.count()) == ("closed_measure", "conto sospeso", 1)
    assert "aml" not in client.get("/accounts/cashier/").content.decode().lower()  # no tipping off


def test_the_history_shows_adm_codes_and_the_reality_checks_history_opens_the_sessions_movements(
        django_capture_on_commit_callbacks):
    player, card = cashier_player()
    client = _client(player)
    with django_capture_on_commit_callbacks(execute=True):  # the ADM movement is sent after the commit
        client.post("/accounts/cashier/deposits/", {"amount": "15", "instrument": card.pk, "form_key": "h1"})
    deposit = Deposit.objects.get(player=player)
    code = AdmMessage.objects.get(type="movement", reference=f"deposit:{deposit.pk}").code
    page = client.get("/accounts/history/").content.decode()
    assert code and code in page and "€15,00" in page
    api = client.get("/api/me/ledger/").json()["results"][0]
    assert (api["adm_code"], api["adm_session_code"]) == (code, None)
    GameSession.objects.filter(user=player, ended_at__isnull=True).update(
        started_at=timezone.now() - dt.timedelta(minutes=61))
    answer = client.post("/accounts/session/reality-check/", {"choice": "history"})
    assert answer.headers["Location"] == "/accounts/history/?session=current"
    assert "€15,00" in client.get(answer.headers["Location"]).content.decode()
