"""Compliance staff add a sanction in the admin (it used to answer 403): through the same
service as the API, so it is validated, audited and writes the wallet's freeze."""

from __future__ import annotations

import pytest
from django.test import Client

from apps.audit.models import AuditLog
from apps.compliance.models import Sanction
from apps.wallet.models import Freeze

from ..conftest import make_user

pytestmark = pytest.mark.django_db


def admin_client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_compliance_adds_a_sanction_in_the_admin(compliance):
    player = make_user(nickname="DaAdmin")
    client = admin_client(compliance)
    assert client.get("/admin/compliance/sanction/add/").status_code == 200
    answer = client.post("/admin/compliance/sanction/add/", {
        "player": player.pk, "kind": "account_suspension", "duration": "permanent", "reason": "frode",
        "message_ids": ""})
    assert answer.status_code == 302, answer.content.decode()[:2000]
    sanction = Sanction.objects.get(player=player)
    assert (sanction.kind, sanction.created_by_id, sanction.reason) == ("account_suspension", compliance.pk, "frode")
    assert Freeze.objects.filter(reference=f"sanction:{sanction.pk}").exists()
    assert AuditLog.objects.filter(action="sanction_issue", actor=compliance, target_id=str(sanction.pk)).exists()
    twice = client.post("/admin/compliance/sanction/add/", {
        "player": player.pk, "kind": "account_suspension", "duration": "permanent", "reason": "ancora"})
    assert twice.status_code == 200 and "ha già una sanzione attiva" in twice.content.decode()  # an Italian page, in Italian
    assert Sanction.objects.filter(player=player).count() == 1
    wrong = client.post("/admin/compliance/sanction/add/", {
        "player": player.pk, "kind": "authority_report", "duration": "1_month", "reason": "x"})
    assert wrong.status_code == 200 and Sanction.objects.filter(player=player).count() == 1
    change = client.get(f"/admin/compliance/sanction/{sanction.pk}/change/")
    assert change.status_code == 200 and 'name="reason"' not in change.content.decode()  # never edited


def test_operators_and_finance_cannot_add_one(operator, finance):
    for user in (operator, finance):
        assert admin_client(user).get("/admin/compliance/sanction/add/").status_code == 403
