"""``match_last_move_read``: the plain-SQL read a process follows another's moves with gives
the very instances the ORM would (issue 15), on SQLite and PostgreSQL alike."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apps.games.engines import get_engine
from apps.matches import services
from apps.matches.models import Match, MatchAction
from apps.matches.selectors import match_last_move_read

from ..conftest import make_user

pytestmark = pytest.mark.django_db


def fields(instance) -> dict:
    return {f.attname: getattr(instance, f.attname) for f in type(instance)._meta.concrete_fields}


def test_the_latest_move_and_its_match_as_the_orm_reads_them():
    players = [make_user(f"read{i}") for i in range(2)]
    match = services.match_create(game="briscola", players=2, options={}, seed=3,
                                  seats=[{"player": p} for p in players])
    assert match_last_move_read(match_id=match.pk) is None  # no move yet
    for _ in range(3):
        match.refresh_from_db()
        state = get_engine("briscola").from_json(match.state)
        seat = state.to_act[0]
        services.match_action_apply(match_id=match.pk, action=state.legal_actions(seat)[0],
                                    version=match.version, user=players[seat], seat=seat)
    with CaptureQueriesContext(connection) as captured:
        row = match_last_move_read(match_id=match.pk)
    assert len(captured.captured_queries) == 1
    orm = MatchAction.objects.select_related("match").get(match_id=match.pk, seq=3)
    assert fields(row) == fields(orm) and fields(row.match) == fields(orm.match)
    assert isinstance(row.action, dict) and isinstance(row.match.state, dict)  # JSON decoded
    assert row.match.turn_deadline.tzinfo is not None and row.match.official is False
    assert not row._state.adding and row.match.pk == match.pk
    assert match_last_move_read(match_id=Match.objects.order_by("-pk").first().pk + 1) is None
