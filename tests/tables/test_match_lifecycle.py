"""Around the match: disconnection grace, abandonment with 2 and with more sides, Bestia's
units, idle tables, leaders, lost robot tasks (platform.md §8.1-§8.6)."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from apps.games.engines import get_engine
from apps.matches.models import Match, MatchAction
from apps.matches.services import match_action_apply
from apps.tables import services
from apps.tables.models import Table
from apps.wallet.models import Account
from apps.wallet.selectors import ledger_check, wallet_get

from ..conftest import make_user
from .conftest import fund

pytestmark = pytest.mark.django_db(transaction=True)


def seat_players(game, n, *, official=True, stake=0, currency="credits", credits=2000, cash=0, options=None):
    users = [make_user(nickname=f"{game[:5]}{i}x{make_user.__name__[:1]}{id(object()) % 9999}") for i in range(n)]
    for u in users:
        if credits or cash:
            fund(u, credits=credits, cash=cash)
    table = services.table_create(user=users[0], data={"game": game, "players": n, "official": official,
                                                       "stake": stake, "currency": currency,
                                                       **({"game_options": options} if options else {})}, ip="10.3.0.1")
    for i, u in enumerate(users[1:], start=1):
        services.table_sit(user=u, table_id=table.pk, ip=f"10.3.0.{i + 1}")
    return table, users


def finish(match_id, users, limit=5000):
    for _ in range(limit):
        match = Match.objects.get(pk=match_id)
        if match.status != Match.PLAYING:
            return match
        state = get_engine(match.game).from_json(match.state)
        humans = {ms.number: ms for ms in match.match_seats.all()}
        seat = next((s for s in state.to_act if not humans[s].robot_playing), None)
        if seat is None:
            raise AssertionError("only robot seats to act, but the robot did not play")
        match_action_apply(match_id=match_id, action=state.legal_actions(seat)[0], version=match.version,
                           user=users[seat])
    raise AssertionError("match did not end")


def test_grace_period_runs_out_and_two_sided_abandonment(clock):
    table, (a, b) = seat_players("briscola", 2, stake=100, currency="cash", credits=0, cash=1000)
    match = table.matches.get()
    services.socket_connected(table_id=table.pk, user=b, channel_name="chan-b")
    services.socket_disconnected(table_id=table.pk, user=b, channel_name="chan-b")
    seat_b = match.match_seats.get(player=b)
    assert seat_b.robot_playing and seat_b.grace_deadline is not None
    clock.advance(seconds=179)
    call_command("tournaments_tick")
    assert Match.objects.get(pk=match.pk).status == "playing"
    clock.advance(seconds=2)
    call_command("tournaments_tick")
    match.refresh_from_db()
    assert match.status == "finished" and match.result["abandoned"] == [1] and match.result["winner"] == 0
    assert wallet_get(player=a)["cash_cents"] == 900 + 180 and wallet_get(player=b)["cash_cents"] == 900
    assert not table.seats.filter(player=b).exists()
    assert ledger_check() is None


def test_reconnecting_in_time_takes_the_seat_back(clock):
    table, (a, b) = seat_players("briscola", 2)
    match = table.matches.get()
    services.socket_connected(table_id=table.pk, user=b, channel_name="c1")
    services.socket_disconnected(table_id=table.pk, user=b, channel_name="c1")
    clock.advance(seconds=100)
    services.socket_connected(table_id=table.pk, user=b, channel_name="c2")
    seat_b = match.match_seats.get(player=b)
    assert not seat_b.robot_playing and seat_b.grace_deadline is None
    clock.advance(seconds=200)
    call_command("tournaments_tick")
    assert Match.objects.get(pk=match.pk).status == "playing"


def test_hearts_abandoner_cannot_win_and_loses_the_stake():
    table, users = seat_players("hearts", 4, stake=50, options={"mode": "hands", "hands": 1})  # one hand: quick
    match = table.matches.get()
    services.table_leave(user=users[2], table_id=table.pk)  # seat 2 abandons: the robot plays it on
    match.refresh_from_db()
    assert match.status == "playing" and match.match_seats.get(number=2).robot_playing
    match = finish(match.pk, users)
    assert match.result["winner"] != 2 and match.result["abandoned"] == [2]
    pot, bank = 200, 40
    winner = users[match.result["winner"]]
    assert wallet_get(player=winner)["credits"] == 2300 - 50 + (pot - bank)
    assert wallet_get(player=users[2])["credits"] == 2300 - 50
    assert Account.objects.get(code="house:bank", currency="credits").balance == bank
    from apps.rankings.models import XpAward

    assert not XpAward.objects.filter(match=match, player=users[2]).exists()
    assert XpAward.objects.filter(match=match).count() == 3
    assert ledger_check() is None


def test_bestia_units_are_settled_from_the_escrow():
    table, users = seat_players("bestia", 3, stake=2)
    match = table.matches.get()
    escrow = Account.objects.get(code=f"escrow:match:{match.pk}", currency="credits")
    assert escrow.balance == 3 * 2 * 30
    match = finish(match.pk, users)
    balances = match.result["scores"]
    assert sum(balances) == 0
    # a loser pays balance x unit, never more than the 60 credits escrowed; the winners receive what
    # they won when the losers' escrows cover it, else share what there is (units_settlement)
    changes = [wallet_get(player=user)["credits"] - 2300 for user in users]
    owed = {s: min(-b * 2, 60) for s, b in enumerate(balances) if b < 0}
    for seat, paid in owed.items():
        assert changes[seat] == -paid
    won = {s: b * 2 for s, b in enumerate(balances) if b > 0}
    if sum(owed.values()) >= sum(won.values()):
        assert all(changes[s] == amount for s, amount in won.items())
    else:
        assert all(0 < changes[s] <= amount for s, amount in won.items())
    assert sum(changes) == 0 and all(changes[s] == 0 for s, b in enumerate(balances) if b == 0)
    escrow.refresh_from_db()
    assert escrow.balance == 0 and escrow.closed
    assert ledger_check() is None


def test_idle_table_closes_after_five_minutes_and_leader_passes_on(clock):
    a, b = make_user(nickname="LeadA"), make_user(nickname="LeadB")
    table = services.table_create(user=a, data={"game": "scopa", "players": 4})
    services.table_sit(user=b, table_id=table.pk)
    clock.advance(seconds=1)
    services.table_leave(user=a, table_id=table.pk)
    table.refresh_from_db()
    assert table.leader == b
    services.table_leave(user=b, table_id=table.pk)
    clock.advance(seconds=299)
    call_command("tournaments_tick")
    assert Table.objects.get(pk=table.pk).status == "open"
    clock.advance(seconds=2)
    call_command("tournaments_tick")
    assert Table.objects.get(pk=table.pk).status == "closed"


def test_a_lost_robot_task_is_recovered_by_the_tick(clock):
    a = make_user(nickname="Solo_Human")
    table = services.table_create(user=a, data={"game": "briscola"})
    # the robot's seat is taken while no worker would run its task: simulate a lost task
    from apps.matches.services import acting as play  # where the robots are scheduled

    original = play.schedule_robots
    play.schedule_robots = lambda *args, **kwargs: None
    try:
        services.table_robot_add(user=a, table_id=table.pk, seat=1)
        match = table.matches.get()
        state = get_engine("briscola").from_json(match.state)
        if state.to_act == [0]:
            match_action_apply(match_id=match.pk, action=state.legal_actions(0)[0], version=match.version, user=a)
    finally:
        play.schedule_robots = original
    match.refresh_from_db()
    stuck = match.version
    assert get_engine("briscola").from_json(match.state).to_act == [1]
    clock.advance(seconds=31)
    call_command("tournaments_tick")
    match.refresh_from_db()
    assert match.version > stuck
    assert MatchAction.objects.filter(match=match, by="robot").exists()


def test_players_who_cannot_cover_the_stake_are_stood_up():
    a, b = make_user(nickname="Rich_1"), make_user(nickname="Poor_1")
    fund(a, cash=500)
    fund(b, cash=100)
    table = services.table_create(user=a, data={"game": "briscola", "official": True, "stake": 100,
                                                 "currency": "cash"})
    # b could cover it when sitting, but spends the money before the match starts
    from apps.wallet.services import wallet_debit

    services.table_sit(user=b, table_id=table.pk)
    first = table.matches.get()
    finish(first.pk, {0: a, 1: b})
    left = wallet_get(player=b)["cash_cents"]
    if left:
        wallet_debit(player=b, currency="cash", amount=left, kind="stake", reference="elsewhere",
                     destination="house:bank")
    assert services.table_ready(user=a, table_id=table.pk) is None
    assert services.table_ready(user=b, table_id=table.pk) is None  # the set is complete, b is short
    assert not table.seats.filter(player=b).exists() and table.matches.count() == 1
    assert ledger_check() is None


def test_an_interrupted_match_resumes_where_it_stopped_with_the_same_deck():
    """A restart keeps nothing in memory that matters: the state, deck order included, is in
    the database after every action, and the log alone replays it."""
    from django.db import connections

    from apps.tables import render

    table, users = seat_players("scopa", 2, official=False, credits=0)
    match = table.matches.get()
    engine = get_engine("scopa")
    for _ in range(7):
        match.refresh_from_db()
        state = engine.from_json(match.state)
        seat = state.to_act[0]
        match_action_apply(match_id=match.pk, action=state.legal_actions(seat)[0], version=match.version,
                           user=users[seat])
    stock_before = engine.from_json(Match.objects.get(pk=match.pk).state).card_zones()["stock"]
    # "restart": drop every connection and every in-process cache, read again from the database
    connections.close_all()
    render._SNAPSHOTS.clear()
    resumed = Match.objects.get(pk=match.pk)
    state = engine.from_json(resumed.state)
    assert state.card_zones()["stock"] == stock_before  # nothing reshuffled
    replay = engine.new_game(2, options=resumed.options, seed=int(resumed.seed), deck=resumed.deck)
    for entry in resumed.actions.order_by("seq"):
        replay.apply(entry.seat, entry.action)
    assert replay.to_json() == resumed.state
    finished = finish(match.pk, users)
    final = engine.new_game(2, options=finished.options, seed=int(finished.seed), deck=finished.deck)
    for entry in finished.actions.order_by("seq"):
        final.apply(entry.seat, entry.action)
    assert final.is_over and final.result() == finished.result
