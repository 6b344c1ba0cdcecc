"""Self-exclusion (regulation.md §3): start at once, extend but never shorten, revoke an
indefinite one only after its months and a delay; staff can neither lift nor shorten one.

Ends take effect on read (§0.2): ``exclusion_active`` looks at the instants; the tick
(``exclusions_record_due``) only restores the conto's state, writes the history and tells ADM.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from apps.adm.services import adm_enqueue
from apps.common.errors import Conflict, DomainError, NotFoundError, ValidationFailed

from . import states as S
from .calendar import add_months
from .models import Conto, ExclusionChange, SelfExclusion
from .services import conto_ensure, conto_state_set
from .signals import conto_left_open

#: which exclusions refuse what (§3.3)
COVERS = {
    "tournament": (SelfExclusion.ALL, SelfExclusion.TOURNAMENTS),
    "money_table": (SelfExclusion.ALL, SelfExclusion.MONEY_TABLES),
    "deposit": (SelfExclusion.ALL,),
    "bonus": (SelfExclusion.ALL,),
}


class SelfExcluded(DomainError):
    status = 403
    code = "self_excluded"

    def __init__(self, exclusion: SelfExclusion) -> None:
        end = exclusion.end_at()
        if end is None:
            detail = _("You excluded yourself from play with no end date: this is not available.")
        else:
            detail = _("You excluded yourself from play until %(until)s: this is not available until then.") % {
                "until": date_format(timezone.localtime(end), "DATETIME_FORMAT")}
        super().__init__(detail, scope=exclusion.scope, until=_iso(end))


def _iso(moment: dt.datetime | None) -> str | None:
    """An instant as the API shows it: Rome's offset."""
    return None if moment is None else timezone.localtime(moment).isoformat()


def exclusion_active(*, conto: Conto, what: str, now: dt.datetime | None = None) -> SelfExclusion | None:
    """The active exclusion that refuses ``what`` (tournament, money_table, deposit, bonus)."""
    now = now or timezone.now()
    for exclusion in SelfExclusion.objects.filter(conto=conto, scope__in=COVERS[what], starts_at__lte=now):
        if exclusion.active_at(now):
            return exclusion
    return None


def exclusion_check(*, conto: Conto, what: str, now: dt.datetime | None = None) -> None:
    """403 ``self_excluded`` (with ``scope`` and ``until``) when an active exclusion refuses it."""
    exclusion = exclusion_active(conto=conto, what=what, now=now)
    if exclusion is not None:
        raise SelfExcluded(exclusion)


def exclusion_as_dict(exclusion: SelfExclusion, *, now: dt.datetime | None = None) -> dict[str, Any]:
    """§3.5's shape."""
    now = now or timezone.now()
    revocable_from = None
    if exclusion.indefinite and exclusion.source == SelfExclusion.PLAYER:
        revocable_from = _iso(_revocable_from(exclusion))
    revocation = None
    if exclusion.revocation_requested_at is not None:
        revocation = {"requested_at": _iso(exclusion.revocation_requested_at),
                      "effective_at": _iso(exclusion.revocation_effective_at)}
    return {"id": exclusion.pk, "scope": exclusion.scope, "source": exclusion.source,
            "starts_at": _iso(exclusion.starts_at), "ends_at": _iso(exclusion.ends_at),
            "indefinite": exclusion.indefinite, "revocable_from": revocable_from, "revocation": revocation,
            "active": exclusion.active_at(now)}


def exclusions_of(*, conto: Conto, now: dt.datetime | None = None) -> list[dict[str, Any]]:
    return [exclusion_as_dict(e, now=now) for e in SelfExclusion.objects.filter(conto=conto)]


def _revocable_from(exclusion: SelfExclusion) -> dt.datetime:
    months = int(getattr(settings, "SELF_EXCLUSION_REVOKE_AFTER_MONTHS", 6))
    return add_months(timezone.localtime(exclusion.indefinite_from or exclusion.starts_at), months)


