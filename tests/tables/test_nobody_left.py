"""No match is ever played by robots alone (issue 25): a poker hand left by its players ends
at once (seed 001's forfeit), and a match whose humans are all disconnected at once (a
daphne restart) waits, timer paused, until one comes back or the grace runs out (§8.3, §8.6).

Real PostgreSQL/Redis; sockets through Channels' WebsocketCommunicator; the clock is faked.
"""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings

from apps.common.tick import tick_run
from apps.games.engines import get_engine
from apps.matches.models import Match, MatchAction
from apps.matches.services import match_robot_turns, match_turn_timeout
from apps.tables import services
from apps.tables.models import Seat, Table
from apps.wallet.models import Account
from apps.wallet.selectors import ledger_check, wallet_get

from ..conftest import make_user, sanction_give
from .conftest import briscola_table, fund
from .test_consumer import connect, drain, next_output
from .test_poker_table import next_hand, play_hand

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(120)]


def escrow(match_id: int) -> int:
    return sum(Account.objects.filter(code=f"escrow:match:{match_id}").values_list("balance", flat=True))


def poker_hand(api, names, *, stake=10, official=True, **options):
    users = [make_user(nickname=n) for n in names]
    for user in users:
        fund(user, credits=5_000 - wallet_get(player=user)["credits"])
    answer = api(users[0]).post("/api/tables/", {"game": "poker_italiana", "official": official, "stake": stake,
                                                 "players": len(users), "game_options": options}, format="json")
    assert answer.status_code == 201, answer.content
    table_id = answer.json()["id"]
    for user in users[1:]:
        assert api(user).post(f"/api/tables/{table_id}/sit/", format="json").status_code == 200
    match = Match.objects.get(table_link__table_id=table_id, status=Match.PLAYING)
    return table_id, match, users


@pytest.mark.parametrize("official", [True, False], ids=["credits", "practice"])
def test_both_players_leave_during_a_hand_it_ends_and_nothing_loops(api, clock, official):
    """The 52-minute practice table, reduced: both leave during a hand. The first leave
    forfeits the hand (the other takes the antes), the second frees the seat; the escrow is
    empty, the seats are free, no robot has anything to play and no hand is dealt again."""
    table_id, match, (anna, bruno) = poker_hand(api, ["Anna_nl1", "Bruno_nl1"], official=official,
                                                stake=10 if official else 0)
    assert api(anna).post(f"/api/tables/{table_id}/leave/", format="json").status_code == 200
    match.refresh_from_db()
    assert match.status == Match.FINISHED and escrow(match.pk) == 0
    assert sorted(match.result["scores"]) == [-10, 10]
    paid = 10 if official else 0  # a practice table plays for chips
    assert wallet_get(player=anna)["credits"] == 5_000 - paid
    assert wallet_get(player=bruno)["credits"] == 5_000 + paid
    assert api(bruno).post(f"/api/tables/{table_id}/leave/", format="json").status_code == 200
    assert not Seat.objects.filter(table_id=table_id, player__isnull=False).exists()
    assert match_robot_turns(match_id=match.pk) == 0
    for _ in range(3):  # the tick finds nothing to deal, no timer to fire
        clock.advance(seconds=30)
        tick_run()
    assert not Match.objects.filter(table_link__table_id=table_id, status=Match.PLAYING).exists()
    assert Match.objects.filter(table_link__table_id=table_id).count() == 1
    assert ledger_check() is None


def test_three_players_the_hand_goes_on_without_the_leaver(api, clock):
    table_id, first, users = poker_hand(api, ["Anna_nl2", "Bruno_nl2", "Carla_nl2"])
    assert first.players == 2  # dealt as soon as two sat: the third is dealt from the next hand
    play_hand(api, first.pk, {u.pk: u for u in users})
    match = next_hand(clock, table_id)
    assert match.players == 3
    seat_of = {ms.player_id: ms.number for ms in match.match_seats.all()}
    state = get_engine("poker_italiana").from_json(match.state)
    waiting = next(u for u in users if seat_of[u.pk] not in state.to_act)
    assert api(waiting).post(f"/api/tables/{table_id}/leave/", format="json").status_code == 200
    match.refresh_from_db()
    assert match.status == Match.PLAYING
    state = get_engine("poker_italiana").from_json(match.state)
    assert state.view(None)["folded"][seat_of[waiting.pk]] and seat_of[waiting.pk] not in state.to_act
    assert match.actions.get().action == {"type": "forfeit"}
    assert Seat.objects.get(table_id=table_id, player=waiting).sitting_out == "leaving"


