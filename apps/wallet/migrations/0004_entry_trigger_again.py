"""SQLite rebuilt wallet_entry to add ``kind`` (0003), which drops its append-only trigger."""

from django.db import migrations

from apps.common.migrations_sql import append_only


class Migration(migrations.Migration):
    dependencies = [("wallet", "0003_entry_kind")]
    operations = [migrations.RunPython(append_only("wallet_entry")[0], migrations.RunPython.noop)]
