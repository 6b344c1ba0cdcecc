from django.db import migrations

from apps.common.migrations_sql import append_only, no_delete


class Migration(migrations.Migration):
    dependencies = [("conto", "0003_self_exclusions")]

    operations = [migrations.RunPython(*append_only("conto_exclusionchange")),
                  migrations.RunPython(*no_delete("conto_selfexclusion"))]
