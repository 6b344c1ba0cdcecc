"""Closing a table races the match's last move: exactly one wins, the money moves once."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from apps.common.errors import DomainError
from apps.matches.models import Match
from apps.matches.services import match_action_apply
from apps.tables.models import Table
from apps.tables.staff import table_close
from apps.wallet.selectors import wallet_get

from ..conftest import make_user
from ..tables.conftest import briscola_table, fund
from ..tables.test_lock_order import one_move_from_the_end, race

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres_only]


def test_close_against_the_last_move():
    round_ = 0
    operator = make_user(group="operator")
    players = [make_user(nickname=f"Race{round_}A"), make_user(nickname=f"Race{round_}B")]
    for p in players:
        fund(p, cash=1_000)
    table, _ = briscola_table(official=True, stake=100, currency="cash", players=players)
    match, seat, action = one_move_from_the_end(table)
    mover = {ms.number: ms.player for ms in match.match_seats.select_related("player")}[seat]
    results = race(lambda: table_close(actor=operator, table_id=table.pk, reason="race"),
                   lambda: match_action_apply(match_id=match.pk, action=action, version=match.version, user=mover))
    match.refresh_from_db()
    assert Table.objects.get(pk=table.pk).status == Table.CLOSED  # the close always lands (after or before)
    total = sum(wallet_get(player=p)["cash_cents"] for p in players)
    if match.status == Match.CANCELLED:
        assert isinstance(results[1], DomainError) and total == 2_000  # stakes back, no bank
    else:
        assert match.status == Match.FINISHED and total == 2_000 - 20  # the bank took its 10% (the cash regime)
    call_command("check_ledger")