def exclusion_stand_up(exclusion: SelfExclusion) -> None:
    """§3.3: at money tables the player is stood up between matches at once (after commit)."""
    if exclusion.scope in (SelfExclusion.ALL, SelfExclusion.MONEY_TABLES):
        player_id, scope = exclusion.conto_id, exclusion.scope
        transaction.on_commit(lambda: conto_left_open.send(sender=Conto, player_id=player_id, state="excluded",
                                                           state_reason=scope))


def exclusion_tell(exclusion: SelfExclusion, action: str) -> None:
    end = exclusion.end_at()
    adm_enqueue(type="self_exclusion", reference=f"self_exclusion:{exclusion.pk}", player_id=exclusion.conto_id,
                payload={"action": action, "scope": exclusion.scope, "starts_at": _iso(exclusion.starts_at),
                         "ends_at": _iso(end)})


def _parse_request(data: Any) -> tuple[str, int | None]:
    if not isinstance(data, dict):
        raise ValidationFailed(fields={"scope": [_("Say the scope and the days, or indefinite.")]})
    scope = data.get("scope")
    errors: dict[str, list[str]] = {}
    if scope not in SelfExclusion.SCOPES:
        errors["scope"] = [_("One of all, tournaments, money_tables.")]
    days = data.get("days")
    indefinite = data.get("indefinite", False)
    low = int(getattr(settings, "SELF_EXCLUSION_MIN_DAYS", 7))
    high = int(getattr(settings, "SELF_EXCLUSION_MAX_DAYS", 270))
    if indefinite is True and days is None:
        days = None
    elif indefinite not in (False, None) or type(days) is not int or not low <= days <= high:
        errors["days"] = [_("A whole number of days from %(low)s to %(high)s, or indefinite: true.")
                          % {"low": low, "high": high}]
    if errors:
        raise ValidationFailed(_("The self-exclusion is not valid."), fields=errors)
    return scope, days


def self_exclusion_request(*, user: Any, data: Any, now: dt.datetime | None = None,
                           source: str = SelfExclusion.PLAYER) -> tuple[SelfExclusion, bool]:
    """Start an exclusion at once, or extend the active one of that scope (same id). Returns
    (exclusion, created). A shorter end → 409 ``self_exclusion_cannot_shorten``."""
    scope, days = _parse_request(data)
    now = now or timezone.now()
    conto = conto_ensure(user=user)
    new_end = None if days is None else now + dt.timedelta(days=days)
    with transaction.atomic():
        conto = Conto.objects.select_for_update().get(pk=conto.pk)
        current = next((e for e in SelfExclusion.objects.select_for_update().filter(conto=conto, scope=scope)
                        if e.active_at(now)), None)
        if current is not None:
            old_end = current.end_at()
            if old_end is None and new_end is not None or (old_end is not None and new_end is not None
                                                             and new_end < old_end):
                raise Conflict(_("A self-exclusion can be extended, never shortened: it runs until %(until)s.")
                               % {"until": _when(old_end)}, code="self_exclusion_cannot_shorten")
            if new_end is None and old_end is not None:
                current.indefinite_from = now
            current.ends_at = new_end
            current.revocation_requested_at = current.revocation_effective_at = None
            current.save(update_fields=["ends_at", "indefinite_from", "revocation_requested_at",
                                        "revocation_effective_at"])
            ExclusionChange.objects.create(exclusion=current, action="extended", ends_at=new_end, at=now)
            exclusion_tell(current, "extended")
            return current, False
        exclusion = SelfExclusion.objects.create(conto=conto, scope=scope, source=source, starts_at=now,
                                                 ends_at=new_end, indefinite_from=now if new_end is None else None)
        ExclusionChange.objects.create(exclusion=exclusion, action="started", ends_at=new_end, at=now)
        exclusion_tell(exclusion, "started")
        exclusion_stand_up(exclusion)
        if scope == SelfExclusion.ALL and conto.state in (S.IN_VERIFICA, S.APERTO, S.SOSPESO) and \
                conto.state_reason != S.AUTOESCLUSIONE:
            conto_state_set(conto=conto, state=S.SOSPESO, state_reason=S.AUTOESCLUSIONE, reason="self-exclusion",
                            remember=True, now=now)
    return exclusion, True


