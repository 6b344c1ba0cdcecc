from django.db import migrations

from apps.common.migrations_sql import append_only, no_delete


class Migration(migrations.Migration):
    """Nothing of the cashier is deleted (regulation.md §0.4); provider events never change."""

    dependencies = [("wallet", "0009_cashier")]

    operations = [migrations.RunPython(*append_only("wallet_providerevent"))] + [
        migrations.RunPython(*no_delete(t)) for t in ("wallet_instrument", "wallet_deposit", "wallet_withdrawal")
    ]
