"""The cashier (regulation.md §5): deposits through the provider, withdrawals through escrow and
finance's approval. Every check comes before any write (§0.3); every money step is one keyed
ledger transaction (apps/wallet/services.py); staff steps are audited; the ADM ``movement`` is
queued when money actually enters or leaves."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from apps.adm.services import adm_enqueue
from apps.aml import services as aml
from apps.audit.services import audit_record
from apps.common.errors import (
    Conflict,
    InsufficientFunds,
    NotFoundError,
    StaffCannotPlay,
    ValidationFailed,
    keep_after_rollback,
)
from apps.common.roles import is_staff_member
from apps.common.templatetags.money import format_euro
from apps.conto.limits import deposit_check
from apps.conto.models import Conto
from apps.wallet import services as wallet
from apps.wallet.models import CASH, Deposit, ProviderEvent, Withdrawal
from apps.wallet.selectors import wallet_balances_many

from .checks import withdrawal_checks
from .identity import IdentityIncomplete, deposit_gate, withdrawal_gate
from .instruments import instrument_of
from .providers import (
    CONFIRMED,
    DECLINED,
    FAILED,
    PAID,
    PENDING,
    outcome_check,
    provider_current,
    provider_named,
)

DEPOSIT_MIN, DEPOSIT_MAX = 1_000, 1_000_000
WITHDRAWAL_MIN, WITHDRAWAL_MAX = 1_000, 100_000_000


def _amount(value: Any, low: int, high: int) -> int:
    if type(value) is not int or not low <= value <= high:
        raise ValidationFailed(_("The amount is not valid."), fields={
            "amount_cents": [_("Whole cents from %(low)s to %(high)s.") % {"low": low, "high": high}]})
    return value


def _instrument_id(value: Any) -> int:
    if type(value) is not int:
        raise ValidationFailed(_("Choose one of your own instruments."),
                               fields={"instrument": [_("The id of one of your instruments.")]})
    return value


def _movement(*, reference: str, player_id: int, amount: int, txn_id: int, direction: str) -> None:
    adm_enqueue(type="movement", reference=reference, player_id=player_id, transaction_ids=[txn_id],
                payload={"direction": direction, "amount_cents": amount})


def _confirm(deposit: Deposit, *, now: dt.datetime) -> None:
    txn = wallet.deposit_credit(deposit=deposit)
    deposit.status, deposit.confirmed_at, deposit.transaction = Deposit.CONFIRMED, now, txn
    deposit.save(update_fields=["status", "confirmed_at", "transaction"])
    _movement(reference=f"deposit:{deposit.pk}", player_id=deposit.player_id, amount=deposit.amount, txn_id=txn.pk,
              direction="in")


# -- deposits (§5.3) -------------------------------------------------------------------------


def deposit_create(*, player: Any, amount_cents: Any, instrument: Any, test_outcome: Any = None,
                   now: dt.datetime | None = None) -> Deposit:
    """§5.3's checks in order, then the provider: confirmed moves the money now, pending waits
    for the callback, declined moves nothing. The conto's row lock serialises two deposits
    racing for the last euro of a limit; the provider answers inside it (the test provider at
    once; a real one answers ``pending`` with a redirect)."""
    if is_staff_member(player):
        raise StaffCannotPlay()
    amount = _amount(amount_cents, DEPOSIT_MIN, DEPOSIT_MAX)
    instrument_id = _instrument_id(instrument)
    provider = provider_current()
    outcome = outcome_check(provider, test_outcome)
    now = now or timezone.now()
    conto = deposit_gate(user=player, now=now)
    chosen = instrument_of(player=player, instrument_id=instrument_id)
    with transaction.atomic():
        conto = Conto.objects.select_for_update().get(pk=conto.pk)
        deposit_check(conto=conto, amount=amount, now=now)
        deposit = Deposit.objects.create(player=player, instrument=chosen, amount=amount, provider=provider.name,
                                         created=now)
        answer = provider.deposit_start(deposit, test_outcome=outcome)
        deposit.provider_ref, deposit.redirect_url = answer.provider_ref[:100], answer.redirect_url[:300]
        if answer.status == CONFIRMED:
            deposit.save(update_fields=["provider_ref", "redirect_url"])
            _confirm(deposit, now=now)
        elif answer.status == DECLINED:
            deposit.status, deposit.declined_at = Deposit.DECLINED, now
            deposit.save(update_fields=["provider_ref", "redirect_url", "status", "declined_at"])
        else:
            deposit.save(update_fields=["provider_ref", "redirect_url"])
    return deposit


def deposit_callback(*, provider_name: str, body: bytes, headers: Any) -> dict[str, Any]:
    """A provider's callback (§5.1): the signature first (400 ``callback_invalid``); an event
    already handled → ``{"duplicate": true}``; an event for a deposit already final changes nothing."""
    provider = provider_named(provider_name)
    if provider is None:
        raise NotFoundError(_("No such payment provider."))
    event = provider.callback_parse(body, headers)
    now = timezone.now()
    with transaction.atomic():
        deposit = Deposit.objects.select_for_update().filter(pk=event.deposit_id, provider=provider.name).first()
        if deposit is None:
            raise ValidationFailed(_("The callback names no deposit of this provider."),
                                   fields={"deposit": [_("A deposit of this provider.")]})
        created = ProviderEvent.objects.filter(provider=provider.name, event_id=event.event_id).exists()
        if created:
            return {"duplicate": True}
        ProviderEvent.objects.create(provider=provider.name, event_id=event.event_id, deposit=deposit,
                                     status=event.status, received=now)
        if deposit.status == Deposit.PENDING:
            if event.status == CONFIRMED:
                _confirm(deposit, now=now)
            else:
                deposit.status, deposit.declined_at = Deposit.DECLINED, now
                deposit.save(update_fields=["status", "declined_at"])
    return {"duplicate": False, "deposit": deposit.pk, "status": deposit.status}


# -- withdrawals (§5.4) ----------------------------------------------------------------------


def withdrawal_request(*, player: Any, amount_cents: Any, instrument: Any,
                       now: dt.datetime | None = None) -> Withdrawal:
    """§5.4's checks in order, then the amount into escrow: the ledger balances at every step
    and the money cannot be spent twice. Bonus is never withdrawable."""
    if is_staff_member(player):
        raise StaffCannotPlay()
    amount = _amount(amount_cents, WITHDRAWAL_MIN, WITHDRAWAL_MAX)
    instrument_id = _instrument_id(instrument)
    now = now or timezone.now()
    try:
        withdrawal_gate(user=player, now=now)
    except IdentityIncomplete as exc:
        keep_after_rollback(exc, lambda: aml.withdrawal_before_kyc(player_id=player.pk, amount=amount, now=now))
        raise
    chosen = instrument_of(player=player, instrument_id=instrument_id)
    cash = wallet_balances_many(player_ids=[player.pk])[player.pk][CASH]
    if amount > cash:
        raise _not_withdrawable(cash)
    aml.low_play_scan(player_id=player.pk, now=now)  # §6.1: raised at the request, whatever follows
    with transaction.atomic():
        withdrawal = Withdrawal.objects.create(player=player, instrument=chosen, amount=amount, created=now,
                                               updated=now)
        try:
            wallet.withdrawal_escrow(withdrawal=withdrawal)
        except InsufficientFunds:  # spent meanwhile (a registration won the race): nothing is kept
            raise _not_withdrawable(wallet_balances_many(player_ids=[player.pk])[player.pk][CASH]) from None
    return withdrawal


def _not_withdrawable(cash: int) -> Conflict:
    return Conflict(_("You can withdraw at most your cash balance, %(cash)s; bonus is never withdrawable.")
                    % {"cash": format_euro(cash)}, code="not_withdrawable",
                    withdrawable_cents=cash)


def _locked(withdrawal_id: Any) -> Withdrawal:
    found = Withdrawal.objects.select_for_update().filter(pk=withdrawal_id).first() \
        if type(withdrawal_id) is int else None
    if found is None:
        raise NotFoundError(_("No such withdrawal."))
    return found


def _reason(reason: Any) -> str:
    if not isinstance(reason, str) or not 1 <= len(reason.strip()) <= 200:
        raise ValidationFailed(_("A reason is required."), fields={"reason": [_("1 to 200 characters.")]})
    return reason.strip()


def _moved(withdrawal: Withdrawal, status: str, *, now: dt.datetime, by: Any = None, reason: str | None = None) -> None:
    withdrawal.status, withdrawal.updated = status, now
    fields = ["status", "updated"]
    if by is not None:
        withdrawal.decided_by = by
        fields.append("decided_by")
    if reason is not None:
        withdrawal.reason = reason
        fields.append("reason")
    withdrawal.save(update_fields=fields)


def withdrawal_cancel(*, player: Any, withdrawal_id: Any, now: dt.datetime | None = None) -> Withdrawal:
    """The player, while ``requested``: the escrow back to the cash."""
    now = now or timezone.now()
    with transaction.atomic():
        withdrawal = _locked(withdrawal_id)
        if withdrawal.player_id != player.pk:
            raise NotFoundError(_("No such withdrawal."))
        if withdrawal.status != Withdrawal.REQUESTED:
            raise Conflict(_("Only a withdrawal still requested can be cancelled: this one is %(status)s.")
                           % {"status": withdrawal.status}, code="withdrawal_not_cancellable")
        wallet.withdrawal_return(withdrawal=withdrawal)
        _moved(withdrawal, Withdrawal.CANCELLED, now=now)
    return withdrawal


def _staff_step(actor: Any, withdrawal: Withdrawal, action: str, before: str, reason: str, ip: str | None) -> None:
    audit_record(actor=actor, action=action, target_type="withdrawal", target_id=withdrawal.pk, reason=reason,
                 before={"status": before}, after={"status": withdrawal.status, "amount_cents": withdrawal.amount,
                                                   "player": withdrawal.player_id}, ip=ip)


def _transition(withdrawal: Withdrawal, allowed: tuple[str, ...]) -> None:
    if withdrawal.status not in allowed:
        raise Conflict(_("This withdrawal is %(status)s: that step is not possible now.")
                       % {"status": withdrawal.status}, code="invalid_transition")


def withdrawal_review(*, actor: Any, withdrawal_id: Any, ip: str | None = None,
                      now: dt.datetime | None = None) -> Withdrawal:
    now = now or timezone.now()
    with transaction.atomic():
        withdrawal = _locked(withdrawal_id)
        _transition(withdrawal, (Withdrawal.REQUESTED,))
        _moved(withdrawal, Withdrawal.IN_REVIEW, now=now, by=actor)
        _staff_step(actor, withdrawal, "withdrawal_review", Withdrawal.REQUESTED, "", ip)
    return withdrawal


def withdrawal_approve(*, actor: Any, withdrawal_id: Any, reason: Any, ip: str | None = None,
                       now: dt.datetime | None = None) -> Withdrawal:
    """Finance's approval: every automatic check must pass (409 ``withdrawal_checks_failed``
    naming the failures); then the provider pays (escrow → house:cashier) or, failing, the
    withdrawal goes back ``in_review`` with its money still in escrow."""
    text = _reason(reason)
    now = now or timezone.now()
    with transaction.atomic():
        withdrawal = _locked(withdrawal_id)
        before = withdrawal.status
        _transition(withdrawal, (Withdrawal.REQUESTED, Withdrawal.IN_REVIEW))
        failed = [c["name"] for c in withdrawal_checks(withdrawal, now=now) if not c["ok"]]
        if failed:
            raise Conflict(_("The automatic checks do not pass: %(failed)s.") % {"failed": ", ".join(failed)},
                           code="withdrawal_checks_failed", failed=failed)
        _moved(withdrawal, Withdrawal.APPROVED, now=now, by=actor, reason=text)
        _staff_step(actor, withdrawal, "withdrawal_approve", before, text, ip)
        answer = provider_current().payout(withdrawal)
        withdrawal.provider_ref = answer.provider_ref[:100]
        withdrawal.save(update_fields=["provider_ref"])
        if answer.status == PAID:
            txn = wallet.withdrawal_pay(withdrawal=withdrawal)
            withdrawal.paid_at = now
            withdrawal.save(update_fields=["paid_at"])
            _moved(withdrawal, Withdrawal.PAID, now=now)
            _movement(reference=f"withdrawal:{withdrawal.pk}", player_id=withdrawal.player_id,
                      amount=withdrawal.amount, txn_id=txn.pk, direction="out")
        elif answer.status == FAILED:
            _moved(withdrawal, Withdrawal.IN_REVIEW, now=now)
        else:
            assert answer.status == PENDING
    return withdrawal


def withdrawal_reject(*, actor: Any, withdrawal_id: Any, reason: Any, ip: str | None = None,
                      now: dt.datetime | None = None) -> Withdrawal:
    """Finance's rejection with a reason the player sees: the escrow back to the cash."""
    text = _reason(reason)
    now = now or timezone.now()
    with transaction.atomic():
        withdrawal = _locked(withdrawal_id)
        before = withdrawal.status
        _transition(withdrawal, (Withdrawal.REQUESTED, Withdrawal.IN_REVIEW))
        wallet.withdrawal_return(withdrawal=withdrawal)
        _moved(withdrawal, Withdrawal.REJECTED, now=now, by=actor, reason=text)
        _staff_step(actor, withdrawal, "withdrawal_reject", before, text, ip)
    return withdrawal
