"""Sign-up (regulation.md §1.1, §1.2): every field, the checks in their order with their codes,
one conto per codice fiscale under concurrency, nothing created by a refusal."""

from __future__ import annotations

import copy
import datetime as dt
import threading

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.utils import timezone
from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from apps.adm.models import AdmMessage
from apps.conto.codice_fiscale import MONTHS, is_valid, mismatch_fields, name_letters_agree
from apps.conto.models import Conto, IdentityRecord, Limit, StateChange
from apps.conto.registry import registry_entry_add
from tests.conftest import api_client

User = get_user_model()


def valid_body(**changes) -> dict:
    body = {
        "username": "mario_rossi", "password": "Tavolo-Verde-85", "email": "mario.rossi@example.it",
        "first_name": "Mario", "last_name": "Rossi", "sex": "M", "birth_date": "1985-03-15",
        "birth_place": {"comune": "Roma", "provincia": "RM", "stato": "Italia"},
        "codice_fiscale": "RSSMRA85C15H501R",
        "residence": {"address": "Via del Corso 1", "postal_code": "00186", "comune": "Roma", "provincia": "RM"},
        "mobile": "+393331234567",
        "document": {"type": "carta_identita", "number": "CA12345AB", "issuer": "Comune di Roma",
                     "expires_at": (timezone.localdate() + dt.timedelta(days=800)).isoformat()},
        "limits": {"deposit_day": 20000, "spend_day": 10000, "time_day": 180},
        "accept_terms": True,
    }
    for key, value in changes.items():
        target = body
        *path, last = key.split("__")
        for part in path:
            target = target[part]
        if value is ...:
            target.pop(last, None)
        else:
            target[last] = value
    return body


def _nothing_created():
    assert not Conto.objects.exists() and not User.objects.exists()
    assert not AdmMessage.objects.exists() and not Limit.objects.exists()


