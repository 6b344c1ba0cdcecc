"""Writes of compliance. A freezing sanction is mirrored into the wallet through its services,
so the wallet can refuse a frozen spend without ever reading sanctions (platform.md §7.4)."""

from __future__ import annotations

from django.db import transaction

from apps.wallet.services import authority_freeze, authority_settle, wallet_freeze_set

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


def sanction_money_move(*, sanction: Sanction) -> None:
    """An authority report takes the player's cash and bonus to house:authority_frozen when
    issued; lifted with the authority's decision, the share is released or forfeited
    (platform.md §7.4). Each move runs once per sanction (the wallet's idempotency keys)."""
    if sanction.kind != AUTHORITY_REPORT:
        return
    reference = f"sanction:{sanction.pk}"
    if sanction.lifted_at is None:
        authority_freeze(player_id=sanction.player_id, reference=reference)
    elif sanction.decision in ("release", "forfeit"):
        authority_settle(player_id=sanction.player_id, reference=reference, decision=sanction.decision)


def sanction_saved(sender, instance: Sanction, **kwargs) -> None:
    """post_save receiver (ComplianceConfig.ready): every saved sanction, issued or lifted,
    updates the wallet's freeze, then moves what an authority report moves, in one transaction."""
    with transaction.atomic():
        sanction_freeze_sync(sanction=instance)
        sanction_money_move(sanction=instance)
