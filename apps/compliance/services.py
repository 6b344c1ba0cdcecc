"""Writes of compliance. A freezing sanction is mirrored into the wallet through its services,
so the wallet can refuse a frozen spend without ever reading sanctions (platform.md §7.4)."""

from __future__ import annotations

from apps.wallet.services import wallet_freeze_set

from .models import ACCOUNT_SUSPENSION, AUTHORITY_REPORT, Sanction

FREEZING = (ACCOUNT_SUSPENSION, AUTHORITY_REPORT)


def sanction_freeze_sync(*, sanction: Sanction) -> None:
    """Write (or update, once lifted) the wallet freeze of an account suspension or an
    authority report; the latter also diverts arriving cash and bonus to house:authority_frozen.
    Called for every save of a sanction, in its database transaction."""
    if sanction.kind in FREEZING:
        wallet_freeze_set(player_id=sanction.player_id, reference=f"sanction:{sanction.pk}",
                          divert=sanction.kind == AUTHORITY_REPORT, starts_at=sanction.starts_at,
                          ends_at=sanction.ends_at, lifted_at=sanction.lifted_at)


def sanction_saved(sender, instance: Sanction, **kwargs) -> None:
    """post_save receiver (ComplianceConfig.ready): every saved sanction, issued or lifted,
    updates the wallet's freeze in the same database transaction."""
    sanction_freeze_sync(sanction=instance)
