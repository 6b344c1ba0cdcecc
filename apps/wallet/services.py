"""Every movement of money goes through here (platform.md §3, §4).

``ledger_post`` is the one writer: it checks that each currency sums to zero, locks
the accounts it touches in ascending id order (Saleor's rule, no deadlocks), checks
balances under the lock, and writes the transaction, its entries and the cached
balances in one database transaction. The other functions are the domain's moves.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Sum
from django.utils import timezone

from apps.audit.services import audit_record
from apps.common.errors import Conflict, InsufficientFunds, StaffCannotPlay, ValidationFailed
from apps.common.roles import is_staff_member

from .models import (
    BONUS,
    CASH,
    CREDITS,
    CURRENCIES,
    Account,
    Adjustment,
    CreditRecharge,
    Entry,
    Freeze,
    Transaction,
)
from .selectors import freeze_state

ROME = ZoneInfo("Europe/Rome")

WELCOME_CREDITS = 300
PASSPORT_CREDITS = 1000
RECHARGE_CREDITS = 300
RECHARGE_BELOW = 50
RECHARGE_DELAY = timedelta(hours=2)
RECHARGES_PER_DAY = 2

#: house accounts that may go below zero: they stand for money outside the platform
NEGATIVE_ALLOWED = frozenset({"house:cashier", "house:promotions", "house:guarantee", "house:play_money"})
#: a reported player's cash and bonus, per player (entries carry the player id), and what the
#: authority decided to keep (platform.md §7.4)
AUTHORITY_FROZEN = "house:authority_frozen"
AUTHORITY_REMITTED = "house:authority_remitted"
ADJUSTMENT_COUNTER = {CASH: "house:cashier", BONUS: "house:promotions", CREDITS: "house:play_money"}


class LedgerError(Exception):
    """A programming error: an unbalanced transaction or a malformed leg. Never a user error."""


@dataclass(frozen=True)
class Leg:
    code: str
    currency: str
    amount: int
    #: for a shared house account, the player whose share moves (authority_frozen)
    player_id: int | None = None
    #: the entry's kind when it differs from the transaction's
    kind: str | None = None


def player_code(player) -> str:
    """``player:{id}`` for a user or a user id."""
    return f"player:{getattr(player, 'pk', player)}"


def account_get(code: str, currency: str) -> Account:
    """The account row, created on first use (never only by a migration)."""
    if currency not in CURRENCIES:
        raise LedgerError(f"unknown currency {currency!r}")
    player_id = None
    if code.startswith("player:"):
        player_id = int(code.split(":")[1])
    account, _ = Account.objects.get_or_create(
        code=code, currency=currency,
        defaults={"player_id": player_id, "allow_negative": code in NEGATIVE_ALLOWED},
    )
    return account


def ledger_post(
    *,
    kind: str,
    reference: str,
    legs: Iterable[Leg],
    idempotency_key: str | None = None,
    created_by=None,
    memo: str = "",
    allow_frozen: bool = False,
) -> Transaction:
    """Write one balanced transaction, or raise and write nothing.

    With an ``idempotency_key`` a second call (even a concurrent one) returns the first
    transaction and moves nothing. A player account that would go below zero raises
    :class:`InsufficientFunds`; a frozen player's cash or bonus cannot be spent; cash or bonus
    arriving for a reported player (a divert freeze) lands in house:authority_frozen, the
    entry carrying the player (platform.md §7.4).
    """
    legs = [leg for leg in legs if leg.amount != 0]
    totals: dict[str, int] = defaultdict(int)
    for leg in legs:
        if type(leg.amount) is not int or leg.currency not in CURRENCIES:
            raise LedgerError(f"malformed leg {leg!r}")
        totals[leg.currency] += leg.amount
    if any(totals.values()):
        raise LedgerError(f"unbalanced transaction {kind} {reference}: {dict(totals)}")
    if not legs:
        raise LedgerError("a transaction needs at least one non-zero leg")
    with transaction.atomic():
        if idempotency_key:
            existing = Transaction.objects.filter(idempotency_key=idempotency_key).first()
            if existing is not None:
                return _same_or_conflict(existing, kind, reference)
        accounts = {(leg.code, leg.currency): account_get(leg.code, leg.currency) for leg in legs}
        for leg in legs:  # cash or bonus arriving for a player may be diverted (§7.4): lock that account too
            if _divertible(leg):
                accounts.setdefault((AUTHORITY_FROZEN, leg.currency), account_get(AUTHORITY_FROZEN, leg.currency))
        now = timezone.now()
        try:
            with transaction.atomic():
                txn = Transaction.objects.create(
                    kind=kind, reference=reference, idempotency_key=idempotency_key,
                    created_by=created_by if getattr(created_by, "pk", None) else None,
                    memo=memo[:200], created=now,
                )
        except IntegrityError:
            # a concurrent twin committed first: its effect stands, ours is nothing
            return _same_or_conflict(Transaction.objects.get(idempotency_key=idempotency_key), kind, reference)
        ids = sorted({a.pk for a in accounts.values()})
        locked = {a.pk: a for a in Account.objects.select_for_update().filter(pk__in=ids).order_by("pk")}
        frozen_checked: dict[int, bool] = {}
        diverted: dict[int, bool] = {}
        entries = []
        for leg in legs:
            account = locked[accounts[(leg.code, leg.currency)].pk]
            leg_player_id = leg.player_id
            if _divertible(leg):
                # read under the accounts' locks: a report issued concurrently either committed
                # before (we see its freeze) or moves this credit with the rest (authority_freeze)
                if account.player_id not in diverted:
                    diverted[account.player_id] = freeze_state(player_id=account.player_id)[1]
                if diverted[account.player_id]:
                    leg_player_id = account.player_id
                    account = locked[accounts[(AUTHORITY_FROZEN, leg.currency)].pk]
            new_balance = account.balance + leg.amount
            if leg.amount < 0 and account.player_id and leg.currency in (CASH, BONUS) and not allow_frozen:
                if account.player_id not in frozen_checked:
                    frozen_checked[account.player_id] = freeze_state(player_id=account.player_id)[0]
                if frozen_checked[account.player_id]:
                    raise Conflict("This account is frozen by a sanction: nothing can be spent.",
                                   code="account_frozen")
            if new_balance < 0 and not account.allow_negative:
                if account.player_id:
                    raise InsufficientFunds(
                        f"Not enough {leg.currency}: the balance is {account.balance}, {-leg.amount} needed.",
                        currency=leg.currency,
                    )
                raise LedgerError(f"account {account} would go below zero")
            account.balance = new_balance
            entries.append(Entry(
                transaction=txn, account=account, currency=leg.currency, amount=leg.amount,
                balance_after=new_balance, player_id=account.player_id or leg_player_id, created=now,
                kind=leg.kind or kind,
            ))
        for account in locked.values():
            account.save(update_fields=["balance"])
        Entry.objects.bulk_create(entries)
    return txn


def _divertible(leg: Leg) -> bool:
    """Cash or bonus arriving on a player's own account: the one thing a divert freeze reroutes."""
    return leg.amount > 0 and leg.currency in (CASH, BONUS) and leg.code.startswith("player:")


