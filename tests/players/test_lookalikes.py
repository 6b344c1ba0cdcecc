"""Look-alike and reserved nicknames (platform.md §2): the unique index is on the skeleton."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import translation

from apps.players.models import Profile
from apps.players.rules import is_reserved, nickname_problem, skeleton
from apps.wallet.selectors import wallet_get

LOOK_ALIKES = [("Giulia", "GiuIia"), ("mario_88", "Mari0_88"), ("Giulia", "G1ulia"), ("Paolo", "PAOLO"),
               ("Lino", "Iin0"), ("mario_88", "MARIO_88")]
RESERVED_LOOKS = ["admin_", "Adm1n", "ADM1N", "staff_2", "Staff2", "r0bot", "R0B0Tina", "supp0rt", "Root_1",
                  "Operat0r", "Flnance", "C0mpliance", "sYstem_", "admin1",
                  "Operat0re", "C0nformlta", "FINANZA_1", "Supp0rto", "Asslstenza", "Ammlnistratore", "Sistema_7"]
NOT_RESERVED = ["Rooted", "Adminx", "Stafford", "Supporter", "Systemic", "Financier", "Giulia",
                "Sistemato", "Finanziere", "Assistente"]


@pytest.mark.parametrize(("first", "second"), LOOK_ALIKES)
def test_look_alikes_share_a_skeleton(first, second):
    assert skeleton(first) == skeleton(second)


@pytest.mark.parametrize("name", RESERVED_LOOKS)
def test_reserved_look_alikes_are_refused(name):
    assert is_reserved(name)
    with translation.override("en"):
        assert "reserved" in nickname_problem(name)


@pytest.mark.parametrize("name", NOT_RESERVED)
def test_words_that_only_start_like_a_reserved_one_are_free(name):
    assert not is_reserved(name) and nickname_problem(name) is None


@pytest.mark.django_db
@pytest.mark.parametrize(("first", "second"), LOOK_ALIKES)
def test_look_alike_is_taken_by_api(api, user_factory, first, second):
    owner, other = user_factory(), user_factory()
    assert api(owner).post("/api/me/nickname/", {"nickname": first}, format="json").status_code == 201
    answer = api(other).post("/api/me/nickname/", {"nickname": second}, format="json")
    assert answer.status_code == 409, answer.json()
    assert answer.json()["code"] == "nickname_taken"
    assert second in answer.json()["detail"]
    assert Profile.objects.get(user=other).nickname is None
    assert wallet_get(player=other)["credits"] == 0


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["admin_", "Adm1n"])
def test_reserved_look_alike_by_api(api, newcomer, name):
    answer = api(newcomer).post("/api/me/nickname/", {"nickname": name}, format="json")
    assert answer.status_code == 400 and answer.json()["code"] == "nickname_invalid"


@pytest.mark.django_db
def test_compliance_rename_to_a_look_alike_is_taken(api, compliance, user_factory):
    user_factory(nickname="Giulia")
    target = user_factory(nickname="Marta")
    answer = api(compliance).post(f"/api/players/{target.pk}/nickname/",
                                  {"nickname": "GiuIia", "reason": "test"}, format="json")
    assert answer.status_code == 409 and answer.json()["code"] == "nickname_taken"
    assert Profile.objects.get(user=target).nickname == "Marta"
    # renaming to a look-alike of one's own nickname is allowed
    answer = api(compliance).post(f"/api/players/{target.pk}/nickname/",
                                  {"nickname": "MARTA", "reason": "test"}, format="json")
    assert answer.status_code == 200
    assert Profile.objects.get(user=target).nickname_skeleton == "marta"


@pytest.mark.django_db
def test_look_alike_on_the_nickname_page(client, user_factory):
    user_factory(nickname="Giulia")
    client.force_login(user_factory())
    answer = client.post("/accounts/nickname/", {"nickname": "GiuIia"}, HTTP_ACCEPT_LANGUAGE="en")
    assert answer.status_code == 409
    assert "GiuIia" in answer.content.decode()


@pytest.mark.django_db(transaction=True)
def test_migration_reports_existing_clashes_instead_of_failing(user_factory, capsys, caplog):
    """Rows that clash only under the new rule were legal before: the migration keeps going."""
    before, after = [("players", "0002_append_only")], [("players", "0003_nickname_skeleton")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    executor.loader.build_graph()
    old_apps = executor.loader.project_state(before).apps
    OldProfile = old_apps.get_model("players", "Profile")
    users = [user_factory() for _ in range(4)]
    from django.utils import timezone

    for user, name in zip(users, ["Giulia", "GiuIia", "mario_88", "Mari0_88"], strict=True):
        OldProfile.objects.filter(user_id=user.pk).delete()
        OldProfile.objects.create(user_id=user.pk, nickname=name, nickname_set_at=timezone.now())
    executor = MigrationExecutor(connection)
    executor.migrate(after)
    report = capsys.readouterr().out + caplog.text
    assert "GiuIia" in report and "Mari0_88" in report
    rows = dict(Profile.objects.filter(user__in=users).values_list("nickname", "nickname_skeleton"))
    assert rows == {"Giulia": "glulla", "GiuIia": None, "mario_88": "marlo_88", "Mari0_88": None}
    # back to the latest schema (later migrations of players, e.g. 0004, add columns the model reads)
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
    # the index is on the skeleton now: a new look-alike of either is taken
    from apps.common.errors import DomainError
    from apps.players.services import nickname_set

    with pytest.raises(DomainError) as refused:
        nickname_set(user=user_factory(), nickname="G1ulia")
    assert refused.value.code == "nickname_taken"
