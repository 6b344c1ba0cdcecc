"""Every movement of money goes through here (platform.md §3, §4).

``ledger_post`` is the one writer: it checks that each currency sums to zero, locks
the accounts it touches in ascending id order (Saleor's rule, no deadlocks), checks
balances under the lock, and writes the transaction, its entries and the cached
balances in one database transaction. The other functions are the domain's moves.
"""

from __future__ import annotations

import functools
from collections import defaultdict
from collections.abc import Iterable
from contextlib import nullcontext
from dataclasses import dataclass
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from django.db import connection, transaction
from django.db.models import Q, Sum
from django.utils import timezone
from django.utils.translation import gettext as _

from apps.audit.services import audit_record
from apps.common.bulk import rows_update
from apps.common.errors import Conflict, InsufficientFunds, StaffCannotPlay, ValidationFailed
from apps.common.roles import is_staff_member
from apps.common.templatetags.money import format_euro

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


def _amounts(currency: str, balance: int, needed: int) -> dict[str, str]:
    """Amounts for a sentence: euro for cash and bonus, plain numbers for credits."""
    if currency in (CASH, BONUS):
        return {"currency": str(_("cash") if currency == CASH else _("bonus")), "balance": format_euro(balance),
                "needed": format_euro(needed)}
    return {"currency": str(_("credits")), "balance": str(balance), "needed": str(needed)}


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


def _account_defaults(code: str) -> dict:
    return {"player_id": int(code.split(":")[1]) if code.startswith("player:") else None,
            "allow_negative": code in NEGATIVE_ALLOWED}


def account_get(code: str, currency: str) -> Account:
    """The account row, created on first use (never only by a migration)."""
    if currency not in CURRENCIES:
        raise LedgerError(f"unknown currency {currency!r}")
    account, _ = Account.objects.get_or_create(code=code, currency=currency, defaults=_account_defaults(code))
    _account_ids_remember({(code, currency): account.pk})
    return account


#: ``(code, currency) -> account id`` of this process: an account is never deleted and its
#: code never changes, so a known id needs no read. Only committed rows get in (on commit), so
#: no thread skips the read of a row it cannot see yet; ``_accounts_lock`` checks every locked
#: row against its key all the same (a test database rolled back, a SQLite id given again).
_ACCOUNT_IDS: dict[tuple[str, str], int] = {}


def _account_ids_remember(found: dict[tuple[str, str], int]) -> None:
    if connection.in_atomic_block:
        transaction.on_commit(lambda: _ACCOUNT_IDS.update(found))
    else:
        _ACCOUNT_IDS.update(found)


def _account_ids(keys: set[tuple[str, str]], *, cached: bool = True) -> dict[tuple[str, str], int]:
    """The ids of these accounts: from the cache, else one read, and the missing rows created
    (``ON CONFLICT DO NOTHING``: a concurrent creator's row is the one) and read again."""
    ids = {key: _ACCOUNT_IDS[key] for key in keys if key in _ACCOUNT_IDS} if cached else {}
    missing = [key for key in keys if key not in ids]
    if not missing:
        return ids
    for _code, currency in missing:
        if currency not in CURRENCIES:
            raise LedgerError(f"unknown currency {currency!r}")
    found: dict[tuple[str, str], int] = {}

    def read(wanted: list[tuple[str, str]]) -> None:
        match = Q()
        for code, currency in wanted:
            match |= Q(code=code, currency=currency)
        for pk, code, currency in Account.objects.filter(match).values_list("pk", "code", "currency"):
            found[(code, currency)] = pk

    read(missing)
    absent = [key for key in missing if key not in found]
    if absent:
        created = _insert_new(Account, [Account(code=code, currency=currency, **_account_defaults(code))
                                        for code, currency in sorted(absent)],
                              ("code", "currency"), ("id", "code", "currency"))
        found.update({(code, currency): pk for pk, code, currency in created})
        if len(created) < len(absent):  # a concurrent creator's rows
            read([key for key in absent if key not in found])
    _account_ids_remember(found)
    return {**ids, **found}


@dataclass(slots=True)
class _Locked:
    """An account row as the lock read it: what ``ledger_post`` checks and writes."""

    pk: int
    code: str
    currency: str
    player_id: int | None
    allow_negative: bool
    balance: int
    frozen: bool
    #: an active authority report: arriving cash and bonus go to house:authority_frozen
    diverted: bool = False

    def __str__(self) -> str:
        return f"{self.code}:{self.currency}"


def _qn(name: str) -> str:
    return connection.ops.quote_name(name)


