"""Many rows updated in one statement, in time linear in their number.

Django's ``bulk_update`` builds a ``CASE WHEN pk=… THEN …`` with one branch per row and
field: building it costs a filter per row in Python, and PostgreSQL walks the branches for
every row (quadratic: minutes for 10,000 rows). On PostgreSQL this is one
``UPDATE … FROM (VALUES …)``; elsewhere it falls back to ``bulk_update`` in batches.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import connection, models


def rows_update(model: type[models.Model], objects: Sequence[models.Model], fields: Sequence[str]) -> int:
    """Write ``fields`` of ``objects`` (already saved rows) back to the database."""
    if not objects:
        return 0
    if connection.vendor != "postgresql":
        return model.objects.bulk_update(objects, list(fields), batch_size=500)
    meta = model._meta
    pk = meta.pk
    cols = [meta.get_field(name) for name in fields]
    casts = [f"%s::{pk.db_type(connection)}"] + [f"%s::{f.db_type(connection)}" for f in cols]
    row = "(" + ", ".join(casts) + ")"
    params: list = []
    for obj in objects:
        params.append(pk.get_db_prep_save(obj.pk, connection))
        params.extend(f.get_db_prep_save(getattr(obj, f.attname), connection) for f in cols)
    names = ", ".join(f'"{f.column}"' for f in cols)
    sets = ", ".join(f'"{f.column}" = v."{f.column}"' for f in cols)
    sql = (f'UPDATE "{meta.db_table}" AS t SET {sets} FROM (VALUES {", ".join([row] * len(objects))}) '
           f'AS v("{pk.column}", {names}) WHERE t."{pk.column}" = v."{pk.column}"')
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.rowcount
