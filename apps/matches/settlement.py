"""How a table match's money is divided (platform.md §8.4-§8.6). Pure integer functions.

Each returns what every seat gets back out of the match escrow and what the bank keeps;
the wallet services move exactly that. Nothing here touches the database.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from apps.wallet.splits import split_cents

BANK_PERCENT = 20


@dataclass(frozen=True)
class Settlement:
    """Amounts paid out of the match escrow: ``payouts[seat]`` to players, ``bank`` to the house.

    ``kind`` names the rule that divided it (pot, draw, fees, units, nets, refund), for the
    figures the match keeps (``record``)."""

    payouts: dict[int, int]
    bank: int = 0
    notes: dict[str, object] = field(default_factory=dict)
    kind: str = "pot"

    def total(self) -> int:
        return sum(self.payouts.values()) + self.bank

    def record(self, *, paid: dict[int, int], nicknames: dict[int, str], currency: str) -> dict[str, object]:
        """What the match keeps of its settlement, so that pages show what the wallet moved
        instead of computing it again: the pot (every stake and fee paid in), the bank, and per
        human seat what it paid in and received. ``payouts`` are the seats that received more
        than they paid (the ledger's ``winnings``), ``refunds`` those that got part or all of
        their stake back (``stake_return``)."""
        seats = [{"seat": s, "nickname": nicknames.get(s, ""), "paid": paid.get(s, 0),
                  "received": self.payouts.get(s, 0)} for s in sorted(set(paid) | set(self.payouts))]
        return {
            "kind": self.kind, "currency": currency, "pot": sum(paid.values()), "bank": self.bank,
            "bank_percent": self.notes.get("bank_percent", 0),
            "seats": seats,
            "payouts": [r for r in seats if r["received"] > r["paid"]],
            "refunds": [r for r in seats if 0 < r["received"] <= r["paid"]],
        }


def bank_of(pot: int, percent: int = BANK_PERCENT) -> int:
    return pot * percent // 100


def pot_settlement(stakes: dict[int, int], winning_seats: Iterable[int] | None,
                   bank_percent: int = BANK_PERCENT) -> Settlement:
    """Winner takes the pot less the bank's share (``bank_percent``: the game's, capped at cash
    tables by the regime, regulation.md §8), split equally in seat order; a draw
    (``winning_seats`` None) gives every stake back with no bank.

    ``stakes`` holds the human seats' stakes (robots never stake). If no staked seat is on
    the winning side (possible only when nobody staked), every stake comes back.
    """
    pot = sum(stakes.values())
    if winning_seats is None:
        return Settlement(payouts=dict(stakes), kind="draw")
    winners = sorted(s for s in set(winning_seats) if s in stakes)
    if not winners or pot == 0:
        return Settlement(payouts=dict(stakes), kind="draw")
    bank = bank_of(pot, bank_percent)
    shares = split_cents(pot - bank, [1] * len(winners))
    payouts = {seat: 0 for seat in stakes}
    for seat, share in zip(winners, shares, strict=True):
        payouts[seat] = share
    return Settlement(payouts=payouts, bank=bank, notes={"bank_percent": bank_percent})


def refund_settlement(stakes: dict[int, int], forfeiting: Iterable[int] = ()) -> Settlement:
    """A friendly cancellation: every stake comes back and no bank is taken, except that a
    player penalised for abandoning loses their stake to the other humans (equal shares,
    seat order; platform.md §8.4)."""
    forfeited = sorted(s for s in set(forfeiting) if s in stakes)
    payouts = {seat: (0 if seat in forfeited else amount) for seat, amount in stakes.items()}
    others = sorted(s for s in stakes if s not in forfeited)
    lost = sum(stakes[s] for s in forfeited)
    if others and lost:
        for seat, share in zip(others, split_cents(lost, [1] * len(others)), strict=True):
            payouts[seat] += share
    elif lost:
        return Settlement(payouts=payouts, bank=lost, notes={"forfeit_to_bank": lost}, kind="refund")
    return Settlement(payouts=payouts, kind="refund")


def units_settlement(escrows: dict[int, int], balances: dict[int, int], unit: int,
                     abandoned: Iterable[int] = ()) -> Settlement:
    """Bestia: losers pay ``-balance × unit`` from their escrow (never more than it holds),
    winners receive ``balance × unit``; if the losers' escrows do not cover it, the winners
    share what there is in proportion to their winnings (seed 001's fair-play rule).

    An abandoning player cannot win: they pay their losses, receive nothing, and whatever
    their escrow still holds goes equally to the other humans (decision, docs/decisions.md).
    """
    gone = set(abandoned)
    owed = {s: min(-balances.get(s, 0) * unit, escrows[s]) for s in escrows if balances.get(s, 0) < 0}
    pool = sum(owed.values())
    winners = sorted(s for s in escrows if balances.get(s, 0) > 0 and s not in gone)
    entitled = [balances[s] * unit for s in winners]
    if pool >= sum(entitled):
        wins = dict(zip(winners, entitled, strict=True))
        left_over = pool - sum(entitled)
    else:
        wins = dict(zip(winners, split_cents(pool, [balances[s] for s in winners]), strict=True)) if winners else {}
        left_over = pool - sum(wins.values())
    payouts = {}
    forfeited = 0
    for seat, escrow in escrows.items():
        back = escrow - owed.get(seat, 0) + wins.get(seat, 0)
        if seat in gone:
            forfeited += escrow - owed.get(seat, 0)
            back = 0
        payouts[seat] = back
    forfeited += left_over  # an abandoner's would-be winnings are not paid to anyone else's loss
    others = sorted(s for s in escrows if s not in gone)
    if forfeited and others:
        for seat, share in zip(others, split_cents(forfeited, [1] * len(others)), strict=True):
            payouts[seat] += share
        forfeited = 0
    return Settlement(payouts=payouts, bank=forfeited, kind="units")


def net_settlement(escrows: dict[int, int], nets: dict[int, int]) -> Settlement:
    """Poker all'italiana: move exactly the engine's zero-sum net per seat, no bank."""
    if sum(nets.get(s, 0) for s in escrows) != 0:
        raise ValueError("poker nets must sum to zero")
    payouts = {s: escrows[s] + nets.get(s, 0) for s in escrows}
    if any(v < 0 for v in payouts.values()):
        raise ValueError("a seat would pay more than it covered")
    return Settlement(payouts=payouts, kind="nets")


def fees_settlement(fees_paid: dict[int, int], winning_seats: Iterable[int] | None) -> Settlement:
    """Scala 40: the pot is every entry and re-entry fee paid, and the winner takes all of it,
    no bank (platform.md §8.5, seed 004: "al vincitore andrà la somma ... più i vari rientri
    pagati"). A draw, or no staked winner, gives every fee back."""
    pot = sum(fees_paid.values())
    if winning_seats is None:
        return Settlement(payouts=dict(fees_paid), kind="draw")
    winners = sorted(s for s in set(winning_seats) if s in fees_paid)
    if not winners or pot == 0:
        return Settlement(payouts=dict(fees_paid), kind="draw")
    payouts = {seat: 0 for seat in fees_paid}
    for seat, share in zip(winners, split_cents(pot, [1] * len(winners)), strict=True):
        payouts[seat] = share
    return Settlement(payouts=payouts, kind="fees")
