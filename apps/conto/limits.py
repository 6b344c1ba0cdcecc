"""Self-limits (regulation.md §2): the seven limits, their first-activation caps, lowering at
once and raising after a delay, and what counts against them, read from the ledger.

Deadlines take effect on read (§0.2): a pending raise whose ``effective_at`` passed is in
force from that instant; ``limits_record_due`` (the tick) only writes it down and tells ADM.
"""

from __future__ import annotations

import datetime as dt
from typing import Any
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db import transaction
from django.db.models import Q, Sum, Value
from django.db.models.functions import Coalesce, NullIf
from django.utils import timezone
from django.utils.translation import gettext as _

from apps.adm.services import adm_enqueue
from apps.common.errors import Conflict, NotFoundError, ValidationFailed
from apps.common.templatetags.money import format_euro
from apps.wallet.models import BONUS, CASH, Deposit, Entry

from .models import Conto, Limit, LimitChange
from .timeuse import time_used_minutes

ROME = ZoneInfo("Europe/Rome")
KEYS = Limit.KEYS
MONEY_MAX = 100_000_000
TIME_MAX = 1_440
DAY_KEYS = (Limit.DEPOSIT_DAY, Limit.SPEND_DAY, Limit.TIME_DAY)
DEPOSIT_KEYS = (Limit.DEPOSIT_DAY, Limit.DEPOSIT_WEEK, Limit.DEPOSIT_MONTH)
SPEND_KEYS = (Limit.SPEND_DAY, Limit.SPEND_WEEK, Limit.SPEND_MONTH)

#: §2.3: what an entry on the player's cash and bonus accounts counts as
PLAYED_KINDS = ("buy_in", "stake")
WON_KINDS = ("prize", "seat_value", "winnings")
REFUNDED_KINDS = ("unregister_refund", "cancel_refund", "stake_return")


# -- periods (Europe/Rome) -------------------------------------------------------------------

def period_bounds(key: str, now: dt.datetime) -> tuple[dt.datetime, dt.datetime]:
    """[start, end) of the key's period containing ``now``: the Rome day, the week from Monday
    00:00, the calendar month."""
    local = now.astimezone(ROME)
    day = local.date()
    if key.endswith("_week"):
        first = day - dt.timedelta(days=day.weekday())
        last = first + dt.timedelta(days=7)
    elif key.endswith("_month"):
        first = day.replace(day=1)
        last = (first + dt.timedelta(days=32)).replace(day=1)
    else:
        first, last = day, day + dt.timedelta(days=1)
    start = dt.datetime.combine(first, dt.time(0), tzinfo=ROME)
    end = dt.datetime.combine(last, dt.time(0), tzinfo=ROME)
    return start, end


# -- reading -------------------------------------------------------------------------------------

def _entry_kind():
    return Coalesce(NullIf("kind", Value("")), "transaction__kind")


def spend_breakdown(*, player_id: int, since: dt.datetime, until: dt.datetime | None = None) -> dict[str, int]:
    """§2.3: played, won, refunded (cents) over the entries on the player's cash and bonus
    accounts created in [since, until); credits never count."""
    rows = Entry.objects.filter(account__player_id=player_id, currency__in=(CASH, BONUS), created__gte=since)
    if until is not None:
        rows = rows.filter(created__lt=until)
    totals = rows.annotate(k=_entry_kind()).aggregate(
        played=Coalesce(Sum("amount", filter=Q(k__in=PLAYED_KINDS)), 0),
        won=Coalesce(Sum("amount", filter=Q(k__in=WON_KINDS)), 0),
        refunded=Coalesce(Sum("amount", filter=Q(k__in=REFUNDED_KINDS)), 0),
    )
    return {"played": -totals["played"], "won": totals["won"], "refunded": totals["refunded"]}


def spend_used(*, player_id: int, since: dt.datetime, until: dt.datetime | None = None) -> int:
    """Spend = played − won − refunded (may be negative)."""
    b = spend_breakdown(player_id=player_id, since=since, until=until)
    return b["played"] - b["won"] - b["refunded"]


