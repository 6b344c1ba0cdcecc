"""A Poker all'italiana credits table (platform.md §8.5, seed 001): every hand is a match
among the players seated and not sitting out when it is dealt; stacks (the players'
credits) carried from hand to hand; credits moved exactly as the engine's result says,
no bank; sitting out; the fair-play return of an uncovered bet to a player who leaves."""

from __future__ import annotations

import random

import pytest

from apps.games.engines import get_engine
from apps.matches.models import Match
from apps.tables import services
from apps.tables.models import Seat, Table
from apps.wallet.selectors import ledger_check, wallet_get

from ..conftest import make_user
from .conftest import fund

pytestmark = pytest.mark.django_db(transaction=True)
ANTE = 10


def credits(user) -> int:
    return wallet_get(player=user)["credits"]


def bank_credits() -> int:
    from apps.wallet.models import Account

    account = Account.objects.filter(code="house:bank", currency="credits").first()
    return account.balance if account is not None else 0


def credits_in_escrow(match_id: int) -> int:
    """What the hand's escrow still holds (zero once it is settled or cancelled)."""
    from apps.wallet.models import Account

    return sum(Account.objects.filter(code=f"escrow:match:{match_id}").values_list("balance", flat=True))


def rich(*users, amount: int = 5_000) -> None:
    """Enough credits that no hand of the test leaves anyone short of the ante (the deals are random)."""
    for user in users:
        fund(user, credits=amount - credits(user))


def poker_table(api, users, **body) -> dict:
    answer = api(users[0]).post("/api/tables/", {"game": "poker_italiana", "official": True, "stake": ANTE,
                                                 "players": 2, **body}, format="json")
    assert answer.status_code == 201, answer.content
    table = answer.json()
    for user in users[1:]:
        sat = api(user).post(f"/api/tables/{table['id']}/sit/", format="json")
        assert sat.status_code == 200, sat.content
    return table


def calm(action: dict, state, seat: int) -> dict:
    """The robot's move without raises (a call instead): two robots holding strong hands
    would otherwise raise each other all-in, and the test's stacks must stay deep."""
    if action["type"] == "raise":
        return {"type": "call"}
    if action["type"] == "bet" and action["amount"] > 20:
        legal = state.legal_actions(seat)
        return next(a for a in legal if a["type"] == "bet")
    return action


def play_hand(api, match_id: int, users_by_player_id: dict[int, object], choose=None) -> Match:
    """Every move of the hand over REST, as each seat's player, until it is over."""
    rng = random.Random(11)
    engine = get_engine("poker_italiana")
    seats = {ms.number: ms.player_id for ms in Match.objects.get(pk=match_id).match_seats.all()}
    for _ in range(1000):  # robots with deep stacks may raise each other a long time
        match = Match.objects.get(pk=match_id)
        if match.status != Match.PLAYING:
            return match
        state = engine.from_json(match.state)
        seat = state.to_act[0]
        action = choose(state, seat) if choose else calm(engine.bot_action(state, seat, rng), state, seat)
        answer = api(users_by_player_id[seats[seat]]).post(
            f"/api/matches/{match_id}/actions/", {"action": action, "version": match.version}, format="json")
        assert answer.status_code == 200, answer.content
    raise AssertionError("the hand did not end")


def next_hand(clock, table_id: int) -> Match | None:
    """5 seconds later the tick deals the next hand (no confirmation)."""
    clock.advance(seconds=6)
    services.tables_due_work()
    return Table.objects.get(pk=table_id).matches.filter(status=Match.PLAYING).first()



def test_hands_move_exactly_the_engines_credits_and_carry_the_stacks(api, clock):
    anna, bruno = make_user(nickname="Anna_pk1"), make_user(nickname="Bruno_pk1")
    rich(anna, bruno)
    start = {anna.pk: credits(anna), bruno.pk: credits(bruno)}
    bank = bank_credits()
    table = poker_table(api, [anna, bruno])
    users = {anna.pk: anna, bruno.pk: bruno}
    for hand in range(3):
        match = Table.objects.get(pk=table["id"]).matches.get(status=Match.PLAYING)
        seats = {ms.number: ms.player_id for ms in match.match_seats.all()}
        # the stacks are the players' credits when the hand is dealt, held in its escrow
        assert match.options["stacks"] == [start[seats[0]], start[seats[1]]]
        assert match.options["ante"] == ANTE and match.options["hands"] == 1
        assert credits(anna) == credits(bruno) == 0
        match = play_hand(api, match.pk, users)
        nets = match.result["scores"]
        assert sum(nets) == 0
        for seat, player_id in seats.items():
            start[player_id] += nets[seat]
        assert credits(anna) == start[anna.pk] and credits(bruno) == start[bruno.pk]
        assert bank_credits() == bank  # no bank at poker
        assert ledger_check() is None
        # no confirmation, no "play again": the table deals again 5 seconds later
        assert not Seat.objects.filter(table_id=table["id"], player__isnull=True).exists()
        following = next_hand(clock, table["id"])
        assert following is not None, (f"hand {hand + 2} was not dealt", clock.now, Table.objects.filter(
            pk=table["id"]).values("next_match_at", "hand_seats").first(), list(Seat.objects.filter(
                table_id=table["id"]).values("sitting_out", "player_id")), credits(anna), credits(bruno),
            list(Match.objects.filter(table_link__table_id=table["id"]).values("status", "table_link__ended")))
    dealers = [m.result["hands"][0]["dealer"] for m in Match.objects.filter(table_link__table_id=table["id"],
                                                                             status=Match.FINISHED).order_by("id")]
    options = [m.options["dealer"] for m in Match.objects.filter(table_link__table_id=table["id"]).order_by("id")]
    # the deal passes to the next seat after the last dealer (a void deal has passed it already)
    assert options[1:] == [1 - d for d in dealers]


