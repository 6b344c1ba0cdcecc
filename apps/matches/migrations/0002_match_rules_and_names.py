"""A match keeps the rules its owner chose (cancellable, forfeit on absence) and the group it
tells of changes, instead of a key to its table (the table links to it now, tables 0006).
The database tables take this app's names; the content types (and so the staff's admin
permissions) follow the models."""

from django.db import migrations, models

from apps.common.migrations_sql import append_only

MODELS = ("match", "matchseat", "matchaction", "cancelproposal")


def rules_from_tables(apps, schema_editor):
    """Table matches: cancellable, absence forfeits, XP at the end, told to the table's group.
    Matches of no table (tournaments): none of it, told to their own group."""
    Match = apps.get_model("matches", "Match")
    at_table = Match.objects.filter(table__isnull=False)
    for table_id in at_table.values_list("table_id", flat=True).distinct().iterator():
        at_table.filter(table_id=table_id).update(group=f"table_{table_id}")
    Match.objects.filter(table__isnull=True).update(cancellable=False, forfeit_on_absence=False, awards_xp=False)
    for pk in Match.objects.filter(table__isnull=True).values_list("pk", flat=True).iterator():
        Match.objects.filter(pk=pk).update(group=f"match_{pk}")


def content_types_follow(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    ContentType.objects.filter(app_label="tables", model__in=MODELS).update(app_label="matches")


def content_types_back(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    ContentType.objects.filter(app_label="matches", model__in=MODELS).update(app_label="tables")


class Migration(migrations.Migration):

    dependencies = [
        ("matches", "0001_initial"),
        ("tables", "0006_matches_move_out"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [
        migrations.AddField(model_name="match", name="cancellable", field=models.BooleanField(default=True)),
        migrations.AddField(model_name="match", name="forfeit_on_absence", field=models.BooleanField(default=True)),
        migrations.AddField(model_name="match", name="awards_xp", field=models.BooleanField(default=True)),
        migrations.AddField(model_name="match", name="group",
                            field=models.CharField(blank=True, default="", max_length=60)),
        migrations.RunPython(rules_from_tables, migrations.RunPython.noop),
        migrations.RemoveField(model_name="match", name="table"),
        migrations.AlterModelOptions(name="match", options={"ordering": ["-id"], "verbose_name_plural": "matches"}),
        migrations.RunPython(append_only("tables_matchaction")[1], append_only("tables_matchaction")[0]),
        migrations.AlterModelTable(name="match", table=None),
        migrations.AlterModelTable(name="matchseat", table=None),
        migrations.AlterModelTable(name="matchaction", table=None),
        migrations.AlterModelTable(name="cancelproposal", table=None),
        migrations.RunPython(append_only("matches_matchaction")[0], append_only("matches_matchaction")[1]),
        migrations.RunPython(content_types_follow, content_types_back),
    ]
