"""The sanctions API (platform.md §7.4) and its permission matrix (§1)."""

from __future__ import annotations

import pytest

from apps.audit.models import AuditLog
from apps.chat.models import ChatMessage
from apps.chat.services import chat_post
from apps.compliance.models import Sanction
from apps.wallet.selectors import frozen_cents_many, wallet_get

from ..conftest import make_user
from ..tables.conftest import fund

pytestmark = pytest.mark.django_db


def issue(api, actor, player, kind="chat_ban", duration="1_month", reason="insults", **extra):
    body = {"player": getattr(player, "pk", player), "kind": kind, "duration": duration, "reason": reason, **extra}
    return api(actor).post("/api/sanctions/", body, format="json")


ENDPOINTS = [("get", "/api/chat/messages/", None), ("post", "/api/chat/messages/{m}/hide/", {}),
             ("get", "/api/sanctions/", None), ("post", "/api/sanctions/", {"player": 1}),
             ("post", "/api/sanctions/{s}/lift/", {"reason": "x"})]


@pytest.mark.parametrize("role", ["player", "operator", "finance", "anonymous"])
@pytest.mark.parametrize(("method", "path", "body"), ENDPOINTS)
def test_only_compliance_and_superusers_reach_the_endpoints(api, role, method, path, body, compliance):
    target = make_user(nickname="Bersaglio")
    line = chat_post(user=target, text="ciao")
    sanction = Sanction.objects.create(player=target, kind="chat_ban", duration="permanent", reason="r",
                                       starts_at=line.created)
    who = {"player": make_user(nickname="Curioso"), "operator": make_user(group="operator"),
           "finance": make_user(group="finance"), "anonymous": None}[role]
    url = path.format(m=line.pk, s=sanction.pk)
    answer = getattr(api(who), method)(url, body, format="json") if body is not None else api(who).get(url)
    expected = {"anonymous": ("not_authenticated", (401, 403))}.get(role, ("permission_denied", (403,)))
    assert answer.status_code in expected[1] and answer.json()["code"] == expected[0], answer.json()
    assert not ChatMessage.objects.get(pk=line.pk).hidden
    assert Sanction.objects.get(pk=sanction.pk).lifted_at is None
    assert Sanction.objects.count() == 1


@pytest.mark.parametrize("staff", ["compliance", "superuser"])
def test_compliance_and_superuser_issue_list_and_lift(api, staff):
    actor = make_user(group="compliance") if staff == "compliance" else make_user(superuser=True)
    player = make_user(nickname="Colpevole")
    line = chat_post(user=player, text="sei un idiota")
    answer = issue(api, actor, player, messages=[line.pk])
    assert answer.status_code == 201, answer.json()
    body = answer.json()
    assert {k: body[k] for k in ("player", "kind", "duration", "reason", "active", "created_by", "messages")} == {
        "player": player.pk, "kind": "chat_ban", "duration": "1_month", "reason": "insults", "active": True,
        "created_by": actor.pk, "messages": [line.pk]}
    assert body["ends_at"] is not None
    listed = api(actor).get(f"/api/sanctions/?player={player.pk}&active=true").json()["results"]
    assert [s["id"] for s in listed] == [body["id"]]
    me = api(player).get("/api/me/").json()["sanctions"]
    assert [(s["kind"], s["ends_at"]) for s in me] == [("chat_ban", body["ends_at"])]
    lifted = api(actor).post(f"/api/sanctions/{body['id']}/lift/", {"reason": "apologised"}, format="json")
    assert lifted.status_code == 200 and lifted.json()["active"] is False
    assert lifted.json()["lifted_by"] == actor.pk and lifted.json()["lifted_at"]
    again = api(actor).post(f"/api/sanctions/{body['id']}/lift/", {}, format="json")
    assert (again.status_code, again.json()["code"]) == (409, "not_active")
    assert api(player).get("/api/me/").json()["sanctions"] == []
    assert ChatMessage.objects.get(pk=line.pk).reviewed_at is not None  # out of the queue with the sanction


def test_validation_and_conflicts(api, compliance):
    player = make_user(nickname="Pippo_1")
    cases = [
        ({"player": "abc", "kind": "chat_ban", "duration": "1_month", "reason": "r"}, "player"),
        ({"player": 999999, "kind": "chat_ban", "duration": "1_month", "reason": "r"}, "player"),
        ({"player": player.pk, "kind": "ban", "duration": "1_month", "reason": "r"}, "kind"),
        ({"player": player.pk, "kind": "chat_ban", "reason": "r"}, "duration"),
        ({"player": player.pk, "kind": "chat_ban", "duration": "1_month", "reason": " "}, "reason"),
        ({"player": player.pk, "kind": "authority_report", "duration": "1_month", "reason": "r"}, "duration"),
        ({"player": player.pk, "kind": "chat_ban", "duration": "1_month", "reason": "r", "messages": [987654]},
         "messages"),
        ({"player": player.pk, "kind": "chat_ban", "duration": "1_month", "reason": "r", "messages": ["x"]},
         "messages"),
        ({"player": compliance.pk, "kind": "chat_ban", "duration": "1_month", "reason": "r"}, "player"),
    ]
    for body, field in cases:
        answer = api(compliance).post("/api/sanctions/", body, format="json")
        assert answer.status_code == 400 and answer.json()["code"] == "validation_error", (body, answer.json())
        assert field in answer.json()["fields"], (body, answer.json())
    assert Sanction.objects.count() == 0 and not AuditLog.objects.filter(action="sanction_issue").exists()
    suspension = api(compliance).post("/api/sanctions/", {"player": player.pk, "kind": "account_suspension",
                                                          "reason": "r"}, format="json")
    assert suspension.status_code == 201 and suspension.json()["duration"] == "permanent"  # the default
    assert suspension.json()["ends_at"] is None
    twice = issue(api, compliance, player, kind="account_suspension", duration="permanent")
    assert (twice.status_code, twice.json()["code"]) == (409, "already_sanctioned")
    assert api(compliance).get("/api/sanctions/?player=x").status_code == 400
    assert api(compliance).get("/api/sanctions/?active=maybe").status_code == 400
    assert api(compliance).post("/api/sanctions/99999/lift/", {}, format="json").status_code == 404


