"""A served daphne keeps at most its pool's bound of PostgreSQL connections (issue 25).

With a kept connection per request thread (``CONN_MAX_AGE=60``) 40 parallel GETs left 56
connections open and PostgreSQL refused clients ("too many clients already": 500s). A real
daphne on pytest-django's test database with ``MAZZIERE_DB_POOL_MAX=4``: 60 parallel requests
while 50 sockets are open never take more than 4 connections, and nothing answers 5xx.
The server's connections are told apart from the test's own by their application_name.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import psycopg
import pytest
from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import connection, connections
from websockets.asyncio.client import connect

from tests.conftest import make_user
from tests.tables.conftest import briscola_table
from tests.tables.test_multi_process import (
    _POSTGRES,
    database_url,
    free_port,
    session_cookie,
    stop,
    wait_listening,
)

ROOT = Path(__file__).resolve().parents[2]
POOL_MAX = 4

pytestmark = [
    pytest.mark.skipif(not (settings.REDIS_URL and _POSTGRES),
                       reason="needs REDIS_URL and PostgreSQL: a served daphne on the test database"),
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(120),
]


def start_daphne(port: int, log: Path, app_name: str) -> subprocess.Popen:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.test", "DATABASE_URL": database_url(),
           "REDIS_URL": settings.REDIS_URL, "MAZZIERE_CHANNEL_PREFIX": os.environ["MAZZIERE_CHANNEL_PREFIX"],
           "MAZZIERE_DB_POOL_MAX": str(POOL_MAX), "DJANGO_CONN_MAX_AGE": "60", "PGAPPNAME": app_name}
    with log.open("wb") as out:
        return subprocess.Popen(
            [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"],
            cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)


class Watcher(threading.Thread):
    """Samples how many connections the server holds on the test database, every 20 ms."""

    def __init__(self, app_name: str):
        super().__init__(daemon=True)
        d = connection.settings_dict
        self.conn = psycopg.connect(host=d.get("HOST") or None, port=d.get("PORT") or None,
                                    user=d.get("USER") or None, password=d.get("PASSWORD") or None,
                                    dbname="postgres", autocommit=True)
        self.args = (d["NAME"], app_name)
        self.most = 0
        self.done = threading.Event()

    def count(self) -> int:
        return self.conn.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = %s AND application_name = %s",
                                 self.args).fetchone()[0]

    def run(self) -> None:
        while not self.done.is_set():
            self.most = max(self.most, self.count())
            time.sleep(0.02)


def get(url: str, cookie: str | None) -> int:
    request = urllib.request.Request(url, headers={"Cookie": f"sessionid={cookie}"} if cookie else {})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            response.read()
            return response.status
    except urllib.error.HTTPError as exc:
        return exc.code


async def test_parallel_requests_and_open_sockets_stay_within_the_pool(tmp_path):
    table, players = await sync_to_async(briscola_table)()
    watchers = [await sync_to_async(make_user)(nickname=f"Pool_w{n}") for n in range(3)]
    cookies = [await sync_to_async(session_cookie)(user) for user in [*players, *watchers]]
    port, log, app_name = free_port(), tmp_path / "daphne.log", f"mz-pool-{free_port()}"
    proc = start_daphne(port, log, app_name)
    watcher = Watcher(app_name)
    sockets = []
    try:
        await asyncio.to_thread(wait_listening, proc, port, log)
        watcher.start()
        base = f"http://127.0.0.1:{port}"
        for first in range(0, 50, 5):  # players arriving a few at a time
            sockets += await asyncio.gather(*(connect(
                f"ws://127.0.0.1:{port}/ws/tables/{table.pk}/", origin=base, proxy=None, open_timeout=30,
                additional_headers={"Cookie": f"sessionid={cookies[n % len(cookies)]}"})
                for n in range(first, first + 5)))
        paths = ["/", "/tables/", f"/tables/{table.pk}/", "/api/tables/", "/tournaments/"]
        jobs = [(f"{base}{paths[n % len(paths)]}", cookies[n % len(cookies)] if n % 3 else None) for n in range(60)]
        statuses = await asyncio.gather(*(asyncio.to_thread(get, url, cookie) for url, cookie in jobs))
        assert all(s < 500 for s in statuses), (statuses, log.read_text()[-3000:])
        assert statuses.count(200) >= 40  # the pages really rendered (anonymous ones may redirect to login)
        for ws in sockets:  # every socket is still open and answers
            assert ws.state.name == "OPEN"
        await asyncio.sleep(1)
        after = await asyncio.to_thread(watcher.count)
    finally:
        watcher.done.set()
        for ws in sockets:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(ws.close(), 2)
        await asyncio.to_thread(stop, proc)
        await sync_to_async(connections.close_all)()
    watcher.join(2)
    watcher.conn.close()
    assert 0 < watcher.most <= POOL_MAX, watcher.most
    assert after <= POOL_MAX