def _accounts_lock(keys: set[tuple[str, str]], *, frozen: bool,
                   diverted: bool = False) -> dict[tuple[str, str], _Locked]:
    """Every account of ``keys`` locked in one ``SELECT ... FOR UPDATE`` in ascending id order
    (Saleor's rule: no deadlocks), with ``frozen`` (an active freeze on its player: the SQL of
    ``FreezeQuerySet.active``) when asked. When a cached id's row is gone or is another account,
    the ids are read again (not from the cache) and locked again.

    Plain SQL, as the other three statements of a transaction: the ORM's query building cost
    more CPU than the database's work (issue 15)."""
    for cached in (True, False):
        ids = _account_ids(keys, cached=cached)
        wanted = sorted(set(ids.values()))
        params: list = []
        now = connection.ops.adapt_datetimefield_value(timezone.now())
        if frozen:
            params += [now, now]
        if diverted:
            params += [now, now]
        with connection.cursor() as cursor:
            cursor.execute(_lock_sql(len(wanted), frozen, connection.features.has_select_for_update, diverted),
                           params + wanted)
            rows = cursor.fetchall()
        by_key = {(row[1], row[2]): _Locked(row[0], row[1], row[2], row[3], bool(row[4]), row[5], bool(row[6]),
                                            bool(row[7]))
                  for row in rows}
        if all(key in by_key and by_key[key].pk == pk for key, pk in ids.items()):
            return by_key
    raise LedgerError(f"accounts {sorted(keys)} could not be locked")  # pragma: no cover


@functools.lru_cache(maxsize=256)
def _lock_sql(count: int, frozen: bool, for_update: bool, diverted: bool = False) -> str:
    a, f = _qn(Account._meta.db_table), _qn(Freeze._meta.db_table)

    def active(extra: str = "") -> str:
        return (f"EXISTS (SELECT 1 FROM {f} f WHERE f.{_qn('player_id')} = a.{_qn('player_id')}{extra}"
                f" AND f.{_qn('lifted_at')} IS NULL AND f.{_qn('starts_at')} <= %s"
                f" AND (f.{_qn('ends_at')} IS NULL OR f.{_qn('ends_at')} > %s))")

    frozen_sql = active() if frozen else "0"
    diverted_sql = active(f" AND f.{_qn('divert')}") if diverted else "0"
    sql = (f"SELECT a.{_qn('id')}, a.{_qn('code')}, a.{_qn('currency')}, a.{_qn('player_id')},"
           f" a.{_qn('allow_negative')}, a.{_qn('balance')}, {frozen_sql}, {diverted_sql} FROM {a} a"
           f" WHERE a.{_qn('id')} IN ({', '.join(['%s'] * count)}) ORDER BY a.{_qn('id')}")
    return sql + " FOR UPDATE OF a" if for_update else sql


@functools.lru_cache(maxsize=256)
def _balances_sql(count: int) -> str:
    return (f"UPDATE {_qn(Account._meta.db_table)} SET {_qn('balance')} = CASE {_qn('id')}"
            f" {' '.join(['WHEN %s THEN %s'] * count)} END"
            f" WHERE {_qn('id')} IN ({', '.join(['%s'] * count)})")


@functools.lru_cache(maxsize=256)
def _insert_sql(model, rows: int, conflict: tuple[str, ...] = (), returning: tuple[str, ...] = ()) -> str:
    columns = [f.column for f in model._meta.concrete_fields if not f.primary_key]
    row = f"({', '.join(['%s'] * len(columns))})"
    sql = (f"INSERT INTO {_qn(model._meta.db_table)} ({', '.join(_qn(c) for c in columns)})"
           f" VALUES {', '.join([row] * rows)}")
    if conflict:
        sql += f" ON CONFLICT ({', '.join(_qn(model._meta.get_field(c).column) for c in conflict)}) DO NOTHING"
    if returning:
        sql += f" RETURNING {', '.join(_qn(model._meta.get_field(c).column) for c in returning)}"
    return sql


def _insert_new(model, objs: list, conflict: tuple[str, ...], returning: tuple[str, ...]) -> list[tuple]:
    """``INSERT ... ON CONFLICT (conflict) DO NOTHING RETURNING returning`` of ``objs`` in one
    statement: the rows written (a row whose key is taken is skipped, and a concurrent twin's
    insert is waited for by the database), with no savepoint needed to survive a conflict.
    Django's ``bulk_create(ignore_conflicts=True)`` does the same but returns nothing."""
    fields = [f for f in model._meta.concrete_fields if not f.primary_key]
    params = [f.get_db_prep_save(f.pre_save(obj, True), connection) for obj in objs for f in fields]
    with connection.cursor() as cursor:
        cursor.execute(_insert_sql(model, len(objs), conflict, returning), params)
        return cursor.fetchall()


