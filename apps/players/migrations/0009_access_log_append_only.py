from django.db import migrations

from apps.common.migrations_sql import append_only


class Migration(migrations.Migration):
    dependencies = [("players", "0008_access_log")]

    operations = [migrations.RunPython(*append_only("players_accesslogentry"))]
