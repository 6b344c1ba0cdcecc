"""Nicknames (platform.md §2): format, reserved names, case-insensitive clash, immutability."""

from __future__ import annotations

import threading

import pytest
from django.db import connection
from django.utils import translation

from apps.players.models import NicknameChange, Profile
from apps.players.rules import nickname_problem, skeleton
from apps.wallet.selectors import wallet_get

VALID = ["abc", "Mario_88", "a" * 16, "Z9_", "giulia", "X_y_Z"]
INVALID = ["", "ab", "a" * 17, "1abc", "_abc", "ab c", " abc", "abc ", "àbc", "ab-c", "ab.c", "mario!"]
RESERVED = ["admin", "ADMIN", "Administrator", "staff", "System", "root", "support", "moderator",
            "operator", "Finance", "compliance", "robot", "Robot", "robot_1", "RobotMario", "robotx",
            # issue 25: the Italian staff words were free nicknames
            "Operatore", "Conformita", "Finanza", "Supporto", "Assistenza", "Amministratore", "Sistema", "moderatore"]


@pytest.mark.parametrize("name", VALID)
def test_valid_nicknames(name):
    assert nickname_problem(name) is None


@pytest.mark.parametrize("name", INVALID + RESERVED + [None, 12, ["abc"]])
def test_invalid_nicknames(name):
    with translation.override("en"):
        problem = nickname_problem(name)
    assert problem and ("3 to 16" in problem or "reserved" in problem)
    with translation.override("it"):
        assert "3 a 16" in nickname_problem(name) or "riservato" in nickname_problem(name)


@pytest.mark.django_db
def test_choose_nickname_credits_welcome_and_is_immutable(api, newcomer):
    client = api(newcomer)
    assert client.get("/api/me/").json() == {"id": newcomer.pk, "username": newcomer.username,
                                             "nickname": None, "sanctions": []}
    answer = client.post("/api/me/nickname/", {"nickname": "Mario_88"}, format="json")
    assert answer.status_code == 201 and answer.json() == {"nickname": "Mario_88"}
    assert client.get("/api/me/").json()["nickname"] == "Mario_88"
    assert wallet_get(player=newcomer)["credits"] == 300
    again = client.post("/api/me/nickname/", {"nickname": "Mario_88"}, format="json")
    assert again.status_code == 409 and again.json()["code"] == "nickname_already_set"
    other = client.post("/api/me/nickname/", {"nickname": "Another"}, format="json")
    assert other.status_code == 409 and other.json()["code"] == "nickname_already_set"
    assert wallet_get(player=newcomer)["credits"] == 300  # welcome credits once
    assert Profile.objects.get(user=newcomer).nickname == "Mario_88"


@pytest.mark.django_db
def test_nickname_taken_case_insensitive(api, user_factory):
    first, second = user_factory(), user_factory()
    assert api(first).post("/api/me/nickname/", {"nickname": "mario_88"}, format="json").status_code == 201
    answer = api(second).post("/api/me/nickname/", {"nickname": "MARIO_88"}, format="json")
    assert answer.status_code == 409
    body = answer.json()
    assert body["code"] == "nickname_taken"
    assert body["detail"] == "The nickname 'MARIO_88' is already taken: choose another one."
    assert Profile.objects.get(user=second).nickname is None
    assert wallet_get(player=second)["credits"] == 0


@pytest.mark.django_db
@pytest.mark.parametrize("body", [{"nickname": "ab"}, {"nickname": "1abc"}, {"nickname": "has space"},
                                  {"nickname": 123}, {"nickname": None}, {}, {"nickname": ["x"]},
                                  {"nickname": "admin"}, {"nickname": "robot7"}])
def test_invalid_nickname_api(api, newcomer, body):
    answer = api(newcomer).post("/api/me/nickname/", body, format="json")
    assert answer.status_code == 400
    assert answer.json()["code"] == "nickname_invalid" and answer.json()["detail"]
    assert Profile.objects.get(user=newcomer).nickname is None


@pytest.mark.django_db
def test_staff_cannot_choose_a_nickname(api, operator):
    answer = api(operator).post("/api/me/nickname/", {"nickname": "Boss"}, format="json")
    assert answer.status_code == 403 and answer.json()["code"] == "staff_cannot_play"


@pytest.mark.django_db
def test_compliance_rename_is_audited_and_keeps_history(api, player, compliance, user_factory):
    from apps.audit.models import AuditLog
    from apps.players.selectors import nickname_of

    old = nickname_of(player)
    user_factory(nickname="Taken_1")
    clash = api(compliance).post(f"/api/players/{player.pk}/nickname/", {"nickname": "taken_1", "reason": "x"},
                                 format="json")
    assert clash.status_code == 409 and clash.json()["code"] == "nickname_taken"
    no_reason = api(compliance).post(f"/api/players/{player.pk}/nickname/", {"nickname": "Fresh"}, format="json")
    assert no_reason.status_code == 400 and no_reason.json()["code"] == "validation_error"
    answer = api(compliance).post(f"/api/players/{player.pk}/nickname/",
                                  {"nickname": "Fresh_Name", "reason": "offensive nickname"}, format="json")
    assert answer.status_code == 200 and answer.json()["nickname"] == "Fresh_Name"
    row = AuditLog.objects.get(action="nickname_rename")
    assert row.actor == compliance and row.before == {"nickname": old} and row.after == {"nickname": "Fresh_Name"}
    assert row.reason == "offensive nickname"
    assert list(NicknameChange.objects.filter(profile__user=player).values_list("old", "new")) == [
        (old, "Fresh_Name"), (None, old)]


@pytest.mark.django_db(transaction=True)
@pytest.mark.postgres_only
@pytest.mark.parametrize("spellings", [
    ["Contested", "contested", "CONTESTED", "ConTested"] * 2,  # one name in several cases
    ["Giulia", "GiuIia", "G1ulia", "GIULIA", "Glulia", "giulla", "GiuLia", "G1uI1a"],  # look-alikes (§2)
], ids=["cases", "look-alikes"])
def test_concurrent_claims_of_one_nickname_have_one_winner(user_factory, spellings):
    from apps.common.errors import DomainError
    from apps.players.services import nickname_set

    users = [user_factory() for _ in range(8)]
    barrier = threading.Barrier(len(users))
    outcomes: list[str] = []

    def claim(user, spelling):
        barrier.wait()
        try:
            nickname_set(user=user, nickname=spelling)
            outcomes.append("won")
        except DomainError as exc:
            outcomes.append(exc.code)
        finally:
            connection.close()

    threads = [threading.Thread(target=claim, args=(u, s)) for u, s in zip(users, spellings, strict=True)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["nickname_taken"] * 7 + ["won"]
    assert Profile.objects.filter(nickname_skeleton=skeleton(spellings[0])).count() == 1
    winners = [u for u in users if Profile.objects.get(user=u).nickname]
    assert len(winners) == 1 and wallet_get(player=winners[0])["credits"] == 300
    assert sum(wallet_get(player=u)["credits"] for u in users) == 300
