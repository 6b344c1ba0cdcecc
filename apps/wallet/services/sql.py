"""The ledger's SQL plumbing: server-bound, prepared statements in pipeline mode on PostgreSQL with psycopg 3 (issue 15), Django's cursor elsewhere."""

from __future__ import annotations

import functools
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass
from typing import Any

from django.db import connection, transaction
from django.db.models import Model

try:  # PostgreSQL with psycopg 3 (a dependency); absent with another driver
    import psycopg
    from django.db.backends.postgresql.base import ServerBindingCursor  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover
    psycopg = ServerBindingCursor = None  # type: ignore[assignment,misc]





class LedgerError(Exception):
    """A programming error: an unbalanced transaction or a malformed leg. Never a user error."""


def _qn(name: str) -> str:
    return connection.ops.quote_name(name)


#: from this many rows on, PostgreSQL gets a statement's rows as one array per column
#: (``unnest``) and its ids as one array (``= ANY``), so the statement's text is the same for
#: any number of rows: thousands of placeholders cost more to build, convert (psycopg splits a
#: long query again on every run) and plan (each length is a new statement) than the work
#: itself (bench/refunds.py: a refund batch). A lone transaction keeps its short statements.
ARRAY_ROWS = 16


def _arrays(rows: int) -> bool:
    return rows >= ARRAY_ROWS and connection.vendor == "postgresql"


def _column(model: type[Model], name: str) -> str:
    """The database column of a concrete field."""
    column: str = getattr(model._meta.get_field(name), "column")  # noqa: B009  (a relation has none)
    return column


@functools.lru_cache(maxsize=256)
def _insert_sql(model: type[Model], rows: int, conflict: tuple[str, ...] = (), returning: tuple[str, ...] = (),
                arrays: bool = False) -> str:
    """``INSERT`` of ``rows`` rows; ``arrays``: its parameters are one array a column (PostgreSQL)."""
    columns = [f.column for f in model._meta.concrete_fields if not f.primary_key]
    row = f"({', '.join(['%s'] * len(columns))})"
    sql = (f"INSERT INTO {_qn(model._meta.db_table)} ({', '.join(_qn(c) for c in columns)})"
           f" VALUES {', '.join([row] * rows)}")
    if arrays:  # one array a column, the rows in their order (their ids, the balances after)
        fields = [f for f in model._meta.concrete_fields if not f.primary_key]
        names = [f"c{i}" for i in range(len(fields))]
        unnests = ", ".join(f"%s::{f.db_type(connection)}[]" for f in fields)
        sql = (f"INSERT INTO {_qn(model._meta.db_table)} ({', '.join(_qn(c) for c in columns)})"
               f" SELECT {', '.join(names)} FROM unnest({unnests}) WITH ORDINALITY AS u({', '.join(names)}, n)"
               f" ORDER BY n")
    if conflict:
        sql += f" ON CONFLICT ({', '.join(_qn(_column(model, c)) for c in conflict)}) DO NOTHING"
    if returning:
        sql += f" RETURNING {', '.join(_qn(_column(model, c)) for c in returning)}"
    return sql


def _insert_send(model: type[Model], objs: list, conflict: tuple[str, ...], returning: tuple[str, ...]) -> Any:
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


def _insert_new(model: type[Model], objs: list, conflict: tuple[str, ...], returning: tuple[str, ...]) -> list[tuple]:
    """``INSERT ... ON CONFLICT (conflict) DO NOTHING RETURNING returning`` of ``objs`` in one
    statement: the rows written (a row whose key is taken is skipped, and a concurrent twin's
    insert is waited for by the database), with no savepoint needed to survive a conflict.
    Django's ``bulk_create(ignore_conflicts=True)`` does the same but returns nothing."""
    with _insert_send(model, objs, conflict, returning) as cursor:
        return cursor.fetchall()


def _atomic() -> AbstractContextManager[Any]:
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

        def execute(self, query: str, params: dict[str, Any] | None = None, **kwargs: Any) -> Any:
            result = super().execute(query, params, **kwargs)
            self._query = _Ran(query.encode() if isinstance(query, str) else query)
            return result


def _cursor() -> Any:
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
        return connection._prepare_cursor(_LedgerCursor(raw))  # type: ignore[attr-defined]


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