def test_sitting_needs_the_ante(api):
    anna, poor = make_user(nickname="Anna_pk2"), make_user(nickname="Poor_pk2")
    fund(poor, credits=5 - credits(poor))
    table = api(anna).post("/api/tables/", {"game": "poker_italiana", "official": True, "stake": ANTE},
                           format="json").json()
    refused = api(poor).post(f"/api/tables/{table['id']}/sit/", format="json")
    assert refused.status_code == 402 and refused.json()["code"] == "insufficient_funds"


def test_sitting_out_is_never_dealt_nor_charged(api, clock):
    anna, bruno, carla = (make_user(nickname=n) for n in ("Anna_pk3", "Bruno_pk3", "Carla_pk3"))
    rich(anna, bruno, carla)
    table = poker_table(api, [anna, bruno], players=3)
    carla_before = credits(carla)
    sat = api(carla).post(f"/api/tables/{table['id']}/sit/", format="json")  # during a hand: dealt from the next
    assert sat.status_code == 200
    out = api(carla).post(f"/api/tables/{table['id']}/sit-out/", {"out": True}, format="json")
    assert out.status_code == 200 and out.json() == {"out": True, "sitting_out": ["Carla_pk3"]}
    detail = api(carla).get(f"/api/tables/{table['id']}/").json()
    assert [s["sitting_out"] for s in detail["seats"]] == [False, False, True]
    match = Table.objects.get(pk=table["id"]).matches.get(status=Match.PLAYING)
    play_hand(api, match.pk, {anna.pk: anna, bruno.pk: bruno})
    second = next_hand(clock, table["id"])
    assert {ms.player_id for ms in second.match_seats.all()} == {anna.pk, bruno.pk}
    assert credits(carla) == carla_before
    bad = api(carla).post(f"/api/tables/{table['id']}/sit-out/", {"out": "yes"}, format="json")
    assert bad.status_code == 400 and bad.json()["code"] == "validation_error"
    back = api(carla).post(f"/api/tables/{table['id']}/sit-out/", {"out": False}, format="json")
    assert back.json()["sitting_out"] == []
    play_hand(api, second.pk, {anna.pk: anna, bruno.pk: bruno})
    third = next_hand(clock, table["id"])
    assert third.players == 3 and {ms.player_id for ms in third.match_seats.all()} == {anna.pk, bruno.pk, carla.pk}
    # a player sitting out for 5 minutes is stood up
    api(carla).post(f"/api/tables/{table['id']}/sit-out/", {"out": True}, format="json")
    clock.advance(minutes=6)
    services.tables_due_work()
    assert not Seat.objects.filter(table_id=table["id"], player=carla).exists()


def test_a_hand_needs_two_players_not_sitting_out(api, clock):
    anna, bruno = make_user(nickname="Anna_pk4"), make_user(nickname="Bruno_pk4")
    rich(anna, bruno)
    table = poker_table(api, [anna, bruno])
    match = Table.objects.get(pk=table["id"]).matches.get(status=Match.PLAYING)
    api(bruno).post(f"/api/tables/{table['id']}/sit-out/", {"out": True}, format="json")
    play_hand(api, match.pk, {anna.pk: anna, bruno.pk: bruno})
    assert next_hand(clock, table["id"]) is None
    before = credits(anna), credits(bruno)
    api(bruno).post(f"/api/tables/{table['id']}/sit-out/", {"out": False}, format="json")
    clock.advance(seconds=6)
    services.tables_due_work()
    dealt = Table.objects.get(pk=table["id"]).matches.get(status=Match.PLAYING)
    assert dealt.options["stacks"] == [before[0], before[1]] or dealt.options["stacks"] == [before[1], before[0]]


