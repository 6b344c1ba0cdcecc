"""Poker tables are credits only (seed 001, issue 25): a poker table made with cash before this
release checked cash at sitting while its hands moved credits; it becomes a credits table (its
stake, the ante, keeps its number)."""

from django.db import migrations


def poker_credits_only(apps, schema_editor):
    Table = apps.get_model("tables", "Table")
    Table.objects.filter(game="poker_italiana", currency="cash").update(currency="credits")


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0009_table_chat_enabled"),
    ]

    operations = [
        migrations.RunPython(poker_credits_only, migrations.RunPython.noop),
    ]
