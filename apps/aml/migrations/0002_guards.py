from django.db import migrations

from apps.common.migrations_sql import append_only, no_delete


class Migration(migrations.Migration):
    """Nothing of anti-money-laundering is deleted (regulation.md §0.4)."""

    dependencies = [("aml", "0001_initial")]

    operations = [migrations.RunPython(*append_only(t)) for t in ("aml_amlcasenote", "aml_amlcaseevent")] + [
        migrations.RunPython(*no_delete(t)) for t in ("aml_amlcase", "aml_amlsignal")
    ]
