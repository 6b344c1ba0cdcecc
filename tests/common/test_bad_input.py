"""No input gets a 5xx (platform.md §12): each bad input kind gets 400 validation_error naming
the field, on every API endpoint (walked from the URL resolver, so new ones are covered) and
on the pages; nothing changes."""

from __future__ import annotations

import html
import json
import re

import pytest
from django.contrib import admin
from django.core.management import call_command
from django.urls import reverse
from rest_framework.test import APIClient

from apps.players.models import Profile
from apps.tables.models import Table
from apps.wallet.models import Adjustment, Transaction

from ..tables.conftest import briscola_table, current_match, fund

pytestmark = pytest.mark.django_db


def _api_paths() -> list[str]:
    from config.api_urls import urlpatterns

    paths = []
    for pattern in urlpatterns:
        route = str(pattern.pattern)
        if route.startswith(("schema", "docs")):
            continue
        route = re.sub(r"<int:\w+>", "1", route)
        route = re.sub(r"<str:\w+>", "scopa", route)
        paths.append(f"/api/{route}")
    return paths


API_PATHS = _api_paths()
DEEP = "[" * 100_000 + "]" * 100_000


def test_the_walk_sees_every_endpoint():
    assert len(API_PATHS) >= 20
    assert "/api/players/1/adjustments/" in API_PATHS and "/api/tables/" in API_PATHS


def _refused(answer, field: str) -> dict:
    assert answer.status_code == 400, (answer.status_code, answer.content[:300])
    body = answer.json()
    assert body["code"] == "validation_error", body
    assert field in body["fields"], body
    return body


@pytest.mark.parametrize("path", API_PATHS)
@pytest.mark.parametrize("method", ["get", "post"])
def test_nul_in_a_query_parameter(api, player, path, method):
    for client in (api(player), APIClient()):
        _refused(getattr(client, method)(path + "?search=a%00b"), "search")


@pytest.mark.parametrize("path", API_PATHS)
def test_nul_in_a_query_parameter_name(api, player, path):
    _refused(api(player).get(path + "?a%00b=1"), "parameter name")


@pytest.mark.parametrize("path", API_PATHS)
@pytest.mark.parametrize("method", ["post", "patch"])
def test_json_nested_100000_deep(api, player, path, method):
    answer = getattr(api(player), method)(path, data=DEEP, content_type="application/json")
    _refused(answer, "body")


@pytest.mark.parametrize("path", API_PATHS)
def test_json_nested_33_deep_is_refused_32_is_parsed(api, superuser, path):
    _refused(api(superuser).post(path, data="[" * 33 + "]" * 33, content_type="application/json"), "body")
    answer = api(superuser).post(path, data="[" * 32 + "]" * 32, content_type="application/json")
    assert answer.status_code < 500 and "nested" not in answer.content.decode()


@pytest.mark.parametrize("path", API_PATHS)
@pytest.mark.parametrize("text", ["a\x00b", "a\ud800b"])
def test_nul_and_lone_surrogate_in_any_json_field(api, player, path, text):
    body = json.dumps({"nickname": text, "reason": text, "game": "briscola"})  # escapes: \u0000, \ud800
    _refused(api(player).post(path, data=body, content_type="application/json"), "nickname")


@pytest.mark.parametrize("path", API_PATHS)
def test_huge_integer_in_any_json_field(api, player, path):
    _refused(api(player).post(path, data='{"seat": 100000000000000000000}', content_type="application/json"),
             "seat")


def test_nul_in_a_header(api, player):
    _refused(api(player).get("/api/me/", HTTP_X_CLIENT="a\x00b"), "header HTTP_X_CLIENT")


def test_nul_in_an_api_form_field(api, newcomer):
    _refused(api(newcomer).post("/api/me/nickname/", {"nickname": "ab\x00c"}), "nickname")


def test_nickname_and_reason_with_nul_change_nothing(api, newcomer, compliance, player):
    _refused(api(newcomer).post("/api/me/nickname/", {"nickname": "Abc\x00"}, format="json"), "nickname")
    assert api(newcomer).get("/api/me/").json()["nickname"] is None
    answer = api(compliance).post(f"/api/players/{player.pk}/nickname/",
                                  {"nickname": "Nuovo_1", "reason": "x\x00y"}, format="json")
    _refused(answer, "reason")
    assert Profile.objects.get(user=player).nickname != "Nuovo_1"


def test_staff_search_box_with_nul(api, operator):
    _refused(api(operator).get("/api/players/", {"search": "ma\x00rio"}), "search")
    assert api(operator).get("/api/players/", {"search": "mario"}).status_code == 200


