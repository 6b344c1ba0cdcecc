"""Fixtures shared by the Django tests: users in every role, API clients, a clock."""

from __future__ import annotations

import itertools
import os
from datetime import UTC, datetime, timedelta

import pytest
from channels.layers import channel_layers
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from rest_framework.test import APIClient

_names = itertools.count(1)


@pytest.fixture(autouse=True)
def fresh_channel_layer():
    """Each test gets its own channel-layer instance: channels-redis keeps asyncio locks bound
    to the event loop that first used them, and each async test runs on a new loop, so a lock
    left held by one test's cancelled receive made the next test's sockets fail."""
    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


@pytest.fixture(autouse=True)
def _word_list_defaults(request):
    """The word list's defaults (a data migration) for every database test: a transactional
    test's flush empties the table, and the next test must still see the shipped list."""
    if request.node.get_closest_marker("django_db") is not None:
        request.getfixturevalue("_django_db_helper")
        from apps.chat.wordlist import word_list_seed

        word_list_seed()


@pytest.fixture(autouse=True)
def fresh_account_ids():
    """The wallet's process cache of account ids holds committed rows, which a transactional
    test's flush deletes (production never deletes an account): each test starts without it."""
    from apps.wallet import services as wallet_services

    wallet_services._ACCOUNT_IDS.clear()
    yield
    wallet_services._ACCOUNT_IDS.clear()


@pytest.fixture(autouse=True)
def _eager_celery(settings):
    settings.CELERY_TASK_ALWAYS_EAGER = True
    settings.CELERY_TASK_EAGER_PROPAGATES = True


def make_user(username: str | None = None, *, group: str | None = None, superuser: bool = False,
              nickname: str | None = None, password: str = "pw-Mazziere-1"):
    User = get_user_model()
    username = username or f"user{next(_names)}"
    user = User.objects.create_user(username, password=password)
    if superuser:
        user.is_superuser = True
        user.is_staff = True
        user.save()
    if group:
        user.groups.add(Group.objects.get_or_create(name=group)[0])
        user.is_staff = True
        user.save()
    if nickname:
        from apps.players.services import nickname_set

        nickname_set(user=user, nickname=nickname)
    return user


@pytest.fixture
def user_factory(db):
    return make_user


@pytest.fixture
def player(db):
    return make_user(nickname=f"Player{next(_names)}")


@pytest.fixture
def newcomer(db):
    """A logged-in player who has not chosen a nickname yet."""
    return make_user()


@pytest.fixture
def operator(db):
    return make_user(group="operator")


@pytest.fixture
def finance(db):
    return make_user(group="finance")


@pytest.fixture
def compliance(db):
    return make_user(group="compliance")


@pytest.fixture
def superuser(db):
    return make_user(superuser=True)


def api_client(user=None, ip: str | None = None) -> APIClient:
    """An API client for ``user``; each user gets their own address unless ``ip`` is given
    (the same-IP rule of platform.md §9 must not fire by accident)."""
    client = APIClient()
    if user is not None:
        client.force_authenticate(user=user)
        client.defaults["REMOTE_ADDR"] = ip or f"10.1.{user.pk // 250}.{user.pk % 250 + 1}"
    elif ip:
        client.defaults["REMOTE_ADDR"] = ip
    return client


@pytest.fixture
def api():
    return api_client


class Clock:
    """A controllable clock: code reads time only through django.utils.timezone.now()."""

    def __init__(self, start: datetime) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **kwargs) -> datetime:
        self.now += timedelta(**kwargs)
        return self.now

    def set(self, moment: datetime) -> None:
        self.now = moment


@pytest.fixture
def clock(monkeypatch):
    from django.utils import timezone

    c = Clock(datetime(2026, 11, 30, 9, 0, tzinfo=UTC))
    monkeypatch.setattr(timezone, "now", c)
    return c


#: what makes a test module timing-sensitive: it waits for socket frames or quiet periods
#: (``drain``), drives a browser, or serves the product in another process
SERIAL_SIGNS = ("WebsocketCommunicator", "sync_playwright", "chromium", "subprocess", "daphne")
_serial_modules: dict[str, bool] = {}


