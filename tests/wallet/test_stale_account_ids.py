"""An authority report's moves read the accounts, not the process cache of their ids: a
cached id that no longer names the account (a flushed test database) once made a release
find no share and give nothing back (seen under pytest-xdist)."""

from __future__ import annotations

from django.utils import timezone

from apps.wallet import services
from apps.wallet.selectors import wallet_get

from ..conftest import make_user
from ..tables.conftest import fund


def test_a_release_gives_the_share_back_whatever_the_cache_holds(db):
    player = make_user(nickname="Stale_1")
    fund(player, cash=1500)
    now = timezone.now()
    services.wallet_freeze_set(player_id=player.pk, reference="sanction:t1", divert=True, starts_at=now,
                               ends_at=None, lifted_at=None)
    services.authority_freeze(player_id=player.pk, reference="sanction:t1")
    assert wallet_get(player=player)["cash_cents"] == 0
    for currency in ("cash", "bonus"):  # ids that name no account any more
        services._ACCOUNT_IDS[(services.AUTHORITY_FROZEN, currency)] = 10**12
    services.wallet_freeze_set(player_id=player.pk, reference="sanction:t1", divert=True, starts_at=now,
                               ends_at=None, lifted_at=timezone.now())
    services.authority_settle(player_id=player.pk, reference="sanction:t1", decision="release")
    assert wallet_get(player=player)["cash_cents"] == 1500
