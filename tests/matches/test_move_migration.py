"""The match models moved from ``apps.tables`` to ``apps.matches`` without losing a row:
a database in the old layout, with matches at a table and without one, their seats, log,
cancellation votes, XP and chat lines, is migrated forward and every row is still there,
linked to its table from the tables' side, with the rules its owner had."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from tests.conftest import LONG

pytestmark = [pytest.mark.django_db(transaction=True), LONG]  # a migration every deployment already ran

OLD = [("tables", "0005_socketconnection_lease"), ("chat", "0001_initial"), ("rankings", "0002_append_only")]


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def _leaves():
    executor = MigrationExecutor(connection)
    return executor.loader.graph.leaf_nodes()


def test_old_rows_survive_the_move_to_the_matches_app():
    old = _migrate(OLD)
    User = old.get_model("auth", "User")
    Table = old.get_model("tables", "Table")
    Match = old.get_model("tables", "Match")
    MatchSeat = old.get_model("tables", "MatchSeat")
    MatchAction = old.get_model("tables", "MatchAction")
    CancelProposal = old.get_model("tables", "CancelProposal")
    XpAward = old.get_model("rankings", "XpAward")
    ChatMessage = old.get_model("chat", "ChatMessage")
    now = timezone.now()
    anna = User.objects.create(username="anna_old")
    table = Table.objects.create(game="briscola", players=2)
    at_table = Match.objects.create(table=table, game="briscola", players=2, seed="123", state={"x": 1},
                                    version=2, started_at=now, status="finished", official=True)
    alone = Match.objects.create(table=None, game="scopa", players=2, seed="456", state={"y": 2}, started_at=now)
    MatchSeat.objects.create(match=at_table, number=0, player=anna, nickname="Anna", stake_paid=50)
    MatchSeat.objects.create(match=at_table, number=1, robot=True)
    MatchAction.objects.create(match=at_table, seq=1, seat=0, action={"type": "play", "card": "1d"}, by="player",
                               version=1, at=now)
    CancelProposal.objects.create(match=at_table, opened_at=now, deadline=now, votes={"0": True})
    XpAward.objects.create(player=anna, game="briscola", match=at_table, xp=10, won=True, created=now)
    ChatMessage.objects.create(sender=anna, nickname="Anna", room=str(table.pk), table=table, match=at_table,
                               text="ciao", ip="10.0.0.1", created=now)
    ids = (at_table.pk, alone.pk)

    new = _migrate(_leaves())
    Match = new.get_model("matches", "Match")
    assert sorted(Match.objects.values_list("pk", flat=True)) == sorted(ids)
    moved = Match.objects.get(pk=ids[0])
    assert (moved.state, moved.version, moved.status, moved.official) == ({"x": 1}, 2, "finished", True)
    assert (moved.cancellable, moved.forfeit_on_absence, moved.awards_xp) == (True, True, True)
    assert moved.group == f"table_{table.pk}"
    lone = Match.objects.get(pk=ids[1])
    assert (lone.cancellable, lone.forfeit_on_absence, lone.awards_xp) == (False, False, False)
    assert lone.group == f"match_{lone.pk}"
    assert list(new.get_model("tables", "TableMatch").objects.values_list("match_id", "table_id")) == [
        (moved.pk, table.pk)]
    seats = new.get_model("matches", "MatchSeat").objects.filter(match_id=moved.pk).order_by("number")
    assert [(s.number, s.player_id, s.stake_paid, s.robot) for s in seats] == [(0, anna.pk, 50, False),
                                                                              (1, None, 0, True)]
    action = new.get_model("matches", "MatchAction").objects.get(match_id=moved.pk)
    assert action.action == {"type": "play", "card": "1d"}
    assert new.get_model("matches", "CancelProposal").objects.get(match_id=moved.pk).votes == {"0": True}
    assert new.get_model("rankings", "XpAward").objects.get(match_id=moved.pk).xp == 10
    assert new.get_model("chat", "ChatMessage").objects.get(match_id=moved.pk).table_id == table.pk
    with connection.cursor() as cursor:
        tables = set(connection.introspection.table_names(cursor))
    assert {"matches_match", "matches_matchseat", "matches_matchaction", "matches_cancelproposal"} <= tables
    assert not {"tables_match", "tables_matchseat", "tables_matchaction", "tables_cancelproposal"} & tables
    ct = new.get_model("contenttypes", "ContentType")
    assert not ct.objects.filter(app_label="tables", model="match").exists()
