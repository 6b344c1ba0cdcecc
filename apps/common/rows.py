"""Model rows read by a hand-written statement, for the few reads on the move path.

The ORM compiles a queryset's SQL again on every run: for the one-row reads a move repeats
hundreds of times a second (a robot's move drawn by another process) that compiling cost more
CPU than the statement (issue 15). Here the statement is plain text built once, and the rows
become model instances with the same field converters the ORM applies (JSON decoded, SQLite's
dates and booleans), so callers get ordinary instances.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from django.db import connection, models


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