def _is_serial(path) -> bool:
    key = str(path)
    if key not in _serial_modules:
        try:
            text = path.read_text(encoding="utf-8")
        except OSError:
            text = ""
        # a module whose subprocess or socket use is not timing-sensitive says so
        _serial_modules[key] = any(sign in text for sign in SERIAL_SIGNS) and "\nPARALLEL_SAFE = True" not in text
    return _serial_modules[key]


def pytest_configure(config):
    from django.conf import settings

    from tests.databases import template_use

    template_use(settings)  # every test database a copy of one migrated template (tests/databases.py)
    config.addinivalue_line("markers", "serial: timing-sensitive (sockets, browsers, served processes): "
                                       "`make test` runs these after the parallel part")
    config.addinivalue_line("markers", "browser: drives Chromium against a served product (`make test` runs "
                                       "these last, each module on its own worker)")


#: modules that take longest in each part of `make test`, longest first (CI's --durations)
#: tests that outlast CI's 15 minutes beside the rest: ``make test-long`` runs them
#: (MAZZIERE_LONG_BROWSER=1), with the whole matches by clicking
LONG = pytest.mark.skipif(not os.environ.get("MAZZIERE_LONG_BROWSER"),
                          reason="outlasts CI's budget beside the rest: make test-long runs it")

LONGEST_FIRST = [
    "tests/tables/test_card_games_api.py", "tests/wallet/test_ledger_properties.py", "tests/test_run_command.py",
    "tests/players/test_login_limits.py", "tests/matches/test_move_migration.py",
    "tests/common/test_admin_changelists.py", "tests/engines/test_burraco.py", "tests/engines/test_solitario.py",
    "tests/demo/test_seed_demo.py", "tests/engines/test_poker_italiana.py", "tests/engines/test_conformance.py",
    "tests/tables/test_lock_order.py", "tests/wallet/test_freeze_migration.py", "tests/tables/test_every_engine.py",
    "tests/backoffice/test_online_socket.py", "tests/tables/test_consumer.py", "tests/tables/test_socket_language.py",
    "tests/browser/test_table_polish_browser.py", "tests/browser/test_language_browser.py",
    "tests/browser/test_backoffice_browser.py",
    "tests/browser/test_table_browser.py", "tests/browser/test_tournaments_browser.py",
    "tests/browser/test_pages_phone_browser.py", "tests/browser/test_compliance_browser.py",
    "tests/browser/test_login_browser.py",
]


def _fast_flush_install() -> None:
    """A transactional test's flush empties every table with ``DELETE`` instead of Django's one
    ``TRUNCATE`` of all of them: PostgreSQL's TRUNCATE makes new files for each of the ~70
    tables and their indexes (0.3 s on a quiet machine, 3 s under CI's load, after each of
    about a thousand tests); a DELETE of a test's few rows costs milliseconds. The row triggers
    (the append-only history tables' refusal) are off for it (``session_replication_role``,
    within the flush's own transaction), as TRUNCATE never fired them. Sequences are not reset,
    as before; a flush that must reset them keeps Django's own. Needs a superuser (CI's
    ``postgres``); otherwise Django's flush stays."""
    from django.db.backends.postgresql.operations import DatabaseOperations

    truncate = DatabaseOperations.sql_flush

    def sql_flush(self, style, tables, *, reset_sequences=False, allow_cascade=False):
        if not tables or reset_sequences or not _superuser(self.connection):
            return truncate(self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade)
        return ["SET LOCAL session_replication_role = replica",
                *(f"DELETE FROM {self.quote_name(table)}" for table in tables)]

    DatabaseOperations.sql_flush = sql_flush


_SUPERUSER: dict[str, bool] = {}