def test_idle_players_past_their_timeouts_the_hand_waits_then_ends_by_the_rules(api, clock):
    """Two REST players who stop acting: after their timeouts the autopilot would check and
    void-deal forever; instead, once no human is left to act, robots stop, the timer stops,
    and when the grace runs out the first to go forfeits: the other takes the pot."""
    table_id, match, (anna, bruno) = poker_hand(api, ["Anna_nl3", "Bruno_nl3"])
    fired = 0
    for _ in range(2 * settings.AWAY_AFTER_TIMEOUTS + 4):
        clock.advance(seconds=31)
        fired += bool(match_turn_timeout(match_id=match.pk))
    match.refresh_from_db()
    assert fired <= 2 * settings.AWAY_AFTER_TIMEOUTS and match.status == Match.PLAYING
    seats = list(match.match_seats.all())
    assert all(ms.robot_playing for ms in seats) and all(ms.grace_deadline for ms in seats)
    assert match.turn_deadline is None  # the timer waits too
    moves = match.actions.count()
    assert match_robot_turns(match_id=match.pk) == 0 and match.actions.count() == moves
    clock.advance(seconds=settings.DISCONNECT_GRACE_SECONDS + 1)
    tick_run()
    match.refresh_from_db()
    assert match.status == Match.FINISHED and escrow(match.pk) == 0 and sum(match.result["scores"]) == 0
    assert match.actions.order_by("-seq").first().action == {"type": "forfeit"}
    assert match.actions.count() <= moves + 1
    # both sit out (not dealt again), and are stood up after 5 minutes
    assert set(Seat.objects.filter(table_id=table_id, player__isnull=False).values_list("sitting_out", flat=True)) \
        == {"away"}
    clock.advance(seconds=6)
    tick_run()
    assert not Match.objects.filter(table_link__table_id=table_id, status=Match.PLAYING).exists()
    clock.advance(minutes=6)
    tick_run()
    assert not Seat.objects.filter(table_id=table_id, player__isnull=False).exists()
    assert Table.objects.get(pk=table_id).matches.count() == 1
    assert ledger_check() is None


def test_a_dropped_player_is_folded_when_the_hand_needs_them(api, clock):
    table_id, match, (anna, bruno) = poker_hand(api, ["Anna_nl4", "Bruno_nl4"], opening="free")
    seat_of = {ms.player_id: ms.number for ms in match.match_seats.all()}
    state = get_engine("poker_italiana").from_json(match.state)
    mover = anna if seat_of[anna.pk] in state.to_act else bruno
    other = bruno if mover is anna else anna
    services.socket_connected(table_id=table_id, user=other, channel_name="test.nl4")
    services.socket_disconnected(table_id=table_id, user=other, channel_name="test.nl4")
    match.refresh_from_db()
    assert match.status == Match.PLAYING and match.actions.count() == 0  # not their turn yet
    answer = api(mover).post(f"/api/matches/{match.pk}/actions/", {"action": {"type": "check"},
                                                                   "version": match.version}, format="json")
    assert answer.status_code == 200, answer.content
    match.refresh_from_db()
    assert match.status == Match.FINISHED
    last = match.actions.order_by("-seq").first()
    assert (last.seat, last.action, last.by) == (seat_of[other.pk], {"type": "forfeit"}, "robot")
    assert wallet_get(player=mover)["credits"] == 5_010 and escrow(match.pk) == 0


# -- every human disconnected at once (a daphne restart) -------------------------------------------


async def open_socket(user, table_id):
    comm, ok, _ = await connect(user, table_id)
    assert ok
    first = await next_output(comm, 15)
    assert first is not None
    await drain(comm)
    return comm


@pytest.fixture
def cash_briscola(db):
    alice, bruno = make_user(nickname="Alice_nl5"), make_user(nickname="Bruno_nl5")
    fund(alice, cash=1_000)
    fund(bruno, cash=1_000)
    table, _ = briscola_table(official=True, stake=100, currency="cash", turn_seconds=30, players=[alice, bruno])
    return table, alice, bruno


def _match_of(table):
    return Match.objects.get(table_link__table=table, status=Match.PLAYING)