# -- ranges -------------------------------------------------------------------------


@pytest.mark.parametrize(("currency", "stake", "ok"), [
    ("cash", 3_000_000_000, False), ("cash", 10_001, False), ("cash", 10_000, True),
    ("credits", 3_000_000_000, False), ("credits", 1_000_001, False), ("credits", 1_000_000, True),
])
def test_stake_range(api, player, currency, stake, ok):
    fund(player, cash=10_000, credits=1_000_000)
    answer = api(player).post("/api/tables/", {"game": "briscola", "official": True, "stake": stake,
                                               "currency": currency}, format="json")
    if ok:
        assert answer.status_code == 201, answer.json()
    else:
        _refused(answer, "stake")
        assert not Table.objects.exists()


def test_stake_range_on_a_settings_change(api, user_factory):
    table, (leader, _other) = briscola_table(official=True, stake=0, currency="credits")
    match = current_match(table)
    answer = api(leader).patch(f"/api/tables/{table.pk}/", {"stake": 3_000_000_000}, format="json")
    assert answer.status_code in (400, 409), answer.json()
    if answer.status_code == 400:
        _refused(answer, "stake")
    table.refresh_from_db()
    assert table.stake == 0 and match.pk == current_match(table).pk


@pytest.mark.parametrize("amount", [10**20, -(10**20), 100_000_001, -100_000_001, 3_000_000_000])
def test_adjustment_out_of_range(api, finance, player, amount):
    before = Transaction.objects.count()
    answer = api(finance).post(f"/api/players/{player.pk}/adjustments/",
                               {"currency": "cash", "amount": amount, "reason": "too much"}, format="json")
    _refused(answer, "amount")
    assert Transaction.objects.count() == before and not Adjustment.objects.exists()
    call_command("check_ledger")


def test_adjustment_at_the_ceiling_is_accepted(api, finance, player):
    for currency in ("cash", "bonus", "credits"):
        answer = api(finance).post(f"/api/players/{player.pk}/adjustments/",
                                   {"currency": currency, "amount": 100_000_000, "reason": "ceiling"}, format="json")
        assert answer.status_code == 201, answer.json()
    answer = api(finance).post(f"/api/players/{player.pk}/adjustments/",
                               {"currency": "cash", "amount": -100_000_000, "reason": "back"}, format="json")
    assert answer.status_code == 201
    call_command("check_ledger")


def test_huge_version_and_seat(api, user_factory):
    table, (first, second) = briscola_table()
    match = current_match(table)
    answer = api(first).post(f"/api/matches/{match.pk}/actions/",
                             {"action": {"type": "play"}, "version": 10**20}, format="json")
    _refused(answer, "version")
    answer = api(first).post(f"/api/matches/{match.pk}/actions/",
                             {"action": {"card": 10**20}, "version": 0}, format="json")
    _refused(answer, "action.card")
    newcomer = user_factory(nickname="Seated_3")
    _refused(api(newcomer).post(f"/api/tables/{table.pk}/sit/", {"seat": 3_000_000_000_000_000_000},
                                format="json"), "seat")


# -- pages --------------------------------------------------------------------------


def _admin_changelists() -> list[str]:
    return [reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")
            for model in admin.site._registry]


@pytest.mark.parametrize("url", _admin_changelists())
def test_admin_search_box_with_nul(client, superuser, url):
    client.force_login(superuser)
    answer = client.get(url, {"q": "ma\x00rio"})
    assert answer.status_code == 400
    assert "q" in answer.content.decode()
    assert client.get(url, {"q": "mario"}).status_code == 200


@pytest.mark.parametrize("url", ["/tables/?game=%00", "/rankings/scopa/?period=a%00", "/?x=%00",
                                 "/accounts/login/?next=%00", "/rankings/sc%00opa/"])
def test_pages_with_nul_in_the_address(client, player, url):
    client.force_login(player)
    answer = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    assert answer.status_code == 400
    assert "not allowed" in answer.content.decode()


def test_nickname_page_with_nul_is_a_form_error(client, newcomer):
    client.force_login(newcomer)
    answer = client.post("/accounts/nickname/", {"nickname": "Abc\x00d"}, HTTP_ACCEPT_LANGUAGE="en")
    assert answer.status_code in (200, 400)
    assert "Null characters are not allowed" in answer.content.decode()
    assert not Profile.objects.filter(user=newcomer, nickname__isnull=False).exists()


def test_login_page_with_nul_is_a_form_error(client, player):
    answer = client.post("/accounts/login/", {"username": "a\x00b", "password": "x\x00"},
                         HTTP_ACCEPT_LANGUAGE="en")
    assert answer.status_code == 200
    assert "Null characters are not allowed" in answer.content.decode()


