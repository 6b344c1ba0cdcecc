"""The conto's checks at money-play points (regulation.md §4.4): what every floor above calls
before it writes anything, in the spec's order.

- ``money_play_gate``: ``self_excluded`` then ``account_not_open`` (after the caller's own
  nickname, staff and sanction checks).
- ``money_play_spend``: ``spend_limit_exceeded`` for the cost (after the caller's own
  closed/duplicate/full checks, before the funds); ``lock=True`` takes the conto's row lock
  first, so two plays racing for the last euro of a limit are serialised (the owner's row is
  locked before it, the wallet's accounts after it: one order everywhere).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from apps.common.errors import DomainError

from .errors import AccountNotOpen
from .exclusions import exclusion_check
from .limits import spend_check
from .models import Conto
from .registry import RegistryUnavailable
from .selectors import conto_may_money_play, effective_state
from .services import conto_ensure
from .sessions import reality_check_gate, time_limit_check

TOURNAMENT, MONEY_TABLE = "tournament", "money_table"


def money_play_gate(*, user: Any, what: str, now: dt.datetime | None = None) -> Conto:
    conto = conto_ensure(user=user)
    exclusion_check(conto=conto, what=what, now=now)
    if not conto_may_money_play(conto, now=now):
        state, reason = effective_state(conto, now=now)
        raise AccountNotOpen(state=state, state_reason=reason)
    if conto.registry_unreachable:
        raise RegistryUnavailable()
    return conto


def money_play_spend(*, user: Any, amount: int, lock: bool = False, now: dt.datetime | None = None) -> None:
    if amount <= 0:
        return
    conto = conto_ensure(user=user)
    if lock:
        conto = Conto.objects.select_for_update().get(pk=conto.pk)
    spend_check(conto=conto, amount=amount, now=now)


def money_play_refusal(*, user: Any, what: str, amount: int, now: dt.datetime | None = None) -> str | None:
    """For a money match's start (§4.4's last row): the refusal's code that stands a seat up, or None."""
    try:
        money_play_gate(user=user, what=what, now=now)
        money_play_spend(user=user, amount=amount, now=now)
    except DomainError as exc:
        return exc.code
    return None



def play_time_gate(*, user: Any, now: dt.datetime | None = None) -> None:
    """``time_limit_reached`` then ``reality_check_pending`` (§2.5, §4.2): every table, credits
    and practice too, and every registration; moves in a match in play are never refused."""
    time_limit_check(user=user, now=now)
    reality_check_gate(user=user, now=now)
