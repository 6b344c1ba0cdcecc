"""Stake settlement as pure integer functions (platform.md §8.4-§8.6), no database."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from apps.matches.settlement import (
    fees_settlement,
    net_settlement,
    pot_settlement,
    refund_settlement,
    units_settlement,
)


def test_two_players_one_euro_each():
    s = pot_settlement({0: 100, 1: 100}, [1])
    assert s.bank == 40 and s.payouts == {0: 0, 1: 160} and s.total() == 200


def test_partners_split_in_seat_order():
    s = pot_settlement({0: 101, 1: 101, 2: 101, 3: 101}, [1, 3])
    assert s.bank == 80 and s.payouts == {0: 0, 1: 162, 2: 0, 3: 162}
    odd = pot_settlement({0: 50, 1: 50, 2: 51, 3: 50}, [0, 2])
    assert odd.bank == 40 and odd.payouts[0] == 81 and odd.payouts[2] == 80 and odd.total() == 201


def test_draw_returns_stakes_without_bank():
    assert pot_settlement({0: 100, 1: 100}, None).payouts == {0: 100, 1: 100}
    assert pot_settlement({0: 100, 1: 100}, None).bank == 0


def test_credits_table_bank_takes_credits_too():
    s = pot_settlement({0: 25, 1: 25, 2: 25}, [2])
    assert s.bank == 15 and s.payouts == {0: 0, 1: 0, 2: 60}


def test_friendly_cancellation_and_abandoner_exception():
    assert refund_settlement({0: 100, 1: 100}).payouts == {0: 100, 1: 100}
    s = refund_settlement({0: 100, 1: 100, 2: 100}, forfeiting=[1])
    assert s.payouts == {0: 150, 1: 0, 2: 150} and s.bank == 0
    s = refund_settlement({0: 100, 1: 101, 2: 100, 3: 100}, forfeiting=[1])
    assert s.payouts == {0: 134, 1: 0, 2: 134, 3: 133}


def test_bestia_units_covered():
    # stake 10, escrow 300 each; balances +6, -2, -4
    s = units_settlement({0: 300, 1: 300, 2: 300}, {0: 6, 1: -2, 2: -4}, 10)
    assert s.payouts == {0: 360, 1: 280, 2: 260} and s.bank == 0


def test_bestia_losses_beyond_escrow_are_capped_and_shared():
    # seat 2 owes 40 units × 10 = 400 but covered only 300: winners share 300 + 20 by winnings
    s = units_settlement({0: 300, 1: 300, 2: 300}, {0: 30, 1: 12, 2: -42}, 10)
    pool = 300
    assert s.payouts[2] == 0
    assert s.payouts[0] - 300 + s.payouts[1] - 300 == pool
    assert s.payouts[0] - 300 == 214 and s.payouts[1] - 300 == 86  # 214.29 and 85.71: the cent to the larger rest
    assert s.total() == 900


def test_bestia_abandoner_cannot_win():
    s = units_settlement({0: 300, 1: 300, 2: 300}, {0: 5, 1: -5, 2: 0}, 10, abandoned=[0])
    assert s.payouts[0] == 0 and s.total() == 900
    assert s.payouts[1] + s.payouts[2] == 900


def test_scala40_the_winner_takes_every_entry_and_reentry_no_bank():
    # entry 2 units, re-entry 3 units, stake 7 cents: seat 1 re-entered twice
    s = fees_settlement({0: 14, 1: 14 + 2 * 21, 2: 14}, [2])
    assert s.bank == 0 and s.payouts == {0: 0, 1: 0, 2: 84} and s.kind == "fees"
    assert fees_settlement({0: 14, 1: 35}, None).payouts == {0: 14, 1: 35}  # a draw: fees back


def test_the_record_kept_on_the_match_is_what_is_paid():
    s = pot_settlement({0: 100, 1: 100, 3: 100}, [3])
    record = s.record(paid={0: 100, 1: 100, 3: 100}, nicknames={0: "Anna", 1: "Bea", 3: "Ciro"}, currency="cash")
    assert record["pot"] == 300 and record["bank"] == 60 and record["kind"] == "pot"
    assert [(r["nickname"], r["paid"], r["received"]) for r in record["seats"]] == [
        ("Anna", 100, 0), ("Bea", 100, 0), ("Ciro", 100, 240)]
    assert [r["nickname"] for r in record["payouts"]] == ["Ciro"] and record["refunds"] == []
    net = net_settlement({0: 1000, 1: 1000}, {0: 40, 1: -40}).record(paid={0: 1000, 1: 1000}, nicknames={},
                                                                      currency="credits")
    assert [r["received"] for r in net["payouts"]] == [1040] and [r["received"] for r in net["refunds"]] == [960]


def test_poker_nets():
    s = net_settlement({0: 100, 1: 100, 2: 100}, {0: 50, 1: -30, 2: -20})
    assert s.payouts == {0: 150, 1: 70, 2: 80}


@given(st.dictionaries(st.integers(0, 5), st.integers(0, 10_000), min_size=1),
       st.one_of(st.none(), st.lists(st.integers(0, 5), max_size=3)))
def test_pot_never_loses_a_cent(stakes, winners):
    s = pot_settlement(stakes, winners)
    assert s.total() == sum(stakes.values()) and all(v >= 0 for v in s.payouts.values())


@given(st.lists(st.integers(-40, 40), min_size=3, max_size=6), st.integers(1, 500))
def test_units_conserve_money(raw, unit):
    balances = dict(enumerate(raw))
    balances[0] -= sum(raw)  # zero-sum, as the engine guarantees
    escrows = {s: 30 * unit for s in balances}
    s = units_settlement(escrows, balances, unit)
    assert s.total() == sum(escrows.values())
    assert all(v >= 0 for v in s.payouts.values())
    for seat, bal in balances.items():
        if bal < 0:
            assert s.payouts[seat] >= 0 and s.payouts[seat] == escrows[seat] - min(-bal * unit, escrows[seat])
