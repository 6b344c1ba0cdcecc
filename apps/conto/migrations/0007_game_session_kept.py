from django.db import migrations

from apps.common.migrations_sql import no_delete


class Migration(migrations.Migration):
    dependencies = [("conto", "0006_game_sessions")]

    operations = [migrations.RunPython(*no_delete("conto_gamesession"))]
