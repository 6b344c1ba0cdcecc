"""``ledger_post``, the one writer (platform.md §3): each currency sums to zero, the accounts locked in order, balances checked under the lock, the transaction, its entries and the cached balances written together; a reported player's arriving cash and bonus diverted (§7.4); many postings at once (``ledger_post_many``)."""

from __future__ import annotations

import functools
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from apps.common.errors import Conflict, InsufficientFunds
from apps.common.metrics import LEDGER_TRANSACTIONS
from apps.common.templatetags.money import format_euro

from ..models import (
    BONUS,
    CASH,
    CURRENCIES,
    Entry,
    Transaction,
)
from .accounts import (
    AUTHORITY_CODES,
    AUTHORITY_FROZEN,
    _accounts_lock,
    _balances_sql,
    _Locked,
    account_get,
    player_code,
)
from .sql import (
    LedgerError,
    _arrays,
    _atomic,
    _cursor,
    _insert_new,
    _insert_send,
    _insert_sql,
    _pipelined,
    _qn,
)


def _amounts(currency: str, balance: int, needed: int) -> dict[str, str]:
    """Amounts for a sentence: euro for cash and bonus, plain numbers for credits."""
    if currency in (CASH, BONUS):
        return {"currency": str(_("cash") if currency == CASH else _("bonus")), "balance": format_euro(balance),
                "needed": format_euro(needed)}
    return {"currency": str(_("credits")), "balance": str(balance), "needed": str(needed)}


@dataclass(frozen=True)
class Leg:
    code: str
    currency: str
    amount: int
    #: for a shared house account, the player whose share moves (authority_frozen)
    player_id: int | None = None
    #: the entry's kind when it differs from the transaction's
    kind: str | None = None


def ledger_post(
    *,
    kind: str,
    reference: str,
    legs: Iterable[Leg],
    idempotency_key: str | None = None,
    created_by: User | None = None,
    memo: str = "",
    allow_frozen: bool = False,
) -> Transaction:
    """Write one balanced transaction, or raise and write nothing.

    With an ``idempotency_key`` a second call (even a concurrent one) returns the first
    transaction and moves nothing. A player account that would go below zero raises
    :class:`InsufficientFunds`; a frozen player's cash or bonus cannot be spent; cash or bonus
    arriving on a reported player's own account (a divert freeze) lands in
    house:authority_frozen, the entry carrying the player (platform.md §7.4).

    The divert decision (``_divert_decide``) is the player's account's own flag, read with its
    lock, so it holds whatever committed while this waited for the lock; house:authority_frozen
    is locked only when a credit is diverted, after every other account (the one lock order of
    the wallet: player and other accounts in id order, then the authority accounts), so a
    credit to a player who is not reported never waits on that row.

    Four statements with every account id known: the lock, the transaction row (``ON
    CONFLICT DO NOTHING`` with a key: no savepoint), the entries, the balances; a diverted
    credit adds the lock of the authority account. A replay reads the first
    transaction instead of writing; the accounts' first use adds the read and insert that
    make them. Every check comes before the first write.
    """
    legs = _legs_checked(kind, reference, legs)
    keys, spends_money = _lock_keys([legs], allow_frozen)
    pending = None  # the transaction's insert when its id is read after the pipeline
    with _atomic(), _pipelined() as pipelined:
        locked = _divert_decide(keys, legs, frozen=spends_money)
        now = timezone.now()
        before = {account.pk: account.balance for account in locked.values()}
        balances = dict(before)
        entries, refusal = _entries_plan(locked, legs, balances)
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
        if pipelined and not idempotency_key:
            # nothing can stop the insert: its id is read once the pipeline is through, and the
            # entries take it from the session's sequence (currval: this very insert's)
            pending = _insert_send(Transaction, [txn], (), ("id",))
        else:
            written = _insert_new(Transaction, [txn], ("idempotency_key",) if idempotency_key else (), ("id",))
            if not written:
                # the key's transaction is already written (or a concurrent twin's just committed)
                return _same_or_conflict(Transaction.objects.get(idempotency_key=idempotency_key), kind,
                                         reference)
            txn.pk = written[0][0]
        _entries_insert([(txn, entries)], now)
        changed = [(pk, balance) for pk, balance in balances.items() if balance != before[pk]]
        if changed:
            _balances_update(changed)
    if pending is not None:
        with pending:
            txn.pk = pending.fetchone()[0]
    txn._state.adding = False
    transaction.on_commit(LEDGER_TRANSACTIONS.inc)  # counted once it holds (/metrics)
    setattr(txn, "posted_balances", {(account.code, account.currency): after  # noqa: B010  (read by callers)
                                     for account, _leg, after in entries})
    return txn