def test_table_page_with_a_stake_beyond_the_ceiling(client, player):
    client.force_login(player)
    answer = client.post("/tables/new/", {"game": "briscola", "stake": "3000000000", "currency": "cash",
                                          "official": "on"}, follow=True, HTTP_ACCEPT_LANGUAGE="en")
    assert answer.status_code == 200
    assert "At most €100,00" in answer.content.decode()  # the stake is euro on the page, not cents


@pytest.mark.parametrize("path", [p.replace("/1/", "/100000000000000000000/") for p in API_PATHS if "/1/" in p])
def test_id_beyond_any_column_is_not_found(api, superuser, player, path):
    for client in (api(superuser), api(player)):
        for method in ("get", "post"):
            answer = getattr(client, method)(path, {}, format="json")
            assert answer.status_code < 500
            assert answer.status_code in (400, 403, 404, 405), (path, answer.status_code, answer.content[:200])


@pytest.mark.parametrize("url", ["/admin/auth/user/100000000000000000000/change/",
                                 "/tables/100000000000000000000/", "/tables/matches/100000000000000000000/replay/",
                                 "/admin/matches/match/100000000000000000000/change/"])
def test_page_id_beyond_any_column(client, superuser, player, url):
    for user in (superuser, player):
        client.force_login(user)
        assert client.get(url).status_code in (302, 403, 404)


@pytest.mark.parametrize(("raw", "field"), [('{"amount": NaN}', "body"), ('{"amount": Infinity}', "body"),
                                            ('{"amount": 1e400}', "amount"), ('{"x": [1, {"y": "\\u0000"}]}', "x[1].y"),
                                            (b'{"reason": "\xff"}', "body")])
def test_odd_json_is_refused_naming_the_field(api, finance, player, raw, field):
    answer = api(finance).post(f"/api/players/{player.pk}/adjustments/", data=raw, content_type="application/json")
    _refused(answer, field)
    assert not Adjustment.objects.exists()


@pytest.mark.parametrize(("language", "words"), [
    (None, ["La richiesta non è stata accettata: il parametro game contiene un carattere non ammesso",
            "Contiene un carattere NUL, che non è ammesso."]),
    ("it", ["La richiesta non è stata accettata: il parametro game contiene",
            "Contiene un carattere NUL, che non è ammesso."]),
    ("en", ["The request was not accepted: the parameter game holds a character",
            "Contains a NUL character, which is not allowed."]),
])
def test_a_page_refused_for_bad_input_speaks_its_language(client, player, language, words):
    """A page's refusal is in the page's language (Italian by default), naming the place in words."""
    client.force_login(player)
    if language:
        client.cookies["django_language"] = language
    answer = client.get("/tables/?game=sco%00pa")
    page = answer.content.decode()
    assert answer.status_code == 400
    for text in words:
        assert text in page, (text, page)
    other = "Contains a NUL" if language != "en" else "Contiene un carattere"
    assert other not in page


@pytest.mark.parametrize(("language", "words"), [
    ("it", "La richiesta non è stata accettata: l'indirizzo della pagina contiene"),
    ("en", "The request was not accepted: the page address holds"),
])
def test_a_page_address_and_a_header_are_named_in_words(client, player, language, words):
    client.force_login(player)
    client.cookies["django_language"] = language
    assert words in html.unescape(client.get("/rankings/sc%00opa/").content.decode())
    header = html.unescape(client.get("/tables/", HTTP_X_CLIENT="a\x00b").content.decode())
    assert ("l'intestazione X-Client" if language == "it" else "the header X-Client") in header


def test_the_api_still_answers_english_whatever_the_language(api, player):
    """The API's refusals are its contract: English ``validation_error`` naming the field key."""
    client = api(player)
    client.cookies["django_language"] = "it"
    answer = client.get("/api/tables/", {"game": "sco\x00pa"}, HTTP_ACCEPT_LANGUAGE="it")
    assert answer.status_code == 400
    body = answer.json()
    assert body["code"] == "validation_error"
    assert body["fields"] == {"game": ["Contains a NUL character, which is not allowed."]}
    assert body["detail"] == "Invalid input (game: Contains a NUL character, which is not allowed.)"
    deep = client.post("/api/tables/", data="[" * 40 + "]" * 40, content_type="application/json")
    assert deep.json()["fields"] == {"body": ["JSON nested deeper than 32 levels is not accepted."]}
    broken = client.post("/api/tables/", data='{"game": ', content_type="application/json")
    assert broken.json()["fields"]["body"][0].startswith("Malformed JSON: ")
