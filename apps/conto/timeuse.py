"""Time covered by game sessions (regulation.md §2.5), for the time limit and the sessions."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

from django.conf import settings
from django.utils import timezone

from .models import GameSession

ROME = ZoneInfo("Europe/Rome")


def inactivity() -> dt.timedelta:
    return dt.timedelta(minutes=int(getattr(settings, "SESSION_INACTIVITY_MINUTES", 30)))



def _rome_day_start(now: dt.datetime) -> dt.datetime:
    return dt.datetime.combine(now.astimezone(ROME).date(), dt.time(0), tzinfo=ROME)


def time_used_minutes(*, user_id: int, now: dt.datetime | None = None) -> int:
    """Minutes of the Rome day covered by the player's sessions, overlaps counted once."""
    now = now or timezone.now()
    start = _rome_day_start(now)
    spans = []
    for session in GameSession.objects.filter(user_id=user_id, started_at__lt=now).exclude(ended_at__lt=start):
        end = session.ended_at
        if end is None:
            end = now if now - session.last_seen_at <= inactivity() else session.last_seen_at
        begin = max(session.started_at, start)
        if end > begin:
            spans.append((begin, min(end, now)))
    total, reach = dt.timedelta(), None
    for begin, end in sorted(spans):
        if reach is not None and begin < reach:
            begin = reach
        if end > begin:
            total += end - begin
            reach = end if reach is None else max(reach, end)
    return int(total.total_seconds() // 60)
