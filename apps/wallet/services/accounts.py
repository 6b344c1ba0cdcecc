"""The ledger's accounts: codes, lookup (ids cached once committed), and the row locks taken in one order (ascending id, the authority accounts last: Saleor's rule)."""

from __future__ import annotations

import functools
from collections import defaultdict
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from apps.common.errors import ValidationFailed
from apps.common.roles import is_staff_member

from ..models import (
    BONUS,
    CASH,
    CREDITS,
    CURRENCIES,
    Account,
    Freeze,
)
from .sql import LedgerError, _arrays, _cursor, _insert_new, _qn

#: house accounts that may go below zero: they stand for money outside the platform
NEGATIVE_ALLOWED = frozenset({"house:cashier", "house:promotions", "house:guarantee", "house:play_money"})


#: a reported player's cash and bonus, per player (entries carry the player id), and what the
#: authority decided to keep (platform.md §7.4)
AUTHORITY_FROZEN = "house:authority_frozen"


AUTHORITY_REMITTED = "house:authority_remitted"


#: the accounts locked after every other one (``_divert_decide``)
AUTHORITY_CODES = frozenset({AUTHORITY_FROZEN, AUTHORITY_REMITTED})


ADJUSTMENT_COUNTER = {CASH: "house:cashier", BONUS: "house:promotions", CREDITS: "house:play_money"}


def player_code(player: User | int) -> str:
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


def player_account_require(player: User) -> None:
    """400 for a staff account: adjustments and passports are for players."""
    if is_staff_member(player):
        raise ValidationFailed(_("Adjustments and passports are for players, not staff accounts."),
                               fields={"player": [_("This user is a staff account, not a player.")]})


def match_escrow_code(match_id: int) -> str:
    return f"escrow:match:{match_id}"


def _balance_now(player_id: int, currency: str) -> int:
    account = Account.objects.select_for_update().filter(code=f"player:{player_id}", currency=currency).first()
    return account.balance if account is not None else 0
