"""Reading AML signals and cases (regulation.md §6). Nothing here is ever shown to the player
(§5.4, no tipping off)."""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from django.utils.dateparse import parse_datetime

from apps.common.templatetags.money import format_euro

from .models import AmlCase, AmlSignal


def aml_case_live(*, player_id: int) -> AmlCase | None:
    """The player's case ``open`` or ``in_review``: it blocks the approval of withdrawals."""
    return AmlCase.objects.filter(player_id=player_id, status__in=AmlCase.LIVE).first()


def signal_as_dict(signal: AmlSignal) -> dict[str, Any]:
    return {"id": signal.pk, "rule": signal.rule, "player": signal.player_id, "counterparty": signal.counterparty_id,
            "amount_cents": signal.amount, "details": signal.details, "created": signal.created.isoformat(),
            "case": signal.case_id}


def case_as_dict(case: AmlCase) -> dict[str, Any]:
    return {
        "id": case.pk, "player": case.player_id, "status": case.status, "summary": case.summary,
        "signals": [s.pk for s in case.signals.all()], "opened_by": case.opened_by_id,
        "opened_at": case.opened_at.isoformat(), "outcome": case.outcome or None, "measure": case.measure or None,
        "report_date": case.report_date.isoformat() if case.report_date else None,
        "protocol_number": case.protocol_number or None,
        "closed_at": case.closed_at.isoformat() if case.closed_at else None,
        "notes": [{"id": n.pk, "text": n.text, "author": n.author_id, "created": n.created.isoformat()}
                  for n in case.notes.all()],
        "history": [{"status": e.status, "by": e.by_id, "reason": e.reason, "at": e.at.isoformat()}
                    for e in case.history.all()],
    }


def signal_details_words(signal: AmlSignal) -> str:
    """A signal's details as staff read them: amounts in euro, instants in Rome time."""
    parts = []
    for key, value in (signal.details or {}).items():
        if key.endswith("_cents") and isinstance(value, int):
            parts.append(f"{key[:-6].replace('_', ' ')} {format_euro(value)}")
        elif isinstance(value, str) and (moment := parse_datetime(value)) is not None:
            parts.append(f"{key} {timezone.localtime(moment):%d/%m/%Y %H:%M}")
        else:
            parts.append(f"{key.replace('_', ' ')} {value}")
    return " · ".join(parts)