def _atomic():
    """A transaction when none is open; inside one, nothing (no savepoint): ``ledger_post``
    checks everything before its first write, so a refusal leaves nothing to roll back."""
    return nullcontext() if connection.in_atomic_block else transaction.atomic()


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
    arriving on a reported player's own account (a divert freeze) lands in
    house:authority_frozen, the entry carrying the player (platform.md §7.4), decided under
    the accounts' locks: a report issued concurrently either committed before (its freeze is
    seen) or moves this credit with the rest (``authority_freeze`` locks the same accounts).

    Four statements with every account id known: the lock, the transaction row (``ON
    CONFLICT DO NOTHING`` with a key: no savepoint), the entries, the balances. A replay
    reads the first transaction instead of writing; the accounts' first use adds the read
    and insert that make them. Every check comes before the first write.
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
    spends_money = not allow_frozen and any(
        leg.amount < 0 and leg.currency in (CASH, BONUS) and leg.code.startswith("player:") for leg in legs)
    keys = {(leg.code, leg.currency) for leg in legs}
    divertible = {leg.currency for leg in legs if _divertible(leg)}
    keys |= {(AUTHORITY_FROZEN, currency) for currency in divertible}
    with _atomic():
        locked = _accounts_lock(keys, frozen=spends_money, diverted=bool(divertible))
        now = timezone.now()
        before = {account.pk: account.balance for account in locked.values()}
        balances = dict(before)
        entries: list[tuple] = []  # (account, leg, balance after)
        refusal: Exception | None = None
        for leg in legs:
            account = locked[(leg.code, leg.currency)]
            if account.diverted and _divertible(leg):
                leg = Leg(AUTHORITY_FROZEN, leg.currency, leg.amount, player_id=account.player_id, kind=leg.kind)
                account = locked[(AUTHORITY_FROZEN, leg.currency)]
            new_balance = balances[account.pk] + leg.amount
            if leg.amount < 0 and account.player_id and leg.currency in (CASH, BONUS) and account.frozen:
                refusal = Conflict(_("This account is frozen by a sanction: nothing can be spent."),
                                   code="account_frozen")
                break
            if new_balance < 0 and not account.allow_negative:
                refusal = (InsufficientFunds(
                    _("Not enough %(currency)s: the balance is %(balance)s, %(needed)s needed.")
                    % _amounts(leg.currency, balances[account.pk], -leg.amount),
                    currency=leg.currency) if account.player_id
                    else LedgerError(f"account {account} would go below zero"))
                break
            balances[account.pk] = new_balance
            entries.append((account, leg, new_balance))
        if refusal is not None:
            # a replay whose first run emptied the account is still that first run
            existing = Transaction.objects.filter(idempotency_key=idempotency_key).first() \
                if idempotency_key else None
            if existing is None:
                raise refusal
            return _same_or_conflict(existing, kind, reference)
        txn = Transaction(kind=kind, reference=reference, idempotency_key=idempotency_key or None,
                          created_by=created_by if getattr(created_by, "pk", None) else None,
                          memo=memo[:200], created=now)
        written = _insert_new(Transaction, [txn], ("idempotency_key",) if idempotency_key else (), ("id",))
        if not written:
            # the key's transaction is already written (or a concurrent twin's just committed)
            return _same_or_conflict(Transaction.objects.get(idempotency_key=idempotency_key), kind, reference)
        txn.pk = written[0][0]
        txn._state.adding = False
        _entries_insert(txn, entries, now)
        changed = [(pk, balance) for pk, balance in balances.items() if balance != before[pk]]
        if changed:
            _balances_update(changed)
    txn.posted_balances = {(account.code, account.currency): after for account, _leg, after in entries}
    return txn


def _entries_insert(txn: Transaction, entries: list[tuple], now: datetime) -> None:
    """The transaction's entries in one insert (nothing returned: no caller needs their ids)."""
    values = {"transaction_id": txn.pk, "created": connection.ops.adapt_datetimefield_value(now)}
    columns = [f.attname for f in Entry._meta.concrete_fields if not f.primary_key]
    params: list = []
    for account, leg, after in entries:
        values.update(account_id=account.pk, currency=leg.currency, amount=leg.amount, balance_after=after,
                      kind=leg.kind or txn.kind, player_id=account.player_id or leg.player_id)
        params += [values[c] for c in columns]
    with connection.cursor() as cursor:
        cursor.execute(_insert_sql(Entry, len(entries)), params)