@pytest.mark.django_db
def test_a_valid_sign_up_opens_a_conto_in_verification():
    client = api_client()
    response = client.post("/api/auth/signup/", valid_body(codice_fiscale="rss mra85c15-h501r"), format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert (body["username"], body["state"], body["kyc_status"]) == ("mario_rossi", "in_verifica", "documents_required")
    assert body["token"]
    conto = Conto.objects.get(user_id=body["id"])
    assert conto.codice_fiscale == "RSSMRA85C15H501R" and conto.origin == "signup"
    assert dict(Limit.objects.filter(conto=conto).values_list("key", "value")) == {
        "deposit_day": 20000, "spend_day": 10000, "time_day": 180}
    assert StateChange.objects.filter(conto=conto, state="in_verifica").count() == 1
    assert IdentityRecord.objects.filter(conto=conto).count() == 1
    assert AdmMessage.objects.filter(type="account_open", reference=f"player:{body['id']}").count() == 1
    # logged in by session: the account answers, in the spec's shape
    account = client.get("/api/me/account/").json()
    assert account["state"] == "in_verifica" and account["can"] == {"money_play": False, "deposit": False,
                                                                    "withdraw": False}
    assert account["documents"] == [] and account["document_valid"] is False
    # and the token works
    token_client = api_client()
    token_client.credentials(HTTP_AUTHORIZATION=f"Token {body['token']}")
    assert token_client.get("/api/me/account/").json()["codice_fiscale"] == "RSSMRA85C15H501R"


@pytest.mark.django_db
@pytest.mark.parametrize(("changes", "field"), [
    ({"username": "ab"}, "username"), ({"username": "mario rossi"}, "username"), ({"password": "123"}, "password"),
    ({"email": "not-an-email"}, "email"), ({"first_name": "M4rio"}, "first_name"), ({"last_name": ""}, "last_name"),
    ({"sex": "X"}, "sex"), ({"birth_date": "15/03/1985"}, "birth_date"), ({"birth_date": "2999-01-01"}, "birth_date"),
    ({"birth_place__provincia": "Roma"}, "birth_place.provincia"), ({"birth_place__comune": ...}, "birth_place.comune"),
    ({"residence__postal_code": "0018"}, "residence.postal_code"), ({"mobile": "3331234567"}, "mobile"),
    ({"document__type": "tessera_sanitaria"}, "document.type"), ({"document__number": "A1"}, "document.number"),
    ({"document__expires_at": "2020-01-01"}, "document.expires_at"),
    ({"limits__deposit_day": 20001}, "limits.deposit_day"), ({"limits__time_day": ...}, "limits.time_day"),
    ({"limits__spend_day": None}, "limits.spend_day"), ({"accept_terms": False}, "accept_terms"),
    ({"codice_fiscale": 12}, "codice_fiscale"), ({"residence": "Roma"}, "residence"),
])
def test_each_bad_field_is_named_and_nothing_is_created(changes, field):
    response = api_client().post("/api/auth/signup/", valid_body(**changes), format="json")
    assert response.status_code == 400, response.json()
    assert response.json()["code"] == "validation_error"
    assert field in response.json()["fields"], response.json()
    _nothing_created()


@pytest.mark.django_db
@pytest.mark.parametrize(("changes", "status", "code", "extra"), [
    ({"codice_fiscale": "RSSMRA85C15H501S"}, 400, "codice_fiscale_invalid", None),
    ({"codice_fiscale": "12345678903"}, 400, "codice_fiscale_invalid", None),
    ({"birth_date": "1985-03-16"}, 400, "codice_fiscale_mismatch", ["birth_date"]),
    ({"sex": "F"}, 400, "codice_fiscale_mismatch", ["sex"]),
])
def test_the_codice_fiscale_checks_of_section_1_2(changes, status, code, extra):
    response = api_client().post("/api/auth/signup/", valid_body(**changes), format="json")
    assert (response.status_code, response.json()["code"]) == (status, code), response.json()
    if extra:
        assert response.json()["fields"] == extra
    _nothing_created()


@pytest.mark.django_db
def test_giulia_is_consistent_with_day_plus_40_and_a_minor_is_refused(clock):
    clock.set(dt.datetime(2026, 12, 5, 12, tzinfo=dt.UTC))
    giulia = valid_body(username="giulia", email="g@example.it", first_name="Giulia", last_name="Bianchi", sex="F",
                        birth_date="1990-07-22", codice_fiscale="BNCGLI90L62F205R")
    assert api_client().post("/api/auth/signup/", giulia, format="json").status_code == 201
    # born 6 December 2008: 18 tomorrow
    minor = valid_body(username="minor", email="m@example.it", birth_date="2008-12-06",
                       codice_fiscale=_code("RSSMRA", dt.date(2008, 12, 6), "M"),
                       limits={"deposit_day": 5000, "spend_day": 5000, "time_day": 120})  # the young caps
    response = api_client().post("/api/auth/signup/", minor, format="json")
    assert (response.status_code, response.json()["code"]) == (403, "underage"), response.json()
    clock.set(dt.datetime(2026, 12, 6, 12, tzinfo=dt.UTC))
    assert api_client().post("/api/auth/signup/", minor, format="json").status_code == 201


@pytest.mark.django_db
def test_a_young_player_is_held_to_the_young_caps(clock):
    clock.set(dt.datetime(2026, 12, 5, 12, tzinfo=dt.UTC))
    body = valid_body(birth_date="2004-01-10", codice_fiscale=_code("RSSMRA", dt.date(2004, 1, 10), "M"))
    response = api_client().post("/api/auth/signup/", body, format="json")
    assert response.status_code == 400 and set(response.json()["fields"]) == {"limits.deposit_day", "limits.spend_day",
                                                                              "limits.time_day"}


@pytest.mark.django_db
def test_taken_codice_fiscale_username_and_email():
    assert api_client().post("/api/auth/signup/", valid_body(), format="json").status_code == 201
    again = valid_body(username="mario2", email="other@example.it", codice_fiscale="rssmra85c15h501r")
    response = api_client().post("/api/auth/signup/", again, format="json")
    assert (response.status_code, response.json()["code"]) == (409, "codice_fiscale_taken")
    for changes, field in (({"username": "MARIO_ROSSI"}, "username"), ({"email": "MARIO.ROSSI@example.it"}, "email")):
        response = api_client().post("/api/auth/signup/", valid_body(codice_fiscale="BNCGLI90L62F205R",
                                                                     first_name="Giulia", sex="F",
                                                                     birth_date="1990-07-22", **changes), format="json")
        assert response.status_code == 400 and field in response.json()["fields"], response.json()
    assert Conto.objects.count() == 1


@pytest.mark.django_db
def test_the_registry_refuses_an_excluded_person_and_its_outage_is_503(settings):
    registry_entry_add(codice_fiscale="RSSMRA85C15H501R", days=30)
    response = api_client().post("/api/auth/signup/", valid_body(), format="json")
    assert (response.status_code, response.json()["code"], response.json()["scope"]) == (403, "self_excluded", "all")
    assert response.json()["until"]
    settings.SELF_EXCLUSION_REGISTRY = "tests.conto.registries.Unreachable"
    response = api_client().post("/api/auth/signup/", valid_body(codice_fiscale="BNCGLI90L62F205R", sex="F",
                                                                 birth_date="1990-07-22"), format="json")
    assert (response.status_code, response.json()["code"]) == (503, "registry_unavailable")
    _nothing_created()


@pytest.mark.django_db
def test_logged_in_users_cannot_sign_up(player):
    response = api_client(player).post("/api/auth/signup/", valid_body(), format="json")
    assert (response.status_code, response.json()["code"]) == (403, "permission_denied")


@pytest.mark.django_db
@pytest.mark.parametrize("body", [[], "x", None, {"username": ["a"]}])
def test_malformed_bodies_are_400(body):
    response = api_client().post("/api/auth/signup/", body, format="json")
    assert response.status_code == 400
    _nothing_created()


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="the race needs real concurrent transactions")
def test_parallel_sign_ups_with_one_codice_fiscale_give_one_conto():
    results: list[int] = []
    barrier = threading.Barrier(6)

    def sign_up(n: int) -> None:
        try:
            barrier.wait()
            response = api_client().post("/api/auth/signup/", valid_body(username=f"twin{n}", email=f"t{n}@example.it"),
                                         format="json")
            results.append(response.status_code)
            if response.status_code != 201:
                assert response.json()["code"] == "codice_fiscale_taken"
        finally:
            connection.close()

    threads = [threading.Thread(target=sign_up, args=(n,)) for n in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results) == [201, 409, 409, 409, 409, 409]
    assert Conto.objects.filter(codice_fiscale="RSSMRA85C15H501R").count() == 1
    assert User.objects.count() == 1


