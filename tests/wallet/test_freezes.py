"""Frozen accounts (platform.md §3.6, §7.4): the wallet refuses a frozen spend from its own
freezes, which compliance writes with every account suspension and authority report."""

from __future__ import annotations

import pytest
from django.db.models import Sum
from django.utils import timezone

from apps.common.errors import Conflict
from apps.compliance.models import Sanction
from apps.compliance.services import sanction_freeze_sync, sanction_money_move
from apps.wallet import services
from apps.wallet.models import Entry, Freeze
from apps.wallet.selectors import frozen_cents_many, ledger_check, wallet_get

from ..conftest import sanction_end, sanction_give

pytestmark = pytest.mark.django_db


def sanction(player, kind, *, days: int | None = None):
    assert days in (None, 30)  # the durations compliance issues: a month or permanent
    return sanction_give(player, kind, duration="1_month" if days else "permanent")


def deposit(player, amount):
    services.wallet_credit(player=player, currency="cash", amount=amount, kind="adjustment",
                           reference="test", source="house:cashier")


def spend(player, amount, currency="cash"):
    return services.wallet_debit(player=player, currency=currency, amount=amount, kind="stake",
                                 reference="test", destination="house:bank")


def test_a_suspension_freezes_cash_and_bonus_until_lifted(api, player, finance):
    deposit(player, 1000)
    suspension = sanction(player, "account_suspension")
    assert Freeze.objects.get(reference=f"sanction:{suspension.pk}").divert is False
    assert api(player).get("/api/me/wallet/").json()["frozen"] is True
    with pytest.raises(Conflict) as refused:
        spend(player, 100)
    assert refused.value.code == "account_frozen"
    spend(player, 10, currency="credits")  # credits are untouched by a freeze
    client = api(finance)
    debit = client.post(f"/api/players/{player.pk}/adjustments/",
                        {"currency": "cash", "amount": -100, "reason": "withdrawal"}, format="json")
    assert debit.status_code == 409 and debit.json()["code"] == "account_frozen"
    credit = client.post(f"/api/players/{player.pk}/adjustments/",
                         {"currency": "cash", "amount": 100, "reason": "deposit"}, format="json")
    assert credit.status_code == 201 and credit.json()["balance_after"] == 1100  # not diverted
    sanction_end(suspension)
    assert wallet_get(player=player)["frozen"] is False
    spend(player, 100)
    assert wallet_get(player=player)["cash_cents"] == 1000
    assert ledger_check() is None


def test_a_one_month_suspension_ends_by_itself(player, clock):
    deposit(player, 500)
    sanction(player, "account_suspension", days=30)
    clock.advance(days=29, hours=23)
    assert wallet_get(player=player)["frozen"] is True
    clock.advance(hours=1)  # now == ends_at: no longer active (platform.md §7.4)
    assert wallet_get(player=player)["frozen"] is False
    spend(player, 500)


def test_a_lobby_or_chat_ban_freezes_nothing(player):
    deposit(player, 500)
    sanction(player, "lobby_ban", days=30)
    sanction(player, "chat_ban", days=30)
    assert not Freeze.objects.filter(player=player).exists()
    assert wallet_get(player=player)["frozen"] is False
    spend(player, 500)


def bonus(player, amount):
    services.wallet_credit(player=player, currency="bonus", amount=amount, kind="adjustment",
                           reference="test", source="house:promotions")


def shares(player) -> dict[tuple[str, str], int]:
    rows = (Entry.objects.filter(player_id=player.pk, account__code__startswith="house:authority")
            .values_list("account__code", "currency").annotate(total=Sum("amount")))
    return {(code, currency): total for code, currency, total in rows if total}


def test_an_authority_report_freezes_cash_and_bonus_and_what_arrives_later(api, player):
    deposit(player, 1000)
    bonus(player, 200)
    report = sanction(player, "authority_report")
    wallet = wallet_get(player=player)
    assert (wallet["cash_cents"], wallet["bonus_cents"], wallet["credits"], wallet["frozen"]) == (0, 0, 300, True)
    deposit(player, 700)  # a refund, a prize, an adjustment: it goes to house:authority_frozen too
    assert wallet_get(player=player)["cash_cents"] == 0
    assert frozen_cents_many(player_ids=[player.pk]) == {player.pk: 1900}
    assert shares(player) == {("house:authority_frozen", "cash"): 1700, ("house:authority_frozen", "bonus"): 200}
    kinds = [row["kind"] for row in api(player).get("/api/me/ledger/").json()["results"]]
    assert kinds.count("authority_freeze") == 2  # one entry per currency taken
    services.wallet_credit(player=player, currency="credits", amount=5, kind="credits_recharge",
                           reference="test", source="house:play_money")
    assert wallet_get(player=player)["credits"] == 305  # credits are untouched
    sanction_money_move(sanction=report)  # run again: nothing moves twice
    assert frozen_cents_many(player_ids=[player.pk]) == {player.pk: 1900}
    assert ledger_check() is None
    report = sanction_end(report, decision="release")
    sanction_money_move(sanction=report)  # run again: nothing moves twice
    wallet = wallet_get(player=player)
    assert (wallet["cash_cents"], wallet["bonus_cents"], wallet["frozen"]) == (1700, 200, False)
    assert shares(player) == {}
    assert api(player).get("/api/me/ledger/").json()["results"][0]["kind"] == "authority_release"
    assert ledger_check() is None


def test_a_forfeit_sends_the_frozen_share_to_the_authority(player):
    deposit(player, 800)
    report = sanction(player, "authority_report")
    sanction_end(report, decision="forfeit")
    assert wallet_get(player=player)["cash_cents"] == 0 and wallet_get(player=player)["frozen"] is False
    assert shares(player) == {("house:authority_remitted", "cash"): 800}
    assert ledger_check() is None


def test_a_lift_that_leaves_a_frozen_share_breaks_rule_6(player):
    deposit(player, 700)
    report = sanction(player, "authority_report")
    # lifted with no decision (a broken write: the API requires one, §7.4): the freeze goes, the share stays
    Sanction.objects.filter(pk=report.pk).update(lifted_at=timezone.now())
    report.refresh_from_db()
    sanction_freeze_sync(sanction=report)
    assert ledger_check().startswith(f"rule 6: player {player.pk} has 700 in house:authority_frozen")


def test_the_wallet_reads_only_its_own_freezes(player):
    """No sanction at all: a freeze written through the wallet's service is enough to refuse."""
    deposit(player, 300)
    services.wallet_freeze_set(player_id=player.pk, reference="test:1", divert=False,
                               starts_at=timezone.now(), ends_at=None, lifted_at=None)
    with pytest.raises(Conflict):
        spend(player, 1)
    services.wallet_freeze_set(player_id=player.pk, reference="test:1", divert=False,
                               starts_at=timezone.now(), ends_at=None, lifted_at=timezone.now())
    spend(player, 300)
    assert Freeze.objects.filter(reference="test:1").count() == 1  # updated, not duplicated
