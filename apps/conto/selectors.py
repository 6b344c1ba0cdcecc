"""Reading the conto (regulation.md §1.5, §1.9). Deadlines take effect on read (§0.2): a
conto whose approved document expired, or whose legacy-mode window closed, is treated as
``sospeso/documenti`` from that instant whether or not the nightly job has recorded it."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.conf import settings
from django.utils import timezone

from apps.common.roles import is_staff_member

from . import states as S
from .models import Conto, SelfExclusion


def rome_today(now: dt.datetime | None = None) -> dt.date:
    """The date in Europe/Rome (the project's TIME_ZONE)."""
    return timezone.localdate(now or timezone.now())


def conto_of(*, user: Any) -> Conto | None:
    """The user's conto if it exists (None for staff, anonymous, or a player never given one)."""
    if not getattr(user, "is_authenticated", False) or is_staff_member(user):
        return None
    try:
        return Conto.objects.get(user_id=user.pk)
    except Conto.DoesNotExist:
        return None


def document_valid(conto: Conto, *, today: dt.date | None = None) -> bool:
    """§1.4: the approved document is valid while its expiry is today or later."""
    if conto.document_expires_at is None:
        return False
    return conto.document_expires_at >= (today or rome_today())


def effective_state(conto: Conto, *, now: dt.datetime | None = None) -> tuple[str, str]:
    """(state, state_reason) as they stand now, deadlines applied on read (§0.2)."""
    now = now or timezone.now()
    today = rome_today(now)
    if conto.state == S.APERTO and conto.document_expires_at is not None and conto.kyc_status != S.LEGACY:
        grace = int(getattr(settings, "DOCUMENT_EXPIRED_GRACE_DAYS", 0))
        if conto.document_expires_at + dt.timedelta(days=grace) < today:
            return S.SOSPESO, S.DOCUMENTI
    if conto.state == S.IN_VERIFICA and conto.play_until is not None and now >= conto.play_until:
        return S.SOSPESO, S.DOCUMENTI
    if conto.state == S.SOSPESO and conto.state_reason == S.AUTOESCLUSIONE and not _exclusion_all_active(conto, now):
        # the exclusion ended: the earlier state holds from that instant (the tick records it)
        state, _sep, reason = (conto.state_before or f"{S.APERTO}/").partition("/")
        return effective_state(Conto(**{**_fields(conto), "state": state, "state_reason": reason}), now=now)
    return conto.state, conto.state_reason


def _fields(conto: Conto) -> dict:
    return {f.attname: getattr(conto, f.attname) for f in Conto._meta.concrete_fields}


def _exclusion_all_active(conto: Conto, now: dt.datetime) -> bool:
    for exclusion in SelfExclusion.objects.filter(conto_id=conto.pk, scope=SelfExclusion.ALL, starts_at__lte=now):
        if exclusion.active_at(now):
            return True
    return False


def legacy_mode_open(conto: Conto, *, now: dt.datetime | None = None) -> bool:
    """§1.6: an in_verifica conto inside its legacy-mode window may deposit and play."""
    now = now or timezone.now()
    return (conto.state == S.IN_VERIFICA and bool(getattr(settings, "KYC_PLAY_BEFORE_VERIFICATION", False))
            and conto.play_until is not None and now < conto.play_until)


def conto_may_money_play(conto: Conto, *, now: dt.datetime | None = None) -> bool:
    """§1.5 and §1.6 (self-exclusions are checked apart, with their own error)."""
    state, _reason = effective_state(conto, now=now)
    if state == S.APERTO:
        if conto.origin == S.ORIGIN_LEGACY and conto.kyc_status == S.LEGACY:
            return bool(getattr(settings, "LEGACY_ACCOUNTS_MAY_PLAY", True))
        return True
    return state == S.IN_VERIFICA and legacy_mode_open(conto, now=now)


def conto_may_deposit(conto: Conto, *, now: dt.datetime | None = None) -> bool:
    state, _reason = effective_state(conto, now=now)
    if state == S.APERTO:
        return conto.kyc_verified_at is not None
    return state == S.IN_VERIFICA and legacy_mode_open(conto, now=now)


def conto_may_withdraw(conto: Conto, *, now: dt.datetime | None = None) -> bool:
    state, reason = effective_state(conto, now=now)
    verified = conto.kyc_verified_at is not None and document_valid(conto, today=rome_today(now))
    if state == S.APERTO or (state == S.SOSPESO and reason == S.AUTOESCLUSIONE):
        return verified
    return False


def conto_can(conto: Conto, *, now: dt.datetime | None = None) -> dict[str, bool]:
    """§1.9's ``can`` (self-exclusions join when they exist, regulation.md §3)."""
    return {"money_play": conto_may_money_play(conto, now=now), "deposit": conto_may_deposit(conto, now=now),
            "withdraw": conto_may_withdraw(conto, now=now)}


def login_refusal(*, user: Any) -> tuple[str, str] | None:
    """(state, state_reason) of a player's conto that cannot log in (§1.5), else None. One
    indexed read; staff and players without a conto pass."""
    if not getattr(user, "is_authenticated", False) or is_staff_member(user):
        return None
    row = Conto.objects.filter(user_id=user.pk).values_list("state", "state_reason").first()
    if row is None or S.may_log_in(row[0]):
        return None
    return row


def conto_states_many(*, player_ids: list[int]) -> dict[int, tuple[str, str]]:
    """(state, kyc_status) per player for a list page, one query; a player never given a
    conto shows as its on-demand legacy one would (aperto, legacy) without creating it."""
    found = {row[0]: (row[1], row[2]) for row in
             Conto.objects.filter(user_id__in=player_ids).values_list("user_id", "state", "kyc_status")}
    return {pid: found.get(pid, (S.APERTO, S.LEGACY)) for pid in player_ids}
