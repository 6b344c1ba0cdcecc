"""Every error in the contract's format: {"detail", "code"} (+ "fields")."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


def test_unknown_api_url_is_json_404(api, player):
    for client in (APIClient(), api(player)):
        answer = client.get("/api/no/such/thing/")
        assert answer.status_code == 404
        assert answer.json() == {"detail": "Not found.", "code": "not_found"}
    assert api(player).get("/api/players/999999/ledger/").json()["code"] in ("permission_denied", "not_found")


def test_wrong_method_is_405(api, player):
    answer = api(player).delete("/api/me/")
    assert answer.status_code == 405 and answer.json()["code"] == "method_not_allowed"
    assert api(player).get("/api/me/nickname/").json()["code"] == "method_not_allowed"


def test_anonymous_is_not_authenticated(client):
    for url in ("/api/me/", "/api/me/wallet/", "/api/players/"):
        answer = APIClient().get(url)
        assert answer.status_code in (401, 403) and answer.json()["code"] == "not_authenticated"
    bad_token = APIClient()
    bad_token.credentials(HTTP_AUTHORIZATION="Token nope")
    answer = bad_token.get("/api/me/")
    assert answer.status_code == 401 and answer.json()["code"] == "not_authenticated"


def test_token_authentication(player):
    from rest_framework.authtoken.models import Token

    token = Token.objects.create(user=player)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    assert client.get("/api/me/").json()["id"] == player.pk


def test_malformed_json_is_validation_error(api, finance, player):
    answer = api(finance).post(f"/api/players/{player.pk}/adjustments/", data="{not json",
                               content_type="application/json")
    assert answer.status_code == 400 and answer.json()["code"] == "validation_error"
    as_list = api(finance).post(f"/api/players/{player.pk}/adjustments/", [1, 2], format="json")
    assert as_list.status_code == 400 and as_list.json()["code"] == "validation_error"


def test_bad_page_is_404(api, player):
    answer = api(player).get("/api/me/ledger/", {"page": 99})
    assert answer.status_code == 404 and answer.json()["code"] == "not_found"


def test_openapi_schema_and_browsable_docs(api, player):
    schema = APIClient().get("/api/schema/", {"format": "json"})
    assert schema.status_code == 200
    paths = schema.json()["paths"]
    for path in ("/api/me/", "/api/me/nickname/", "/api/me/wallet/", "/api/me/ledger/",
                 "/api/me/credits/recharge/", "/api/players/", "/api/players/{player_id}/adjustments/"):
        assert path in paths
    docs = APIClient().get("/api/docs/")
    assert docs.status_code == 200 and b"swagger" in docs.content.lower()