def _legs_checked(kind: str, reference: str, legs: Iterable[Leg]) -> list[Leg]:
    """The non-zero legs of one transaction, checked: well formed, balanced per currency, not
    none at all (else :class:`LedgerError`: a programming error)."""
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
    return legs


def _lock_keys(legs_of: list[list[Leg]], allow_frozen: bool) -> tuple[set[tuple[str, str]], bool]:
    """What the lock reads for these transactions: the accounts their legs name (the authority
    account a diversion needs is added by ``_divert_decide``, only when one is diverted) and
    whether a freeze must be read (a player's cash or bonus is spent)."""
    keys = {(leg.code, leg.currency) for legs in legs_of for leg in legs}
    spends_money = not allow_frozen and any(
        leg.amount < 0 and leg.currency in (CASH, BONUS) and leg.code.startswith("player:")
        for legs in legs_of for leg in legs)
    return keys, spends_money


def _entries_plan(locked: dict[tuple[str, str], _Locked], legs: list[Leg],
                  balances: dict[int, int]) -> tuple[list[tuple], Exception | None]:
    """One transaction's entries ``(account, leg, balance after)`` on the locked accounts, the
    running ``balances`` (by account id) moved along; or the refusal that stops it (a frozen
    player spending, a balance below zero), the balances then half moved: the caller writes
    nothing. A divertible credit to a reported player goes to house:authority_frozen."""
    entries: list[tuple] = []
    for leg in legs:
        account = locked[(leg.code, leg.currency)]
        if account.diverted and _divertible(leg):
            leg = Leg(AUTHORITY_FROZEN, leg.currency, leg.amount, player_id=account.player_id, kind=leg.kind)
            account = locked[(AUTHORITY_FROZEN, leg.currency)]
        new_balance = balances[account.pk] + leg.amount
        if leg.amount < 0 and account.player_id and leg.currency in (CASH, BONUS) and account.frozen:
            return entries, Conflict(_("This account is frozen by a sanction: nothing can be spent."),
                                     code="account_frozen")
        if new_balance < 0 and not account.allow_negative:
            return entries, (InsufficientFunds(
                _("Not enough %(currency)s: the balance is %(balance)s, %(needed)s needed.")
                % _amounts(leg.currency, balances[account.pk], -leg.amount),
                currency=leg.currency) if account.player_id
                else LedgerError(f"account {account} would go below zero"))
        balances[account.pk] = new_balance
        entries.append((account, leg, new_balance))
    return entries, None


#: the columns an entry row is written with, in the order of ``_insert_sql(Entry, ...)``
@functools.lru_cache(maxsize=1)
def _entry_columns() -> tuple[str, ...]:
    return tuple(f.attname for f in Entry._meta.concrete_fields if not f.primary_key)


@functools.lru_cache(maxsize=64)
def _entries_sql(rows: int, current: bool) -> str:
    """``_insert_sql(Entry, rows)``; ``current``: the transaction id is the session's last one
    from the transaction table's sequence (``currval``), not a parameter."""
    if not current:
        return _insert_sql(Entry, rows, arrays=_arrays(rows))
    sql = _insert_sql(Entry, rows)
    columns = _entry_columns()
    table = Transaction._meta.db_table
    pk = Transaction._meta.pk.column
    last = f"currval(pg_get_serial_sequence('{_qn(table)}', '{pk}'))"
    row = "(" + ", ".join(last if c == "transaction_id" else "%s" for c in columns) + ")"
    head = sql.split(" VALUES ", 1)[0]
    return f"{head} VALUES {', '.join([row] * rows)}"


