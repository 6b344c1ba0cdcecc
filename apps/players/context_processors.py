from datetime import timedelta
from functools import partial

from django.conf import settings
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from apps.common.roles import has_role, is_staff_member
from apps.compliance.selectors import sanction_describe, sanctions_active
from apps.conto.limits import spend_breakdown
from apps.conto.sessions import reality_pending_for, time_limit_state
from apps.wallet.selectors import wallet_balances_many

from .game_session import SESSION_KEY
from .selectors import nickname_of


def player(request) -> dict:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"is_player": False, "nickname": None, "is_staff_member": False}
    staff = is_staff_member(user)
    return {
        "is_player": not staff,
        #: what is sanctioned and until when, on every page the player opens (platform.md §7.4)
        "active_sanctions": [] if staff else [sanction_describe(s) for s in sanctions_active(player=user)],
        "is_staff_member": is_staff_member(user),
        "nickname": nickname_of(user),
        #: the player's own balances in the header of every page (cash, bonus, credits; one query)
        "balances": None if staff else wallet_balances_many(player_ids=[user.pk])[user.pk],
        "is_compliance": has_role(user, "compliance"),
        "is_operator": has_role(user, "operator"),
        "is_finance": has_role(user, "finance"),
        # evaluated only by a template that shows it (the page header), never by fragments
        "game_session": None if staff else partial(_game_session, request),
    }


def _game_session(request) -> dict | None:
    """The header's session figures (regulation.md §4.1): elapsed, played, won (one query),
    whether a reality check waits (§4.2), and the time limit's warning (§2.5)."""
    stored = getattr(request, "session", {}).get(SESSION_KEY) if hasattr(request, "session") else None
    if not stored:
        return None
    started = parse_datetime(stored["started"])
    if started is None:
        return None
    now = timezone.now()
    money = spend_breakdown(player_id=request.user.pk, since=started)
    elapsed = int((now - started).total_seconds() // 60)
    due = started + timedelta(minutes=int(getattr(settings, "REALITY_CHECK_MINUTES", 60)))
    return {"elapsed": f"{elapsed // 60}:{elapsed % 60:02d}", "played": money["played"], "won": money["won"],
            "net": money["won"] + money["refunded"] - money["played"], "started": started,
            "reality_pending": now >= due and reality_pending_for(request.user.pk, now=now),
            "time_limit": time_limit_state(user_id=request.user.pk, now=now)}