def _same_or_conflict(existing: Transaction, kind: str, reference: str) -> Transaction:
    if (existing.kind, existing.reference) != (kind, reference):
        raise Conflict("This idempotency key was already used for another movement.",
                       code="idempotency_conflict")
    return existing


def player_credit_legs(player, currency: str, amount: int, kind: str | None = None) -> list[Leg]:
    """Money for a player: a leg on their own account. ``ledger_post`` itself sends it to
    house:authority_frozen while an ``authority_report`` is active (platform.md §7.4), under
    the accounts' locks, so no credit path (stakes, refunds, prizes, adjustments) can miss it."""
    return [Leg(player_code(player), currency, amount, kind=kind)]


def wallet_credit(*, player, currency: str, amount: int, kind: str, reference: str, source: str,
                  idempotency_key: str | None = None, created_by=None, memo: str = "") -> Transaction:
    """Move ``amount`` from the account ``source`` to the player."""
    legs = [Leg(source, currency, -amount), *player_credit_legs(player, currency, amount)]
    return ledger_post(kind=kind, reference=reference, legs=legs, idempotency_key=idempotency_key,
                       created_by=created_by, memo=memo)


def wallet_debit(*, player, currency: str, amount: int, kind: str, reference: str, destination: str,
                 idempotency_key: str | None = None, created_by=None, memo: str = "") -> Transaction:
    """Move ``amount`` from the player to ``destination``; 402 insufficient_funds if short."""
    legs = [Leg(player_code(player), currency, -amount), Leg(destination, currency, amount)]
    return ledger_post(kind=kind, reference=reference, legs=legs, idempotency_key=idempotency_key,
                       created_by=created_by, memo=memo)


