"""Raising AML signals and working cases (regulation.md §6). Signals are raised at their event
(a withdrawal request) and by the nightly scan; cases are compliance's, each step audited."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Count, Min, Q, Sum
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext as _

from apps.audit.services import audit_record
from apps.common.errors import Conflict, NotFoundError, ValidationFailed
from apps.wallet.models import CASH, Deposit, Entry
from apps.wallet.selectors import stake_flows, stake_matches

from .models import (
    LOW_PLAY_WITHDRAWAL,
    MANY_INSTRUMENTS,
    REPEATED_LOSSES,
    RULES,
    WITHDRAWAL_BEFORE_KYC,
    AmlCase,
    AmlCaseEvent,
    AmlCaseNote,
    AmlSignal,
)


def _setting(name: str, default: int) -> int:
    return int(getattr(settings, name, default))


def aml_signal_raise(*, rule: str, player_id: int, amount: int = 0, details: dict[str, Any] | None = None,
                     counterparty_id: int | None = None, now: dt.datetime | None = None) -> AmlSignal | None:
    """One signal per rule, player, counterparty and Rome day: a second the same day is the first."""
    assert rule in RULES
    now = now or timezone.now()
    day = timezone.localdate(now)
    try:
        with transaction.atomic():
            return AmlSignal.objects.create(rule=rule, player_id=player_id, counterparty_id=counterparty_id,
                                            counterparty_key=counterparty_id or 0, day=day, amount=amount,
                                            details=details or {}, created=now)
    except IntegrityError:
        return None


def _window_start(now: dt.datetime, days: int | None = None) -> dt.datetime:
    return now - dt.timedelta(days=days or _setting("AML_WINDOW_DAYS", 30))


def low_play_scan(*, player_id: int, now: dt.datetime | None = None, days: int | None = None) -> AmlSignal | None:
    """``low_play_withdrawal``: deposits D confirmed in the window ≥ the minimum, and the cash
    played since the first of them below D × AML_LOW_PLAY_PERCENT / 100."""
    now = now or timezone.now()
    deposits = Deposit.objects.filter(player_id=player_id, status=Deposit.CONFIRMED,
                                      confirmed_at__gte=_window_start(now, days)).aggregate(
        total=Coalesce(Sum("amount"), 0), first=Min("confirmed_at"))
    total = deposits["total"]
    if total < _setting("AML_LOW_PLAY_MIN_DEPOSIT_CENTS", 5_000):
        return None
    played = -(Entry.objects.filter(account__player_id=player_id, currency=CASH, created__gte=deposits["first"])
               .filter(Q(kind__in=("buy_in", "stake")) | Q(kind="", transaction__kind__in=("buy_in", "stake")))
               .aggregate(total=Coalesce(Sum("amount"), 0))["total"])
    if played * 100 >= total * _setting("AML_LOW_PLAY_PERCENT", 30):
        return None
    return aml_signal_raise(rule=LOW_PLAY_WITHDRAWAL, player_id=player_id, amount=total, now=now,
                            details={"deposited_cents": total, "played_cents": played,
                                     "since": deposits["first"].isoformat()})


def many_instruments_scan(*, now: dt.datetime | None = None, days: int | None = None) -> int:
    """``many_instruments``: more than AML_MAX_INSTRUMENTS instruments used for deposits in the window."""
    now = now or timezone.now()
    rows = (Deposit.objects.filter(created__gte=_window_start(now, days)).values("player_id")
            .annotate(n=Count("instrument", distinct=True)).filter(n__gt=_setting("AML_MAX_INSTRUMENTS", 3)))
    return sum(1 for row in rows if aml_signal_raise(rule=MANY_INSTRUMENTS, player_id=row["player_id"], now=now,
                                                      details={"instruments": row["n"]}))


def repeated_losses_scan(*, now: dt.datetime | None = None, days: int | None = None) -> int:
    """``repeated_losses``: a pair met at cash tables at least AML_PAIR_MIN_MATCHES times in the
    window and one lost at least AML_PAIR_MIN_NET_CENTS net to the other (platform.md §7.5's
    chip flow in cash, what flowed back taken off)."""
    now = now or timezone.now()
    since = _window_start(now, days)
    nets, currency_of = stake_matches(since=since)
    met: dict[tuple[int, int], int] = {}
    for match_id, net in nets.items():
        if currency_of[match_id] != CASH:
            continue
        players = sorted(net)
        for i, a in enumerate(players):
            for b in players[i + 1:]:
                met[(a, b)] = met.get((a, b), 0) + 1
    flows = {(loser, winner): amount for (loser, winner, currency), (amount, _m) in stake_flows(since=since).items()
             if currency == CASH}
    raised = 0
    for (loser, winner), amount in flows.items():
        together = met.get((min(loser, winner), max(loser, winner)), 0)
        lost = amount - flows.get((winner, loser), 0)  # net of what came back the other way
        if together >= _setting("AML_PAIR_MIN_MATCHES", 5) and lost >= _setting("AML_PAIR_MIN_NET_CENTS", 5_000):
            raised += bool(aml_signal_raise(rule=REPEATED_LOSSES, player_id=loser, counterparty_id=winner,
                                            amount=lost, now=now, details={"matches": together, "net_cents": lost}))
    return raised


def aml_scan(*, now: dt.datetime | None = None, days: int | None = None) -> dict[str, int]:
    """The nightly scan (§6.1, §11.1): every rule over the window; a second run the same day
    raises nothing new (one signal per rule, player, counterparty and day)."""
    now = now or timezone.now()
    players = set(Deposit.objects.filter(status=Deposit.CONFIRMED, confirmed_at__gte=_window_start(now, days))
                  .values_list("player_id", flat=True))
    low = sum(1 for pid in sorted(players) if low_play_scan(player_id=pid, now=now, days=days))
    return {"aml_low_play_withdrawal": low, "aml_many_instruments": many_instruments_scan(now=now, days=days),
            "aml_repeated_losses": repeated_losses_scan(now=now, days=days)}


def withdrawal_before_kyc(*, player_id: int, amount: int, now: dt.datetime | None = None) -> AmlSignal | None:
    return aml_signal_raise(rule=WITHDRAWAL_BEFORE_KYC, player_id=player_id, amount=amount, now=now)


# -- cases (§6.2) ------------------------------------------------------------------------------


def _case_locked(case_id: Any) -> AmlCase:
    found = AmlCase.objects.select_for_update().filter(pk=case_id).first() if type(case_id) is int else None
    if found is None:
        raise NotFoundError(_("No such AML case."))
    return found


def _closed_check(case: AmlCase) -> None:
    if case.status not in AmlCase.LIVE:
        raise Conflict(_("This case is closed."), code="aml_case_closed")


def aml_case_open(*, actor: Any, player: Any, summary: Any, signals: Any = None, ip: str | None = None,
                  now: dt.datetime | None = None) -> AmlCase:
    fields: dict[str, list[str]] = {}
    if not isinstance(summary, str) or not 1 <= len(summary.strip()) <= 500:
        fields["summary"] = [_("1 to 500 characters.")]
    if signals is not None and (not isinstance(signals, list) or not all(type(s) is int for s in signals)):
        fields["signals"] = [_("A list of signal ids.")]
    if fields:
        raise ValidationFailed(_("The case is not valid."), fields=fields)
    now = now or timezone.now()
    chosen = list(AmlSignal.objects.filter(pk__in=signals or [], player_id=player.pk))
    if len(chosen) != len(set(signals or [])):
        raise ValidationFailed(_("The case is not valid."), fields={"signals": [_("Signals of this player.")]})
    try:
        with transaction.atomic():
            case = AmlCase.objects.create(player=player, summary=summary.strip(), opened_by=actor, opened_at=now)
    except IntegrityError:
        raise Conflict(_("This player already has an AML case that is not closed."), code="aml_case_exists") from None
    AmlSignal.objects.filter(pk__in=[s.pk for s in chosen]).update(case=case)
    AmlCaseEvent.objects.create(case=case, status=AmlCase.OPEN, by=actor, reason=case.summary, at=now)
    audit_record(actor=actor, action="aml_case_open", target_type="aml_case", target_id=case.pk,
                 reason=case.summary, after={"player": player.pk, "signals": [s.pk for s in chosen]}, ip=ip)
    return case


def aml_case_review(*, actor: Any, case_id: Any, ip: str | None = None, now: dt.datetime | None = None) -> AmlCase:
    now = now or timezone.now()
    with transaction.atomic():
        case = _case_locked(case_id)
        _closed_check(case)
        if case.status != AmlCase.OPEN:
            raise Conflict(_("Only an open case goes into review."), code="invalid_transition")
        case.status = AmlCase.IN_REVIEW
        case.save(update_fields=["status"])
        AmlCaseEvent.objects.create(case=case, status=case.status, by=actor, at=now)
        audit_record(actor=actor, action="aml_case_review", target_type="aml_case", target_id=case.pk,
                     before={"status": AmlCase.OPEN}, after={"status": case.status}, ip=ip)
    return case


def aml_case_close(*, actor: Any, case_id: Any, data: Any, ip: str | None = None,
                   now: dt.datetime | None = None) -> AmlCase:
    """``no_action``, ``measure`` (with the measure) or ``reported`` to the UIF (date, protocol)."""
    data = data if isinstance(data, dict) else {}
    outcome, reason = data.get("outcome"), data.get("reason")
    fields: dict[str, list[str]] = {}
    if outcome not in ("no_action", "measure", "reported"):
        fields["outcome"] = [_("no_action, measure or reported.")]
    if not isinstance(reason, str) or not 1 <= len(reason.strip()) <= 500:
        fields["reason"] = [_("1 to 500 characters.")]
    measure, report_date, protocol = data.get("measure"), data.get("report_date"), data.get("protocol_number")
    now = now or timezone.now()
    if outcome == "measure" and (not isinstance(measure, str) or not 1 <= len(measure.strip()) <= 500):
        fields["measure"] = [_("The measure taken, 1 to 500 characters.")]
    parsed = None
    if outcome == "reported":
        try:
            parsed = dt.date.fromisoformat(report_date) if isinstance(report_date, str) else None
        except ValueError:
            parsed = None
        if parsed is None or parsed > timezone.localdate(now):
            fields["report_date"] = [_("The date the report was filed, YYYY-MM-DD, not in the future.")]
        if not isinstance(protocol, str) or not 1 <= len(protocol.strip()) <= 50:
            fields["protocol_number"] = [_("The UIF protocol number, 1 to 50 characters.")]
    if fields:
        raise ValidationFailed(_("The case cannot be closed like this."), fields=fields)
    with transaction.atomic():
        case = _case_locked(case_id)
        _closed_check(case)
        before = case.status
        case.status = {"no_action": AmlCase.CLOSED_NO_ACTION, "measure": AmlCase.CLOSED_MEASURE,
                       "reported": AmlCase.REPORTED}[outcome]
        case.outcome, case.closed_at = outcome, now
        if outcome == "measure":
            case.measure = measure.strip()
        if outcome == "reported":
            case.report_date, case.protocol_number = parsed, protocol.strip()
        case.save()
        AmlCaseEvent.objects.create(case=case, status=case.status, by=actor, reason=reason.strip(), at=now)
        audit_record(actor=actor, action="aml_case_close", target_type="aml_case", target_id=case.pk,
                     reason=reason.strip(), before={"status": before},
                     after={"status": case.status, "measure": case.measure, "protocol_number": case.protocol_number},
                     ip=ip)
    return case


def aml_case_note(*, actor: Any, case_id: Any, text: Any, ip: str | None = None) -> AmlCaseNote:
    if not isinstance(text, str) or not 1 <= len(text.strip()) <= 2000:
        raise ValidationFailed(_("A note is 1 to 2000 characters."), fields={"text": [_("1 to 2000 characters.")]})
    with transaction.atomic():
        case = _case_locked(case_id)
        _closed_check(case)
        note = AmlCaseNote.objects.create(case=case, text=text.strip(), author=actor)
        audit_record(actor=actor, action="aml_case_note", target_type="aml_case", target_id=case.pk,
                     after={"note": note.pk}, ip=ip)
    return note
