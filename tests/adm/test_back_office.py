"""The ADM adapter's back office (regulation.md §7.5): the day's summary, the messages and the
reconciliation of money movements no accepted message covers."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest
from django.core.management import call_command
from django.test import Client

from apps.adm.models import AdmMessage
from tests.cashier.helpers import cashier_player
from tests.conftest import api_client, make_user

pytestmark = pytest.mark.django_db
ROME = ZoneInfo("Europe/Rome")


def test_the_summary_the_messages_and_the_reconciliation(settings, clock, capsys):
    clock.set(dt.datetime(2026, 12, 7, 9, tzinfo=ROME))
    player, card = cashier_player()
    client = api_client(player)
    assert client.post("/api/me/deposits/", {"amount_cents": 2_000, "instrument": card.pk},
                       format="json").status_code == 201
    call_command("adm_send_due")  # what the Celery task does after the commit
    settings.ADM_SIMULATOR_REJECT = ["movement"]
    rejected = client.post("/api/me/deposits/", {"amount_cents": 3_000, "instrument": card.pk}, format="json").json()
    call_command("adm_send_due")
    staff = api_client(make_user(group="operator"))
    summary = staff.get("/api/adm/summary/?day=2026-12-07").json()
    assert summary["by_type"]["movement"] == {"total": 2, "accepted": 1, "rejected": 1, "pending": 0}
    assert summary["rejected"] == 1 and summary["sent"] >= 2
    listed = staff.get("/api/adm/messages/?status=rejected&type=movement").json()["results"]
    assert [m["reference"] for m in listed] == [f"deposit:{rejected['id']}"] and listed[0]["reject_code"]
    assert staff.get("/api/adm/summary/?day=2026-13-01").status_code == 400
    assert staff.get("/api/adm/reconciliation/").json()["flagged"] == []  # not 24 hours old yet
    clock.set(dt.datetime(2026, 12, 8, 10, tzinfo=ROME))
    flagged = staff.get("/api/adm/reconciliation/").json()["flagged"]
    assert [(f["kind"], f["reference"], f["message_status"]) for f in flagged] == [
        ("deposit", f"deposit:{rejected['id']}", "rejected")]
    call_command("adm_reconcile")
    assert "flagged: 1" in capsys.readouterr().out
    page = Client(HTTP_ACCEPT_LANGUAGE="it")
    page.force_login(make_user(group="finance"))
    assert f"deposit:{rejected['id']}" in page.get("/backoffice/adm/reconciliation/").content.decode()
    assert "movement" in page.get("/backoffice/adm/?day=2026-12-07").content.decode()
    assert api_client(player).get("/api/adm/summary/").status_code == 403
    assert AdmMessage.objects.filter(type="movement").count() == 2
