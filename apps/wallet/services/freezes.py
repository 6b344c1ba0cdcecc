"""Freezes and the authority's share (platform.md §7.4): the wallet refuses a frozen spend from its own freezes, written here by compliance's services."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.db.models import Sum

from ..models import (
    BONUS,
    CASH,
    Account,
    Entry,
    Freeze,
    Transaction,
)
from .accounts import AUTHORITY_FROZEN, AUTHORITY_REMITTED, _account_ids, player_code
from .ledger import Leg, ledger_post
from .sql import LedgerError


def wallet_freeze_set(*, player_id: int, reference: str, divert: bool, starts_at: datetime,
                      ends_at: datetime | None, lifted_at: datetime | None) -> Freeze:
    """Record a hold on a player's money, or update it (lifted, shortened): compliance calls it
    for every account suspension (``divert=False``) and authority report (``divert=True``)
    it writes, in the same database transaction. Safe to call twice.

    A divert freeze lasts until it is lifted (an authority report is permanent, §7.4). Its
    effect is mirrored on the player's cash and bonus accounts (``Account.diverted``), written
    under their locks, taken first: the lock order of ``_divert_decide``."""
    if divert and ends_at is not None:
        raise LedgerError("a divert freeze lasts until it is lifted (an authority report is permanent)")
    with transaction.atomic():
        own = _account_ids({(player_code(player_id), c) for c in (CASH, BONUS)}, cached=False)
        list(Account.objects.select_for_update().filter(pk__in=sorted(own.values())).order_by("pk"))
        freeze, _ = Freeze.objects.update_or_create(reference=reference, defaults={
            "player_id": player_id, "divert": divert, "starts_at": starts_at, "ends_at": ends_at,
            "lifted_at": lifted_at})
        diverted = Freeze.objects.filter(player_id=player_id, divert=True, lifted_at__isnull=True).exists()
        Account.objects.filter(pk__in=own.values()).exclude(diverted=diverted).update(diverted=diverted)
    return freeze


def authority_freeze(*, player_id: int, reference: str) -> Transaction | None:
    """An authority report moves the player's cash and bonus to house:authority_frozen
    (platform.md §7.4, kind ``authority_freeze``), once per ``reference``. Call it after the
    report's freeze is written: from then on nothing leaves or reaches those accounts."""
    with transaction.atomic():
        codes = list(_account_ids({(player_code(player_id), c) for c in (CASH, BONUS)}, cached=False).values())
        balances = dict(Account.objects.select_for_update().filter(pk__in=codes).order_by("pk")
                        .values_list("currency", "balance"))
        legs: list[Leg] = []
        for currency in (CASH, BONUS):
            if balances.get(currency):
                legs += [Leg(player_code(player_id), currency, -balances[currency]),
                         Leg(AUTHORITY_FROZEN, currency, balances[currency], player_id=player_id)]
        if not legs:
            return None
        return ledger_post(kind="authority_freeze", reference=reference, legs=legs, allow_frozen=True,
                           idempotency_key=f"authority_freeze:{reference}")


def authority_settle(*, player_id: int, reference: str, decision: str) -> Transaction | None:
    """The authority's ruling empties the player's share of house:authority_frozen, once per
    ``reference``: ``release`` gives it back in the currencies it came from (kind
    ``authority_release``), ``forfeit`` sends it to house:authority_remitted."""
    if decision not in ("release", "forfeit"):
        raise LedgerError(f"unknown decision {decision!r}")
    with transaction.atomic():
        # the wallet's lock order: the player's accounts, then the authority ones (_divert_decide)
        own = list(_account_ids({(player_code(player_id), c) for c in (CASH, BONUS)}, cached=False).values())
        list(Account.objects.select_for_update().filter(pk__in=own).order_by("pk"))
        frozen = list(_account_ids({(AUTHORITY_FROZEN, c) for c in (CASH, BONUS)}, cached=False).values())
        list(Account.objects.select_for_update().filter(pk__in=frozen).order_by("pk"))  # the shares stay put
        shares = dict(Entry.objects.filter(account_id__in=frozen, player_id=player_id).values("currency")
                      .annotate(total=Sum("amount")).values_list("currency", "total"))
        legs: list[Leg] = []
        for currency in (CASH, BONUS):
            share = shares.get(currency) or 0
            if share:
                legs.append(Leg(AUTHORITY_FROZEN, currency, -share, player_id=player_id))
                legs.append(Leg(player_code(player_id), currency, share) if decision == "release"
                            else Leg(AUTHORITY_REMITTED, currency, share, player_id=player_id))
        if not legs:
            return None
        kind = "authority_release" if decision == "release" else "authority_forfeit"
        return ledger_post(kind=kind, reference=reference, legs=legs, idempotency_key=f"{kind}:{reference}")
