"""The match models now belong to ``apps.matches`` (issue 9): they leave this app's state
(their rows stay where they are), and each match played at a table is linked to it from
the tables' side, ``TableMatch``, before the match's own ``table`` column goes."""

import django.db.models.deletion
from django.db import migrations, models


def link_matches(apps, schema_editor):
    Match = apps.get_model("matches", "Match")
    TableMatch = apps.get_model("tables", "TableMatch")
    rows = Match.objects.filter(table__isnull=False).values_list("pk", "table_id", "status").order_by("pk")
    TableMatch.objects.bulk_create([TableMatch(match_id=pk, table_id=table_id, ended=status != "playing")
                                    for pk, table_id, status in rows.iterator()], batch_size=5000)


def unlink_matches(apps, schema_editor):
    Match = apps.get_model("matches", "Match")
    TableMatch = apps.get_model("tables", "TableMatch")
    for link in TableMatch.objects.all().iterator():
        Match.objects.filter(pk=link.match_id).update(table_id=link.table_id)


class Migration(migrations.Migration):

    dependencies = [
        ("tables", "0005_socketconnection_lease"),
        ("matches", "0001_initial"),
        ("chat", "0002_match_moves_to_matches"),
        ("rankings", "0003_match_moves_to_matches"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.DeleteModel(name="CancelProposal"),
                migrations.DeleteModel(name="MatchAction"),
                migrations.DeleteModel(name="MatchSeat"),
                migrations.DeleteModel(name="Match"),
            ],
        ),
        migrations.CreateModel(
            name="TableMatch",
            fields=[
                ("match", models.OneToOneField(on_delete=django.db.models.deletion.PROTECT, primary_key=True,
                                               related_name="table_link", serialize=False, to="matches.match")),
                ("table", models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="match_links",
                                            to="tables.table")),
                ("ended", models.BooleanField(default=False)),
            ],
            options={"ordering": ["-match"]},
        ),
        migrations.RunPython(link_matches, unlink_matches),
    ]
