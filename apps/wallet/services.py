"""Every movement of money goes through here (platform.md §3, §4).

``ledger_post`` is the one writer: it checks that each currency sums to zero, locks
the accounts it touches in ascending id order (Saleor's rule, no deadlocks), checks
balances under the lock, and writes the transaction, its entries and the cached
balances in one database transaction. The other functions are the domain's moves.
"""

from __future__ import annotations

import functools
from collections import defaultdict
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from django.db import connection, transaction
from django.db.models import Q, Sum
from django.utils import timezone
from django.utils.translation import gettext as _

try:  # PostgreSQL with psycopg 3 (a dependency); absent with another driver
    import psycopg
    from django.db.backends.postgresql.base import ServerBindingCursor
except ImportError:  # pragma: no cover
    psycopg = ServerBindingCursor = None

from apps.adm.services import adm_enqueue
from apps.audit.services import audit_record
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
    Deposit,
    Entry,
    Freeze,
    Transaction,
    Withdrawal,
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
        # one ``code IN (...)`` per currency: an OR of one term per account cost a refund
        # batch of 2,000 accounts seconds of query building and planning (bench/refunds.py)
        by_currency: dict[str, list[str]] = defaultdict(list)
        for code, currency in wanted:
            by_currency[currency].append(code)
        match = Q()
        for currency, codes in by_currency.items():
            match |= Q(currency=currency, code__in=codes)
        for pk, code, currency in Account.objects.filter(match).values_list("pk", "code", "currency"):
            if (code, currency) in wanted_keys:
                found[(code, currency)] = pk

    wanted_keys = set(missing)

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
    #: the account's own divert flag (Account.diverted), fresh: read with the row's lock
    diverted: bool = False

    def __str__(self) -> str:
        return f"{self.code}:{self.currency}"


def _qn(name: str) -> str:
    return connection.ops.quote_name(name)


def _accounts_lock(keys: set[tuple[str, str]], *, frozen: bool) -> dict[tuple[str, str], _Locked]:
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
        arrays = _arrays(len(wanted))
        with _cursor() as cursor:
            cursor.execute(_lock_sql(len(wanted), frozen, connection.features.has_select_for_update, arrays),
                           params + ([wanted] if arrays else wanted))
            rows = cursor.fetchall()
        by_key = {(row[1], row[2]): _Locked(row[0], row[1], row[2], row[3], bool(row[4]), row[5], bool(row[6]),
                                            bool(row[7]))
                  for row in rows}
        if all(key in by_key and by_key[key].pk == pk for key, pk in ids.items()):
            return by_key
    raise LedgerError(f"accounts {sorted(keys)} could not be locked")  # pragma: no cover


#: from this many rows on, PostgreSQL gets a statement's rows as one array per column
#: (``unnest``) and its ids as one array (``= ANY``), so the statement's text is the same for
#: any number of rows: thousands of placeholders cost more to build, convert (psycopg splits a
#: long query again on every run) and plan (each length is a new statement) than the work
#: itself (bench/refunds.py: a refund batch). A lone transaction keeps its short statements.
ARRAY_ROWS = 16


def _arrays(rows: int) -> bool:
    return rows >= ARRAY_ROWS and connection.vendor == "postgresql"


@functools.lru_cache(maxsize=256)
def _lock_sql(count: int, frozen: bool, for_update: bool, arrays: bool = False) -> str:
    a, f = _qn(Account._meta.db_table), _qn(Freeze._meta.db_table)

    def active() -> str:
        return (f"EXISTS (SELECT 1 FROM {f} f WHERE f.{_qn('player_id')} = a.{_qn('player_id')}"
                f" AND f.{_qn('lifted_at')} IS NULL AND f.{_qn('starts_at')} <= %s"
                f" AND (f.{_qn('ends_at')} IS NULL OR f.{_qn('ends_at')} > %s))")

    frozen_sql = active() if frozen else "0"
    sql = (f"SELECT a.{_qn('id')}, a.{_qn('code')}, a.{_qn('currency')}, a.{_qn('player_id')},"
           f" a.{_qn('allow_negative')}, a.{_qn('balance')}, {frozen_sql}, a.{_qn('diverted')} FROM {a} a"
           f" WHERE a.{_qn('id')} {_ids_in(count, arrays)} ORDER BY a.{_qn('id')}")
    return sql + " FOR UPDATE OF a" if for_update else sql


def _ids_in(count: int, arrays: bool) -> str:
    return "= ANY(%s)" if arrays else f"IN ({', '.join(['%s'] * count)})"