def _code(letters: str, born: dt.date, sex: str, place: str = "H501") -> str:
    """A valid codice fiscale for the birth data (the check character computed by stdnum)."""
    from stdnum.it.codicefiscale import calc_check_digit

    day = born.day + (40 if sex == "F" else 0)
    body = f"{letters}{born.year % 100:02d}{MONTHS[born.month - 1]}{day:02d}{place}"
    return body + calc_check_digit(body)


@given(st.dates(min_value=dt.date(1920, 1, 1), max_value=dt.date(2008, 1, 1)), st.sampled_from(["M", "F"]))
@hsettings(max_examples=200, deadline=None)
def test_a_code_built_from_birth_data_is_valid_and_consistent_and_nothing_else_is(born, sex):
    code = _code("RSSMRA", born, sex)
    assert is_valid(code)
    assert mismatch_fields(code, birth_date=born, sex=sex) == []
    other = "F" if sex == "M" else "M"
    assert mismatch_fields(code, birth_date=born, sex=other) == ["sex"]
    assert "birth_date" in mismatch_fields(code, birth_date=born + dt.timedelta(days=1), sex=sex)


def test_name_letters():
    assert name_letters_agree("RSSMRA85C15H501R", first_name="Mario", last_name="Rossi")
    assert name_letters_agree("BNCGLI90L62F205R", first_name="Giulia", last_name="Bianchi")
    assert not name_letters_agree("RSSMRA85C15H501R", first_name="Luca", last_name="Rossi")
    assert copy.copy(MONTHS) == "ABCDEHLMPRST"
