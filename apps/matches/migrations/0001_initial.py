"""The match models move here from ``apps.tables`` (issue 9): in the state only, over the
tables as they are (no row moves). The next migrations point the other apps' keys here,
drop the models from ``tables``' state, link each match to its table from the tables' side,
and give the database tables their new names."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        ("tables", "0005_socketconnection_lease"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.CreateModel(
                    name='Match',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('game', models.CharField(max_length=40)),
                        ('players', models.PositiveSmallIntegerField()),
                        ('options', models.JSONField(default=dict)),
                        ('seed', models.CharField(max_length=60)),
                        ('deck', models.JSONField(blank=True, null=True)),
                        ('state', models.JSONField()),
                        ('version', models.PositiveIntegerField(default=0)),
                        ('status', models.CharField(db_index=True, default='playing', max_length=10)),
                        ('result', models.JSONField(blank=True, null=True)),
                        ('official', models.BooleanField(default=False)),
                        ('stake', models.PositiveIntegerField(default=0)),
                        ('currency', models.CharField(default='credits', max_length=8)),
                        ('turn_seconds', models.PositiveSmallIntegerField(default=30)),
                        ('turn_deadline', models.DateTimeField(blank=True, db_index=True, null=True)),
                        ('started_at', models.DateTimeField()),
                        ('finished_at', models.DateTimeField(blank=True, null=True)),
                        ('flagged_same_ip', models.BooleanField(default=False)),
                        ('settled', models.BooleanField(default=False)),
                        ('table', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='tables.table')),
                    ],
                    options={
                        'db_table': 'tables_match',
                        'ordering': ['-id'],
                    },
                ),
                migrations.CreateModel(
                    name='CancelProposal',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('opened_at', models.DateTimeField()),
                        ('deadline', models.DateTimeField(db_index=True)),
                        ('votes', models.JSONField(default=dict, help_text='seat number (as text) -> bool')),
                        ('closed', models.BooleanField(default=False)),
                        ('cancelled', models.BooleanField(default=False)),
                        ('match', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='cancel_proposals', to='matches.match')),
                    ],
                    options={
                        'db_table': 'tables_cancelproposal',
                        'ordering': ['-id'],
                    },
                ),
                migrations.CreateModel(
                    name='MatchAction',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('seq', models.PositiveIntegerField()),
                        ('seat', models.PositiveSmallIntegerField()),
                        ('action', models.JSONField()),
                        ('by', models.CharField(max_length=8)),
                        ('version', models.PositiveIntegerField()),
                        ('events', models.JSONField(default=list)),
                        ('at', models.DateTimeField()),
                        ('match', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='actions', to='matches.match')),
                    ],
                    options={
                        'db_table': 'tables_matchaction',
                        'ordering': ['match', 'seq'],
                        'constraints': [models.UniqueConstraint(fields=('match', 'seq'), name='matchaction_seq_unique')],
                    },
                ),
                migrations.CreateModel(
                    name='MatchSeat',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('number', models.PositiveSmallIntegerField()),
                        ('nickname', models.CharField(blank=True, max_length=16)),
                        ('robot', models.BooleanField(default=False)),
                        ('ip', models.GenericIPAddressField(blank=True, null=True)),
                        ('stake_paid', models.PositiveIntegerField(default=0)),
                        ('robot_playing', models.BooleanField(default=False)),
                        ('grace_deadline', models.DateTimeField(blank=True, db_index=True, null=True)),
                        ('timeouts_in_row', models.PositiveSmallIntegerField(default=0)),
                        ('abandoned', models.BooleanField(default=False)),
                        ('match', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='match_seats', to='matches.match')),
                        ('player', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='match_seats', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'db_table': 'tables_matchseat',
                        'ordering': ['match', 'number'],
                        'constraints': [models.UniqueConstraint(fields=('match', 'number'), name='matchseat_unique')],
                    },
                ),
            ],
        ),
    ]
