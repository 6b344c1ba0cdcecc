"""Calendar arithmetic of regulation.md's conventions: months the law counts are calendar
months, the day clamped (31 January + 1 month = the last day of February)."""

from __future__ import annotations

import calendar
import datetime as dt


def add_months(moment: dt.datetime, months: int) -> dt.datetime:
    """``moment`` plus ``months`` calendar months (negative: minus), the day clamped."""
    index = moment.year * 12 + (moment.month - 1) + months
    year, month = divmod(index, 12)
    month += 1
    day = min(moment.day, calendar.monthrange(year, month)[1])
    return moment.replace(year=year, month=month, day=day)
