"""The automatic checks finance sees beside each withdrawal (regulation.md §5.4); a failing
one blocks the approval."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.conf import settings
from django.db.models import Q, Sum
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext as _

from apps.aml.selectors import aml_case_live
from apps.conto import states as S
from apps.conto.models import Conto
from apps.conto.selectors import document_valid, effective_state, rome_today
from apps.wallet.models import CASH, Entry, Withdrawal

TOURNAMENT_WON, TOURNAMENT_PAID = ("prize", "seat_value"), ("buy_in",)


def _kind_in(kinds: tuple[str, ...]) -> Q:
    return Q(kind__in=kinds) | Q(kind="", transaction__kind__in=kinds)


def net_tournament_cash(*, player_id: int, since: dt.datetime) -> int:
    """Prizes and seat values minus buy-ins, in cash, since ``since``."""
    rows = Entry.objects.filter(account__player_id=player_id, currency=CASH, created__gte=since)
    won = rows.filter(_kind_in(TOURNAMENT_WON)).aggregate(t=Coalesce(Sum("amount"), 0))["t"]
    paid = rows.filter(_kind_in(TOURNAMENT_PAID)).aggregate(t=Coalesce(Sum("amount"), 0))["t"]
    return won + paid  # buy-ins are negative entries


def withdrawal_checks(withdrawal: Withdrawal, *, now: dt.datetime | None = None,
                      conto: Conto | None = None) -> list[dict[str, Any]]:
    now = now or timezone.now()
    conto = conto or Conto.objects.filter(user_id=withdrawal.player_id).first()
    checks = []
    if conto is None:
        state, reason = S.APERTO, ""
    else:
        state, reason = effective_state(conto, now=now)
    open_ = state == S.APERTO or (state == S.SOSPESO and reason == S.AUTOESCLUSIONE)
    checks.append({"name": "account_open", "ok": open_, "detail": f"{state}/{reason}" if reason else state})
    verified = conto is not None and conto.kyc_verified_at is not None
    checks.append({"name": "identity_verified", "ok": verified,
                   "detail": timezone.localtime(conto.kyc_verified_at).strftime("%d/%m/%Y") if verified else
                   _("not verified")})
    valid = conto is not None and document_valid(conto, today=rome_today(now))
    expires = conto.document_expires_at if conto is not None else None
    checks.append({"name": "document_valid", "ok": valid,
                   "detail": expires.strftime("%d/%m/%Y") if expires else _("no approved document")})
    case = aml_case_live(player_id=withdrawal.player_id)
    checks.append({"name": "no_aml_case", "ok": case is None,
                   "detail": _("none open") if case is None else _("case %(id)s %(status)s") % {
                       "id": case.pk, "status": case.status}})
    hours = int(getattr(settings, "WITHDRAWAL_WINNINGS_HOLD_HOURS", 0))
    if hours <= 0:
        checks.append({"name": "winnings_hold", "ok": True, "detail": _("no hold")})
    else:
        net = net_tournament_cash(player_id=withdrawal.player_id, since=now - dt.timedelta(hours=hours))
        checks.append({"name": "winnings_hold", "ok": net <= 0,
                       "detail": _("net tournament result in %(h)s h: %(net)s cents") % {"h": hours, "net": net}})
    return checks
