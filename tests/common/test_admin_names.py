"""Every model the admin lists has its own name and plural, in English and in Italian
(issue 16: the admin said "Matchs" and "Entrys")."""

from __future__ import annotations

import pytest
from django.contrib import admin
from django.test import Client
from django.utils import translation

from ..conftest import make_user

MODELS = sorted((m for m in admin.site._registry if m.__module__.startswith("apps.")), key=lambda m: m._meta.label)


@pytest.mark.parametrize("model", [pytest.param(m, id=m._meta.label) for m in MODELS])
def test_the_model_has_its_own_names_in_both_languages(model):
    names = model._meta.original_attrs
    assert names.get("verbose_name") and names.get("verbose_name_plural"), f"{model._meta.label} names nothing"
    with translation.override("en"):
        english = (str(model._meta.verbose_name), str(model._meta.verbose_name_plural))
    with translation.override("it"):
        italian = (str(model._meta.verbose_name), str(model._meta.verbose_name_plural))
    assert italian[0] != english[0] and italian[1] != english[1], f"{model._meta.label} is not in Italian: {english}"


@pytest.mark.django_db
def test_the_admin_index_reads_in_italian_and_in_english():
    client = Client()
    client.force_login(make_user(superuser=True))
    italian = client.get("/admin/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    for word in ("Partite", "Movimenti", "Tavoli", "Esportazioni"):
        assert word in italian, word
    english = client.get("/admin/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    for word in ("matches", "entries", "tables", "exports"):
        assert word in english.lower(), word
    for page in (italian, english):
        assert "Matchs" not in page and "Entrys" not in page
