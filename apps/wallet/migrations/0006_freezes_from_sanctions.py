"""Backfill: one wallet freeze for every account suspension and authority report already issued.

Until now the wallet read sanctions to refuse a frozen spend; from here on it reads its own
freezes, which compliance writes with every sanction. Lifted and expired sanctions are copied
too (they are simply not active), so the freezes mirror the sanctions exactly.
"""

from django.db import migrations

FREEZING = ("account_suspension", "authority_report")


def forwards(apps, schema_editor):
    Sanction = apps.get_model("compliance", "Sanction")
    Freeze = apps.get_model("wallet", "Freeze")
    for sanction in Sanction.objects.filter(kind__in=FREEZING).order_by("pk").iterator():
        Freeze.objects.update_or_create(reference=f"sanction:{sanction.pk}", defaults={
            "player_id": sanction.player_id, "divert": sanction.kind == "authority_report",
            "starts_at": sanction.starts_at, "ends_at": sanction.ends_at, "lifted_at": sanction.lifted_at})


def backwards(apps, schema_editor):
    apps.get_model("wallet", "Freeze").objects.filter(reference__startswith="sanction:").delete()


class Migration(migrations.Migration):

    dependencies = [
        ("wallet", "0005_account_freezes"),
        ("compliance", "0001_initial"),
    ]

    operations = [migrations.RunPython(forwards, backwards)]
