"""The back office's pages read a fixed number of queries however many rows they show."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from apps.backoffice.models import Export
from apps.tables.services import table_create, table_sit
from apps.wallet.services import wallet_adjust

from ..conftest import make_user

pytestmark = pytest.mark.django_db

PAGES = ["/backoffice/?period=30d", "/backoffice/tables/", "/backoffice/ledger/", "/backoffice/exports/",
         "/backoffice/reconciliation/"]


def rows(n: int) -> None:
    for i in range(n):
        finance = make_user(group="finance")
        host, guest = make_user(nickname=f"QcH{i}_{n}"), make_user(nickname=f"QcG{i}_{n}")
        wallet_adjust(actor=finance, player=host, currency="cash", amount=100, reason="q")
        table = table_create(user=host, data={"game": "briscola"})
        table_sit(user=guest, table_id=table.pk)  # a match starts
        Export.objects.create(kind="ledger", format="csv", requested_by=finance)


def counts(client: Client) -> dict[str, int]:
    out = {}
    for url in PAGES:
        with CaptureQueriesContext(connection) as ctx:
            assert client.get(url).status_code == 200, url
        out[url] = len(ctx.captured_queries)
    return out


def test_pages_are_flat():
    client = Client()
    client.force_login(make_user(superuser=True))
    rows(1)
    one = counts(client)
    rows(12)
    many = counts(client)
    assert {u: (one[u], many[u]) for u in PAGES if many[u] != one[u]} == {}