def _entries_insert(written: list[tuple[Transaction, list[tuple]]], now: datetime) -> None:
    """The entries ``(account, leg, balance after)`` of these transactions in one insert
    (nothing returned: no caller needs their ids). A lone transaction whose id is not known
    yet (its insert is in flight in the pipeline) gives its entries the id that insert took."""
    current = len(written) == 1 and written[0][0].pk is None
    values: dict[str, Any] = {"created": connection.ops.adapt_datetimefield_value(now)}
    columns = [c for c in _entry_columns() if not (current and c == "transaction_id")]
    params: list = []
    for txn, entries in written:
        values["transaction_id"] = txn.pk
        for account, leg, after in entries:
            values.update(account_id=account.pk, currency=leg.currency, amount=leg.amount, balance_after=after,
                          kind=leg.kind or txn.kind, player_id=account.player_id or leg.player_id)
            params += [values[c] for c in columns]
    rows = len(params) // len(columns)
    if not current and _arrays(rows):  # the same columns, one array each
        params = [params[i::len(columns)] for i in range(len(columns))]
    with _cursor() as cursor:
        cursor.execute(_entries_sql(rows, current), params)


def _balances_update(changed: list[tuple[int, int]]) -> None:
    """Every changed balance in one ``UPDATE ... CASE``."""
    arrays = _arrays(len(changed))
    params = [[pk for pk, _ in changed], [v for _, v in changed]] if arrays else \
        [v for pair in changed for v in pair] + [pk for pk, _ in changed]
    with _cursor() as cursor:
        cursor.execute(_balances_sql(len(changed), arrays), params)


def _same_or_conflict(existing: Transaction, kind: str, reference: str) -> Transaction:
    if (existing.kind, existing.reference) != (kind, reference):
        raise Conflict(_("This idempotency key was already used for another movement."),
                       code="idempotency_conflict")
    return existing


def _divertible(leg: Leg) -> bool:
    """Cash or bonus arriving on a player's own account: the one thing a divert freeze reroutes."""
    return leg.amount > 0 and leg.currency in (CASH, BONUS) and leg.code.startswith("player:")


def _divert_decide(keys: set[tuple[str, str]], legs: list[Leg], *,
                   frozen: bool) -> dict[tuple[str, str], _Locked]:
    """Lock ``keys`` and decide which players' arriving cash and bonus go to
    house:authority_frozen: the locked accounts (with their ``frozen`` and ``diverted``
    flags), house:authority_frozen among them when a credit is diverted.

    1. Every account but the authority ones, in one locked read in id order, with each
       account's ``diverted`` flag. The flag is a column of the locked row, so PostgreSQL
       returns it as the last committer left it even when this waited for the lock (a
       subquery on the freezes would be read in the snapshot taken before the wait, and miss
       a report that committed meanwhile); ``wallet_freeze_set`` writes it under the same
       row lock, so it cannot change while this holds the row.
    2. Only when a credit is diverted, or a leg names an authority account: the authority
       accounts, locked last (the wallet's one lock order: player and other accounts in id
       order, then the authority accounts; ``authority_freeze`` and ``authority_settle`` keep
       it). A credit to a player who is not reported never locks or waits on them."""
    named = {key for key in keys if key[0] in AUTHORITY_CODES}
    locked = _accounts_lock(keys - named, frozen=frozen) if keys - named else {}
    wanted = named | {(AUTHORITY_FROZEN, leg.currency) for leg in legs
                      if _divertible(leg) and locked[(leg.code, leg.currency)].diverted}
    if wanted:
        locked.update(_accounts_lock(wanted, frozen=False))
    return locked


def player_credit_legs(player: User | int, currency: str, amount: int, kind: str | None = None) -> list[Leg]:
    """Money for a player: a leg to their own account. ``ledger_post`` itself sends it to
    house:authority_frozen while an ``authority_report`` is active (platform.md §7.4), decided
    under the account's lock: a decision read here, before the lock, could be stale."""
    return [Leg(player_code(player), currency, amount, kind=kind)]


def wallet_credit(*, player: User | int, currency: str, amount: int, kind: str, reference: str, source: str,
                  idempotency_key: str | None = None, created_by: User | None = None, memo: str = "") -> Transaction:
    """Move ``amount`` from the account ``source`` to the player."""
    legs = [Leg(source, currency, -amount), *player_credit_legs(player, currency, amount)]
    return ledger_post(kind=kind, reference=reference, legs=legs, idempotency_key=idempotency_key,
                       created_by=created_by, memo=memo)