def deposits_used(*, player_id: int, since: dt.datetime) -> int:
    """§2.3: deposits pending or confirmed created in the period; finance adjustments count nowhere."""
    return Deposit.objects.filter(player_id=player_id, created__gte=since,
                                  status__in=(Deposit.PENDING, Deposit.CONFIRMED)).aggregate(
        total=Coalesce(Sum("amount"), 0))["total"]


def limit_in_force(limit: Limit, *, now: dt.datetime) -> tuple[int, int | None, dt.datetime | None]:
    """(value, pending value, pending effective_at) as they stand at ``now``."""
    if limit.pending_value is not None and limit.pending_effective_at is not None and \
            limit.pending_effective_at <= now:
        return limit.pending_value, None, None
    return limit.value, limit.pending_value, limit.pending_effective_at


def _used(key: str, player_id: int, now: dt.datetime) -> int:
    start, _end = period_bounds(key, now)
    if key in SPEND_KEYS:
        return spend_used(player_id=player_id, since=start)
    if key in DEPOSIT_KEYS:
        return deposits_used(player_id=player_id, since=start)
    return time_used_minutes(user_id=player_id, now=now)


def young(conto: Conto, *, today: dt.date | None = None) -> bool:
    """§1.2: 18-24 (today < birth_date + 25 years)."""
    if conto.birth_date is None:
        return False
    today = today or timezone.localdate()
    return today < _add_years(conto.birth_date, 25)


def _add_years(day: dt.date, years: int) -> dt.date:
    try:
        return day.replace(year=day.year + years)
    except ValueError:  # 29 February in a common year counts as 1 March
        return dt.date(day.year + years, 3, 1)


def first_activation_caps(*, is_young: bool) -> dict[str, int]:
    name = "YOUNG_FIRST_ACTIVATION_CAPS" if is_young else "FIRST_ACTIVATION_CAPS"
    default = {"deposit_day": 5000, "spend_day": 5000, "time_day": 120} if is_young else \
        {"deposit_day": 20000, "spend_day": 10000, "time_day": 180}
    return dict(getattr(settings, name, default))


def limits_view(*, conto: Conto, now: dt.datetime | None = None) -> dict[str, Any]:
    """§2.6's shape: one object per key, ``young`` and ``first_activation_caps``."""
    now = now or timezone.now()
    rows = {limit.key: limit for limit in Limit.objects.filter(conto=conto)}
    shape: dict[str, Any] = {}
    for key in KEYS:
        limit = rows.get(key)
        _start, end = period_bounds(key, now)
        if limit is None:
            shape[key] = {"value": None, "used": _used(key, conto.user_id, now), "remaining": None,
                          "resets_at": timezone.localtime(end).isoformat(), "pending": None}
            continue
        value, pending, effective_at = limit_in_force(limit, now=now)
        used = _used(key, conto.user_id, now)
        shape[key] = {"value": value, "used": used, "remaining": max(0, value - used),
                      "resets_at": timezone.localtime(end).isoformat(),
                      "pending": None if pending is None else
                      {"value": pending, "effective_at": timezone.localtime(effective_at).isoformat()}}
    is_young = young(conto, today=now.astimezone(ROME).date())
    shape["young"] = is_young
    shape["first_activation_caps"] = first_activation_caps(is_young=is_young)
    return shape


# -- checking ------------------------------------------------------------------------------------

def _limit_error(code: str, detail: str, *, key: str, value: int, used: int, end: dt.datetime,
                 **extra: Any) -> Conflict:
    return Conflict(detail, code=code, limit=key, limit_cents=value, remaining_cents=max(0, value - used),
                    resets_at=timezone.localtime(end).isoformat(), **extra)


