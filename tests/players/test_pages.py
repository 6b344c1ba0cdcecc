"""Player pages: sign-up, login, logout, nickname redirect and warning, profile, languages."""

from __future__ import annotations

import pytest
from django.test import Client

from apps.players.selectors import nickname_of

pytestmark = pytest.mark.django_db

#: the sign-up page's fields (regulation.md §1.1), as a browser posts them
SIGNUP_FORM = {
    "username": "newbie", "password": "pw-Mazziere-1", "email": "newbie@example.it", "mobile": "+393331234567",
    "first_name": "Mario", "last_name": "Rossi", "sex": "M", "birth_date": "1985-03-15",
    "codice_fiscale": "RSSMRA85C15H501R", "birth_place.stato": "Italia", "birth_place.comune": "Roma",
    "birth_place.provincia": "RM", "residence.address": "Via del Corso 1", "residence.postal_code": "00186",
    "residence.comune": "Roma", "residence.provincia": "RM", "document.type": "carta_identita",
    "document.number": "CA12345AB", "document.issuer": "Comune di Roma", "document.expires_at": "2031-01-01",
    "limits.deposit_day": "200", "limits.spend_day": "100", "limits.time_day": "180", "accept_terms": "on",
}


def test_signup_then_nickname_then_profile():
    client = Client()
    page = client.get("/accounts/signup/")
    assert page.status_code == 200 and "Registrati" in page.content.decode()  # Italian by default
    answer = client.post("/accounts/signup/", SIGNUP_FORM)
    assert answer.status_code == 302 and answer["Location"] == "/accounts/nickname/"
    # a player without a nickname is sent to the nickname page from any page
    lobby = client.get("/")
    assert lobby.status_code == 302 and lobby["Location"].startswith("/accounts/nickname/")
    assert client.get("/accounts/profile/")["Location"].startswith("/accounts/nickname/")
    bad = client.post("/accounts/nickname/", {"nickname": "no spaces"})
    assert bad.status_code == 400 and "da 3 a 16 caratteri" in bad.content.decode()  # the rule, in Italian
    assert 'data-code="nickname_invalid"' in bad.content.decode()
    ok = client.post("/accounts/nickname/", {"nickname": "Newbie_1", "next": "/accounts/profile/"})
    assert ok.status_code == 302 and ok["Location"] == "/accounts/profile/"
    profile = client.get("/accounts/profile/").content.decode()
    assert "Newbie_1" in profile and 'id="credits">300<' in profile
    assert client.get("/").status_code == 200


def test_the_signup_page_puts_each_error_beside_its_field():
    client = Client()
    bad = {**SIGNUP_FORM, "codice_fiscale": "RSSMRA85C15H501S", "residence.postal_code": "123",
           "limits.deposit_day": "500"}
    answer = client.post("/accounts/signup/", bad)
    body = answer.content.decode()
    assert answer.status_code == 400
    assert 'data-field="residence.postal_code"' in body and 'data-field="limits.deposit_day"' in body
    assert 'value="Via del Corso 1"' in body and 'value="pw-Mazziere-1"' not in body  # kept, but never the password
    answer = client.post("/accounts/signup/", {**SIGNUP_FORM, "codice_fiscale": "RSSMRA85C15H501S"})
    assert answer.status_code == 400 and 'data-field="codice_fiscale"' in answer.content.decode()
    answer = client.post("/accounts/signup/", {**SIGNUP_FORM, "sex": "F"})
    body = answer.content.decode()
    assert 'data-field="codice_fiscale"' in body and 'data-field="sex"' in body


def test_taken_nickname_shows_a_clear_warning(user_factory):
    user_factory(nickname="Mario_88")
    user_factory("second", password="pw-Mazziere-1")
    client = Client()
    assert client.post("/accounts/login/", {"username": "second", "password": "pw-Mazziere-1"}).status_code == 302
    answer = client.post("/accounts/nickname/", {"nickname": "MARIO_88"})
    body = answer.content.decode()
    assert answer.status_code == 409
    assert "Il nickname &#x27;MARIO_88&#x27; è già in uso: scegline un altro." in body
    assert 'data-code="nickname_taken"' in body
    assert nickname_of(__import__("django.contrib.auth", fromlist=["get_user_model"]).get_user_model()
                       .objects.get(username="second")) is None


def test_login_logout(user_factory):
    user_factory("mario", nickname="Mario", password="pw-Mazziere-1")
    client = Client()
    assert client.get("/accounts/login/").status_code == 200
    wrong = client.post("/accounts/login/", {"username": "mario", "password": "nope"})
    assert wrong.status_code == 200 and "_auth_user_id" not in client.session
    assert client.post("/accounts/login/", {"username": "mario", "password": "pw-Mazziere-1"}).status_code == 302
    assert "_auth_user_id" in client.session
    assert client.post("/accounts/logout/").status_code == 302
    assert "_auth_user_id" not in client.session
    assert client.get("/accounts/profile/").status_code == 302  # to the login page


def test_language_switch_to_english():
    client = Client()
    assert "Accedi" in client.get("/").content.decode()
    answer = client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    assert answer.status_code == 302
    page = client.get("/").content.decode()
    assert "Log in" in page and "Accedi" not in page
    assert '<html lang="en">' in page


def test_staff_are_not_sent_to_the_nickname_page(operator):
    client = Client()
    client.force_login(operator)
    assert client.get("/").status_code == 200
    assert client.get("/accounts/profile/").status_code == 200


def test_recharge_from_the_profile_page(player):
    client = Client()
    client.force_login(player)
    answer = client.post("/accounts/profile/recharge/", follow=True)
    assert "50" in answer.content.decode()  # refused: balance not low, with the sentence
