"""Fixtures shared by the Django tests: users in every role, API clients, a clock."""

from __future__ import annotations

import itertools
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


def pytest_collection_modifyitems(config, items):
    """Tests that need real PostgreSQL concurrency are skipped (with the reason) on SQLite."""
    from django.conf import settings

    if settings.DATABASES["default"]["ENGINE"].endswith("postgresql"):
        return
    skip = pytest.mark.skip(reason="needs PostgreSQL row locks: set DATABASE_URL (CI does)")
    for item in items:
        if "postgres_only" in item.keywords:
            item.add_marker(skip)
