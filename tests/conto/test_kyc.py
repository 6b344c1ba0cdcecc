"""KYC review (regulation.md §1.7): the queue oldest first with overdue rows and checks, the
three decisions with their moves, reasons, codes and audit, and two reviewers racing."""

from __future__ import annotations

import datetime as dt
import threading

import pytest
from django.db import connection
from django.utils import timezone

from apps.adm.models import AdmMessage
from apps.audit.models import AuditLog
from apps.conto.models import Conto, KycEvent, StateChange
from apps.conto.registry import registry_entry_add
from tests.conftest import api_client

from .kyc_helpers import PDF, png, signed_up


def _submit(user) -> None:
    client = api_client(user)
    for side, data in (("front", png()), ("back", PDF)):
        from django.core.files.uploadedfile import SimpleUploadedFile
        assert client.post("/api/me/documents/", {"side": side, "file": SimpleUploadedFile("f", data)},
                           format="multipart").status_code == 201


@pytest.mark.django_db
def test_the_queue_is_oldest_first_with_overdue_rows_and_checks(user_factory, compliance, clock):
    old, new = user_factory(nickname="Vecchio1"), user_factory(nickname="Nuovo1")
    clock.set(dt.datetime(2026, 12, 1, 9, 0, tzinfo=dt.UTC))
    signed_up(old)
    _submit(old)
    clock.set(dt.datetime(2026, 12, 4, 10, 0, tzinfo=dt.UTC))  # 73 h later
    signed_up(new, code="BNCGLI90L62F205R")
    Conto.objects.filter(user=new).update(first_name="Giulia", last_name="Rossi", sex="F",
                                          birth_date=dt.date(1990, 7, 22))
    registry_entry_add(codice_fiscale="BNCGLI90L62F205R", days=10)
    _submit(new)
    body = api_client(compliance).get("/api/kyc/queue/").json()
    items = body["results"]
    assert [i["player"] for i in items] == [old.pk, new.pk]
    assert (items[0]["overdue"], items[0]["age_hours"]) == (True, 73)
    assert items[1]["overdue"] is False
    assert items[0]["checks"]["valid"] and items[0]["checks"]["consistent"] and items[0]["checks"]["name_letters_agree"]
    assert items[0]["checks"]["adult"] and items[0]["checks"]["registry"] == {"excluded": False, "scope": None}
    assert items[1]["checks"]["name_letters_agree"] is False  # Giulia Rossi is not BNC GLI
    assert items[1]["checks"]["registry"]["excluded"] is True
    assert [d["side"] for d in items[0]["documents"]] == ["front", "back"]


@pytest.mark.django_db
def test_approve_opens_the_conto_and_is_audited(player, compliance):
    conto = signed_up(player)
    _submit(player)
    response = api_client(compliance).post(f"/api/kyc/{player.pk}/approve/", {}, format="json")
    assert response.status_code == 200, response.json()
    assert response.json() == {"player": player.pk, "kyc_status": "approved", "kyc_reason": "", "state": "aperto",
                               "state_reason": ""}
    conto.refresh_from_db()
    assert conto.kyc_verified_at is not None and conto.document_expires_at is not None
    assert StateChange.objects.filter(conto=conto, state="aperto", by=compliance).exists()
    assert AuditLog.objects.filter(action="kyc_approve", target_id=str(player.pk), actor=compliance).exists()
    assert AdmMessage.objects.filter(type="account_status", reference=f"player:{player.pk}").exists()
    again = api_client(compliance).post(f"/api/kyc/{player.pk}/approve/", {}, format="json")
    assert (again.status_code, again.json()["code"]) == (409, "kyc_not_pending")


@pytest.mark.django_db
def test_approval_waits_for_adm_to_accept_the_account(player, compliance):
    signed_up(player, accepted=False)
    _submit(player)
    response = api_client(compliance).post(f"/api/kyc/{player.pk}/approve/", {}, format="json")
    assert (response.status_code, response.json()["code"]) == (409, "adm_not_accepted")
    assert Conto.objects.get(user=player).kyc_status == "pending"


@pytest.mark.django_db
def test_resubmit_asks_for_both_sides_again(player, compliance):
    conto = signed_up(player)
    _submit(player)
    response = api_client(compliance).post(f"/api/kyc/{player.pk}/resubmit/", {"reason": "La foto è sfocata"},
                                           format="json")
    assert response.json()["kyc_status"] == "resubmission_required"
    account = api_client(player).get("/api/me/account/").json()
    assert account["kyc_reason"] == "La foto è sfocata" and account["documents"] == []
    _submit(player)
    conto.refresh_from_db()
    assert conto.kyc_status == "pending"
    assert list(KycEvent.objects.filter(conto=conto).values_list("action", flat=True)) == [
        "submitted", "resubmission_requested", "submitted"]


@pytest.mark.django_db
def test_reject_closes_the_conto(player, compliance):
    signed_up(player)
    _submit(player)
    response = api_client(compliance).post(f"/api/kyc/{player.pk}/reject/", {"reason": "Documento falso"},
                                           format="json")
    assert response.json()["state"] == "chiuso" and response.json()["state_reason"] == "operatore"
    assert AuditLog.objects.get(action="kyc_reject").reason == "Documento falso"


@pytest.mark.django_db
@pytest.mark.parametrize(("action", "body"), [("resubmit", {}), ("reject", {"reason": ""}),
                                              ("reject", {"reason": "x" * 501}), ("approve", {"reason": "x" * 501}),
                                              ("reject", {"reason": 5})])
def test_a_missing_or_long_reason_is_400_and_changes_nothing(player, compliance, action, body):
    signed_up(player)
    _submit(player)
    response = api_client(compliance).post(f"/api/kyc/{player.pk}/{action}/", body, format="json")
    assert (response.status_code, response.json()["code"]) == (400, "validation_error")
    assert Conto.objects.get(user=player).kyc_status == "pending"
    assert not AuditLog.objects.filter(action__startswith="kyc_").exists()


@pytest.mark.django_db
def test_only_compliance_reviews(player, operator, finance):
    signed_up(player)
    _submit(player)
    for user in (player, operator, finance):
        assert api_client(user).get("/api/kyc/queue/").status_code == 403
        assert api_client(user).post(f"/api/kyc/{player.pk}/approve/", {}, format="json").status_code == 403


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="the race needs real concurrent transactions")
def test_two_reviewers_approving_at_once_give_one_approval(player, compliance, user_factory):
    second = user_factory(group="compliance")
    signed_up(player)
    _submit(player)
    barrier = threading.Barrier(2)
    codes: list[int] = []

    def approve(reviewer):
        try:
            barrier.wait()
            codes.append(api_client(reviewer).post(f"/api/kyc/{player.pk}/approve/", {}, format="json").status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=approve, args=(r,)) for r in (compliance, second)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(codes) == [200, 409]
    assert KycEvent.objects.filter(action="approved").count() == 1
    assert AuditLog.objects.filter(action="kyc_approve").count() == 1
    assert timezone.now()