def wallet_debit(*, player: User | int, currency: str, amount: int, kind: str, reference: str, destination: str,
                 idempotency_key: str | None = None, created_by: User | None = None, memo: str = "") -> Transaction:
    """Move ``amount`` from the player to ``destination``; 402 insufficient_funds if short."""
    legs = [Leg(player_code(player), currency, -amount), Leg(destination, currency, amount)]
    return ledger_post(kind=kind, reference=reference, legs=legs, idempotency_key=idempotency_key,
                       created_by=created_by, memo=memo)


def wallet_transfer(*, source: str, destination: str, currency: str, amount: int, kind: str, reference: str,
                    idempotency_key: str | None = None, created_by: User | None = None, memo: str = "") -> Transaction:
    """Move ``amount`` between two accounts (player or house) in one transaction."""
    legs = [Leg(source, currency, -amount), Leg(destination, currency, amount)]
    return ledger_post(kind=kind, reference=reference, legs=legs, idempotency_key=idempotency_key,
                       created_by=created_by, memo=memo)


def entry_balance_after(txn: Transaction, player: User | int, currency: str) -> int:
    code = player_code(player)
    posted = getattr(txn, "posted_balances", {})  # just written by ledger_post: no read
    if (code, currency) in posted:
        return posted[(code, currency)]
    entry = txn.entries.filter(account__code=code, currency=currency).first()
    if entry is not None:
        return entry.balance_after
    return account_get(player_code(player), currency).balance


@dataclass(frozen=True)
class Posting:
    """One transaction of a batch: its legs must balance per currency; the key is required."""

    kind: str
    reference: str
    legs: tuple[Leg, ...]
    idempotency_key: str
    memo: str = ""


def ledger_post_many(*, postings: list[Posting], created_by: User | None = None) -> dict[str, Transaction]:
    """Write many balanced transactions in a fixed number of queries, whatever their number.

    Postings whose idempotency key is already in the ledger are skipped (their money moved
    before): the unique key is what makes a rerun or a concurrent twin pay nothing twice (a
    twin that commits first makes this batch fail on the unique index and roll back whole;
    rerun it). The path and the checks are ``ledger_post``'s, shared: the legs checked, every
    account locked in id order (each player's divert flag read with its lock, the authority
    accounts last and only when a credit is diverted: ``_divert_decide``), each posting's
    entries planned on the running balances (a credit to a reported player diverted to
    house:authority_frozen, a frozen player's spending refused, a player account that would
    go below zero :class:`InsufficientFunds`, and then nothing is written), then the
    transactions, the entries and the balances in one statement each. Returns the new
    transactions by key.
    """
    checked = [(p, _legs_checked(p.kind, p.reference, p.legs)) for p in postings]
    if not checked:
        return {}
    with transaction.atomic(), _pipelined():
        keys = [p.idempotency_key for p in postings]
        done = set(Transaction.objects.filter(idempotency_key__in=keys).values_list("idempotency_key", flat=True))
        todo = [(p, legs) for p, legs in checked if p.idempotency_key not in done]
        if not todo:
            return {}
        wanted, spends_money = _lock_keys([legs for _p, legs in todo], False)
        locked = _divert_decide(wanted, [leg for _p, legs in todo for leg in legs], frozen=spends_money)
        before = {account.pk: account.balance for account in locked.values()}
        balances = dict(before)
        planned = []
        for _posting, legs in todo:
            entries, refusal = _entries_plan(locked, legs, balances)
            if refusal is not None:
                raise refusal
            planned.append(entries)
        now = timezone.now()
        txns = [Transaction(kind=p.kind, reference=p.reference, idempotency_key=p.idempotency_key,
                            created_by=created_by if getattr(created_by, "pk", None) else None,
                            memo=p.memo[:200], created=now) for p, _legs in todo]
        ids = {key: pk for pk, key in _insert_new(Transaction, txns, (), ("id", "idempotency_key"))}
        for txn in txns:
            txn.pk = ids[txn.idempotency_key]
            txn._state.adding = False
        _entries_insert(list(zip(txns, planned, strict=True)), now)
        changed = [(pk, balance) for pk, balance in balances.items() if balance != before[pk]]
        if changed:
            _balances_update(changed)
        written = len(txns)
        transaction.on_commit(lambda: LEDGER_TRANSACTIONS.inc(written))
    return {t.idempotency_key: t for t in txns}