@functools.lru_cache(maxsize=256)
def _balances_sql(count: int, arrays: bool = False) -> str:
    table = _qn(Account._meta.db_table)
    if arrays:
        return (f"UPDATE {table} SET {_qn('balance')} = v.b FROM unnest(%s::bigint[], %s::bigint[]) AS v(i, b)"
                f" WHERE {table}.{_qn('id')} = v.i")
    return (f"UPDATE {table} SET {_qn('balance')} = CASE {_qn('id')}"
            f" {' '.join(['WHEN %s THEN %s'] * count)} END"
            f" WHERE {_qn('id')} IN ({', '.join(['%s'] * count)})")


@functools.lru_cache(maxsize=256)
def _insert_sql(model, rows: int, conflict: tuple[str, ...] = (), returning: tuple[str, ...] = (),
                arrays: bool = False) -> str:
    """``INSERT`` of ``rows`` rows; ``arrays``: its parameters are one array a column (PostgreSQL)."""
    columns = [f.column for f in model._meta.concrete_fields if not f.primary_key]
    row = f"({', '.join(['%s'] * len(columns))})"
    sql = (f"INSERT INTO {_qn(model._meta.db_table)} ({', '.join(_qn(c) for c in columns)})"
           f" VALUES {', '.join([row] * rows)}")
    if arrays:  # one array a column, the rows in their order (their ids, the balances after)
        fields = [f for f in model._meta.concrete_fields if not f.primary_key]
        names = [f"c{i}" for i in range(len(fields))]
        arrays = ", ".join(f"%s::{f.db_type(connection)}[]" for f in fields)
        sql = (f"INSERT INTO {_qn(model._meta.db_table)} ({', '.join(_qn(c) for c in columns)})"
               f" SELECT {', '.join(names)} FROM unnest({arrays}) WITH ORDINALITY AS u({', '.join(names)}, n)"
               f" ORDER BY n")
    if conflict:
        sql += f" ON CONFLICT ({', '.join(_qn(model._meta.get_field(c).column) for c in conflict)}) DO NOTHING"
    if returning:
        sql += f" RETURNING {', '.join(_qn(model._meta.get_field(c).column) for c in returning)}"
    return sql


def _insert_send(model, objs: list, conflict: tuple[str, ...], returning: tuple[str, ...]):
    """Execute the insert of :func:`_insert_new` and return its open cursor, the rows unread
    (in a pipeline: not waited for)."""
    fields = [f for f in model._meta.concrete_fields if not f.primary_key]
    arrays = _arrays(len(objs))
    if arrays:
        params = [[f.get_db_prep_save(f.pre_save(obj, True), connection) for obj in objs] for f in fields]
    else:
        params = [f.get_db_prep_save(f.pre_save(obj, True), connection) for obj in objs for f in fields]
    cursor = _cursor()
    cursor.execute(_insert_sql(model, len(objs), conflict, returning, arrays), params)
    return cursor


def _insert_new(model, objs: list, conflict: tuple[str, ...], returning: tuple[str, ...]) -> list[tuple]:
    """``INSERT ... ON CONFLICT (conflict) DO NOTHING RETURNING returning`` of ``objs`` in one
    statement: the rows written (a row whose key is taken is skipped, and a concurrent twin's
    insert is waited for by the database), with no savepoint needed to survive a conflict.
    Django's ``bulk_create(ignore_conflicts=True)`` does the same but returns nothing."""
    with _insert_send(model, objs, conflict, returning) as cursor:
        return cursor.fetchall()


def _atomic():
    """A transaction when none is open; inside one, nothing (no savepoint): ``ledger_post``
    checks everything before its first write, so a refusal leaves nothing to roll back."""
    return nullcontext() if connection.in_atomic_block else transaction.atomic()


@functools.lru_cache(maxsize=1)
def _pipeline_supported() -> bool:
    return ServerBindingCursor is not None and bool(psycopg.Pipeline.is_supported())


#: ``prepare_threshold`` of the connection for the ledger's own cursors: a statement is
#: prepared on the server at its second run (Django's cursors bind on the client and are
#: never prepared, whatever the threshold)
LEDGER_PREPARE_THRESHOLD = 1


@dataclass(frozen=True, slots=True)
class _Ran:
    """What Django's query log reads of a psycopg cursor (``cursor._query.query``)."""

    query: bytes


if ServerBindingCursor is not None:

    class _LedgerCursor(ServerBindingCursor):
        """Django's server-binding cursor that keeps the text of every statement it ran: psycopg
        keeps none for a prepared statement's run, and Django's log (the test's statement
        counts, the debug toolbar) would show ``None``. The text is the statement with its
        ``%s`` placeholders."""

        def execute(self, query, params=None, **kwargs):
            result = super().execute(query, params, **kwargs)
            self._query = _Ran(query.encode() if isinstance(query, str) else query)
            return result


