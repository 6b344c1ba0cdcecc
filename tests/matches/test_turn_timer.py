"""The turn timer: one task in flight a match, armed again when it fires early (issue 15).

Before, every move published a countdown task for its own version, which the worker held and
ran only to find the match moved on. Now a match holds the due time of its one timer
(``timer_due``); the task acts only when it is that timer and it is due.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from celery import canvas
from django.db import transaction

from apps.games.engines import get_engine
from apps.matches import services
from apps.matches.models import Match, MatchAction

from ..conftest import make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def published(monkeypatch):
    """The timer tasks published (name, args, countdown), instead of run eagerly at once."""
    sent: list[tuple[str, tuple, float | None]] = []
    real = canvas.Signature.apply_async

    def apply_async(self, args=None, kwargs=None, **options):
        if self.task == services.TURN_TIMER_TASK:
            sent.append((self.task, tuple(self.args), options.get("countdown")))
            return None
        return real(self, args, kwargs, **options)

    monkeypatch.setattr(canvas.Signature, "apply_async", apply_async)
    return sent


def briscola_match(turn_seconds: int = 30) -> tuple[Match, list]:
    players = [make_user(f"timer{i}") for i in range(2)]
    with transaction.atomic():
        match = services.match_create(game="briscola", players=2, options={}, turn_seconds=turn_seconds,
                                      seats=[{"player": p} for p in players], seed=7)
    return match, players


def human_move(match: Match, players) -> Match:
    match.refresh_from_db()
    state = get_engine("briscola").from_json(match.state)
    seat = state.to_act[0]
    return services.match_action_apply(match_id=match.pk, action=state.legal_actions(seat)[0],
                                       version=match.version, user=players[seat], seat=seat)


def test_one_timer_for_many_moves(published, clock, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        match, players = briscola_match()
    match.refresh_from_db()
    first_due = match.timer_due
    assert first_due == match.turn_deadline == clock() + timedelta(seconds=30)
    assert len(published) == 1 and published[0][1] == (match.pk, first_due.isoformat())
    for _ in range(5):
        clock.advance(seconds=2)
        with django_capture_on_commit_callbacks(execute=True):
            match = human_move(match, players)
    match.refresh_from_db()
    assert match.version == 5 and match.turn_deadline == clock() + timedelta(seconds=30)
    assert match.timer_due == first_due  # still the first timer: no task a move
    assert len(published) == 1


def test_a_timer_that_fires_before_the_deadline_arms_itself_again(published, clock,
                                                                     django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        match, players = briscola_match()
    due = Match.objects.get(pk=match.pk).timer_due
    clock.advance(seconds=20)
    with django_capture_on_commit_callbacks(execute=True):
        match = human_move(match, players)
    deadline = Match.objects.get(pk=match.pk).turn_deadline
    assert services.match_turn_timer(match_id=match.pk, due=due.isoformat()) is False  # not due yet
    clock.advance(seconds=10)  # the first timer is due; the turn is not over (the move gave 30 s more)
    with django_capture_on_commit_callbacks(execute=True):
        assert services.match_turn_timer(match_id=match.pk, due=due.isoformat()) is False
    match.refresh_from_db()
    assert match.version == 1 and match.timer_due == deadline
    assert published[-1][1] == (match.pk, deadline.isoformat())
    assert published[-1][2] == pytest.approx(20, abs=0.01)
    # the same (stale) delivery again does nothing
    assert services.match_turn_timer(match_id=match.pk, due=due.isoformat()) is False
    assert Match.objects.get(pk=match.pk).timer_due == deadline


def test_the_timer_of_a_turn_that_ran_out_plays_the_timeout(published, clock,
                                                            django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        match, players = briscola_match(turn_seconds=10)
    due = Match.objects.get(pk=match.pk).timer_due
    clock.advance(seconds=11)
    with django_capture_on_commit_callbacks(execute=True):
        assert services.match_turn_timer(match_id=match.pk, due=due.isoformat()) is True
    match.refresh_from_db()
    assert match.version == 1
    assert MatchAction.objects.get(match=match).by == MatchAction.TIMEOUT
    # the next human turn has its own timer
    assert match.timer_due == match.turn_deadline == clock() + timedelta(seconds=10)
    assert published[-1][1] == (match.pk, match.timer_due.isoformat())


def test_a_lost_timer_is_armed_again_by_the_next_move(published, clock, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        match, players = briscola_match()
    # the worker died with the task: its due time passed long ago and nothing fired it
    Match.objects.filter(pk=match.pk).update(timer_due=clock() - timedelta(minutes=5))
    with django_capture_on_commit_callbacks(execute=True):
        match = human_move(match, players)
    match.refresh_from_db()
    assert match.timer_due == match.turn_deadline
    assert published[-1][1] == (match.pk, match.timer_due.isoformat())


def test_bad_due_changes_nothing(clock):
    match, _players = briscola_match()
    before = Match.objects.get(pk=match.pk)
    for due in ("yesterday", "", "2026-13-40T00:00:00"):
        assert services.match_turn_timer(match_id=match.pk, due=due) is False
    after = Match.objects.get(pk=match.pk)
    assert (after.version, after.timer_due, after.turn_deadline) == (before.version, before.timer_due,
                                                                      before.turn_deadline)
