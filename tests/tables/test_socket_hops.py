"""The table socket's database hops run no health-check ``SELECT 1`` (issue 15: three a
move with ``CONN_HEALTH_CHECKS``), yet still replace a connection that broke."""

from __future__ import annotations

import pytest
from django.db import connection, connections

from apps.play import consumers
from apps.tables.models import Table

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def checks(monkeypatch, settings):
    # kept connections are checked: persistent ones (CONN_MAX_AGE) or the pool's (OPTIONS["pool"])
    assert connection.settings_dict["CONN_HEALTH_CHECKS"]
    assert connection.settings_dict["CONN_MAX_AGE"] or connection.settings_dict.get("OPTIONS", {}).get("pool")
    calls = []
    wrapper = type(connections["default"])
    real = wrapper.is_usable
    monkeypatch.setattr(wrapper, "is_usable", lambda self: calls.append(1) or real(self))
    return calls


async def test_hops_run_no_health_check(checks):
    count = consumers.database_sync_to_async(lambda: Table.objects.count())
    for _ in range(12):  # the pool's threads are reused: a reused connection would be checked
        assert await count() == 0
    assert checks == []


@pytest.mark.skipif(connection.vendor == "sqlite", reason="SQLite's in-memory test database lives in its one connection: closing it drops the database, so nothing can replace it")
async def test_a_broken_connection_is_replaced_after_the_hop(checks):
    def break_it():
        Table.objects.count()
        connection.connection.close()  # the server went away under an open connection
        try:
            Table.objects.count()
        except Exception:  # noqa: BLE001 - the failing query marks the connection's errors
            return "broken"
        return "fine"

    assert await consumers.database_sync_to_async(break_it)() == "broken"
    count = consumers.database_sync_to_async(lambda: Table.objects.count())
    for _ in range(6):
        assert await count() == 0  # every later hop works: the broken one was checked and replaced
