"""Game sessions, the time limit and reality checks (regulation.md §2.5, §4.1, §4.2).

A session's end by inactivity holds on read (§0.2): the current session is the newest one not
ended whose ``last_seen_at`` is within SESSION_INACTIVITY_MINUTES; ``last_seen_at`` is written
at most once a minute; the tick records timeouts."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from apps.common.errors import Conflict, ValidationFailed

from .limits import limit_in_force, period_bounds, spend_breakdown
from .models import GameSession, Limit
from .timeuse import inactivity, time_used_minutes

TOUCH_EVERY = dt.timedelta(minutes=1)


def reality_every() -> int:
    return int(getattr(settings, "REALITY_CHECK_MINUTES", 60))


def session_current(*, user_id: int, now: dt.datetime | None = None) -> GameSession | None:
    now = now or timezone.now()
    session = GameSession.objects.filter(user_id=user_id, ended_at__isnull=True).order_by("-started_at").first()
    if session is None or now - session.last_seen_at > inactivity():
        return None
    return session


def session_previous_start(*, user_id: int):
    """The start of the newest game session so far (the login page's "Ultimo accesso")."""
    return GameSession.objects.filter(user_id=user_id).order_by("-started_at").values_list(
        "started_at", flat=True).first()


def session_open(*, user: Any, ip: str | None = None, device: str = "", user_agent: str = "",
                 now: dt.datetime | None = None) -> GameSession:
    """At a login: the open one (if any) ends, a new one starts."""
    now = now or timezone.now()
    with transaction.atomic():
        _close_open(user.pk, now)
        return GameSession.objects.create(user_id=user.pk, started_at=now, last_seen_at=now, ip=ip or None,
                                          device=device[:64], user_agent=user_agent[:300])


def _close_open(user_id: int, now: dt.datetime) -> None:
    for session in GameSession.objects.select_for_update().filter(user_id=user_id, ended_at__isnull=True):
        if now - session.last_seen_at > inactivity():
            session.ended_at, session.end_reason = session.last_seen_at, GameSession.TIMEOUT
        else:
            session.ended_at, session.end_reason = now, GameSession.CLOSED
        session.save(update_fields=["ended_at", "end_reason"])


def session_touch(*, user: Any, ip: str | None = None, device: str = "", user_agent: str = "",
                  now: dt.datetime | None = None) -> tuple[GameSession, bool]:
    """A request by session or token: the current session, its ``last_seen_at`` written at most
    once a minute; none open → one opens. Returns (session, timed_out) where ``timed_out`` says
    a page session ran out of time since the last request (the page logs it out)."""
    now = now or timezone.now()
    session = GameSession.objects.filter(user_id=user.pk, ended_at__isnull=True).order_by("-started_at").first()
    timed_out = False
    if session is not None and now - session.last_seen_at > inactivity():
        GameSession.objects.filter(pk=session.pk, ended_at__isnull=True).update(
            ended_at=session.last_seen_at, end_reason=GameSession.TIMEOUT)
        session, timed_out = None, True
    if session is None:
        return session_open(user=user, ip=ip, device=device, user_agent=user_agent, now=now), timed_out
    if now - session.last_seen_at >= TOUCH_EVERY:
        GameSession.objects.filter(pk=session.pk).update(last_seen_at=now)
        session.last_seen_at = now
    return session, False


def session_end(*, user_id: int, reason: str = GameSession.LOGOUT, now: dt.datetime | None = None) -> int:
    now = now or timezone.now()
    return GameSession.objects.filter(user_id=user_id, ended_at__isnull=True).update(ended_at=now, end_reason=reason)


def sessions_timeouts_record(*, now: dt.datetime | None = None) -> int:
    """The tick: idle sessions ended at their last activity (they already were, on read)."""
    now = now or timezone.now()
    done = 0
    for session in GameSession.objects.filter(ended_at__isnull=True, last_seen_at__lt=now - inactivity()):
        done += GameSession.objects.filter(pk=session.pk, ended_at__isnull=True).update(
            ended_at=session.last_seen_at, end_reason=GameSession.TIMEOUT)
    return done


# -- the time limit (§2.5) -------------------------------------------------------------------


def time_limit_state(*, user_id: int, now: dt.datetime | None = None) -> dict[str, Any]:
    now = now or timezone.now()
    limit = Limit.objects.filter(conto_id=user_id, key=Limit.TIME_DAY).first()
    if limit is None:
        return {"remaining_minutes": None, "warning": False}
    value, _pending, _at = limit_in_force(limit, now=now)
    remaining = max(0, value - time_used_minutes(user_id=user_id, now=now))
    warning = remaining <= int(getattr(settings, "TIME_LIMIT_WARNING_MINUTES", 5))
    return {"remaining_minutes": remaining, "warning": warning}


def time_limit_check(*, user: Any, now: dt.datetime | None = None) -> None:
    """409 ``time_limit_reached`` until the next Rome midnight: no new match, no registration."""
    now = now or timezone.now()
    state = time_limit_state(user_id=user.pk, now=now)
    if state["remaining_minutes"] is not None and state["remaining_minutes"] <= 0:
        _start, end = period_bounds("time_day", now)
        raise Conflict(_("You reached your daily time limit: new matches and registrations open again at midnight."),
                       code="time_limit_reached", resets_at=timezone.localtime(end).isoformat())


# -- reality checks (§4.2) -------------------------------------------------------------------


def reality_due_at(session: GameSession) -> dt.datetime:
    return session.started_at + dt.timedelta(minutes=session.reality_check_base_minutes + reality_every())


def reality_pending(session: GameSession | None, *, now: dt.datetime | None = None) -> bool:
    return session is not None and (now or timezone.now()) >= reality_due_at(session)


def reality_pending_for(user_id: int, *, now: dt.datetime | None = None) -> bool:
    return reality_pending(session_current(user_id=user_id, now=now), now=now)


def reality_check_gate(*, user: Any, now: dt.datetime | None = None) -> None:
    """409 ``reality_check_pending`` at registrations, table creations, seats, confirmations."""
    now = now or timezone.now()
    if reality_pending(session_current(user_id=user.pk, now=now), now=now):
        raise Conflict(_("Answer the reality check first: it shows how long you have played and what you won "
                         "and lost."), code="reality_check_pending")


def reality_check_answer(*, user: Any, choice: Any, now: dt.datetime | None = None) -> dict[str, Any]:
    if choice not in ("continue", "leave", "history"):
        raise ValidationFailed(_("continue, leave or history."), fields={"choice": [_("continue, leave or history.")]})
    now = now or timezone.now()
    with transaction.atomic():
        session = GameSession.objects.select_for_update().filter(
            pk=getattr(session_current(user_id=user.pk, now=now), "pk", None)).first()
        if session is None or not reality_pending(session, now=now):
            raise Conflict(_("No reality check is waiting for an answer."), code="invalid_transition")
        elapsed = int((now - session.started_at).total_seconds() // 60)
        session.reality_checks_answered += 1
        session.reality_check_base_minutes = elapsed
        session.save(update_fields=["reality_checks_answered", "reality_check_base_minutes"])
        logged_out = choice == "leave"
        if logged_out:
            session.ended_at, session.end_reason = now, GameSession.LOGOUT
            session.save(update_fields=["ended_at", "end_reason"])
    return {"choice": choice, "next_due_at": None if logged_out else timezone.localtime(reality_due_at(session)).isoformat(),
            "logged_out": logged_out}


# -- shapes ------------------------------------------------------------------------------------


def _iso(moment: dt.datetime | None) -> str | None:
    return None if moment is None else timezone.localtime(moment).isoformat()


def session_as_dict(session: GameSession, *, now: dt.datetime | None = None) -> dict[str, Any]:
    """``GET /api/me/session/``."""
    now = now or timezone.now()
    money = spend_breakdown(player_id=session.user_id, since=session.started_at,
                            until=session.ended_at or None)
    previous = (GameSession.objects.filter(user_id=session.user_id, started_at__lt=session.started_at)
                .order_by("-started_at").values_list("started_at", flat=True).first())
    end = session.ended_at or now
    return {
        "id": str(session.pk), "started_at": _iso(session.started_at), "last_seen_at": _iso(session.last_seen_at),
        "elapsed_seconds": int((end - session.started_at).total_seconds()), "previous_login_at": _iso(previous),
        "played_cents": money["played"], "won_cents": money["won"], "refunded_cents": money["refunded"],
        "net_cents": money["won"] + money["refunded"] - money["played"],
        "reality_check": {"every_minutes": reality_every(), "due_at": _iso(reality_due_at(session)),
                          "pending": reality_pending(session, now=now)},
        "time_limit": time_limit_state(user_id=session.user_id, now=now),
    }


def session_row(session: GameSession, *, now: dt.datetime | None = None) -> dict[str, Any]:
    """``GET /api/me/sessions/`` and staff's list."""
    now = now or timezone.now()
    end = session.ended_at
    if end is None and now - session.last_seen_at > inactivity():
        end, reason = session.last_seen_at, GameSession.TIMEOUT
    else:
        reason = session.end_reason
    money = spend_breakdown(player_id=session.user_id, since=session.started_at, until=end)
    return {"id": str(session.pk), "started_at": _iso(session.started_at), "ended_at": _iso(end),
            "end_reason": reason or None, "duration_seconds": int(((end or now) - session.started_at).total_seconds()),
            "ip": session.ip, "device": session.device, "played_cents": money["played"], "won_cents": money["won"]}



# -- the table socket (§2.5, §4.2) -------------------------------------------------------------


def reality_figures(*, session: GameSession, now: dt.datetime | None = None) -> dict[str, Any]:
    """What the reality check shows: the session's time, played, won and net."""
    now = now or timezone.now()
    money = spend_breakdown(player_id=session.user_id, since=session.started_at)
    elapsed = int((now - session.started_at).total_seconds() // 60)
    return {"elapsed": f"{elapsed // 60}:{elapsed % 60:02d}", "played": money["played"], "won": money["won"],
            "net": money["won"] + money["refunded"] - money["played"]}


def socket_watch(*, user_id: int, now: dt.datetime | None = None) -> dict[str, Any]:
    """A table socket's look at the player's session (its heartbeat): when the reality check is
    due, and whether the time limit is within its warning. Two or three queries, every beat."""
    now = now or timezone.now()
    session = session_current(user_id=user_id, now=now)
    time_limit = time_limit_state(user_id=user_id, now=now)
    return {"session": session, "reality_due_at": None if session is None else reality_due_at(session),
            "time_warning": time_limit["warning"], "time_remaining": time_limit["remaining_minutes"]}
