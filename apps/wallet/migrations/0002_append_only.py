from django.db import migrations

from apps.common.migrations_sql import append_only


def _ops(*tables):
    return [migrations.RunPython(*append_only(t)) for t in tables]


class Migration(migrations.Migration):
    dependencies = [("wallet", "0001_initial")]
    operations = _ops("wallet_transaction", "wallet_entry", "wallet_adjustment")