async def test_a_restart_never_decides_a_match(cash_briscola, clock):
    table, alice, bruno = cash_briscola
    comms = {u.pk: await open_socket(u, table.pk) for u in (alice, bruno)}
    match = await sync_to_async(_match_of)(table)
    for comm in comms.values():  # daphne is killed: its sockets die without a disconnect
        comm.future.cancel()
    await asyncio.sleep(0.2)
    clock.advance(seconds=settings.WS_LEASE_SECONDS + 1)  # their rows' lease runs out
    await sync_to_async(tick_run)()
    match = await sync_to_async(Match.objects.get)(pk=match.pk)
    seats = await sync_to_async(lambda: list(match.match_seats.order_by("number")))()
    assert all(ms.robot_playing and ms.grace_deadline for ms in seats)
    assert match.turn_deadline is None  # the turn timer is paused
    clock.advance(seconds=100)  # well past a turn, within the grace: nothing moves
    await sync_to_async(tick_run)()
    await sync_to_async(match_robot_turns)(match_id=match.pk)
    assert not await sync_to_async(MatchAction.objects.filter(match=match).exists)()
    # one player is back: play resumes with a whole turn; the robot plays the absent seat
    back = await open_socket(alice, table.pk)
    match = await sync_to_async(Match.objects.get)(pk=match.pk)
    state = get_engine(match.game).from_json(match.state)
    alice_seat = await sync_to_async(lambda: match.match_seats.get(player=alice).number)()
    if alice_seat in state.to_act:
        assert match.turn_deadline == clock.now + timedelta(seconds=30)
    else:
        assert await sync_to_async(MatchAction.objects.filter(match=match, by="robot").exists)()
    await back.disconnect()
    await asyncio.sleep(0.1)
    match = await sync_to_async(Match.objects.get)(pk=match.pk)
    assert match.turn_deadline is None  # gone again, both: it waits again
    moves = await sync_to_async(MatchAction.objects.filter(match=match).count)()
    # nobody comes back: the grace runs out, the abandonment rule (§8.6) ends it: the first
    # to go (Bruno, whose grace started first) loses, the bank takes its 10% (the cash regime)
    clock.advance(seconds=settings.DISCONNECT_GRACE_SECONDS + 1)
    await sync_to_async(tick_run)()
    match = await sync_to_async(Match.objects.get)(pk=match.pk)
    assert match.status == Match.FINISHED
    assert await sync_to_async(MatchAction.objects.filter(match=match).count)() == moves
    bruno_seat = 1 - alice_seat
    assert match.result["abandoned"] == [bruno_seat] and match.result["winner"] == alice_seat
    assert (await sync_to_async(wallet_get)(player=alice))["cash_cents"] == 1_000 + 80  # the cash regime: the bank keeps 10%
    assert await sync_to_async(escrow)(match.pk) == 0
    assert await sync_to_async(ledger_check)() is None


def test_a_lobby_ban_forfeits_the_hand_and_frees_the_seat(api):
    """A sanction that keeps a player out of the lobby forfeits their hand at once (seed 001)
    and their seat goes with the hand (not a sit-out: they may not come back)."""
    table_id, match, (anna, bruno) = poker_hand(api, ["Anna_nl6", "Bruno_nl6"])
    sanction_give(bruno, "lobby_ban", duration="permanent")
    match.refresh_from_db()
    assert match.status == Match.FINISHED and escrow(match.pk) == 0
    assert match.actions.get().action == {"type": "forfeit"}
    assert wallet_get(player=anna)["credits"] == 5_010 and wallet_get(player=bruno)["credits"] == 4_990
    assert not Seat.objects.filter(table_id=table_id, player=bruno).exists()
    assert Seat.objects.filter(table_id=table_id, player=anna, sitting_out="").exists()


def test_every_human_leaves_a_three_sided_match_it_ends_with_stakes_back(api):
    """Three or more sides (§8.6): a leaver's seat is played by the robot and cannot win;
    when the last human leaves, nobody is left to play it: it ends now, no side without an
    abandonment wins, and every stake comes back (never a match of robots alone)."""
    users = [make_user(nickname=f"Hea{n}_nl7") for n in range(4)]
    for user in users:
        fund(user, cash=1_000)
    table = services.table_create(user=users[0], data={"game": "hearts", "players": 4, "official": True,
                                                       "stake": 100, "currency": "cash"}, ip="10.0.7.1")
    for n, user in enumerate(users[1:], start=2):
        services.table_sit(user=user, table_id=table.pk, ip=f"10.0.7.{n}")
    match = Match.objects.get(table_link__table=table, status=Match.PLAYING)
    for user in users[:3]:
        services.table_leave(user=user, table_id=table.pk)
        match.refresh_from_db()
        assert match.status == Match.PLAYING  # one human still plays
    moves = match.actions.count()
    services.table_leave(user=users[3], table_id=table.pk)
    match.refresh_from_db()
    assert match.status == Match.FINISHED and match.result["winner"] is None
    assert sorted(match.result["abandoned"]) == [0, 1, 2, 3]
    assert match.actions.count() == moves and escrow(match.pk) == 0
    assert [wallet_get(player=u)["cash_cents"] for u in users] == [1_000] * 4
    assert not Seat.objects.filter(table=table, player__isnull=False).exists()
    assert match_robot_turns(match_id=match.pk) == 0
    assert ledger_check() is None
