from django.db import migrations

from apps.common.migrations_sql import append_only, no_delete

APPEND_ONLY = ["conto_statechange", "conto_kycevent", "conto_identityrecord", "conto_kycdocument",
               "conto_limitchange", "conto_playernote"]
KEPT = ["conto_conto", "conto_limit", "conto_registryentry"]


class Migration(migrations.Migration):
    dependencies = [("conto", "0001_initial")]

    operations = [migrations.RunPython(*append_only(t)) for t in APPEND_ONLY] + [
        migrations.RunPython(*no_delete(t)) for t in KEPT
    ]