def _balances_update(changed: list[tuple[int, int]]) -> None:
    """Every changed balance in one ``UPDATE ... CASE``."""
    with connection.cursor() as cursor:
        cursor.execute(_balances_sql(len(changed)), [v for pair in changed for v in pair] + [pk for pk, _ in changed])


def _same_or_conflict(existing: Transaction, kind: str, reference: str) -> Transaction:
    if (existing.kind, existing.reference) != (kind, reference):
        raise Conflict(_("This idempotency key was already used for another movement."),
                       code="idempotency_conflict")
    return existing


def _diverted(player_ids: Iterable[int]) -> set[int]:
    """The players among ``player_ids`` under an authority report, in one read."""
    return set(Freeze.objects.active().filter(player_id__in=list(player_ids), divert=True)
               .values_list("player_id", flat=True))


def _divertible(leg: Leg) -> bool:
    """Cash or bonus arriving on a player's own account: the one thing a divert freeze reroutes."""
    return leg.amount > 0 and leg.currency in (CASH, BONUS) and leg.code.startswith("player:")


def player_credit_legs(player, currency: str, amount: int, kind: str | None = None,
                       diverted: set[int] | None = None) -> list[Leg]:
    """Where money for a player lands: their account, or the authority-frozen account
    while an ``authority_report`` is active (platform.md §7.4). ``diverted``: the players
    already known to be under a report (``_diverted``), to read it once for many legs."""
    player_id = getattr(player, "pk", player)
    if currency in (CASH, BONUS):
        if diverted is None:
            diverted = _diverted([player_id])
        if player_id in diverted:
            return [Leg(AUTHORITY_FROZEN, currency, amount, player_id=player_id, kind=kind)]
    return [Leg(f"player:{player_id}", currency, amount, kind=kind)]


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
        raise ValidationFailed(_("Adjustments and passports are for players, not staff accounts."),
                               fields={"player": [_("This user is a staff account, not a player.")]})


#: a finance adjustment's ceiling either way (platform.md §12): €1,000,000 in cents, or as many
#: bonus cents or credits
ADJUSTMENT_MAX = 100_000_000


