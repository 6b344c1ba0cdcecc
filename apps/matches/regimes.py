"""Game regimes (regulation.md §8): a money table is ``cash``, every tournament ``torneo``. The
cash regime caps the bank's share and what one player can pay into one match; the settings
are read at each use (§0.1)."""

from __future__ import annotations

from typing import Any

from django.conf import settings

from apps.games.engines import get_engine
from apps.wallet.models import CASH

TORNEO, CASH_REGIME = "torneo", "cash"


def table_bank_percent(game: str) -> int:
    """The game's bank share before any cap: TABLE_BANK_PERCENT[game], else the game's own."""
    configured = getattr(settings, "TABLE_BANK_PERCENT", None) or {}
    return int(configured.get(game, get_engine(game).bank_percent))


def bank_share(game: str, currency: str) -> int:
    """The bank's per cent of a pot: capped at REGIME_CASH_MAX_BANK_PERCENT (10) at cash tables,
    the game's own at credits tables (play money). Games whose settlement is not a pot keep no bank."""
    if get_engine(game).settlement != "pot":
        return 0
    share = table_bank_percent(game)
    if currency == CASH:
        share = min(share, int(getattr(settings, "REGIME_CASH_MAX_BANK_PERCENT", 10)))
    return share


def regime_of(*, currency: str, official: bool, stake: int) -> str | None:
    """``cash`` for a money table, None at credits and practice tables."""
    return CASH_REGIME if currency == CASH and official and stake > 0 else None


def session_max_paid(game: str, stake: int, options: dict[str, Any] | None = None) -> int:
    """The most one player can pay into one match (§8's per-session cap): the stake; a game
    that settles in units (Bestia) its escrow of 30 units; one that settles by fees (Scala 40)
    the entry fee and every re-entry allowed."""
    return stake * get_engine(game).max_paid_units(options)
