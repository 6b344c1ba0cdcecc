"""The word list's Italian and English defaults (apps/chat/wordlist.py), editable afterwards."""

from django.db import migrations
from django.utils import timezone

from apps.chat.wordlist import DEFAULTS


def seed(apps, schema_editor):
    FlagWord = apps.get_model("chat", "FlagWord")
    now = timezone.now()
    for kind, value, category in DEFAULTS:
        FlagWord.objects.get_or_create(kind=kind, value=value, defaults={"category": category, "created": now})


class Migration(migrations.Migration):

    dependencies = [("chat", "0004_reports_word_list_hiding_review")]

    operations = [migrations.RunPython(seed, migrations.RunPython.noop)]