def wallet_adjust(*, actor, player, currency: object, amount: object, reason: object,
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
        codes = list(_account_ids({(player_code(player_id), c) for c in (CASH, BONUS)}, cached=False).values())
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
        frozen = list(_account_ids({(AUTHORITY_FROZEN, c) for c in (CASH, BONUS)}, cached=False).values())
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
    code = player_code(player)
    posted = getattr(txn, "posted_balances", {})  # just written by ledger_post: no read
    if (code, currency) in posted:
        return posted[(code, currency)]
    entry = txn.entries.filter(account__code=code, currency=currency).first()
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
                _("You have %(balance)s credits: a recharge is possible only below %(below)s.")
                % {"balance": account.balance, "below": RECHARGE_BELOW},
                reason="balance_not_low")
        pending = CreditRecharge.objects.filter(player=player, credited_at__isnull=True).order_by("available_at").first()
        if pending is not None:
            at = pending.available_at.astimezone(ROME).strftime("%d/%m/%Y %H:%M")
            raise RechargeNotAllowed(
                _("A recharge is already on its way: it arrives at %(at)s (Rome time); ask again after it.") % {"at": at},
                reason="pending")
        start, end = _rome_day_bounds(now)
        if CreditRecharge.objects.filter(player=player, requested_at__gte=start, requested_at__lt=end).count() \
                >= RECHARGES_PER_DAY:
            raise RechargeNotAllowed(
                _("You already asked for %(n)s recharges today: try again tomorrow (%(day)s, Rome time).")
                % {"n": RECHARGES_PER_DAY, "day": end.strftime("%d/%m/%Y")},
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
    diverted = _diverted(pid for pid, amount in payouts.items() if amount > 0) if currency in (CASH, BONUS) \
        else set()
    for player_id in sorted(payouts):
        amount = payouts[player_id]
        if amount > 0:
            entry_kind = "winnings" if amount > paid.get(player_id, 0) else "stake_return"
            legs.extend(player_credit_legs(player_id, currency, amount, kind=entry_kind, diverted=diverted))
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


# -- many transactions at once (tournament refunds and prizes) ------------------------------


@dataclass(frozen=True)
class Posting:
    """One transaction of a batch: its legs must balance per currency; the key is required."""

    kind: str
    reference: str
    legs: tuple[Leg, ...]
    idempotency_key: str
    memo: str = ""


def ledger_post_many(*, postings: list[Posting], created_by=None) -> dict[str, Transaction]:
    """Write many balanced transactions in a fixed number of queries, whatever their number.

    Postings whose idempotency key is already in the ledger are skipped (their money moved
    before): the unique key is what makes a rerun or a concurrent twin pay nothing twice (a
    twin that commits first makes this batch fail on the unique index and roll back whole;
    rerun it). Credits to a reported player are diverted to house:authority_frozen like
    ``player_credit_legs`` does; a player account that would go below zero raises
    :class:`InsufficientFunds` and nothing is written. Returns the new transactions by key.
    """
    for posting in postings:
        totals: dict[str, int] = defaultdict(int)
        for leg in posting.legs:
            if type(leg.amount) is not int or leg.currency not in CURRENCIES:
                raise LedgerError(f"malformed leg {leg!r}")
            totals[leg.currency] += leg.amount
        if any(totals.values()) or not any(leg.amount for leg in posting.legs):
            raise LedgerError(f"unbalanced or empty posting {posting.kind} {posting.reference}")
    if not postings:
        return {}
    with transaction.atomic():
        keys = [p.idempotency_key for p in postings]
        done = dict(Transaction.objects.filter(idempotency_key__in=keys).values_list("idempotency_key", "kind"))
        todo = [p for p in postings if p.idempotency_key not in done]
        if not todo:
            return {}
        player_ids = {int(leg.code.split(":")[1]) for p in todo for leg in p.legs
                      if leg.code.startswith("player:") and leg.amount > 0}
        diverted = set(Freeze.objects.active().filter(player_id__in=player_ids, divert=True)
                       .values_list("player_id", flat=True)) if player_ids else set()

        def route(leg: Leg) -> Leg:
            if leg.amount > 0 and leg.currency in (CASH, BONUS) and leg.code.startswith("player:"):
                pid = int(leg.code.split(":")[1])
                if pid in diverted:
                    return Leg(AUTHORITY_FROZEN, leg.currency, leg.amount, player_id=pid, kind=leg.kind)
            return leg

        legs_of = [[route(leg) for leg in p.legs if leg.amount] for p in todo]
        wanted = {(leg.code, leg.currency) for legs in legs_of for leg in legs}
        by_currency: dict[str, set[str]] = defaultdict(set)
        for code, currency in wanted:
            by_currency[currency].add(code)
        exact = Q()
        for currency, codes in sorted(by_currency.items()):
            exact |= Q(currency=currency, code__in=sorted(codes))

        def lock() -> dict[tuple[str, str], Account]:
            return {(a.code, a.currency): a for a in Account.objects.select_for_update().filter(exact).order_by("pk")}

        locked = lock()
        missing = wanted - set(locked)
        if missing:  # created on first use, then locked with the others (in id order again)
            Account.objects.bulk_create([
                Account(code=code, currency=currency,
                        player_id=int(code.split(":")[1]) if code.startswith("player:") else None,
                        allow_negative=code in NEGATIVE_ALLOWED)
                for code, currency in sorted(missing)], ignore_conflicts=True)
            locked = lock()
        now = timezone.now()
        txns = Transaction.objects.bulk_create([
            Transaction(kind=p.kind, reference=p.reference, idempotency_key=p.idempotency_key,
                        created_by=created_by if getattr(created_by, "pk", None) else None,
                        memo=p.memo[:200], created=now) for p in todo])
        entries = []
        for txn, legs in zip(txns, legs_of, strict=True):
            for leg in legs:
                account = locked[(leg.code, leg.currency)]
                account.balance += leg.amount
                if account.balance < 0 and not account.allow_negative:
                    if account.player_id:
                        raise InsufficientFunds(_("Not enough %(currency)s on %(account)s.") % {"currency": leg.currency, "account": account}, currency=leg.currency)
                    raise LedgerError(f"account {account} would go below zero")
                entries.append(Entry(transaction=txn, account=account, currency=leg.currency, amount=leg.amount,
                                     balance_after=account.balance, player_id=account.player_id or leg.player_id,
                                     created=now, kind=leg.kind or txn.kind))
        Entry.objects.bulk_create(entries)
        touched = {id(locked[key]): locked[key] for key in wanted}
        rows_update(Account, list(touched.values()), ["balance"])  # linear, one statement
    return {t.idempotency_key: t for t in txns}


def escrow_close(*, code: str) -> None:
    """Mark an escrow closed: its event is over and check_ledger expects it at zero."""
    Account.objects.filter(code=code).update(closed=True)
