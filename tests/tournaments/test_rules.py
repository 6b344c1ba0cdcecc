"""The pure tournament rules: every worked example of platform.md §5 and §6.7, exactly."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from apps.tournaments.rules import (
    KNOCKOUT,
    POINTS,
    Eliminated,
    PointsRecord,
    Remaining,
    bracket_size,
    buy_in_sources,
    cancellation_refunds,
    entry_display,
    entry_errors,
    knockout_draw,
    knockout_rounds,
    payouts_compute,
    points_pairing,
    points_ranking,
    points_rounds,
    pool_compute,
    random_pairs,
    refund_currencies,
    satellite_prizes,
    tied_group_prizes,
)


@pytest.mark.parametrize(("buy_in", "fee", "bad"), [
    (1000, 100, set()), (1000, 200, set()), (1000, 201, {"fee_cents"}), (1025, 0, {"buy_in_cents"}),
    (10_000, 0, set()), (10_050, 0, {"buy_in_cents"}), (0, 0, set()), (0, 10, {"fee_cents"}),
    (50, 10, set()), (50, 11, {"fee_cents"}), (-50, 0, {"buy_in_cents"}), ("10", 0, {"buy_in_cents"}),
    (1000, True, {"fee_cents"}),
])
def test_entry_rules(buy_in, fee, bad):
    assert set(entry_errors(buy_in_cents=buy_in, fee_cents=fee)) == bad


def test_entry_display():
    assert entry_display(buy_in_cents=1000, fee_cents=100) == "€10,00 (9,00+1,00)"
    assert entry_display(buy_in_cents=1500, fee_cents=300) == "€15,00 (12,00+3,00)"
    assert entry_display(buy_in_cents=1000, fee_cents=0) == "€10,00"


def test_seed_guarantee_example():
    assert pool_compute(entrants=100, buy_in_cents=1000, fee_cents=0, guaranteed_cents=200_000).overlay == 100_000
    p200 = pool_compute(entrants=200, buy_in_cents=1000, fee_cents=0, guaranteed_cents=200_000)
    assert (p200.prize_pool, p200.overlay) == (200_000, 0)
    p250 = pool_compute(entrants=250, buy_in_cents=1000, fee_cents=0, guaranteed_cents=200_000)
    assert (p250.prize_pool, p250.overlay) == (250_000, 0)


def test_payout_examples():
    assert payouts_compute(1003, [50, 30, 20], 10) == [501, 301, 201]
    assert payouts_compute(4005, [50, 30, 20], 10) == [2003, 1201, 801]
    assert payouts_compute(8000, [50, 30, 20], 8) == [4000, 2400, 1600]
    # fewer entrants than paid places: the missing places go to 1st
    assert payouts_compute(1000, [50, 30, 20], 2) == [700, 300]
    assert payouts_compute(1000, [50, 30, 20], 0) == [1000]


@given(st.integers(0, 10**7), st.lists(st.integers(1, 100), min_size=1, max_size=8), st.integers(0, 20))
@settings(max_examples=60, deadline=None)
def test_payouts_never_lose_a_cent(pool, raw, entrants):
    payouts = sorted(raw, reverse=True)
    shares = payouts_compute(pool, payouts, entrants)
    assert sum(shares) == pool
    assert shares == sorted(shares, reverse=True)


def test_satellite_examples():
    assert satellite_prizes(4000, 2500) == (1, 1500, [2500, 1500])
    assert satellite_prizes(8000, 2500) == (3, 500, [2500, 2500, 2500, 500])
    assert satellite_prizes(5000, 2500) == (2, 0, [2500, 2500])


def test_tied_group_prize():
    assert tied_group_prizes([4000, 2400, 1600], 3, ["a", "b"]) == {"a": 800, "b": 800}
    assert tied_group_prizes([4000, 2400, 1601], 3, ["a", "b"]) == {"a": 801, "b": 800}
    assert tied_group_prizes([4000, 2400, 1600], 5, ["a", "b", "c", "d"]) == dict.fromkeys("abcd", 0)


def test_bracket_31_entrants():
    assert bracket_size(31) == 32 and knockout_rounds(31) == 5
    byes, pairs = knockout_draw(list(range(31)), random.Random(7))
    assert len(byes) == 1 and len(pairs) == 15
    assert sorted(byes + [p for pair in pairs for p in pair]) == list(range(31))
    byes5, pairs5 = knockout_draw(list(range(5)), random.Random(1))
    assert (len(byes5), len(pairs5), bracket_size(5)) == (3, 1, 8)
    # the bye is random: different seeds give different bye holders
    holders = {knockout_draw(list(range(31)), random.Random(s))[0][0] for s in range(40)}
    assert len(holders) > 5


def test_random_pairs_each_round():
    pairs = random_pairs(list(range(8)), random.Random(3))
    assert len(pairs) == 4 and sorted(p for pair in pairs for p in pair) == list(range(8))
    draws = {tuple(random_pairs(list(range(8)), random.Random(s))) for s in range(20)}
    assert len(draws) > 1


def test_points_rounds_default():
    assert [points_rounds(n) for n in (16, 8, 5, 2)] == [4, 3, 3, 1]
    assert points_rounds(16, 6) == 6


def test_points_ranking_and_pairing():
    recs = {
        "a": PointsRecord(order=0, vp=2, opponents=["b"], game_diff=3),
        "b": PointsRecord(order=1, vp=0, opponents=["a"], game_diff=-3),
        "c": PointsRecord(order=2, vp=2, opponents=["d"], game_diff=5),
        "d": PointsRecord(order=3, vp=0, opponents=["c"], game_diff=-5),
    }
    ranking = points_ranking(recs)
    assert ranking == ["c", "a", "b", "d"]  # equal VP and Buchholz: game-point difference
    bye, pairs = points_pairing(ranking, recs, first_round=False, rng=random.Random(0))
    assert bye is None and pairs == [("c", "a"), ("b", "d")]
    # odd count: the lowest-ranked player without a bye gets it
    recs["e"] = PointsRecord(order=4, vp=2, byes=1)
    ranking = points_ranking(recs)
    bye, pairs = points_pairing(ranking, recs, first_round=False, rng=random.Random(0))
    assert bye == "d" and len(pairs) == 2
    # a rematch only when everyone left has been met
    two = {"x": PointsRecord(order=0, opponents=["y"]), "y": PointsRecord(order=1, opponents=["x"])}
    assert points_pairing(["x", "y"], two, first_round=False, rng=random.Random(0)) == (None, [("x", "y")])


def test_buy_in_sources():
    assert buy_in_sources(1000, bonus_balance=300, cash_balance=1000) == (300, 700)
    assert buy_in_sources(1000, bonus_balance=2000, cash_balance=0) == (1000, 0)
    assert buy_in_sources(1000, bonus_balance=300, cash_balance=600) is None


# -- §6.7 worked examples ----------------------------------------------------------------


def _amounts(table, players):
    return [table[p].cents for p in players]


def test_example_1_knockout_round_two():
    payouts = payouts_compute(8000, [50, 30, 20], 8)
    eliminated = [Eliminated(p, 5, 4) for p in ("L1", "L2", "L3", "L4")]
    remaining = [Remaining(p) for p in ("W1", "W2", "W3", "W4")]
    table = cancellation_refunds(8000, 1000, payouts, KNOCKOUT, eliminated, remaining)
    assert [table[p].rule for p in ("L1", "W1")] == ["a1", "b1"]
    assert _amounts(table, ["L1", "L2", "L3", "L4"]) == [0, 0, 0, 0]
    assert _amounts(table, ["W1", "W2", "W3", "W4"]) == [2000] * 4


def test_example_2_one_semi_final_finished():
    payouts = [4000, 2400, 1600]
    eliminated = [Eliminated(p, 5, 4) for p in ("L1", "L2", "L3", "L4")] + [Eliminated("S", 3, 2)]
    remaining = [Remaining(p) for p in ("F", "X", "Y")]
    table = cancellation_refunds(8000, 1000, payouts, KNOCKOUT, eliminated, remaining)
    assert table["S"].rule == "a2" and table["S"].cents == 800
    assert _amounts(table, ["F", "X", "Y"]) == [2400, 2400, 2400]
    assert sum(r.cents for r in table.values()) == 8000


def test_example_3_guaranteed_knockout():
    pool = pool_compute(entrants=3, buy_in_cents=1000, fee_cents=0, guaranteed_cents=5000)
    assert (pool.contributions, pool.prize_pool, pool.overlay) == (3000, 5000, 2000)
    payouts = payouts_compute(5000, [60, 40], 3)
    assert payouts == [3000, 2000]
    table = cancellation_refunds(5000, 1000, payouts, KNOCKOUT, [], [Remaining(p) for p in ("P1", "P2", "P3")])
    assert _amounts(table, ["P1", "P2", "P3"]) == [1667, 1667, 1666]
    table = cancellation_refunds(5000, 1000, payouts, KNOCKOUT, [Eliminated("P2", 3, 1)],
                                 [Remaining("P1"), Remaining("P3")])
    assert table["P2"].rule == "a1" and table["P2"].cents == 0
    assert _amounts(table, ["P1", "P3"]) == [2500, 2500]


EX4_VP = [4, 0, 6, 2, 2, 3, 2, 4, 3, 4, 4, 1, 1, 4, 2, 6]
EX4_B22 = [734, 0, 1100, 367, 367, 550, 367, 733, 550, 733, 733, 183, 183, 733, 367, 1100]
EX4_REFUND = [1434, 700, 1800, 1067, 1067, 1250, 1067, 1433, 1250, 1433, 1433, 883, 883, 1433, 1067, 1800]


def test_example_4_points_guaranteed():
    pool = pool_compute(entrants=16, buy_in_cents=700, fee_cents=0, guaranteed_cents=20_000)
    assert (pool.prize_pool, pool.overlay) == (20_000, 8_800)
    payouts = payouts_compute(20_000, [50, 30, 20], 16)
    players = [f"P{i}" for i in range(1, 17)]
    table = cancellation_refunds(20_000, 700, payouts, POINTS, [],
                                 [Remaining(p, vp) for p, vp in zip(players, EX4_VP, strict=True)])
    assert [table[p].parts["b2.1"] for p in players] == [700] * 16
    assert [table[p].parts["b2.2"] for p in players] == EX4_B22
    assert _amounts(table, players) == EX4_REFUND
    assert sum(EX4_REFUND) == 20_000
    # without the guarantee everyone gets exactly 700 back
    flat = cancellation_refunds(11_200, 700, payouts_compute(11_200, [50, 30, 20], 16), POINTS, [],
                                [Remaining(p, vp) for p, vp in zip(players, EX4_VP, strict=True)])
    assert _amounts(flat, players) == [700] * 16


def test_example_5_foreseen_prize():
    payouts = payouts_compute(10_000, [40, 30, 20, 10], 4)
    assert payouts == [4000, 3000, 2000, 1000]
    table = cancellation_refunds(10_000, 500, payouts, POINTS, [],
                                 [Remaining("P1", 2), Remaining("P2", 0), Remaining("P3", 1), Remaining("P4", 1)])
    assert _amounts(table, ["P1", "P2", "P3", "P4"]) == [4000, 1000, 2500, 2500]
    assert table["P1"].parts == {"b2.1": 1000, "b2.2": 3000}


def test_example_6_scale_down():
    pool = pool_compute(entrants=7, buy_in_cents=1500, fee_cents=300, guaranteed_cents=10_000)
    assert (pool.contributions, pool.prize_pool, pool.overlay, pool.fees) == (8400, 10_000, 1600, 2100)
    payouts = payouts_compute(10_000, [50, 30, 20], 7)
    players = [f"P{i}" for i in range(1, 8)]
    table = cancellation_refunds(10_000, 1500, payouts, POINTS, [], [Remaining(p, 0) for p in players])
    assert _amounts(table, players) == [1429] * 4 + [1428] * 3
    assert {table[p].rule for p in players} == {"b2_scaled"}
    assert all(table[p].parts["b2.2"] == 0 for p in players)


def test_example_7_freeroll():
    payouts = payouts_compute(5000, [60, 40], 8)
    table = cancellation_refunds(5000, 0, payouts, KNOCKOUT, [Eliminated(f"L{i}", 5, 4) for i in range(4)],
                                 [Remaining(f"W{i}") for i in range(4)])
    assert _amounts(table, [f"W{i}" for i in range(4)]) == [1250] * 4
    assert _amounts(table, [f"L{i}" for i in range(4)]) == [0] * 4


@pytest.mark.parametrize(("refund", "parts"), [
    (1000, (300, 700, 0)), (800, (300, 500, 0)), (200, (200, 0, 0)), (2400, (300, 700, 1400)),
])
def test_example_8_refund_currencies(refund, parts):
    assert refund_currencies(refund, paid_bonus=300, paid_cash=700) == parts


def test_example_9_satellites():
    assert satellite_prizes(4000, 2500) == (1, 1500, [2500, 1500])
    seats, leftover, prizes = satellite_prizes(8000, 2500)
    assert (seats, leftover) == (3, 500)
    table = cancellation_refunds(8000, 1000, prizes, KNOCKOUT, [Eliminated(f"L{i}", 5, 4) for i in range(4)],
                                 [Remaining(f"W{i}") for i in range(4)])
    assert _amounts(table, [f"W{i}" for i in range(4)]) == [2000] * 4
    assert _amounts(table, [f"L{i}" for i in range(4)]) == [0] * 4


def test_example_10_scale_down_odd_residual():
    table = cancellation_refunds(3001, 1000, [0, 0, 0, 0], POINTS, [], [Remaining(i) for i in range(4)])
    assert _amounts(table, [0, 1, 2, 3]) == [751, 750, 750, 750]


@given(st.integers(2, 40), st.integers(0, 200), st.data())
@settings(max_examples=60, deadline=None)
def test_refunds_sum_to_pool_minus_a2_floors(n, unit, data):
    pool = n * unit * 50
    payouts = payouts_compute(pool, [50, 30, 20], n)
    fmt = data.draw(st.sampled_from([KNOCKOUT, POINTS]))
    out = data.draw(st.integers(0, n - 1))
    eliminated = [Eliminated(("e", i), n - out + 1, out) for i in range(out)]
    remaining = [Remaining(("r", i), data.draw(st.integers(0, 6))) for i in range(n - out)]
    table = cancellation_refunds(pool, unit * 50, payouts, fmt, eliminated, remaining)
    total = sum(r.cents for r in table.values())
    assert pool - out < total <= pool or total == pool
    assert all(r.cents >= 0 for r in table.values())
