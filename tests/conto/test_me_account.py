"""Reading and completing one's own conto (regulation.md §1.6, §1.9, §1.3's renewal)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from apps.adm.models import AdmMessage
from apps.conto.models import Conto, IdentityRecord
from tests.conftest import api_client, make_user

from .test_signup import valid_body

pytestmark = pytest.mark.django_db


def _identity(**changes) -> dict:
    body = valid_body(**changes)
    for key in ("username", "password", "limits"):
        body.pop(key)
    return body


def test_a_legacy_player_reads_the_conto_and_completes_the_identity():
    player = make_user(nickname="Legacy9")
    client = api_client(player)
    account = client.get("/api/me/account/").json()
    assert (account["origin"], account["state"], account["kyc_status"]) == ("legacy", "aperto", "legacy")
    assert account["codice_fiscale"] is None and account["can"]["money_play"] is True
    response = client.patch("/api/me/account/", _identity(codice_fiscale="RSSMRA85C15H501S"), format="json")
    assert (response.status_code, response.json()["code"]) == (400, "codice_fiscale_invalid")
    response = client.patch("/api/me/account/", {**_identity(), "limits": {}}, format="json")
    assert response.status_code == 400 and "limits" in response.json()["fields"]
    response = client.patch("/api/me/account/", _identity(), format="json")
    assert response.status_code == 200, response.json()
    body = response.json()
    assert (body["kyc_status"], body["state"], body["codice_fiscale"]) == ("documents_required", "aperto",
                                                                         "RSSMRA85C15H501R")
    assert AdmMessage.objects.filter(type="account_open", reference=f"player:{player.pk}").count() == 1
    assert IdentityRecord.objects.filter(conto__user=player).count() == 1


def test_renewing_the_document_asks_for_documents_and_keeps_the_verification():
    player = make_user(nickname="Renew1")
    api_client(player).patch("/api/me/account/", _identity(), format="json")
    Conto.objects.filter(user=player).update(kyc_status="approved", kyc_verified_at=timezone.now())
    new_document = {"type": "passaporto", "number": "YA1234567", "issuer": "Questura di Roma",
                    "expires_at": (timezone.localdate() + dt.timedelta(days=3650)).isoformat()}
    client = api_client(player)
    assert client.patch("/api/me/account/", {"document": new_document, "email": "x@y.it"},
                        format="json").status_code == 400
    response = client.patch("/api/me/account/", {"document": new_document}, format="json")
    assert response.status_code == 200
    assert response.json()["kyc_status"] == "documents_required" and response.json()["kyc_verified_at"]
    assert response.json()["document"]["type"] == "passaporto"
    assert IdentityRecord.objects.filter(conto__user=player).count() == 2


def test_staff_have_no_conto_to_read(operator):
    response = api_client(operator).get("/api/me/account/")
    assert (response.status_code, response.json()["code"]) == (403, "permission_denied")
