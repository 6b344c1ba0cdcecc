"""An XP award's match is now ``matches.Match`` (issue 9); the database table is the same."""

import django.db.models.deletion
from django.db import migrations, models

from apps.common.migrations_sql import append_only


class Migration(migrations.Migration):

    dependencies = [
        ("rankings", "0002_append_only"),
        ("matches", "0001_initial"),
    ]

    operations = [
        migrations.AlterField(
            model_name="xpaward",
            name="match",
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="xp_awards",
                                    to="matches.match"),
        ),
        # SQLite rebuilds the table for the new key, and a rebuild drops its triggers
        migrations.RunPython(*append_only("rankings_xpaward")),
    ]
