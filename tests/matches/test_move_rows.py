"""The move's own statements in plain SQL (``apps.common.rows``: select, update, insert; issue 30)
read and write exactly what the ORM would, on SQLite and PostgreSQL alike."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import DatabaseError, connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from apps.common import rows
from apps.matches import services
from apps.matches.models import Match, MatchAction, MatchSeat

from ..conftest import make_user

pytestmark = pytest.mark.django_db


def fields(instance) -> dict:
    return {f.attname: getattr(instance, f.attname) for f in type(instance)._meta.concrete_fields}


@pytest.fixture
def match() -> Match:
    players = [make_user(f"rows{i}") for i in range(2)]
    return services.match_create(game="briscola", players=2, options={}, seed=5,
                                 seats=[{"player": p} for p in players])


def test_select_gives_the_instances_the_orm_gives(match):
    seats = rows.select(MatchSeat, where='"match_id" = %s', params=[match.pk], order='"number" DESC')
    orm = list(MatchSeat.objects.filter(match=match).order_by("-number"))
    assert [fields(s) for s in seats] == [fields(s) for s in orm] and len(seats) == 2
    assert not seats[0]._state.adding and seats[0]._state.db == "default"
    [read] = rows.select(Match, where='"id" = %s', params=[match.pk], limit=1)
    assert fields(read) == fields(Match.objects.get(pk=match.pk))
    assert isinstance(read.state, dict) and isinstance(read.options, dict)  # JSON decoded
    assert isinstance(read.started_at, dt.datetime) and timezone.is_aware(read.started_at)
    assert rows.select(Match, where='"id" = %s', params=[-1]) == []


def test_a_locking_select_locks_on_a_database_that_can(match):
    with transaction.atomic(), CaptureQueriesContext(connection) as captured:
        rows.select(Match, where='"id" = %s', params=[match.pk], lock=True)
    [sql] = [q["sql"] for q in captured.captured_queries]
    assert sql.endswith("FOR UPDATE") == connection.features.has_select_for_update


def test_update_writes_only_the_fields_named_and_refuses_a_gone_row(match):
    match.version, match.state, match.status = 7, {"new": True}, Match.CANCELLED  # status is not named
    match.turn_deadline = timezone.now().replace(microsecond=0)
    with CaptureQueriesContext(connection) as captured:
        rows.update(match, ["version", "state", "turn_deadline"])
    assert len(captured.captured_queries) == 1
    again = Match.objects.get(pk=match.pk)
    assert (again.version, again.state, again.turn_deadline, again.status) == \
        (7, {"new": True}, match.turn_deadline, Match.PLAYING)
    ghost = Match(pk=-5, version=1)
    with pytest.raises(DatabaseError):
        rows.update(ghost, ["version"])


def test_insert_writes_the_row_the_orm_reads_back(match):
    at = timezone.now()
    row = rows.insert(MatchAction(match=match, seq=1, seat=0, action={"type": "play", "card": "1D"}, by="player",
                                  version=1, events=[{"a": None}], at=at))
    assert row.pk is not None and not row._state.adding
    assert fields(MatchAction.objects.get(pk=row.pk)) == fields(row)


_TEXT = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=8)
_JSON = st.recursive(st.none() | st.booleans() | st.integers(-2**53, 2**53) | _TEXT,
                     lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_TEXT, inner, max_size=3), max_leaves=8)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(value=st.dictionaries(_TEXT, _JSON, max_size=4))  # a state is an object (its column is NOT NULL)
def test_json_goes_through_update_and_select_unchanged(match, value):
    match.state = value
    rows.update(match, ["state"])
    [read] = rows.select(Match, where='"id" = %s', params=[match.pk])
    assert read.state == value == Match.objects.get(pk=match.pk).state