def spend_check(*, conto: Conto, amount: int, now: dt.datetime | None = None) -> None:
    """§2.4: money play costing ``amount`` must fit every spend limit, day, week, month in that
    order; else 409 ``spend_limit_exceeded`` naming the first it would pass. Callers run it
    before any write, under the player's lock where two plays may race."""
    if amount <= 0:
        return
    now = now or timezone.now()
    rows = {limit.key: limit for limit in Limit.objects.filter(conto=conto, key__in=SPEND_KEYS)}
    for key in SPEND_KEYS:
        limit = rows.get(key)
        if limit is None:
            continue
        value, _pending, _at = limit_in_force(limit, now=now)
        used = _used(key, conto.user_id, now)
        if used + amount > value:
            _start, end = period_bounds(key, now)
            raise _limit_error("spend_limit_exceeded",
                               _("This would pass your spending limit (%(key)s): %(remaining)s left of %(value)s.")
                               % {"key": key, "remaining": format_euro(max(0, value - used)), "value": format_euro(value)},
                               key=key, value=value, used=used, end=end, needed_cents=amount)


def deposit_check(*, conto: Conto, amount: int, now: dt.datetime | None = None) -> None:
    """§2.4: a deposit must fit every deposit limit, day, week, month in that order."""
    now = now or timezone.now()
    rows = {limit.key: limit for limit in Limit.objects.filter(conto=conto, key__in=DEPOSIT_KEYS)}
    for key in DEPOSIT_KEYS:
        limit = rows.get(key)
        if limit is None:
            continue
        value, _pending, _at = limit_in_force(limit, now=now)
        used = _used(key, conto.user_id, now)
        if used + amount > value:
            _start, end = period_bounds(key, now)
            raise _limit_error("deposit_limit_exceeded",
                               _("This deposit would pass your deposit limit (%(key)s): %(remaining)s left.")
                               % {"key": key, "remaining": format_euro(max(0, value - used))},
                               key=key, value=value, used=used, end=end)


# -- writing -------------------------------------------------------------------------------------

def limits_validate(values: Any, *, conto: Conto, first: bool, field_prefix: str = "") -> dict[str, int]:
    """Unknown keys, non-integers, out of range, ``null`` → 400 naming the field; a day
    limit's first value within the first-activation caps (§2.1)."""
    if not isinstance(values, dict):
        raise ValidationFailed(fields={field_prefix.rstrip(".") or "limits": [_("An object of limits.")]})
    errors: dict[str, list[str]] = {}
    clean: dict[str, int] = {}
    existing = set(Limit.objects.filter(conto=conto).values_list("key", flat=True)) if conto.pk else set()
    caps = first_activation_caps(is_young=young(conto))
    for key, value in values.items():
        name = f"{field_prefix}{key}"
        if key not in KEYS:
            errors[name] = [_("Unknown limit.")]
            continue
        top = TIME_MAX if key == Limit.TIME_DAY else MONEY_MAX
        if type(value) is not int or not 0 <= value <= top:
            errors[name] = [_("A whole number from 0 to %(top)s.") % {"top": top}]
            continue
        if key in caps and (first or key not in existing) and value > caps[key]:
            errors[name] = [_("The first value of this limit can be at most %(cap)s.") % {"cap": caps[key]}]
            continue
        clean[key] = value
    if errors:
        raise ValidationFailed(_("Some limits are not valid."), fields=errors)
    return clean


def limits_set_initial(*, conto: Conto, values: dict[str, int], now: dt.datetime | None = None) -> None:
    """The conto's first limits (sign-up, or a legacy player's first settings), in force at once."""
    now = now or timezone.now()
    for key, value in values.items():
        limit = Limit.objects.create(conto=conto, key=key, value=value, set_at=now)
        LimitChange.objects.create(conto=conto, key=key, action="set", value=value, effective_at=now, at=now)
        _tell_adm(limit, value, now)


def _tell_adm(limit: Limit, value: int, at: dt.datetime) -> None:
    adm_enqueue(type="limit_change", reference=f"limit:{limit.pk}", player_id=limit.conto_id,
                payload={"key": limit.key, "value": value, "effective_at": at.isoformat()})


