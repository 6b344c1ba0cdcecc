"""The divert flag on a player's cash and bonus accounts (issue 11): a credit reads it with the
account's own lock instead of locking house:authority_frozen on every credit. Backfilled from
the divert freezes not lifted (an authority report lasts until it is lifted); the accounts a
reported player lacks are made, so a later credit finds its flag set."""

from django.db import migrations, models


def forwards(apps, schema_editor):
    Freeze = apps.get_model("wallet", "Freeze")
    Account = apps.get_model("wallet", "Account")
    for player_id in Freeze.objects.filter(divert=True, lifted_at__isnull=True) \
            .values_list("player_id", flat=True).distinct():
        for currency in ("cash", "bonus"):
            Account.objects.update_or_create(code=f"player:{player_id}", currency=currency,
                                             defaults={"player_id": player_id, "diverted": True})


class Migration(migrations.Migration):

    dependencies = [
        ('wallet', '0007_verbose_names'),
    ]

    operations = [
        migrations.AddField(
            model_name='account',
            name='diverted',
            field=models.BooleanField(default=False, help_text='an authority report holds arriving cash and bonus'),
        ),
        migrations.RunPython(forwards, migrations.RunPython.noop),
    ]