def test_a_closed_socket_sits_the_player_out_and_a_new_one_brings_them_back(api):
    anna, bruno = make_user(nickname="Anna_pk5"), make_user(nickname="Bruno_pk5")
    table = poker_table(api, [anna, bruno])
    services.socket_connected(table_id=table["id"], user=bruno, channel_name="test.bruno.1")
    services.socket_disconnected(table_id=table["id"], user=bruno, channel_name="test.bruno.1")
    assert Seat.objects.get(table_id=table["id"], player=bruno).sitting_out == "away"
    services.socket_connected(table_id=table["id"], user=bruno, channel_name="test.bruno.2")
    assert Seat.objects.get(table_id=table["id"], player=bruno).sitting_out == ""


def test_fair_play_a_player_who_leaves_gets_the_uncovered_bet_back(api, clock):
    """Seed 001: A and B ante 10; A bets 500; B raises to 10,000 and leaves the table: the
    hand is his forfeit at once, A receives 1,020 and B gets 9,500 back; his seat is freed."""
    anna, bruno = make_user(nickname="Anna_pk6"), make_user(nickname="Bruno_pk6")
    for user in (anna, bruno):
        fund(user, credits=20_000 - credits(user))
    table = poker_table(api, [anna, bruno], game_options={"max_bet": 0, "opening": "free"})
    match = Table.objects.get(pk=table["id"]).matches.get(status=Match.PLAYING)
    engine = get_engine("poker_italiana")
    seat_of = {ms.player_id: ms.number for ms in match.match_seats.all()}
    users = {anna.pk: anna, bruno.pk: bruno}
    state = engine.from_json(match.state)
    first = state.to_act[0]
    opener, raiser = (anna, bruno) if first == seat_of[anna.pk] else (bruno, anna)

    def move(user, action):
        m = Match.objects.get(pk=match.pk)
        answer = api(user).post(f"/api/matches/{match.pk}/actions/", {"action": action, "version": m.version},
                                format="json")
        assert answer.status_code == 200, answer.content

    move(opener, {"type": "bet", "amount": 500})
    move(raiser, {"type": "raise", "amount": 9500})
    left = api(raiser).post(f"/api/tables/{table['id']}/leave/", format="json")
    assert left.status_code == 200
    # leaving forfeits the hand at once (platform.md §8.5, 2026-12-04): folded out of turn
    match.refresh_from_db()
    assert match.status == Match.FINISHED
    last = match.actions.order_by("-seq").first()
    assert last.action == {"type": "forfeit"} and last.seat == seat_of[raiser.pk] and last.by == "player"
    # A receives 1,020 (his 510 back and B's 510), B gets the uncovered 9,500 back
    assert credits(opener) == 20_000 - 510 + 1_020 and credits(raiser) == 20_000 - 10_010 + 9_500
    assert not Seat.objects.filter(table_id=table["id"], player=raiser).exists()  # freed at the hand's end
    refused = api(raiser).post(f"/api/matches/{match.pk}/actions/", {"action": {"type": "check"}, "version": 0},
                               format="json")
    assert refused.status_code in (403, 409)
    assert ledger_check() is None
    assert credits_in_escrow(match.pk) == 0
    del users


def test_fair_play_all_in_caller_receives_at_most_what_he_covered(api, clock):
    """Seed 001's second case: A has 510 credits, B 20,010; B bets 10,000, A calls all-in
    for 500: whoever wins, A receives at most 1,020 and B gets his uncovered 9,500 back."""
    anna, bruno = make_user(nickname="Anna_pk7"), make_user(nickname="Bruno_pk7")
    fund(anna, credits=510 - credits(anna))
    fund(bruno, credits=20_010 - credits(bruno))
    table = poker_table(api, [anna, bruno], game_options={"max_bet": 0, "opening": "free"})
    match = Table.objects.get(pk=table["id"]).matches.get(status=Match.PLAYING)
    seat_of = {ms.player_id: ms.number for ms in match.match_seats.all()}
    users = {anna.pk: anna, bruno.pk: bruno}

    def choose(state, seat):
        legal = state.legal_actions(seat)
        if seat == seat_of[bruno.pk] and {"type": "bet", "amount": 10_000} in legal:
            return {"type": "bet", "amount": 10_000}
        if seat == seat_of[anna.pk]:
            if {"type": "call"} in legal:
                return {"type": "call"}
            if {"type": "check"} in legal:
                return {"type": "check"}
            return next(a for a in legal if a["type"] == "draw" and not a["cards"])
        if {"type": "check"} in legal:
            return {"type": "check"}
        return next(a for a in legal if a["type"] in ("draw", "call"))

    match = play_hand(api, match.pk, users, choose=choose)
    assert match.status == Match.FINISHED
    a, b = credits(anna), credits(bruno)
    assert a + b == 510 + 20_010
    assert (a, b) in ((1020, 19_500), (0, 20_520))
    assert ledger_check() is None
