from django.db import migrations

from apps.common.migrations_sql import append_only


class Migration(migrations.Migration):
    dependencies = [("rankings", "0001_initial")]
    operations = [migrations.RunPython(*append_only("rankings_xpaward"))]