def limits_change(*, user: Any, values: Any, now: dt.datetime | None = None) -> dict[str, Any]:
    """§2.2: per key, none yet → set (within the caps); ≤ the value in force → at once,
    cancelling a pending raise; higher → pending for LIMIT_RAISE_DELAY_DAYS, replacing an
    earlier pending raise. All keys validated before anything is written."""
    now = now or timezone.now()
    with transaction.atomic():
        conto = Conto.objects.select_for_update().get(user_id=user.pk)
        clean = limits_validate(values, conto=conto, first=False)
        rows = {limit.key: limit for limit in Limit.objects.select_for_update().filter(conto=conto)}
        delay = dt.timedelta(days=int(getattr(settings, "LIMIT_RAISE_DELAY_DAYS", 7)))
        for key, value in clean.items():
            limit = rows.get(key)
            if limit is None:
                limits_set_initial(conto=conto, values={key: value}, now=now)
                continue
            _record_due(limit, now)
            if value <= limit.value:
                old = limit.value
                had_pending = limit.pending_value is not None
                limit.value, limit.pending_value, limit.pending_effective_at, limit.set_at = value, None, None, now
                limit.save(update_fields=["value", "pending_value", "pending_effective_at", "set_at"])
                if had_pending:
                    LimitChange.objects.create(conto=conto, key=key, action="raise_cancelled", old_value=old,
                                               value=old, effective_at=now, at=now)
                LimitChange.objects.create(conto=conto, key=key, action="lowered" if value < old else "confirmed",
                                           old_value=old, value=value, effective_at=now, at=now)
                if value != old:
                    _tell_adm(limit, value, now)
            else:
                limit.pending_value, limit.pending_effective_at = value, now + delay
                limit.save(update_fields=["pending_value", "pending_effective_at"])
                LimitChange.objects.create(conto=conto, key=key, action="raise_requested", old_value=limit.value,
                                           value=value, effective_at=now + delay, at=now)
    return limits_view(conto=conto, now=now)


def limit_pending_cancel(*, user: Any, key: str, now: dt.datetime | None = None) -> dict[str, Any]:
    """``DELETE /api/me/limits/{key}/pending/``: 404 when none is pending."""
    now = now or timezone.now()
    with transaction.atomic():
        conto = Conto.objects.select_for_update().get(user_id=user.pk)
        limit = Limit.objects.select_for_update().filter(conto=conto, key=key).first()
        if limit is not None:
            _record_due(limit, now)
        if limit is None or limit.pending_value is None:
            raise NotFoundError(_("No raise of this limit is pending."))
        LimitChange.objects.create(conto=conto, key=key, action="raise_cancelled", old_value=limit.value,
                                   value=limit.pending_value, effective_at=now, at=now)
        limit.pending_value = limit.pending_effective_at = None
        limit.save(update_fields=["pending_value", "pending_effective_at"])
    return limits_view(conto=conto, now=now)


def _record_due(limit: Limit, now: dt.datetime) -> bool:
    """Write down a pending raise whose instant passed (it already held on read)."""
    if limit.pending_value is None or limit.pending_effective_at is None or limit.pending_effective_at > now:
        return False
    old, value, at = limit.value, limit.pending_value, limit.pending_effective_at
    limit.value, limit.pending_value, limit.pending_effective_at, limit.set_at = value, None, None, at
    limit.save(update_fields=["value", "pending_value", "pending_effective_at", "set_at"])
    LimitChange.objects.create(conto_id=limit.conto_id, key=limit.key, action="raised", old_value=old, value=value,
                               effective_at=at, at=now)
    _tell_adm(limit, value, at)
    return True


def limits_record_due(*, now: dt.datetime | None = None) -> int:
    """The tick: record raises that took effect, with their ADM message. Twice changes nothing."""
    now = now or timezone.now()
    done = 0
    for pk in Limit.objects.filter(pending_effective_at__lte=now).values_list("pk", flat=True):
        with transaction.atomic():
            limit = Limit.objects.select_for_update().get(pk=pk)
            done += _record_due(limit, now)
    return done
