"""seed_demo (apps/demo) builds the demo world from each app's demo function, and can run again."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from apps.players.selectors import nickname_of
from apps.tables.models import Table
from apps.tournaments.models import Tournament
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
    assert mario.check_password("mazziere-demo") and users.get(username="demo_rosa").check_password("mazziere-demo")
    assert users.get(username="finanza").groups.filter(name="finance").exists()
    assert Table.objects.filter(game="briscola", leader=mario).count() == 1
    assert Table.objects.filter(game="scopa", leader__username="anna").count() == 1
    # the tournaments' lobby: one of each kind, one finished and one cancelled (one seeding for both checks)
    names = dict(Tournament.objects.values_list("name", "status"))
    assert names["Sit and Go concluso"] == "finished" and names["Torneo annullato"] == "cancelled"
    kinds = Tournament.objects.filter(status="open")
    assert kinds.filter(kind="sit_and_go").exists() and kinds.filter(kind="scheduled", buy_in_cents__gt=0).exists()
    assert kinds.filter(buy_in_cents=0, prize="cash").exists() and kinds.filter(prize="bonus").exists()
    assert kinds.filter(prize="satellite").exists() and kinds.filter(guaranteed_cents__gte=50_000).exists()
    cancelled = Tournament.objects.get(name="Torneo annullato")
    assert cancelled.refunds_done_at is not None
    assert names["Torneo a punti concluso"] == "finished" and names["Eliminazione in corso"] == "running"
    points = Tournament.objects.get(name="Torneo a punti concluso")
    assert points.format == "points" and points.tmatches.filter(status="bye").count() == 2  # 3 players, 2 rounds
    running = Tournament.objects.get(name="Eliminazione in corso")
    assert running.tmatches.filter(status="bye").count() == 2 and running.tmatches.filter(status="playing").count() == 2
    assert ledger_check() is None


@pytest.mark.django_db
def test_the_demo_players_have_verified_conti_at_the_first_caps():
    """regulation.md §1.6: fictitious identities with valid codici fiscali, approved documents
    valid 5 years, aperto, origin demo, limits at the first caps, ADM's account code."""
    import datetime as dt

    from django.core.management import call_command
    from django.utils import timezone

    from apps.conto.codice_fiscale import is_valid, mismatch_fields
    from apps.conto.models import Conto, KycDocument
    from apps.conto.selectors import conto_can

    call_command("seed_demo", stdout=__import__("io").StringIO())
    call_command("seed_demo", stdout=__import__("io").StringIO())  # twice changes nothing
    conti = Conto.objects.filter(user__username__in=["mario", "giulia", "luca", "anna"])
    assert conti.count() == 4
    for conto in conti:
        assert (conto.origin, conto.state, conto.kyc_status) == ("demo", "aperto", "approved")
        assert is_valid(conto.codice_fiscale)
        assert mismatch_fields(conto.codice_fiscale, birth_date=conto.birth_date, sex=conto.sex) == []
        assert conto.document_expires_at >= timezone.localdate() + dt.timedelta(days=5 * 365 - 1)
        assert len(conto.adm_account_code) == 16
        assert conto_can(conto) == {"money_play": True, "deposit": True, "withdraw": True}
        limits = dict(conto.limits.values_list("key", "value"))
        assert limits == {"deposit_day": 20000, "deposit_week": 140000, "deposit_month": 600000,
                          "spend_day": 10000, "spend_week": 70000, "spend_month": 300000, "time_day": 180}
        assert KycDocument.objects.filter(conto=conto).count() == 2
