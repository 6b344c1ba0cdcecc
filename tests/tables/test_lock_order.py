"""One lock order for every path that locks both a table and its match (apps/matches/services.py).

Each test races one path against the match's last move, 20 times, on real PostgreSQL row
locks with one database connection per thread: no 5xx, no exception other than a clean
domain error, and exactly one settlement of the match's escrow.
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from apps.common.errors import DomainError
from apps.games.engines import get_engine
from apps.matches.models import Match, MatchSeat
from apps.matches.services import match_grace_expired
from apps.tables import services
from apps.tables.models import Table
from apps.wallet.models import Transaction
from apps.wallet.selectors import ledger_check

from ..conftest import api_client, make_user
from .conftest import fund

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres_only]

ROUNDS = 20
STAKE = 100


def race(first, second):
    """Run two calls at once (a barrier releases both); each result or exception is returned."""
    barrier = threading.Barrier(2)
    results: list = [None, None]

    def worker(index, call):
        barrier.wait()
        try:
            results[index] = call()
        except Exception as exc:  # recorded and asserted by the caller
            results[index] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=worker, args=(i, c)) for i, c in enumerate((first, second))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


def one_move_from_the_end(table: Table) -> tuple[Match, int, dict]:
    """Fast-forward the table's match (in memory, then saved) to just before its last move."""
    match = table.matches.get(status=Match.PLAYING)
    engine = get_engine(match.game)
    state = engine.from_json(match.state)
    before = state.to_json()
    while True:
        seat = state.to_act[0]
        action = state.legal_actions(seat)[0]
        snapshot = state.to_json()
        state.apply(seat, action)
        if state.is_over:
            before = snapshot
            break
    Match.objects.filter(pk=match.pk).update(state=before, version=50,
                                             turn_deadline=timezone.now() + timedelta(seconds=30))
    match.refresh_from_db()
    return match, seat, action


@pytest.fixture
def pair():
    a, b = make_user(nickname="Racer_A"), make_user(nickname="Racer_B")
    fund(a, cash=STAKE * (ROUNDS + 2))
    fund(b, cash=STAKE * (ROUNDS + 2))
    return a, b


def staked_table(a, b) -> Table:
    table = services.table_create(user=a, data={"game": "briscola", "official": True, "stake": STAKE,
                                                 "currency": "cash"}, ip="10.7.0.1")
    services.table_sit(user=b, table_id=table.pk, ip="10.7.0.2")
    return table


def post(user, url, body=None, method="post"):
    client = api_client(user)
    client.raise_request_exception = False  # an unhandled error is the 500 a player would see
    response = getattr(client, method)(url, body or {}, format="json")
    if 400 <= response.status_code < 500:
        return f"{response.status_code} {response.json().get('code')}"
    return response.status_code


def run_rounds(pair, rival_for):
    """ROUNDS races of ``rival_for(table, match, mover, other)`` against the last move."""
    a, b = pair
    outcomes: Counter = Counter()
    started = time.monotonic()
    for _ in range(ROUNDS):
        table = staked_table(a, b)
        match, seat, action = one_move_from_the_end(table)
        users = {ms.number: ms.player for ms in match.match_seats.select_related("player")}
        mover, other = users[seat], users[1 - seat]
        rival = rival_for(table, match, mover, other)

        def last_move(match=match, mover=mover, action=action):
            return post(mover, f"/api/matches/{match.pk}/actions/", {"action": action, "version": match.version})

        results = race(last_move, rival)
        for r in results:
            if isinstance(r, bool) or r is None:
                outcomes["ok"] += 1
            elif isinstance(r, int | str):
                outcomes[f"http {r}"] += 1
            elif isinstance(r, DomainError):
                outcomes[f"domain {r.code}"] += 1
            else:
                outcomes[f"error {type(r).__name__}"] += 1
        match.refresh_from_db()
        settlements = Transaction.objects.filter(idempotency_key=f"settle:match:{match.pk}").count()
        outcomes[f"status {match.status}, settlements {settlements}"] += 1
    outcomes["seconds"] = round(time.monotonic() - started, 1)
    print(dict(outcomes))  # the figures for the report (pytest -s)
    bad = {k: v for k, v in outcomes.items() if k.startswith("error") or k.startswith("http 5")}
    assert not bad, dict(outcomes)
    assert outcomes[f"status {Match.FINISHED}, settlements 1"] == ROUNDS, dict(outcomes)
    assert ledger_check() is None
    return outcomes


def test_leave_against_the_last_move(pair):
    run_rounds(pair, lambda table, match, mover, other:
               lambda: post(other, f"/api/tables/{table.pk}/leave/"))


def test_the_last_movers_own_leave_against_the_last_move(pair):
    run_rounds(pair, lambda table, match, mover, other:
               lambda: post(mover, f"/api/tables/{table.pk}/leave/"))


def test_reconnect_against_the_last_move(pair):
    def rival(table, match, mover, other):
        MatchSeat.objects.filter(match=match, player=other).update(
            robot_playing=True, grace_deadline=timezone.now() + timedelta(seconds=100))
        return lambda: services.socket_connected(table_id=table.pk, user=other, channel_name=f"back-{match.pk}")

    run_rounds(pair, rival)


def test_grace_expiry_against_the_last_move(pair):
    def rival(table, match, mover, other):
        ms = MatchSeat.objects.get(match=match, player=other)
        MatchSeat.objects.filter(pk=ms.pk).update(robot_playing=True,
                                                  grace_deadline=timezone.now() - timedelta(seconds=1))
        return lambda: match_grace_expired(match_seat_id=ms.pk)

    run_rounds(pair, rival)


def test_settings_against_the_last_move(pair):
    run_rounds(pair, lambda table, match, mover, other:
               lambda: post(table.leader, f"/api/tables/{table.pk}/", {"turn_seconds": 45}, method="patch"))


def test_ready_against_the_last_move(pair):
    run_rounds(pair, lambda table, match, mover, other:
               lambda: post(other, f"/api/tables/{table.pk}/ready/"))


def test_cancel_vote_against_leave(pair):
    """Two paths that both start from the table and the match, neither of them a move."""
    a, b = pair
    outcomes: Counter = Counter()
    for _ in range(ROUNDS):
        table = staked_table(a, b)
        match = table.matches.get()
        vote_url, leave_url = f"/api/matches/{match.pk}/cancel-vote/", f"/api/tables/{table.pk}/leave/"
        results = race(lambda url=vote_url: post(a, url, {"accept": True}),
                       lambda url=leave_url: post(b, url))
        outcomes.update(f"http {r}" for r in results)
        assert Transaction.objects.filter(idempotency_key=f"settle:match:{match.pk}").count() == 1
    print(dict(outcomes))
    assert not [k for k in outcomes if k.startswith("http 5")], dict(outcomes)
    assert ledger_check() is None
