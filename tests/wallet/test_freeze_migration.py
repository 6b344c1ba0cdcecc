"""The freezes migration backfills the wallet from the sanctions issued before it existed."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from apps.wallet.selectors import freeze_state
from tests.conftest import LONG

BEFORE = [("wallet", "0004_entry_trigger_again"), ("compliance", "0001_initial")]
AFTER = [("wallet", "0006_freezes_from_sanctions")]


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@LONG  # a migration every deployment already ran
@pytest.mark.django_db(transaction=True)
def test_existing_sanctions_become_wallet_freezes():
    old = migrate(BEFORE)
    User = old.get_model("auth", "User")
    Sanction = old.get_model("compliance", "Sanction")
    suspended, reported, banned = (User.objects.create(username=n) for n in ("suspended", "reported", "banned"))
    now = timezone.now()
    suspension = Sanction.objects.create(player=suspended, kind="account_suspension", duration="1_month",
                                         reason="r", starts_at=now, ends_at=now + timedelta(days=30))
    lifted = Sanction.objects.create(player=suspended, kind="account_suspension", duration="permanent",
                                     reason="r", starts_at=now - timedelta(days=60), lifted_at=now)
    report = Sanction.objects.create(player=reported, kind="authority_report", duration="permanent",
                                     reason="r", starts_at=now)
    Sanction.objects.create(player=banned, kind="lobby_ban", duration="permanent", reason="r", starts_at=now)

    new = migrate(AFTER)
    Freeze = new.get_model("wallet", "Freeze")
    rows = {f.reference: (f.player_id, f.divert, f.starts_at, f.ends_at, f.lifted_at)
            for f in Freeze.objects.all()}
    assert rows == {
        f"sanction:{suspension.pk}": (suspended.pk, False, suspension.starts_at, suspension.ends_at, None),
        f"sanction:{lifted.pk}": (suspended.pk, False, lifted.starts_at, None, lifted.lifted_at),
        f"sanction:{report.pk}": (reported.pk, True, report.starts_at, None, None),
    }
    assert freeze_state(player_id=suspended.pk) == (True, False)
    assert freeze_state(player_id=reported.pk) == (True, True)
    assert freeze_state(player_id=banned.pk) == (False, False)
    migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())  # every app back at its latest
