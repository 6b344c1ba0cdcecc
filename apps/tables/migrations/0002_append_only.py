from django.db import migrations

from apps.common.migrations_sql import append_only


class Migration(migrations.Migration):
    dependencies = [("tables", "0001_initial")]
    operations = [migrations.RunPython(*append_only("tables_matchaction"))]
