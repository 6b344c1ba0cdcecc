from django.db import migrations

from apps.common.migrations_sql import append_only


class Migration(migrations.Migration):
    dependencies = [("players", "0001_initial")]
    operations = [migrations.RunPython(*append_only("players_nicknamechange"))]
