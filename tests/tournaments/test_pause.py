"""An operator pauses and resumes a tournament's registrations (issue 16): with a reason,
audited, told on the page; registering while paused is refused in the contract's format;
operators only. And the services' refusals in the reader's language (gettext)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import translation

from apps.audit.models import AuditLog
from apps.common.errors import ValidationFailed
from apps.tournaments import services
from apps.tournaments.models import Tournament
from tests.conftest import api_client, make_user

from .conftest import balances, create, players, register_all

pytestmark = pytest.mark.django_db


def pause(user, tid, reason="server maintenance"):
    return api_client(user).post(f"/api/tournaments/{tid}/registrations/pause/", {"reason": reason}, format="json")


def resume(user, tid, reason="maintenance over"):
    return api_client(user).post(f"/api/tournaments/{tid}/registrations/resume/", {"reason": reason},
                                 format="json")


def test_pause_refuses_registrations_keeps_unregistering_and_resume_reopens(operator):
    t = create(operator, max_players=8)
    a, b = players(2, cash=1000)
    register_all(t["id"], [a])
    resp = pause(operator, t["id"])
    assert resp.status_code == 200
    assert resp.json()["registrations_paused"] is True and resp.json()["registration_open"] is False
    assert resp.json()["registrations_pause_reason"] == "server maintenance"
    refused = api_client(b).post(f"/api/tournaments/{t['id']}/register/")
    assert refused.status_code == 409
    assert refused.json() == {"code": "registration_closed", "detail": (
        "Registrations for this tournament are paused by the operator: server maintenance")}
    assert balances(b) == (0, 1000)  # nothing moved
    # the registered may still leave, with their money
    assert api_client(a).post(f"/api/tournaments/{t['id']}/unregister/").status_code == 200
    assert balances(a) == (0, 1000)
    assert pause(operator, t["id"]).json()["code"] == "already_paused"
    resumed = resume(operator, t["id"])
    assert resumed.status_code == 200 and resumed.json()["registrations_paused"] is False
    register_all(t["id"], [b])
    assert resume(operator, t["id"]).json()["code"] == "not_paused"
    actions = list(AuditLog.objects.filter(target_id=str(t["id"]), action__startswith="tournament_registrations")
                   .order_by("id").values_list("action", "reason", "actor_id"))
    assert actions == [("tournament_registrations_pause", "server maintenance", operator.pk),
                       ("tournament_registrations_resume", "maintenance over", operator.pk)]


def test_pause_needs_a_reason_and_an_open_tournament(operator):
    t = create(operator, kind="scheduled", min_players=2, max_players=8, payouts=[100])
    bad = pause(operator, t["id"], reason="  ")
    assert bad.status_code == 400 and bad.json()["code"] == "validation_error" and "reason" in bad.json()["fields"]
    assert not Tournament.objects.get(pk=t["id"]).registrations_paused_at
    register_all(t["id"], players(2, cash=1000))
    assert api_client(operator).post(f"/api/tournaments/{t['id']}/start/").status_code == 200
    assert pause(operator, t["id"]).json()["code"] == "already_started"
    assert api_client(operator).post("/api/tournaments/999999/registrations/pause/", {"reason": "x"},
                                     format="json").status_code == 404


@pytest.mark.parametrize("role", ["finance", "compliance", None])
def test_only_operators_pause(operator, role):
    t = create(operator, max_players=8)
    user = make_user(group=role) if role else players(1)[0]
    assert pause(user, t["id"]).status_code == 403
    assert api_client(None).post(f"/api/tournaments/{t['id']}/registrations/pause/", {"reason": "x"},
                                 format="json").status_code in (401, 403)
    client = Client()
    client.force_login(user)
    page = client.post(f"/admin/tournaments/tournament/{t['id']}/registrations/pause/", {"reason": "x"})
    assert page.status_code in (302, 403) and not Tournament.objects.get(pk=t["id"]).registrations_paused_at


def test_admin_button_pauses_and_the_page_tells_players(operator):
    t = create(operator, max_players=8)
    operator.is_staff = True
    operator.save()
    staff = Client()
    staff.force_login(operator)
    overview = staff.get(f"/admin/tournaments/tournament/{t['id']}/overview/").content.decode()
    assert 'id="pause-registrations"' in overview
    form = staff.get(f"/admin/tournaments/tournament/{t['id']}/registrations/pause/")
    assert form.status_code == 200 and 'name="reason"' in form.content.decode()
    done = staff.post(f"/admin/tournaments/tournament/{t['id']}/registrations/pause/", {"reason": "new rules"})
    assert done.status_code == 302
    assert Tournament.objects.get(pk=t["id"]).registrations_pause_reason == "new rules"
    assert 'id="resume-registrations"' in staff.get(f"/admin/tournaments/tournament/{t['id']}/overview/").content \
        .decode()
    # the list's admin action leads to the same form
    listed = staff.post("/admin/tournaments/tournament/", {"action": "registrations_pause_resume",
                                                            "_selected_action": [t["id"]]})
    assert listed.status_code == 302 and listed["Location"].endswith(f"/{t['id']}/registrations/resume/")
    [p] = players(1, cash=1000)
    client = Client()
    client.force_login(p)
    en = client.get(f"/tournaments/{t['id']}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'id="registrations-paused"' in en and "Registrations are paused by the operator." in en
    assert "new rules" in en and 'id="register"' not in en
    it = client.get(f"/tournaments/{t['id']}/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "Le iscrizioni sono sospese dall&#x27;operatore." in it or "Le iscrizioni sono sospese dall'operatore." in it
    services.tournament_registrations_resume(actor=operator, tournament_id=t["id"], reason="ok")
    assert 'id="register"' in client.get(f"/tournaments/{t['id']}/").content.decode()


def test_refusals_in_the_readers_language(operator):
    """The services' sentences go through gettext: the same refusal in English and Italian,
    on the page (a message after the button) and in the API."""
    t = create(operator, max_players=8, buy_in_cents=1000)
    [poor] = players(1, cash=300)
    client = Client()
    client.force_login(poor)
    en = client.post(f"/tournaments/{t['id']}/register/", HTTP_ACCEPT_LANGUAGE="en", follow=True).content.decode()
    assert "The entry costs €10,00: your bonus and cash together are €3,00." in en
    it = client.post(f"/tournaments/{t['id']}/register/", HTTP_ACCEPT_LANGUAGE="it", follow=True).content.decode()
    assert "La partecipazione costa €10,00: bonus e contanti insieme ti danno €3,00." in it
    it = client.post(f"/tournaments/{t['id']}/unregister/", HTTP_ACCEPT_LANGUAGE="it", follow=True).content.decode()
    assert "Non sei iscritto a questo torneo." in it
    # the REST API speaks English whatever the browser prefers (apps/common/middleware.py)
    api = api_client(poor).post(f"/api/tournaments/{t['id']}/unregister/", HTTP_ACCEPT_LANGUAGE="it").json()
    assert api == {"code": "not_registered", "detail": "You are not registered for this tournament."}
    with translation.override("it"), pytest.raises(ValidationFailed) as refused:
        services.tournament_validate({"name": "x", "game": "briscola", "kind": "sit_and_go", "format": "knockout",
                                      "buy_in_cents": 1025, "max_players": 8, "payouts": [100]})
    assert refused.value.extra["fields"]["buy_in_cents"] == [
        "Il costo di partecipazione deve essere un multiplo di €0,50 (50 centesimi)."]