def _superuser(connection) -> bool:
    if connection.alias not in _SUPERUSER:
        with connection.cursor() as cursor:
            cursor.execute("SELECT rolsuper FROM pg_roles WHERE rolname = current_user")
            _SUPERUSER[connection.alias] = bool(cursor.fetchone()[0])
    return _SUPERUSER[connection.alias]


if os.environ.get("MAZZIERE_TEST_FLUSH") != "truncate":  # Django's own, to compare
    _fast_flush_install()


def _django_order(item) -> int:
    """pytest-django's own order, kept: database tests, then transactional ones (their flush
    empties what migrations wrote), then the rest."""
    marker = item.get_closest_marker("django_db")
    fixtures = getattr(item, "fixturenames", [])
    if (marker is not None and (marker.kwargs.get("transaction") or marker.kwargs.get("reset_sequences"))) \
            or "transactional_db" in fixtures or "live_server" in fixtures:
        return 1
    return 0 if marker is not None or "db" in fixtures else 2


def _longest_first(item) -> tuple[int, int, int]:
    module = item.nodeid.split("::")[0]
    if module.startswith("tests/browser/test_whole_match_") and os.environ.get("MAZZIERE_LONG_BROWSER"):
        rank = (0, 0)  # whole matches of every game: minutes each
    else:
        rank = (1, LONGEST_FIRST.index(module)) if module in LONGEST_FIRST else (2, 0)
    return (_django_order(item), *rank)


def pytest_collection_modifyitems(config, items):
    """Tests that need real PostgreSQL concurrency are skipped (with the reason) on SQLite.

    Timing-sensitive modules (sockets that wait for quiet periods, browsers, served
    processes) are marked ``serial``: ``make test`` runs every other test on several
    pytest-xdist workers first, then these in one process on an unloaded machine (they
    failed when four workers ran beside them). `make test` hands the browser part out by
    module (``--dist loadfile``), so a module's served product starts once: ``--dist
    loadgroup`` no longer groups anything under pytest 9.2 (pytest-xdist 3.8 renames
    ``item._nodeid``, which pytest stopped reading), and a module's tests were spread over
    the workers, each starting its own server.
    """
    from django.conf import settings

    for item in items:
        module = item.nodeid.split("::")[0]
        if module.startswith("tests/browser/"):
            item.add_marker(pytest.mark.browser)
        if _is_serial(item.path):
            item.add_marker(pytest.mark.serial)
            if not item.get_closest_marker("xdist_group"):
                item.add_marker(pytest.mark.xdist_group(module if module.startswith("tests/browser/") else "sockets"))
    # the longest modules first (as CI's --durations lists them): xdist hands tests and modules
    # out in collection order, so a long one collected last ran alone at the end of its part
    items.sort(key=_longest_first)
    if settings.DATABASES["default"]["ENGINE"].endswith("postgresql"):
        return
    skip = pytest.mark.skip(reason="needs PostgreSQL row locks: set DATABASE_URL (CI does)")
    for item in items:
        if "postgres_only" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """Before the test database is dropped, end the sessions that sync_to_async's worker
    threads still hold on it: PostgreSQL otherwise waits 5 s and refuses the DROP, leaving
    test_<name> behind (a PytestWarning at the end of every run)."""
    yield
    from django.db import connection

    if connection.vendor != "postgresql":
        return
    with django_db_blocker.unblock(), connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                       "WHERE datname = current_database() AND pid <> pg_backend_pid()")


def sanction_give(player, kind: str, *, duration: str | None = None, reason: str = "test"):
    """Issue a sanction the way compliance does (its service: the money it moves, then the
    floors above told after commit), by a compliance officer."""
    from apps.compliance.services import sanction_issue

    return sanction_issue(actor=make_user(group="compliance"), player=player.pk, kind=kind, duration=duration,
                          reason=reason)


def sanction_end(sanction, *, decision: str | None = None):
    """Lift a sanction the way compliance does (an authority report with its decision)."""
    from apps.compliance.services import sanction_lift

    return sanction_lift(actor=make_user(group="compliance"), sanction_id=sanction.pk, reason="test",
                         decision=decision)