def wallet_transfer(*, source: str, destination: str, currency: str, amount: int, kind: str, reference: str,
                    idempotency_key: str | None = None, created_by=None, memo: str = "") -> Transaction:
    """Move ``amount`` between two accounts (player or house) in one transaction."""
    legs = [Leg(source, currency, -amount), Leg(destination, currency, amount)]
    return ledger_post(kind=kind, reference=reference, legs=legs, idempotency_key=idempotency_key,
                       created_by=created_by, memo=memo)


def player_account_require(player) -> None:
    """400 for a staff account: adjustments and passports are for players."""
    if is_staff_member(player):
        raise ValidationFailed("Adjustments and passports are for players, not staff accounts.",
                               fields={"player": ["This user is a staff account, not a player."]})


#: a finance adjustment's ceiling either way (platform.md §12): €1,000,000 in cents, or as many
#: bonus cents or credits
ADJUSTMENT_MAX = 100_000_000


def wallet_adjust(*, actor, player, currency: object, amount: object, reason: object,
                  ip: str | None = None) -> tuple[Adjustment, Transaction]:
    """A finance adjustment (platform.md §3.6): validated, audited, never below zero."""
    fields: dict[str, list[str]] = {}
    if currency not in CURRENCIES:
        fields["currency"] = ["One of cash, bonus, credits."]
    if type(amount) is not int or amount == 0:
        fields["amount"] = ["A non-zero integer (negative to debit)."]
    elif abs(amount) > ADJUSTMENT_MAX:
        fields["amount"] = [f"At most {ADJUSTMENT_MAX} either way."]
    if not isinstance(reason, str) or not reason.strip() or len(reason) > 200:
        fields["reason"] = ["A non-empty reason of at most 200 characters."]
    if fields:
        raise ValidationFailed("The adjustment is not valid.", fields=fields)
    player_account_require(player)
    assert isinstance(currency, str) and isinstance(amount, int) and isinstance(reason, str)
    counter = ADJUSTMENT_COUNTER[currency]
    with transaction.atomic():
        if amount < 0 and currency in (CASH, BONUS) and freeze_state(player_id=player.pk)[0]:
            raise Conflict("This account is frozen by a sanction: no negative adjustment is allowed.",
                           code="account_frozen")
        adjustment = Adjustment.objects.create(player=player, currency=currency, amount=amount, reason=reason,
                                               created_by=actor, created=timezone.now())
        reference = f"adjustment:{adjustment.pk}"
        try:
            with transaction.atomic():
                if amount > 0:
                    txn = wallet_credit(player=player, currency=currency, amount=amount, kind="adjustment",
                                        reference=reference, source=counter, created_by=actor, memo=reason)
                else:
                    txn = wallet_debit(player=player, currency=currency, amount=-amount, kind="adjustment",
                                       reference=reference, destination=counter, created_by=actor, memo=reason)
        except InsufficientFunds:
            raise Conflict(f"This debit would make the {currency} balance negative.",
                           code="negative_balance") from None
        audit_record(actor=actor, action="ledger_adjustment", target_type="player", target_id=player.pk,
                     reason=reason, before=None,
                     after={"currency": currency, "amount": amount, "transaction": txn.pk}, ip=ip)
    return adjustment, txn


