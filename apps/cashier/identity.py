"""The conto's checks the cashier makes, in regulation.md §5.3's and §5.4's own order."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils.translation import gettext as _

from apps.common.errors import Conflict, Forbidden
from apps.conto import states as S
from apps.conto.errors import AccountNotOpen
from apps.conto.exclusions import exclusion_check
from apps.conto.models import Conto, Limit
from apps.conto.registry import RegistryUnavailable
from apps.conto.selectors import document_valid, effective_state, legacy_mode_open, rome_today
from apps.conto.services import conto_ensure
from apps.wallet.selectors import freeze_state


class IdentityIncomplete(Conflict):
    code = "identity_incomplete"

    def __init__(self) -> None:
        super().__init__(_("Complete and verify your identity first: the cashier needs a verified identity "
                           "document. Your account page says what is missing."))


def identity_ready(conto: Conto, *, now: dt.datetime | None = None) -> bool:
    return conto.kyc_verified_at is not None or legacy_mode_open(conto, now=now)


def cashier_identity_check(*, user: Any, now: dt.datetime | None = None) -> Conto:
    """409 ``identity_incomplete`` unless the identity is verified (or legacy mode is open)."""
    conto = conto_ensure(user=user)
    if not identity_ready(conto, now=now):
        raise IdentityIncomplete()
    return conto


def deposit_gate(*, user: Any, now: dt.datetime | None = None) -> Conto:
    """§5.3 (3)–(5): self_excluded, account_not_open, registry_unavailable; identity_incomplete,
    limits_required; sanctioned."""
    conto = conto_ensure(user=user)
    exclusion_check(conto=conto, what="deposit", now=now)
    state, reason = effective_state(conto, now=now)
    if not (state == S.APERTO or (state == S.IN_VERIFICA and legacy_mode_open(conto, now=now))):
        raise AccountNotOpen(state=state, state_reason=reason)
    if conto.registry_unreachable:
        raise RegistryUnavailable()
    if not identity_ready(conto, now=now):
        raise IdentityIncomplete()
    have = set(Limit.objects.filter(conto=conto, key__in=(Limit.DEPOSIT_DAY, Limit.DEPOSIT_WEEK, Limit.DEPOSIT_MONTH))
               .values_list("key", flat=True))
    if len(have) < 3:
        raise Conflict(_("Set your daily, weekly and monthly deposit limits first (Limits page)."),
                       code="limits_required")
    if freeze_state(player_id=user.pk)[0]:
        raise Forbidden(_("Your account is frozen by a sanction: deposits are not possible now."), code="sanctioned")
    return conto


def withdrawal_gate(*, user: Any, now: dt.datetime | None = None) -> Conto:
    """§5.4 (2)–(4): identity_incomplete; account_not_open (a self-exclusion goes on),
    document_expired; account_frozen."""
    conto = conto_ensure(user=user)
    if conto.kyc_verified_at is None:
        raise IdentityIncomplete()
    state, reason = effective_state(conto, now=now)
    valid = document_valid(conto, today=rome_today(now))
    open_ = state == S.APERTO or (state == S.SOSPESO and reason == S.AUTOESCLUSIONE)
    # suspended for documents because the approved one expired: the expiry is the answer
    expired = state == S.SOSPESO and reason == S.DOCUMENTI and conto.document_expires_at is not None and not valid
    if not open_ and not expired:
        raise AccountNotOpen(state=state, state_reason=reason)
    if not valid:
        raise Conflict(_("Your identity document has expired: upload a valid one from your account page, then "
                         "withdraw."), code="document_expired")
    if freeze_state(player_id=user.pk)[0]:
        raise Conflict(_("Your account is frozen by a sanction: withdrawals wait until it ends."),
                       code="account_frozen")
    return conto
