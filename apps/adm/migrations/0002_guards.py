from django.db import migrations

from apps.common.migrations_sql import no_delete


class Migration(migrations.Migration):
    dependencies = [("adm", "0001_initial")]

    operations = [migrations.RunPython(*no_delete("adm_admmessage"))]
