"""The table socket's origin check compares scheme, host and port (platform.md §10.1)."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from config.asgi import application

from .conftest import briscola_table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(120)]


def session_cookie(user) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


async def opens(table_id: int, user, *, origin: str | None, host: str, scheme: str = "ws",
                extra: list[tuple[bytes, bytes]] | None = None) -> bool:
    """Whether the socket is admitted past the origin check and renders the table."""
    headers = [(b"host", host.encode()),
               (b"cookie", f"sessionid={await sync_to_async(session_cookie)(user)}".encode())]
    if origin is not None:
        headers.append((b"origin", origin.encode()))
    comm = WebsocketCommunicator(application, f"/ws/tables/{table_id}/", headers=headers)
    comm.scope["scheme"] = scheme
    comm.scope["client"] = ("10.9.0.1", 50000)
    comm.scope["headers"] = headers + (extra or [])
    connected, _ = await comm.connect()
    if connected:
        output = await comm.receive_output(timeout=5)
        connected = output.get("type") == "websocket.send"  # a render, not a close
    await comm.disconnect()
    return connected


@pytest.fixture
def table_and_player(settings):
    settings.ALLOWED_HOSTS = ["127.0.0.1", "localhost", "testserver", "mazziere.example"]
    settings.CSRF_TRUSTED_ORIGINS = ["http://127.0.0.1:8000", "https://*.mazziere.example"]
    table, (alice, _) = briscola_table()
    return table.pk, alice


async def test_a_foreign_port_is_refused(table_and_player):
    table_id, alice = table_and_player
    assert await opens(table_id, alice, origin="http://127.0.0.1:8000", host="127.0.0.1:8000")
    assert not await opens(table_id, alice, origin="http://127.0.0.1:9999", host="127.0.0.1:8000")
    assert not await opens(table_id, alice, origin="http://127.0.0.1", host="127.0.0.1:8000")  # port 80
    assert not await opens(table_id, alice, origin="http://localhost:9999", host="localhost:8000")


async def test_a_foreign_scheme_is_refused(table_and_player):
    table_id, alice = table_and_player
    assert not await opens(table_id, alice, origin="https://127.0.0.1:8000", host="127.0.0.1:8000")
    assert not await opens(table_id, alice, origin="https://testserver", host="testserver")
    assert not await opens(table_id, alice, origin="ftp://testserver", host="testserver")
    # behind TLS the site's own origin is https, and http is then foreign
    assert await opens(table_id, alice, origin="https://testserver", host="testserver", scheme="wss")
    assert not await opens(table_id, alice, origin="http://testserver", host="testserver", scheme="wss")


async def test_a_foreign_host_is_refused(table_and_player):
    table_id, alice = table_and_player
    assert not await opens(table_id, alice, origin="http://evil.example", host="testserver")
    assert not await opens(table_id, alice, origin="http://evil.example:8000", host="127.0.0.1:8000")
    assert not await opens(table_id, alice, origin="http://127.0.0.1.evil.example:8000", host="127.0.0.1:8000")
    assert not await opens(table_id, alice, origin="null", host="testserver")
    assert not await opens(table_id, alice, origin=None, host="testserver")
    # a Host that is not an allowed host gives no "own" origin to match
    assert not await opens(table_id, alice, origin="http://evil.example", host="evil.example")


async def test_the_right_origins_are_admitted(table_and_player):
    table_id, alice = table_and_player
    assert await opens(table_id, alice, origin="http://testserver", host="testserver")  # the site's own
    assert await opens(table_id, alice, origin="http://localhost:8123", host="localhost:8123")
    assert await opens(table_id, alice, origin="HTTP://TestServer", host="testserver")  # case-insensitive
    # a configured origin, whatever Host the proxy in front passes on
    assert await opens(table_id, alice, origin="http://127.0.0.1:8000", host="testserver")
    # a wildcard trusted origin: its subdomains, with its scheme and default port only
    assert await opens(table_id, alice, origin="https://play.mazziere.example", host="testserver")
    assert await opens(table_id, alice, origin="https://play.mazziere.example:443", host="testserver")
    assert not await opens(table_id, alice, origin="http://play.mazziere.example", host="testserver")
    assert not await opens(table_id, alice, origin="https://play.mazziere.example:8443", host="testserver")


async def test_a_tls_proxy_header_makes_the_own_origin_https(table_and_player, settings):
    table_id, alice = table_and_player
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    proto = [(b"x-forwarded-proto", b"https")]
    assert await opens(table_id, alice, origin="https://testserver", host="testserver", extra=proto)
    assert not await opens(table_id, alice, origin="https://testserver", host="testserver")