def test_an_authority_report_needs_a_decision_and_release_gives_it_back(api, compliance):
    player = make_user(nickname="Segnalato")
    fund(player, cash=1500)
    report = issue(api, compliance, player, kind="authority_report", duration="permanent").json()
    assert wallet_get(player=player)["cash_cents"] == 0 and frozen_cents_many(player_ids=[player.pk])[player.pk] == 1500
    missing = api(compliance).post(f"/api/sanctions/{report['id']}/lift/", {"reason": "x"}, format="json")
    assert (missing.status_code, missing.json()["code"]) == (400, "decision_required")
    wrong = api(compliance).post(f"/api/sanctions/{report['id']}/lift/", {"decision": "maybe"}, format="json")
    assert wrong.status_code == 400
    assert Sanction.objects.get(pk=report["id"]).active
    done = api(compliance).post(f"/api/sanctions/{report['id']}/lift/", {"decision": "release", "reason": "ok"},
                                format="json")
    assert done.status_code == 200 and done.json()["decision"] == "release"
    assert wallet_get(player=player)["cash_cents"] == 1500


def test_every_issue_and_lift_is_audited_with_who_when_why_and_which_messages(api, compliance):
    player = make_user(nickname="Audito")
    line = chat_post(user=player, text="stronzo")
    sanction = issue(api, compliance, player, kind="lobby_ban", messages=[line.pk], reason="insulti").json()
    api(compliance).post(f"/api/sanctions/{sanction['id']}/lift/", {"reason": "errore"}, format="json")
    rows = {row.action: row for row in AuditLog.objects.filter(target_type="sanction", target_id=str(sanction["id"]))}
    assert set(rows) == {"sanction_issue", "sanction_lift"}
    issued, lifted = rows["sanction_issue"], rows["sanction_lift"]
    assert (issued.actor_id, issued.reason, issued.after["messages"], issued.after["kind"]) == (
        compliance.pk, "insulti", [line.pk], "lobby_ban")
    assert issued.ip and issued.created
    assert (lifted.actor_id, lifted.reason, lifted.before["lifted_at"]) == (compliance.pk, "errore", None)
    assert lifted.after["lifted_at"] is not None


def test_the_chat_search_api_filters_and_audits(api, compliance, clock):
    a, b = make_user(nickname="Alfa_1"), make_user(nickname="Beta_2")
    from apps.tables.services import table_create

    table = table_create(user=a, data={"game": "briscola"})
    first = chat_post(user=a, text="ciao a tutti", ip="10.9.9.9")
    clock.advance(minutes=5)
    second = chat_post(user=b, text="sei un idiota", table=table)
    clock.advance(minutes=5)
    third = chat_post(user=a, text="Buona partita", table=table)
    client = api(compliance)

    def ids(query):
        answer = client.get(f"/api/chat/messages/{query}")
        assert answer.status_code == 200, answer.json()
        return [row["id"] for row in answer.json()["results"]]

    assert ids("") == [third.pk, second.pk, first.pk]
    assert ids(f"?player={a.pk}") == [third.pk, first.pk]
    assert ids("?nickname=bet") == [second.pk]
    assert ids(f"?table={table.pk}") == [third.pk, second.pk]
    assert ids("?room=lobby") == [first.pk]
    assert ids("?q=PARTITA") == [third.pk]
    assert ids("?flagged=true") == [second.pk]
    since = second.created.isoformat().replace("+00:00", "Z")
    assert ids(f"?since={since}") == [third.pk, second.pk]
    assert ids(f"?until={since}") == [first.pk]
    assert ids(f"?player={a.pk}&table={table.pk}") == [third.pk]
    assert ids("?player=424242") == []
    row = client.get("/api/chat/messages/?q=ciao").json()["results"][0]
    assert set(row) >= {"id", "created", "player", "nickname", "room", "table", "match", "ip", "text", "hidden",
                        "refused", "flagged"} and row["ip"] == "10.9.9.9"
    for bad in ("?player=x", "?table=1.5", "?since=yesterday", "?until=2026-13-01", "?flagged=maybe"):
        answer = client.get(f"/api/chat/messages/{bad}")
        assert answer.status_code == 400 and answer.json()["code"] == "validation_error", bad
    searches = AuditLog.objects.filter(action="chat_search", actor=compliance).count()
    assert searches == 12  # every successful search, none of the refused ones


def test_hiding_through_the_api_is_recorded_and_audited_once(api, compliance):
    player = make_user(nickname="Nascosto")
    line = chat_post(user=player, text="vaffanculo")
    for _ in range(2):
        answer = api(compliance).post(f"/api/chat/messages/{line.pk}/hide/", {"reason": "insulto"}, format="json")
        assert answer.status_code == 200 and answer.json()["hidden"] is True
    line.refresh_from_db()
    assert line.hidden and line.hidden_by_id == compliance.pk and line.text == "vaffanculo"
    assert AuditLog.objects.filter(action="chat_hide", target_id=str(line.pk)).count() == 1
    assert api(compliance).post("/api/chat/messages/98765/hide/", {}, format="json").status_code == 404
