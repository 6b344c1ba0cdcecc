"""The OpenAPI schema's description promises only what is served, and names all of it."""

from __future__ import annotations

import re

import pytest
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db

PATH = re.compile(r"/api/[A-Za-z0-9_\-/{}]*/")


def _shape(path: str) -> str:
    return re.sub(r"\{[^}]*\}", "{}", path)


def test_every_path_the_description_names_exists_and_every_endpoint_is_named():
    schema = APIClient().get("/api/schema/", {"format": "json"}).json()
    description = schema["info"]["description"]
    served = {_shape(p) for p in schema["paths"]}
    named = {_shape(p) for p in PATH.findall(description)}
    assert named, "the description names no endpoint"
    assert not named - served, f"named but not served: {sorted(named - served)}"
    assert not served - named, f"served but not named: {sorted(served - named)}"


@pytest.mark.parametrize("word", ["tournament", "sanction", "chat", "compliance", "token"])
def test_the_description_promises_no_area_without_endpoints(word):
    schema = APIClient().get("/api/schema/", {"format": "json"}).json()
    if word in schema["info"]["description"].lower():
        assert any(word in p for p in schema["paths"]), f"the description promises {word!r}, nothing serves it"