def _cursor():
    """A cursor for the ledger's four plain-SQL statements. On PostgreSQL with psycopg 3 it binds
    its parameters on the server, so psycopg prepares each statement once per connection and
    the server skips parsing and planning it again (issue 15: a transaction's server CPU was
    as much as its client's); elsewhere Django's own cursor. Either way Django wraps it: the
    statements are counted, logged and their errors are Django's."""
    if connection.vendor != "postgresql" or not _pipeline_supported():
        return connection.cursor()
    connection.ensure_connection()
    raw = connection.connection
    if raw.prepare_threshold is None:
        raw.prepare_threshold = LEDGER_PREPARE_THRESHOLD
    with connection.wrap_database_errors:
        return connection._prepare_cursor(_LedgerCursor(raw))


@contextmanager
def _pipelined() -> Iterator[bool]:
    """On PostgreSQL with psycopg 3, the block's statements go out in pipeline mode: a statement
    whose answer is not read yet does not wait for it, so the writes of a transaction (and the
    ``BEGIN`` before its lock) share round trips; the statements themselves are the same ones,
    counted and logged as ever. Reading a result (``fetchall``) waits for it; an error in a
    pipelined statement surfaces at the latest when the block ends, as Django's error, and
    skips the statements after it. Elsewhere (SQLite) the block runs as it is. Yields whether
    the block is pipelined.

    Issue 15: a transaction's cost was its six round trips (begin, four statements, commit),
    not its Python: each wakes the client and the server."""
    if connection.vendor != "postgresql" or not _pipeline_supported():
        yield False
        return
    connection.ensure_connection()
    with connection.wrap_database_errors, connection.connection.pipeline():
        yield True


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
    txn.posted_balances = {(account.code, account.currency): after for account, _leg, after in entries}
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
    values = {"created": connection.ops.adapt_datetimefield_value(now)}
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


#: the accounts locked after every other one (``_divert_decide``)
AUTHORITY_CODES = frozenset({AUTHORITY_FROZEN, AUTHORITY_REMITTED})


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


def player_credit_legs(player, currency: str, amount: int, kind: str | None = None) -> list[Leg]:
    """Money for a player: a leg to their own account. ``ledger_post`` itself sends it to
    house:authority_frozen while an ``authority_report`` is active (platform.md §7.4), decided
    under the account's lock: a decision read here, before the lock, could be stale."""
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
        if currency in (CASH, BONUS):  # regulation.md §7.1: ADM is told of every money movement
            adm_enqueue(type="movement", reference=reference, player_id=player.pk, transaction_ids=[txn.pk],
                        payload={"direction": "in" if amount > 0 else "out", "amount_cents": abs(amount),
                                 "currency": currency, "kind": "adjustment"})
    return adjustment, txn


def wallet_freeze_set(*, player_id: int, reference: str, divert: bool, starts_at: datetime,
                      ends_at: datetime | None, lifted_at: datetime | None) -> Freeze:
    """Record a hold on a player's money, or update it (lifted, shortened): compliance calls it
    for every account suspension (``divert=False``) and authority report (``divert=True``)
    it writes, in the same database transaction. Safe to call twice.

    A divert freeze lasts until it is lifted (an authority report is permanent, §7.4). Its
    effect is mirrored on the player's cash and bonus accounts (``Account.diverted``), written
    under their locks, taken first: the lock order of ``_divert_decide``."""
    if divert and ends_at is not None:
        raise LedgerError("a divert freeze lasts until it is lifted (an authority report is permanent)")
    with transaction.atomic():
        own = _account_ids({(player_code(player_id), c) for c in (CASH, BONUS)}, cached=False)
        list(Account.objects.select_for_update().filter(pk__in=sorted(own.values())).order_by("pk"))
        freeze, _ = Freeze.objects.update_or_create(reference=reference, defaults={
            "player_id": player_id, "divert": divert, "starts_at": starts_at, "ends_at": ends_at,
            "lifted_at": lifted_at})
        diverted = Freeze.objects.filter(player_id=player_id, divert=True, lifted_at__isnull=True).exists()
        Account.objects.filter(pk__in=own.values()).exclude(diverted=diverted).update(diverted=diverted)
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
        # the wallet's lock order: the player's accounts, then the authority ones (_divert_decide)
        own = list(_account_ids({(player_code(player_id), c) for c in (CASH, BONUS)}, cached=False).values())
        list(Account.objects.select_for_update().filter(pk__in=own).order_by("pk"))
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
    return {t.idempotency_key: t for t in txns}


def escrow_close(*, code: str) -> None:
    """Mark an escrow closed: its event is over and check_ledger expects it at zero."""
    Account.objects.filter(code=code).update(closed=True)


# -- the conto's end (regulation.md §1.8) -------------------------------------------------------


def _balance_now(player_id: int, currency: str) -> int:
    account = Account.objects.select_for_update().filter(code=f"player:{player_id}", currency=currency).first()
    return account.balance if account is not None else 0


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


# -- the cashier (regulation.md §5.5): money in and out, each step one keyed transaction --------


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
