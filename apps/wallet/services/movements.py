"""The domain's other moves: staff adjustments, table stakes and their settlement (§8.5), the conto's end (regulation.md §1.8), the cashier's deposits and withdrawals (§5.5)."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from apps.adm.services import adm_enqueue
from apps.audit.services import audit_record
from apps.common.errors import Conflict, InsufficientFunds, ValidationFailed

from ..models import (
    BONUS,
    CASH,
    CURRENCIES,
    Account,
    Adjustment,
    Deposit,
    Transaction,
    Withdrawal,
)
from ..selectors import freeze_state
from .accounts import ADJUSTMENT_COUNTER, _balance_now, match_escrow_code, player_account_require
from .ledger import Leg, ledger_post, player_credit_legs, wallet_credit, wallet_debit, wallet_transfer
from .sql import _atomic

#: a finance adjustment's ceiling either way (platform.md §12): €1,000,000 in cents, or as many
#: bonus cents or credits
ADJUSTMENT_MAX = 100_000_000


def wallet_adjust(*, actor: User, player: User, currency: object, amount: object, reason: object,
                  ip: str | None = None) -> tuple[Adjustment, Transaction]:
    """A finance adjustment (platform.md §3.6): validated, audited, never below zero."""
    fields: dict[str, list[str]] = {}
    if currency not in CURRENCIES:
        fields["currency"] = [_("One of cash, bonus, credits.")]
    if type(amount) is not int or amount == 0:
        fields["amount"] = [_("A non-zero integer (negative to debit).")]
    elif abs(amount) > ADJUSTMENT_MAX:
        fields["amount"] = [_("At most %(n)s either way.") % {"n": ADJUSTMENT_MAX}]
    if not isinstance(reason, str) or not reason.strip() or len(reason) > 200:
        fields["reason"] = [_("A non-empty reason of at most 200 characters.")]
    if fields:
        raise ValidationFailed(_("The adjustment is not valid."), fields=fields)
    player_account_require(player)
    assert isinstance(currency, str) and isinstance(amount, int) and isinstance(reason, str)
    counter = ADJUSTMENT_COUNTER[currency]
    with transaction.atomic():
        if amount < 0 and currency in (CASH, BONUS) and freeze_state(player_id=player.pk)[0]:
            raise Conflict(_("This account is frozen by a sanction: no negative adjustment is allowed."),
                           code="account_frozen")
        adjustment = Adjustment.objects.create(player=player, currency=currency, amount=amount, reason=reason,
                                               created_by=actor, created=timezone.now())
        reference = f"adjustment:{adjustment.pk}"
        try:  # a refused move writes nothing; the adjustment row goes with this block's rollback
            if amount > 0:
                txn = wallet_credit(player=player, currency=currency, amount=amount, kind="adjustment",
                                    reference=reference, source=counter, created_by=actor, memo=reason)
            else:
                txn = wallet_debit(player=player, currency=currency, amount=-amount, kind="adjustment",
                                   reference=reference, destination=counter, created_by=actor, memo=reason)
        except InsufficientFunds:
            raise Conflict(_("This debit would make the %(currency)s balance negative.") % {"currency": currency},
                           code="negative_balance") from None
        audit_record(actor=actor, action="ledger_adjustment", target_type="player", target_id=player.pk,
                     reason=reason, before=None,
                     after={"currency": currency, "amount": amount, "transaction": txn.pk}, ip=ip)
        if currency in (CASH, BONUS):  # regulation.md §7.1: ADM is told of every money movement
            adm_enqueue(type="movement", reference=reference, player_id=player.pk, transaction_ids=[txn.pk],
                        payload={"direction": "in" if amount > 0 else "out", "amount_cents": abs(amount),
                                 "currency": currency, "kind": "adjustment"})
    return adjustment, txn


def stakes_collect(*, match_id: int, currency: str, stakes: dict[int, int]) -> list[int]:
    """Move each player's stake (``{player_id: amount}``) into the match escrow.

    Returns the ids of players who could not cover it (their stake is not taken; the
    caller stands them up). Each stake is its own idempotent transaction; a refused one
    writes nothing (``ledger_post`` checks before it writes), so no savepoint is needed.
    """
    short: list[int] = []
    for player_id in sorted(stakes):
        amount = stakes[player_id]
        if amount <= 0:
            continue
        try:
            wallet_debit(player=player_id, currency=currency, amount=amount, kind="stake",
                         reference=f"match:{match_id}", destination=match_escrow_code(match_id),
                         idempotency_key=f"stake:match:{match_id}:player:{player_id}")
        except (InsufficientFunds, Conflict):
            short.append(player_id)
    return short


def escrow_settle(*, match_id: int, currency: str, payouts: dict[int, int], paid: dict[int, int], bank: int,
                  kind: str = "match_settlement") -> Transaction | None:
    """Empty the match escrow in one transaction: ``payouts`` (``{player_id: amount}``) to the
    players, ``bank`` to ``house:bank``; then close the escrow. Runs once per match (key).

    An entry is ``winnings`` when a player gets back more than ``paid``, else ``stake_return``.
    """
    code = match_escrow_code(match_id)
    legs: list[Leg] = []
    total = 0
    for player_id in sorted(payouts):
        amount = payouts[player_id]
        if amount > 0:
            entry_kind = "winnings" if amount > paid.get(player_id, 0) else "stake_return"
            legs.extend(player_credit_legs(player_id, currency, amount, kind=entry_kind))
            total += amount
    if bank:
        legs.append(Leg("house:bank", currency, bank, kind="bank"))
        total += bank
    txn = None
    with _atomic():
        if total:
            legs.append(Leg(code, currency, -total))
            txn = ledger_post(kind=kind, reference=f"match:{match_id}", legs=legs,
                              idempotency_key=f"settle:match:{match_id}", allow_frozen=True)
        Account.objects.filter(code=code).update(closed=True)
    return txn


def escrow_close(*, code: str) -> None:
    """Mark an escrow closed: its event is over and check_ledger expects it at zero."""
    Account.objects.filter(code=code).update(closed=True)


def bonus_forfeit(*, player_id: int, reference: str) -> Transaction | None:
    """The whole bonus balance back to ``house:promotions`` (kind ``bonus_forfeit``): a conto
    closed or dormant. Nothing when there is none; once per reference."""
    with _atomic():
        amount = _balance_now(player_id, BONUS)
        if amount <= 0:
            return None
        return wallet_debit(player=player_id, currency=BONUS, amount=amount, kind="bonus_forfeit",
                            reference=reference, destination="house:promotions",
                            idempotency_key=f"bonus_forfeit:{reference}")


def dormant_transfer(*, player_id: int) -> Transaction | None:
    """A dormant conto's cash to ``house:erario`` (kind ``dormant_transfer``, key
    ``dormant:player:{id}``): finance pays the Treasury outside the product."""
    with _atomic():
        amount = _balance_now(player_id, CASH)
        if amount <= 0:
            return None
        return wallet_debit(player=player_id, currency=CASH, amount=amount, kind="dormant_transfer",
                            reference=f"dormant:{player_id}", destination="house:erario",
                            idempotency_key=f"dormant:player:{player_id}")


def deposit_credit(*, deposit: Deposit) -> Transaction:
    """A confirmed deposit: house:cashier → the player's cash (kind ``deposit``, key
    ``deposit:{id}``). Twice is once."""
    return wallet_credit(player=deposit.player_id, currency=CASH, amount=deposit.amount, kind="deposit",
                         reference=f"deposit:{deposit.pk}", source="house:cashier",
                         idempotency_key=f"deposit:{deposit.pk}")


def withdrawal_escrow(*, withdrawal: Withdrawal) -> Transaction:
    """The request: the player's cash → ``escrow:withdrawal:{id}``, so it cannot be spent twice;
    402 ``insufficient_funds`` (the caller's ``not_withdrawable``) when the cash is not there."""
    return wallet_debit(player=withdrawal.player_id, currency=CASH, amount=withdrawal.amount,
                        kind="withdrawal_request", reference=f"withdrawal:{withdrawal.pk}",
                        destination=withdrawal.escrow, idempotency_key=f"withdrawal:{withdrawal.pk}:request")


def withdrawal_return(*, withdrawal: Withdrawal) -> Transaction:
    """Rejected or cancelled: the escrow back to the player's cash (``withdrawal_return``)."""
    txn = wallet_credit(player=withdrawal.player_id, currency=CASH, amount=withdrawal.amount,
                        kind="withdrawal_return", reference=f"withdrawal:{withdrawal.pk}", source=withdrawal.escrow,
                        idempotency_key=f"withdrawal:{withdrawal.pk}:return")
    escrow_close(code=withdrawal.escrow)
    return txn


def withdrawal_pay(*, withdrawal: Withdrawal) -> Transaction:
    """Paid by the provider: the escrow → house:cashier (``withdrawal_paid``)."""
    txn = wallet_transfer(source=withdrawal.escrow, destination="house:cashier", currency=CASH,
                          amount=withdrawal.amount, kind="withdrawal_paid", reference=f"withdrawal:{withdrawal.pk}",
                          idempotency_key=f"withdrawal:{withdrawal.pk}:paid")
    escrow_close(code=withdrawal.escrow)
    return txn
