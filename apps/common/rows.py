"""Model rows read and written by a hand-written statement, for the statements of the move path.

The ORM compiles a queryset's SQL again on every run: for the one-row reads a move repeats
hundreds of times a second (a robot's move drawn by another process) that compiling cost more
CPU than the statement (issue 15), and so it did for the move's own four statements (the lock,
the seats, the log row, the match's changed fields: the SQL compiler was 29 % of a robot move
in the worker's profile, issue 30). Here the statement is plain text built once, its
parameters prepared by the fields as ``save()`` prepares them, and the rows become model
instances with the same field converters the ORM applies (JSON decoded, SQLite's dates and
booleans), so callers get ordinary instances. Through Django's cursor: the statements are
counted and logged as ever.

What these do not do: ``save()``'s signals (``pre_save``/``post_save``) do not fire; a caller
uses them only for writes whose receivers (if any) would ignore them.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from django.db import DatabaseError, connection, models


@functools.lru_cache(maxsize=64)
def _layout(model: type[models.Model], vendor: str) -> tuple[list[str], list[str], list[tuple[Any, list[Callable]]]]:
    """(columns, attribute names, (expression, converters) per column) of the model's concrete
    fields; ``vendor`` keys the cache (the converters are the backend's)."""
    fields = model._meta.concrete_fields
    converters = []
    for f in fields:
        expression = f.get_col(model._meta.db_table)
        converters.append((expression, connection.ops.get_db_converters(expression) + f.get_db_converters(connection)))
    return [f.column for f in fields], [f.attname for f in fields], converters


M = TypeVar("M", bound=models.Model)


def columns(model: type[models.Model], alias: str) -> str:
    """``alias."col", ...``: every concrete field of ``model``, in the order ``instance`` reads."""
    cols, _attnames, _conv = _layout(model, connection.vendor)
    return ", ".join(f'{alias}."{c}"' for c in cols)


def width(model: type[models.Model]) -> int:
    return len(model._meta.concrete_fields)


def instance(model: type[M], row: Sequence[Any], start: int = 0) -> M:
    """The instance of ``model`` whose columns (``columns``) begin at ``row[start]``, converted as
    the ORM converts them, marked as loaded from the database."""
    cols, attnames, converters = _layout(model, connection.vendor)
    values = []
    for i, (expression, convs) in enumerate(converters):
        value = row[start + i]
        for convert in convs:
            value = convert(value, expression, connection)
        values.append(value)
    return model.from_db(connection.alias, attnames, values)


def _qn(name: str) -> str:
    return connection.ops.quote_name(name)


@functools.lru_cache(maxsize=128)
def _select_sql(model: type[models.Model], vendor: str, where: str, order: str, limit: int | None, lock: bool) -> str:
    table = _qn(model._meta.db_table)
    sql = f"SELECT {columns(model, table)} FROM {table} WHERE {where}"
    if order:
        sql += f" ORDER BY {order}"
    if limit is not None:
        sql += f" LIMIT {int(limit)}"
    if lock:  # the outer table's rows only: a subquery in ``where`` locks nothing
        sql += " FOR UPDATE"
    return sql


def select(model: type[M], *, where: str, params: Sequence[Any], order: str = "", limit: int | None = None,
           lock: bool = False) -> list[M]:
    """The rows of ``model`` matching ``where`` (SQL over its own columns, ``%s`` placeholders),
    as instances; ``lock``: ``SELECT ... FOR UPDATE`` where the database has it."""
    lock = lock and connection.features.has_select_for_update
    with connection.cursor() as cursor:
        cursor.execute(_select_sql(model, connection.vendor, where, order, limit, lock), list(params))
        found = cursor.fetchall()
    return [instance(model, row) for row in found]


@functools.lru_cache(maxsize=128)
def _update_sql(model: type[models.Model], vendor: str, fields: tuple[str, ...]) -> str:
    sets = ", ".join(f"{_qn(model._meta.get_field(name).column)} = %s" for name in fields)
    return f"UPDATE {_qn(model._meta.db_table)} SET {sets} WHERE {_qn(model._meta.pk.column)} = %s"


def update(obj: models.Model, fields: Sequence[str]) -> None:
    """``obj.save(update_fields=fields)`` in one statement; as it, an error when no row was
    written (the row is gone)."""
    named = [obj._meta.get_field(name) for name in fields]
    params = [f.get_db_prep_save(f.pre_save(obj, False), connection) for f in named]
    params.append(obj._meta.pk.get_db_prep_value(obj.pk, connection))
    with connection.cursor() as cursor:
        cursor.execute(_update_sql(type(obj), connection.vendor, tuple(fields)), params)
        if cursor.rowcount == 0:
            raise DatabaseError("Save with update_fields did not affect any rows.")


@functools.lru_cache(maxsize=64)
def _insert_sql(model: type[models.Model], vendor: str) -> str:
    cols = [f.column for f in model._meta.concrete_fields if not f.primary_key]
    return (f"INSERT INTO {_qn(model._meta.db_table)} ({', '.join(_qn(c) for c in cols)})"
            f" VALUES ({', '.join(['%s'] * len(cols))}) RETURNING {_qn(model._meta.pk.column)}")


def insert(obj: M) -> M:
    """``obj.save()`` of a new row in one statement (``INSERT ... RETURNING`` its id)."""
    fields = [f for f in obj._meta.concrete_fields if not f.primary_key]
    params = [f.get_db_prep_save(f.pre_save(obj, True), connection) for f in fields]
    with connection.cursor() as cursor:
        cursor.execute(_insert_sql(type(obj), connection.vendor), params)
        obj.pk = cursor.fetchone()[0]
    obj._state.adding = False
    obj._state.db = connection.alias
    return obj