def wallet_freeze_set(*, player_id: int, reference: str, divert: bool, starts_at: datetime,
                      ends_at: datetime | None, lifted_at: datetime | None) -> Freeze:
    """Record a hold on a player's money, or update it (lifted, shortened): compliance calls it
    for every account suspension (``divert=False``) and authority report (``divert=True``)
    it writes, in the same database transaction. Safe to call twice."""
    freeze, _ = Freeze.objects.update_or_create(reference=reference, defaults={
        "player_id": player_id, "divert": divert, "starts_at": starts_at, "ends_at": ends_at,
        "lifted_at": lifted_at})
    return freeze


def authority_freeze(*, player_id: int, reference: str) -> Transaction | None:
    """An authority report moves the player's cash and bonus to house:authority_frozen
    (platform.md §7.4, kind ``authority_freeze``), once per ``reference``. Call it after the
    report's freeze is written: from then on nothing leaves or reaches those accounts."""
    with transaction.atomic():
        codes = [account_get(player_code(player_id), c).pk for c in (CASH, BONUS)]
        balances = dict(Account.objects.select_for_update().filter(pk__in=codes).order_by("pk")
                        .values_list("currency", "balance"))
        legs: list[Leg] = []
        for currency in (CASH, BONUS):
            if balances.get(currency):
                legs += [Leg(player_code(player_id), currency, -balances[currency]),
                         Leg(AUTHORITY_FROZEN, currency, balances[currency], player_id=player_id)]
        if not legs:
            return None
        return ledger_post(kind="authority_freeze", reference=reference, legs=legs, allow_frozen=True,
                           idempotency_key=f"authority_freeze:{reference}")


def authority_settle(*, player_id: int, reference: str, decision: str) -> Transaction | None:
    """The authority's ruling empties the player's share of house:authority_frozen, once per
    ``reference``: ``release`` gives it back in the currencies it came from (kind
    ``authority_release``), ``forfeit`` sends it to house:authority_remitted."""
    if decision not in ("release", "forfeit"):
        raise LedgerError(f"unknown decision {decision!r}")
    with transaction.atomic():
        frozen = [account_get(AUTHORITY_FROZEN, c).pk for c in (CASH, BONUS)]
        list(Account.objects.select_for_update().filter(pk__in=frozen).order_by("pk"))  # the shares stay put
        shares = dict(Entry.objects.filter(account_id__in=frozen, player_id=player_id).values("currency")
                      .annotate(total=Sum("amount")).values_list("currency", "total"))
        legs: list[Leg] = []
        for currency in (CASH, BONUS):
            share = shares.get(currency) or 0
            if share:
                legs.append(Leg(AUTHORITY_FROZEN, currency, -share, player_id=player_id))
                legs.append(Leg(player_code(player_id), currency, share) if decision == "release"
                            else Leg(AUTHORITY_REMITTED, currency, share, player_id=player_id))
        if not legs:
            return None
        kind = "authority_release" if decision == "release" else "authority_forfeit"
        return ledger_post(kind=kind, reference=reference, legs=legs, idempotency_key=f"{kind}:{reference}")


def entry_balance_after(txn: Transaction, player, currency: str) -> int:
    entry = txn.entries.filter(account__code=player_code(player), currency=currency).first()
    if entry is not None:
        return entry.balance_after
    return account_get(player_code(player), currency).balance


# -- play-money credits (platform.md §4) ------------------------------------------------


def credits_welcome_grant(*, player) -> Transaction:
    """The 300 welcome credits, once (an idempotency key per player guarantees it)."""
    return wallet_credit(player=player, currency=CREDITS, amount=WELCOME_CREDITS, kind="credits_welcome",
                         reference=f"player:{player.pk}", source="house:play_money",
                         idempotency_key=f"credits_welcome:player:{player.pk}")


def credits_passport_grant(*, actor, player) -> int:
    """The passport's +1000 credits, once (key per player); the new credits balance.

    The players app records the passport on the profile and calls this inside its lock."""
    txn = wallet_credit(player=player, currency=CREDITS, amount=PASSPORT_CREDITS, kind="credits_passport",
                        reference=f"player:{player.pk}", source="house:play_money", created_by=actor,
                        idempotency_key=f"credits_passport:player:{player.pk}")
    return entry_balance_after(txn, player, CREDITS)


class RechargeNotAllowed(Conflict):
    code = "recharge_not_allowed"


