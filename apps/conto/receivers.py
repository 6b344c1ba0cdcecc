"""What the conto hears from the floors below it (after their commit)."""

from __future__ import annotations

from typing import Any

from .models import Conto
from .registry import registry_entry_from_adm


def keep_account_code(sender: Any, *, type: str, player_id: int | None, accepted: bool, code: str,  # noqa: A002
                      reference: str, **kwargs: Any) -> None:
    """ADM accepted ``account_open``: the conto keeps the account code it issued (§7.1)."""
    if type == "account_open" and accepted and player_id is not None:
        Conto.objects.filter(user_id=player_id).update(adm_account_code=code)
    elif type == "self_exclusion" and accepted:
        registry_entry_from_adm(reference=reference)
