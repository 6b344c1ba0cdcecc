"""Reading the cashier (regulation.md §5): the player's deposits and withdrawals, finance's queue.
A player's view never mentions AML (no tipping off, §5.4): the checks are staff's only."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext_lazy

from apps.adm.selectors import movement_codes
from apps.wallet.models import Deposit, Withdrawal

from .checks import withdrawal_checks

#: a withdrawal's status in the words of the pages
WITHDRAWAL_WORDS = {"requested": gettext_lazy("requested"), "in_review": gettext_lazy("being checked"),
                    "approved": gettext_lazy("approved, being paid"), "paid": gettext_lazy("paid"),
                    "rejected": gettext_lazy("rejected"), "cancelled": gettext_lazy("cancelled")}


def _iso(moment: datetime) -> str | None:
    return timezone.localtime(moment).isoformat() if moment else None


def deposit_as_dict(deposit: Deposit, *, codes: dict[str, str] | None = None) -> dict[str, Any]:
    reference = f"deposit:{deposit.pk}"
    code = (codes if codes is not None else movement_codes([reference])).get(reference)
    return {"id": deposit.pk, "amount_cents": deposit.amount, "status": deposit.status,
            "instrument": deposit.instrument_id, "created": _iso(deposit.created),
            "confirmed_at": _iso(deposit.confirmed_at), "redirect_url": deposit.redirect_url or None,
            "adm_code": code}


def deposits_as_dicts(deposits: list[Deposit]) -> list[dict[str, Any]]:
    codes = movement_codes([f"deposit:{d.pk}" for d in deposits])
    return [deposit_as_dict(d, codes=codes) for d in deposits]


def withdrawal_as_dict(withdrawal: Withdrawal, *, codes: dict[str, str] | None = None) -> dict[str, Any]:
    """The player's shape (and the base of staff's): the reason is a rejection's or approval's."""
    reference = f"withdrawal:{withdrawal.pk}"
    code = (codes if codes is not None else movement_codes([reference])).get(reference)
    return {"id": withdrawal.pk, "amount_cents": withdrawal.amount, "status": withdrawal.status,
            "instrument": withdrawal.instrument_id, "created": _iso(withdrawal.created),
            "reason": withdrawal.reason or None, "paid_at": _iso(withdrawal.paid_at), "adm_code": code}


def withdrawals_as_dicts(withdrawals: list[Withdrawal]) -> list[dict[str, Any]]:
    codes = movement_codes([f"withdrawal:{w.pk}" for w in withdrawals])
    return [withdrawal_as_dict(w, codes=codes) for w in withdrawals]


def withdrawal_staff_dict(withdrawal: Withdrawal) -> dict[str, Any]:
    """Finance's queue row: the player, the instrument and the automatic checks."""
    return {"id": withdrawal.pk, "player": withdrawal.player_id, "username": withdrawal.player.username,
            "amount_cents": withdrawal.amount, "status": withdrawal.status, "instrument": withdrawal.instrument_id,
            "instrument_masked": withdrawal.instrument.masked, "created": _iso(withdrawal.created),
            "reason": withdrawal.reason or None, "checks": withdrawal_checks(withdrawal)}


def withdrawal_queue(*, status: str | None = None, player_id: int | None = None) -> QuerySet[Withdrawal]:
    """Oldest first (the queue's order)."""
    rows = Withdrawal.objects.select_related("player", "instrument").order_by("id")
    if status:
        rows = rows.filter(status=status)
    if player_id:
        rows = rows.filter(player_id=player_id)
    return rows
