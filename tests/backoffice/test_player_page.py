"""The back office's player page (regulation.md §9): tabs by role, 403 for the rest, the
identity view audited, notes and state changes with a reason."""

from __future__ import annotations

import pytest
from django.test import Client

from apps.audit.models import AuditLog
from apps.conto.models import Conto, PlayerNote
from apps.conto.services import conto_ensure
from tests.conftest import make_user

pytestmark = pytest.mark.django_db
TABS = ["identity", "limits", "exclusions", "money", "cashier", "sessions", "play", "chat", "signals", "notes",
        "audit"]
SEES = {
    "operator": {"identity", "limits", "exclusions", "sessions", "play", "notes"},
    "finance": {"identity", "limits", "exclusions", "money", "cashier", "sessions", "notes"},
    "compliance": set(TABS),
}


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.parametrize("role", ["operator", "finance", "compliance"])
def test_each_role_sees_its_tabs_and_no_other(role):
    player = make_user(nickname="Paged1")
    conto_ensure(user=player)
    client = _client(make_user(group=role))
    for tab in TABS:
        response = client.get(f"/backoffice/players/{player.pk}/?tab={tab}")
        expected = 200 if tab in SEES[role] else 403
        assert response.status_code == expected, (role, tab, response.status_code)
    page = client.get(f"/backoffice/players/{player.pk}/").content.decode()
    shown = {tab for tab in TABS if f'href="?tab={tab}"' in page}
    assert shown == SEES[role]


def test_players_and_anonymous_are_kept_out():
    player = make_user(nickname="Paged2")
    assert _client(player).get(f"/backoffice/players/{player.pk}/").status_code == 403
    anonymous = Client().get(f"/backoffice/players/{player.pk}/")
    assert anonymous.status_code == 302 and anonymous["Location"].startswith("/admin/login/")
    staff = make_user(group="operator")
    assert _client(staff).get(f"/backoffice/players/{staff.pk}/").status_code == 404  # staff are not players


def test_viewing_the_identity_is_audited(operator):
    player = make_user(nickname="Paged3")
    _client(operator).get(f"/backoffice/players/{player.pk}/?tab=identity")
    assert AuditLog.objects.filter(action="player_view_identity", actor=operator, target_id=str(player.pk)).exists()


def test_notes_by_every_role_and_state_changes_by_compliance(operator, compliance):
    player = make_user(nickname="Paged4")
    response = _client(operator).post(f"/backoffice/players/{player.pk}/notes/", {"text": "Chiamato, tutto ok"})
    assert response.status_code == 302
    assert PlayerNote.objects.get(player=player).author == operator
    assert "Chiamato, tutto ok" in _client(compliance).get(f"/backoffice/players/{player.pk}/?tab=notes").content.decode()
    assert _client(operator).post(f"/backoffice/players/{player.pk}/status/",
                                  {"action": "suspend", "reason": "x"}).status_code == 403
    _client(compliance).post(f"/backoffice/players/{player.pk}/status/", {"action": "suspend", "reason": ""})
    assert Conto.objects.get(user=player).state == "aperto"  # a reason is required
    _client(compliance).post(f"/backoffice/players/{player.pk}/status/", {"action": "suspend", "reason": "frode"})
    assert Conto.objects.get(user=player).state == "sospeso"


def test_the_notes_and_account_apis(operator, finance, compliance, api):
    player = make_user(nickname="Paged5")
    response = api(finance).post(f"/api/players/{player.pk}/notes/", {"text": "Bonifico verificato"}, format="json")
    assert response.status_code == 201 and set(response.json()) == {"id", "text", "author", "created"}
    assert api(finance).post(f"/api/players/{player.pk}/notes/", {"text": ""}, format="json").status_code == 400
    assert api(finance).post(f"/api/players/{player.pk}/notes/", {"text": "x" * 2001}, format="json").status_code == 400
    assert api(player).get(f"/api/players/{player.pk}/notes/").status_code == 403
    assert api(operator).get(f"/api/players/{player.pk}/notes/").json()["results"][0]["text"] == "Bonifico verificato"
    body = api(operator).get(f"/api/players/{player.pk}/account/").json()
    for key in ("username", "kyc_history", "state_history", "limits", "self_exclusions", "sanctions", "balances"):
        assert key in body
    assert "aml_case_open" not in body
    assert api(compliance).get(f"/api/players/{player.pk}/account/").json()["aml_case_open"] is False
    assert api(operator).get(f"/api/players/{player.pk}/self-exclusions/").json() == []
    assert api(player).get(f"/api/players/{player.pk}/account/").status_code == 403
    assert api(operator).get("/api/players/999999/account/").status_code == 404


def test_the_audit_api_filters_and_refuses_bad_filters(compliance, operator, api):
    player = make_user(nickname="Paged6")
    api(operator).post(f"/api/players/{player.pk}/notes/", {"text": "nota"}, format="json")
    rows = api(compliance).get("/api/audit/", {"action": "player_note", "target_id": str(player.pk)}).json()
    assert rows["count"] == 1 and rows["results"][0]["actor"] == operator.pk
    assert set(rows["results"][0]) == {"id", "created", "actor", "action", "target_type", "target_id", "reason",
                                       "before", "after", "ip"}
    for bad in ({"since": "yesterday"}, {"actor": "bob"}):
        response = api(compliance).get("/api/audit/", bad)
        assert response.status_code == 400 and response.json()["code"] == "validation_error"
    assert api(operator).get("/api/audit/").status_code == 403
