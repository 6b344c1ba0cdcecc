"""Statements per move (issue 15): at most 5 for a human's, 6 for a robot's, commit hooks
included (the table's revision), so they cannot creep back.

The test's own transaction turns the move's ``atomic`` into a savepoint, which a real move
(a transaction of its own) does not have: savepoints are not counted. The Celery publishes
(the turn timer, the robots' task) are not SQL and are left out: run eagerly they would
play the next moves inside this one's count."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apps.games.engines import get_engine
from apps.matches.models import MatchAction
from apps.matches.services import match_action_apply, match_robot_move
from apps.players.services import nickname_set
from apps.tables import services as tables
from apps.tables.models import Table
from apps.tables.selectors import table_match_in_play

from ..conftest import make_user

pytestmark = pytest.mark.django_db


def spades_table(robots: bool):
    humans = [make_user(), make_user()]
    for i, user in enumerate(humans):
        nickname_set(user=user, nickname=f"Mossa{user.pk}_{i}")
    table = tables.table_create(user=humans[0], data={"game": "spades", "players": 4, "official": False},
                                ip="127.0.0.1")
    if robots:
        tables.table_robot_add(user=humans[0], table_id=table.pk, seat=1)
        tables.table_robot_add(user=humans[0], table_id=table.pk, seat=3)
        tables.table_sit(user=humans[1], table_id=table.pk, seat=2, ip="127.0.0.2")
    return table, humans


@pytest.fixture(autouse=True)
def no_task_publishes(monkeypatch):
    from apps.matches.services import acting, presence

    for module in (acting, presence):  # the modules that publish them
        monkeypatch.setattr(module, "schedule_robots", lambda *a, **k: None)
        monkeypatch.setattr(module, "_timer_arm", lambda *a, **k: None)


def statements(run, capture_hooks) -> list[str]:
    with CaptureQueriesContext(connection) as captured, capture_hooks(execute=True):
        run()
    return [q["sql"] for q in captured.captured_queries
            if not q["sql"].startswith(("SAVEPOINT", "RELEASE SAVEPOINT"))]


def test_a_human_move_from_the_socket(django_capture_on_commit_callbacks):
    table, humans = spades_table(robots=True)
    match = table_match_in_play(table_id=table.pk)
    while match_robot_move(match_id=match.pk):  # the robots before the first human turn
        pass
    match.refresh_from_db()
    state = get_engine("spades").from_json(match.state)
    seat = state.to_act[0]
    assert seat in (0, 2)
    user = humans[0] if seat == 0 else humans[1]
    revision = Table.objects.get(pk=table.pk).revision
    action = state.legal_actions(seat)[0]
    sql = statements(lambda: tables.table_move(table_id=table.pk, user=user, action=action, version=match.version),
                     django_capture_on_commit_callbacks)
    assert MatchAction.objects.filter(match=match, by=MatchAction.PLAYER).count() == 1
    assert Table.objects.get(pk=table.pk).revision > revision
    assert len(sql) <= 5, sql  # lock (with the table link), seats, log row, match row, table revision
    assert "FOR UPDATE" in sql[0] or not connection.features.has_select_for_update
    assert "tables_tablematch" in sql[0]  # the table's match found by the locking read
    assert not any(q.startswith('UPDATE "matches_match" SET "game"') for q in sql)  # changed fields only


def test_a_move_at_a_table_without_a_match_is_refused(django_capture_on_commit_callbacks):
    from apps.common.errors import Conflict

    table, humans = spades_table(robots=False)
    with pytest.raises(Conflict) as refused:
        tables.table_move(table_id=table.pk, user=humans[0], action={"type": "bid", "bid": 1}, version=0)
    assert refused.value.code == "match_over"


def test_a_robot_move(django_capture_on_commit_callbacks):
    table, humans = spades_table(robots=True)
    match = table_match_in_play(table_id=table.pk)
    state = get_engine("spades").from_json(match.state)
    while state.to_act[0] not in (1, 3):
        seat = state.to_act[0]
        match_action_apply(match_id=match.pk, action=state.legal_actions(seat)[0], version=match.version,
                           user=humans[0] if seat == 0 else humans[1])
        match.refresh_from_db()
        state = get_engine("spades").from_json(match.state)
    revision = Table.objects.get(pk=table.pk).revision
    sql = statements(lambda: match_robot_move(match_id=match.pk), django_capture_on_commit_callbacks)
    assert MatchAction.objects.filter(match=match, by=MatchAction.ROBOT).count() == 1
    assert Table.objects.get(pk=table.pk).revision > revision
    assert len(sql) <= 6, sql  # one lock for the choice and the move: 5 today


def test_one_broadcast_a_move_human_or_robot(django_capture_on_commit_callbacks):
    """Each move sends one group message, "changed, version n", whoever made it."""
    import asyncio

    from channels.layers import get_channel_layer

    from apps.common import push
    from apps.tables.broadcast import table_group

    table, humans = spades_table(robots=True)
    match = table_match_in_play(table_id=table.pk)
    layer = get_channel_layer()
    loop = push._process_loop()
    channel = asyncio.run_coroutine_threadsafe(layer.new_channel(), loop).result(5)
    asyncio.run_coroutine_threadsafe(layer.group_add(table_group(table.pk), channel), loop).result(5)

    async def received() -> list[dict]:
        got = []
        while True:
            try:
                got.append(await asyncio.wait_for(layer.receive(channel), 0.5))
            except TimeoutError:
                return got

    kinds = set()
    for _ in range(6):
        match.refresh_from_db()
        state = get_engine("spades").from_json(match.state)
        seat = state.to_act[0]
        with django_capture_on_commit_callbacks(execute=True):
            if seat in (1, 3):
                assert match_robot_move(match_id=match.pk)
                kinds.add("robot")
            else:
                tables.table_move(table_id=table.pk, user=humans[0] if seat == 0 else humans[1],
                                  action=state.legal_actions(seat)[0], version=match.version)
                kinds.add("human")
        messages = asyncio.run_coroutine_threadsafe(received(), loop).result(10)
        assert [m["type"] for m in messages] == ["table.changed"] and messages[0]["version"] == match.version + 1
    assert kinds == {"robot", "human"}
    asyncio.run_coroutine_threadsafe(layer.group_discard(table_group(table.pk), channel), loop).result(5)
