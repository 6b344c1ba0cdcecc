"""Database triggers that make tables append-only, for migrations (RunPython).

PostgreSQL refuses UPDATE and DELETE of a row; SQLite refuses UPDATE (a row DELETE
trigger would also block the test runner's flush, which empties tables with DELETE on
SQLite; the model guard still refuses deletes there). PostgreSQL's TRUNCATE, used only
by the test runner's flush, is a statement outside these row triggers.

SQLite rebuilds a table for many schema changes and the rebuild drops its triggers: a
migration that alters an append-only table must run ``append_only`` again (it is
idempotent on both databases). A test checks every append-only table has its trigger.
"""

from __future__ import annotations


def append_only(table: str):
    def forwards(apps, schema_editor):
        vendor = schema_editor.connection.vendor
        if vendor == "postgresql":
            schema_editor.execute(
                """
                CREATE OR REPLACE FUNCTION mazziere_append_only() RETURNS trigger AS $$
                BEGIN
                    RAISE EXCEPTION 'table % is append-only: % refused', TG_TABLE_NAME, TG_OP;
                END;
                $$ LANGUAGE plpgsql;
                """,
                None,  # no parameters: the % signs belong to plpgsql
            )
            schema_editor.execute(f'DROP TRIGGER IF EXISTS "{table}_append_only" ON "{table}";')
            schema_editor.execute(
                f'CREATE TRIGGER "{table}_append_only" BEFORE UPDATE OR DELETE ON "{table}" '
                f"FOR EACH ROW EXECUTE FUNCTION mazziere_append_only();"
            )
        elif vendor == "sqlite":
            schema_editor.execute(
                f'CREATE TRIGGER IF NOT EXISTS "{table}_append_only" BEFORE UPDATE ON "{table}" '
                f"BEGIN SELECT RAISE(ABORT, 'table {table} is append-only: UPDATE refused'); END;"
            )

    def backwards(apps, schema_editor):
        vendor = schema_editor.connection.vendor
        if vendor == "postgresql":
            schema_editor.execute(f'DROP TRIGGER IF EXISTS "{table}_append_only" ON "{table}";')
        elif vendor == "sqlite":
            schema_editor.execute(f'DROP TRIGGER IF EXISTS "{table}_append_only";')

    return forwards, backwards


def no_delete(table: str):
    """PostgreSQL refuses DELETE of a row (regulated records are versioned, never deleted:
    regulation.md §0.4); updates stay allowed. Nothing on SQLite (the test runner's flush)."""

    def forwards(apps, schema_editor):
        if schema_editor.connection.vendor != "postgresql":
            return
        schema_editor.execute(
            """
            CREATE OR REPLACE FUNCTION mazziere_no_delete() RETURNS trigger AS $$
            BEGIN
                RAISE EXCEPTION 'table % keeps its rows: % refused', TG_TABLE_NAME, TG_OP;
            END;
            $$ LANGUAGE plpgsql;
            """,
            None,
        )
        schema_editor.execute(f'DROP TRIGGER IF EXISTS "{table}_no_delete" ON "{table}";')
        schema_editor.execute(
            f'CREATE TRIGGER "{table}_no_delete" BEFORE DELETE ON "{table}" '
            f"FOR EACH ROW EXECUTE FUNCTION mazziere_no_delete();"
        )

    def backwards(apps, schema_editor):
        if schema_editor.connection.vendor == "postgresql":
            schema_editor.execute(f'DROP TRIGGER IF EXISTS "{table}_no_delete" ON "{table}";')

    return forwards, backwards
