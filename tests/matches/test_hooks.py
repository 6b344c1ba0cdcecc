"""The match-finished hook (docs/layers.md): a match that ends says so once, after commit,
with its id and outcome; a rolled-back end says nothing; a match of no owner runs to the
end through the same services and the tables ignore it."""

from __future__ import annotations

import pytest
from django.db import transaction

from apps.common.errors import DomainError
from apps.games.engines import get_engine
from apps.matches.models import Match
from apps.matches.services import match_action_apply, match_cancel_vote, match_create, match_robot_turns
from apps.matches.signals import match_finished
from apps.tables.models import TableMatch

from ..conftest import make_user
from ..tables.conftest import briscola_table, current_match, play_out

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def heard():
    calls: list[dict] = []

    def receiver(sender, match_id, outcome, **kwargs):
        calls.append({"match_id": match_id, "outcome": outcome, "in_atomic": transaction.get_connection().in_atomic_block})

    match_finished.connect(receiver, dispatch_uid="test_hooks_receiver")
    yield calls
    match_finished.disconnect(dispatch_uid="test_hooks_receiver")


def test_a_finished_match_says_so_once_after_commit_and_its_table_opens_the_window(heard):
    table, players = briscola_table()
    match = current_match(table)
    finished = play_out(match.pk, {0: players[0], 1: players[1]})
    assert finished.status == Match.FINISHED
    assert len(heard) == 1
    assert heard[0]["match_id"] == match.pk
    assert heard[0]["outcome"]["status"] == "finished"
    assert heard[0]["outcome"]["result"]["winner"] == finished.result["winner"]
    assert heard[0]["in_atomic"] is False  # after commit, outside the match's transaction
    table.refresh_from_db()
    assert table.confirm_deadline is not None  # the table heard it: the window is open
    assert not table.seats.filter(ready=True).exists()


def test_a_cancelled_match_says_so_once_with_its_status(heard):
    table, players = briscola_table()
    match = current_match(table)
    match_cancel_vote(match_id=match.pk, user=players[0], accept=True)
    assert heard == []
    match_cancel_vote(match_id=match.pk, user=players[1], accept=True)
    assert [(h["match_id"], h["outcome"]["status"], h["outcome"]["result"]) for h in heard] == [
        (match.pk, "cancelled", None)]
    table.refresh_from_db()
    assert table.confirm_deadline is not None


def test_an_end_that_rolls_back_says_nothing(heard):
    table, players = briscola_table()
    match = current_match(table)
    with pytest.raises(RuntimeError), transaction.atomic():
        match_cancel_vote(match_id=match.pk, user=players[0], accept=True)
        match_cancel_vote(match_id=match.pk, user=players[1], accept=True)
        raise RuntimeError("the caller's transaction fails after the match ended")
    assert heard == []
    assert Match.objects.get(pk=match.pk).status == Match.PLAYING


def test_a_match_of_no_owner_runs_to_the_end_and_no_table_acts(heard):
    alice, bruno = make_user(nickname="Solo_A"), make_user(nickname="Solo_B")
    with transaction.atomic():
        match = match_create(game="briscola", players=2, options={}, cancellable=False, forfeit_on_absence=False,
                             awards_xp=False, seats=[{"player": alice}, {"player": bruno}])
    assert match.group == f"match_{match.pk}"
    assert not TableMatch.objects.filter(match=match).exists()
    users = {0: alice, 1: bruno}
    for _ in range(200):
        match.refresh_from_db()
        if match.status != Match.PLAYING:
            break
        state = get_engine(match.game).from_json(match.state)
        seat = state.to_act[0]
        match_action_apply(match_id=match.pk, action=state.legal_actions(seat)[0], version=match.version,
                           user=users[seat])
    assert match.status == Match.FINISHED
    assert [h["match_id"] for h in heard] == [match.pk]
    with pytest.raises(DomainError) as refused:
        match_cancel_vote(match_id=match.pk, user=alice, accept=True)
    assert refused.value.code == "not_allowed_in_tournament"
    assert match_robot_turns(match_id=match.pk) == 0


def test_an_end_whose_hook_was_lost_is_handled_by_the_tick_and_no_match_starts_before(heard):
    """The process died between the match's commit and the hook: the seats still hold the
    requests made before the match. No next match starts on them; the tick handles the end."""
    from apps.common.tick import tick_run
    from apps.tables import receivers
    from apps.tables.services import table_start_if_ready

    match_finished.disconnect(dispatch_uid="mazziere_tables_match_end")  # as if the hook was lost
    try:
        table, players = briscola_table()
        match = current_match(table)
        play_out(match.pk, {0: players[0], 1: players[1]})
    finally:
        match_finished.connect(receivers.open_confirmations_after_match, dispatch_uid="mazziere_tables_match_end")
    assert table.seats.filter(ready=True).count() == 2  # the old requests, never cleared
    assert not TableMatch.objects.get(match=match).ended
    tick_run()
    table.refresh_from_db()
    assert table.confirm_deadline is not None
    assert not table.seats.filter(ready=True).exists()
    assert TableMatch.objects.get(match=match).ended
    assert table_start_if_ready(table_id=table.pk) is None  # nobody has asked again
    assert table.matches.count() == 1


def test_a_start_before_the_hook_handles_the_end_first_and_starts_nothing(heard):
    from apps.tables import receivers
    from apps.tables.services import table_start_if_ready

    match_finished.disconnect(dispatch_uid="mazziere_tables_match_end")
    try:
        table, players = briscola_table()
        match = current_match(table)
        play_out(match.pk, {0: players[0], 1: players[1]})
        assert table_start_if_ready(table_id=table.pk) is None  # the old requests start nothing
    finally:
        match_finished.connect(receivers.open_confirmations_after_match, dispatch_uid="mazziere_tables_match_end")
    assert table.matches.count() == 1
    assert TableMatch.objects.get(match=match).ended
    assert not table.seats.filter(ready=True).exists()
