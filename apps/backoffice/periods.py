"""Report periods in Europe/Rome days (platform.md: a day is a calendar day in Europe/Rome)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from django.utils import timezone
from django.utils.translation import gettext as _

from apps.common.errors import ValidationFailed

ROME = ZoneInfo("Europe/Rome")
PRESETS = ("today", "7d", "30d", "custom")
#: a custom period is at most a year long: the charts stay readable and the queries bounded
MAX_DAYS = 366


@dataclass(frozen=True)
class Period:
    first: date
    last: date  # inclusive
    name: str = "custom"

    @property
    def start(self) -> datetime:
        return datetime.combine(self.first, time.min, tzinfo=ROME)

    @property
    def end(self) -> datetime:
        """The first instant after the period (the next day's midnight in Rome)."""
        return datetime.combine(self.last + timedelta(days=1), time.min, tzinfo=ROME)

    def days(self) -> list[date]:
        return [self.first + timedelta(days=n) for n in range((self.last - self.first).days + 1)]


def rome_today(now: datetime | None = None) -> date:
    return (now or timezone.now()).astimezone(ROME).date()


def rome_day(moment: datetime) -> date:
    return moment.astimezone(ROME).date()


def period_parse(*, name: object = "7d", first: object = None, last: object = None,
                 now: datetime | None = None) -> Period:
    """``today``, ``7d`` and ``30d`` end today (Rome); ``custom`` takes ISO days ``first``/``last``."""
    today = rome_today(now)
    if name in (None, ""):
        name = "7d"
    if name == "today":
        return Period(today, today, "today")
    if name == "7d":
        return Period(today - timedelta(days=6), today, "7d")
    if name == "30d":
        return Period(today - timedelta(days=29), today, "30d")
    if name != "custom":
        raise ValidationFailed(_("Choose a period: today, 7d, 30d or custom."),
                               fields={"period": [_("today, 7d, 30d or custom")]})
    try:
        first_day = date.fromisoformat(str(first))
        last_day = date.fromisoformat(str(last))
    except ValueError:
        raise ValidationFailed(_("A custom period needs two days, as YYYY-MM-DD."),
                               fields={"first": [_("YYYY-MM-DD")], "last": [_("YYYY-MM-DD")]}) from None
    if last_day < first_day:
        raise ValidationFailed(_("The period ends before it starts."), fields={"last": [_("after the first day")]})
    if (last_day - first_day).days >= MAX_DAYS:
        raise ValidationFailed(_("A period is at most %(n)s days.") % {"n": MAX_DAYS},
                               fields={"last": [_("%(n)s days") % {"n": MAX_DAYS}]})
    return Period(first_day, last_day, "custom")
