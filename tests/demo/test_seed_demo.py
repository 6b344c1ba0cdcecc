"""seed_demo (apps/demo) builds the demo world from each app's demo function, and can run again."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from apps.players.selectors import nickname_of
from apps.tables.models import Table
from apps.wallet.selectors import ledger_check, wallet_get

pytestmark = pytest.mark.django_db


def test_the_demo_world_is_built_once(capsys):
    call_command("seed_demo")
    call_command("seed_demo")  # safe to run again: it only adds what is missing
    out = capsys.readouterr().out
    assert "demo world ready" in out and "mazziere-demo" in out
    users = get_user_model().objects
    mario = users.get(username="mario")
    assert nickname_of(mario) == "Mario_88"
    assert wallet_get(player=mario)["cash_cents"] == 5000 and wallet_get(player=mario)["credits"] == 300
    assert users.get(username="admin").is_superuser
    assert users.get(username="finanza").groups.filter(name="finance").exists()
    assert Table.objects.filter(game="briscola", leader=mario).count() == 1
    assert Table.objects.filter(game="scopa", leader__username="anna").count() == 1
    assert ledger_check() is None