def _rome_day_bounds(moment: datetime) -> tuple[datetime, datetime]:
    local = moment.astimezone(ROME)
    start = local.replace(hour=0, minute=0, second=0, microsecond=0)
    end = (start + timedelta(days=1, hours=3)).replace(hour=0)  # DST-safe next midnight
    return start, end


def credits_recharge_request(*, player) -> CreditRecharge:
    """Ask for 300 credits, due two hours later; the tick credits them (never earlier).

    The recharge rules only: the players app checks first that the player may ask at all
    (a player, with a nickname, not kept out of the lobby: platform.md §4)."""
    if is_staff_member(player):
        raise StaffCannotPlay()
    now = timezone.now()
    with transaction.atomic():
        account = account_get(player_code(player), CREDITS)
        account = Account.objects.select_for_update().get(pk=account.pk)  # serialises requests
        if account.balance >= RECHARGE_BELOW:
            raise RechargeNotAllowed(
                f"You have {account.balance} credits: a recharge is possible only below {RECHARGE_BELOW}.",
                reason="balance_not_low")
        pending = CreditRecharge.objects.filter(player=player, credited_at__isnull=True).order_by("available_at").first()
        if pending is not None:
            at = pending.available_at.astimezone(ROME).strftime("%d/%m/%Y %H:%M")
            raise RechargeNotAllowed(
                f"A recharge is already on its way: it arrives at {at} (Rome time); ask again after it.",
                reason="pending")
        start, end = _rome_day_bounds(now)
        if CreditRecharge.objects.filter(player=player, requested_at__gte=start, requested_at__lt=end).count() \
                >= RECHARGES_PER_DAY:
            raise RechargeNotAllowed(
                f"You already asked for {RECHARGES_PER_DAY} recharges today: try again tomorrow"
                f" ({end.strftime('%d/%m/%Y')}, Rome time).",
                reason="daily_limit")
        return CreditRecharge.objects.create(player=player, requested_at=now, available_at=now + RECHARGE_DELAY,
                                             credits=RECHARGE_CREDITS)


def credits_recharges_credit_due() -> int:
    """Credit every recharge whose deadline has passed; safe to run twice or concurrently."""
    now = timezone.now()
    done = 0
    for recharge_id in CreditRecharge.objects.filter(credited_at__isnull=True, available_at__lte=now) \
            .values_list("pk", flat=True):
        with transaction.atomic():
            recharge = CreditRecharge.objects.select_for_update().filter(pk=recharge_id,
                                                                         credited_at__isnull=True).first()
            if recharge is None or recharge.available_at > timezone.now():
                continue
            txn = wallet_credit(player=recharge.player, currency=CREDITS, amount=recharge.credits,
                                kind="credits_recharge", reference=f"recharge:{recharge.pk}",
                                source="house:play_money", idempotency_key=f"credits_recharge:{recharge.pk}")
            recharge.credited_at = timezone.now()
            recharge.transaction = txn
            recharge.save(update_fields=["credited_at", "transaction"])
            done += 1
    return done


# -- table stakes (platform.md §8.5) ----------------------------------------------------


def match_escrow_code(match_id: int) -> str:
    return f"escrow:match:{match_id}"


def stakes_collect(*, match_id: int, currency: str, stakes: dict[int, int]) -> list[int]:
    """Move each player's stake (``{player_id: amount}``) into the match escrow.

    Returns the ids of players who could not cover it (their stake is not taken; the
    caller stands them up). Each stake is its own idempotent transaction.
    """
    short: list[int] = []
    users = get_user_model().objects.in_bulk(list(stakes))
    for player_id in sorted(stakes):
        amount = stakes[player_id]
        if amount <= 0:
            continue
        try:
            with transaction.atomic():
                wallet_debit(player=users[player_id], currency=currency, amount=amount, kind="stake",
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
    with transaction.atomic():
        if total:
            legs.append(Leg(code, currency, -total))
            txn = ledger_post(kind=kind, reference=f"match:{match_id}", legs=legs,
                              idempotency_key=f"settle:match:{match_id}", allow_frozen=True)
        Account.objects.filter(code=code).update(closed=True)
    return txn