def _when(moment: dt.datetime | None) -> str:
    return _("no end date") if moment is None else date_format(timezone.localtime(moment), "DATETIME_FORMAT")


def self_exclusion_revoke(*, user: Any, exclusion_id: Any, now: dt.datetime | None = None) -> SelfExclusion:
    """§3.2: only an indefinite exclusion of the player's own, from ``revocable_from``; it ends
    SELF_EXCLUSION_REVOKE_DELAY_DAYS after the request."""
    now = now or timezone.now()
    conto = conto_ensure(user=user)
    with transaction.atomic():
        exclusion = SelfExclusion.objects.select_for_update().filter(conto=conto, pk=_int(exclusion_id)).first()
        if exclusion is None:
            raise NotFoundError()
        if not exclusion.indefinite or exclusion.source == SelfExclusion.REGISTRY:
            raise Conflict(_("A self-exclusion with an end date ends by itself: it cannot be revoked."),
                           code="self_exclusion_fixed")
        if exclusion.revocation_requested_at is not None or not exclusion.active_at(now):
            raise Conflict(_("This self-exclusion's revocation was already requested."), code="invalid_transition")
        revocable_from = _revocable_from(exclusion)
        if now < revocable_from:
            raise Conflict(_("An indefinite self-exclusion can be revoked from %(date)s.") % {"date": _when(revocable_from)},
                           code="revocation_too_early", revocable_from=_iso(revocable_from))
        delay = dt.timedelta(days=int(getattr(settings, "SELF_EXCLUSION_REVOKE_DELAY_DAYS", 7)))
        exclusion.revocation_requested_at, exclusion.revocation_effective_at = now, now + delay
        exclusion.save(update_fields=["revocation_requested_at", "revocation_effective_at"])
        ExclusionChange.objects.create(exclusion=exclusion, action="revocation_requested",
                                       ends_at=exclusion.revocation_effective_at, at=now)
        exclusion_tell(exclusion, "revocation_requested")
    return exclusion


def _int(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return 0


def exclusions_record_due(*, now: dt.datetime | None = None) -> int:
    """The tick: exclusions whose end passed are recorded once; a conto suspended by an ``all``
    exclusion gets its earlier state back (unless another ``all`` is still active)."""
    now = now or timezone.now()
    done = 0
    candidates = SelfExclusion.objects.filter(ended_recorded_at__isnull=True).exclude(
        ends_at__isnull=True, revocation_effective_at__isnull=True).values_list("pk", flat=True)
    for pk in candidates:
        with transaction.atomic():
            exclusion = SelfExclusion.objects.select_for_update().get(pk=pk)
            end = exclusion.end_at()
            if exclusion.ended_recorded_at is not None or end is None or end > now:
                continue
            conto = Conto.objects.select_for_update().get(pk=exclusion.conto_id)
            exclusion.ended_recorded_at = now
            exclusion.save(update_fields=["ended_recorded_at"])
            ExclusionChange.objects.create(exclusion=exclusion, action="ended", ends_at=end, at=now)
            exclusion_tell(exclusion, "ended")
            if exclusion.scope == SelfExclusion.ALL and conto.state == S.SOSPESO and \
                    conto.state_reason == S.AUTOESCLUSIONE and \
                    exclusion_active(conto=conto, what="deposit", now=now) is None:
                state, _sep, reason = (conto.state_before or f"{S.APERTO}/").partition("/")
                conto.state_before = ""
                conto_state_set(conto=conto, state=state, state_reason=reason, reason="self-exclusion ended", now=now)
            done += 1
    return done
