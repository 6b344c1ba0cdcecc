"""The conto's part of the nightly job (regulation.md §11.1): record what already holds on
read (document expiry, the end of legacy mode), tell of documents about to expire, and make
idle conti dormant. Each step re-reads its rows under a lock: a second run changes nothing."""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from apps.adm.services import adm_enqueue
from apps.audit.models import AuditLog
from apps.audit.services import audit_record
from apps.wallet.models import Entry
from apps.wallet.selectors import adm_reconciliation
from apps.wallet.services import bonus_forfeit, dormant_transfer

from . import states as S
from .calendar import add_months
from .models import Conto
from .services import conto_state_set
from .signals import nightly_steps


def documents_expired_record(*, now: dt.datetime | None = None) -> int:
    """aperto → sospeso/documenti once the approved document expired GRACE days ago."""
    now = now or timezone.now()
    grace = int(getattr(settings, "DOCUMENT_EXPIRED_GRACE_DAYS", 0))
    cutoff = timezone.localdate(now) - dt.timedelta(days=grace)
    done = 0
    for pk in Conto.objects.filter(state=S.APERTO, document_expires_at__lt=cutoff).exclude(
            kyc_status=S.LEGACY).values_list("pk", flat=True):
        with transaction.atomic():
            conto = Conto.objects.select_for_update().get(pk=pk)
            if conto.state != S.APERTO or conto.document_expires_at is None or conto.document_expires_at >= cutoff:
                continue
            conto_state_set(conto=conto, state=S.SOSPESO, state_reason=S.DOCUMENTI, reason="document expired",
                            now=now)
            done += 1
    return done


def documents_expiring_notice(*, now: dt.datetime | None = None) -> int:
    """A notice DOCUMENT_EXPIRY_NOTICE_DAYS before the approved document expires: an audit row
    by the system (the account page shows the expiry date and the renewal form)."""
    now = now or timezone.now()
    days = int(getattr(settings, "DOCUMENT_EXPIRY_NOTICE_DAYS", 30))
    day = timezone.localdate(now) + dt.timedelta(days=days)
    done = 0
    for conto in Conto.objects.filter(state=S.APERTO, document_expires_at=day):
        key = f"document_expiry_notice:{conto.document_expires_at.isoformat()}"
        if AuditLog.objects.filter(action="document_expiry_notice", target_type="player",
                                   target_id=str(conto.user_id), reason=key).exists():
            continue
        audit_record(actor=None, action="document_expiry_notice", target_type="player", target_id=conto.user_id,
                     reason=key)
        done += 1
    return done


def legacy_mode_end_record(*, now: dt.datetime | None = None) -> int:
    """in_verifica past its play_until → sospeso/documenti (§1.6)."""
    now = now or timezone.now()
    done = 0
    for pk in Conto.objects.filter(state=S.IN_VERIFICA, play_until__lte=now).values_list("pk", flat=True):
        with transaction.atomic():
            conto = Conto.objects.select_for_update().get(pk=pk)
            if conto.state != S.IN_VERIFICA or conto.play_until is None or conto.play_until > now:
                continue
            conto_state_set(conto=conto, state=S.SOSPESO, state_reason=S.DOCUMENTI, reason="legacy mode ended",
                            now=now)
            done += 1
    return done


def last_activity(conto: Conto) -> dt.datetime | None:
    """The latest login, entry on its accounts, or the conto's own recorded activity (§1.8)."""
    moments = [m for m in (conto.last_activity_at, conto.user.last_login, conto.created) if m is not None]
    entry = Entry.objects.filter(account__player_id=conto.user_id).order_by("-created").values_list(
        "created", flat=True).first()
    if entry is not None:
        moments.append(entry)
    return max(moments) if moments else None


def dormancy_record(*, now: dt.datetime | None = None) -> int:
    """aperto or sospeso conti idle DORMANT_AFTER_MONTHS calendar months → dormiente: cash to
    house:erario, bonus to house:promotions, ADM told, audited with the system as actor."""
    now = now or timezone.now()
    months = int(getattr(settings, "DORMANT_AFTER_MONTHS", 36))
    cutoff = add_months(timezone.localtime(now), -months)
    done = 0
    candidates = Conto.objects.filter(Q(state=S.APERTO) | Q(state=S.SOSPESO)).filter(
        Q(last_activity_at__lte=cutoff) | Q(last_activity_at__isnull=True)).values_list("pk", flat=True)
    for pk in candidates:
        with transaction.atomic():
            conto = Conto.objects.select_for_update().select_related("user").get(pk=pk)
            if conto.state not in (S.APERTO, S.SOSPESO):
                continue
            latest = last_activity(conto)
            if latest is not None and latest > cutoff:
                if conto.last_activity_at != latest:
                    Conto.objects.filter(pk=pk).update(last_activity_at=latest)
                continue
            before = {"state": conto.state, "state_reason": conto.state_reason}
            cash = dormant_transfer(player_id=conto.user_id)
            bonus_forfeit(player_id=conto.user_id, reference=f"dormant:player:{conto.user_id}")
            conto_state_set(conto=conto, state=S.DORMIENTE, reason="idle", now=now)
            if cash is not None:
                adm_enqueue(type="movement", reference=f"dormant:{conto.user_id}", player_id=conto.user_id,
                            payload={"kind": "dormant_transfer", "amount_cents": -sum(
                                e.amount for e in cash.entries.all() if e.amount < 0)},
                            transaction_ids=[cash.pk])
            audit_record(actor=None, action="account_dormant", target_type="player", target_id=conto.user_id,
                         reason=f"idle since {latest:%Y-%m-%d}" if latest else "idle", before=before,
                         after={"state": S.DORMIENTE, "cash_transfer": cash.pk if cash else None})
            done += 1
    return done


def conto_nightly(*, now: dt.datetime | None = None) -> dict[str, int]:
    now = now or timezone.now()
    counts = {"documents_expired": documents_expired_record(now=now),
              "documents_expiring": documents_expiring_notice(now=now),
              "legacy_mode_ended": legacy_mode_end_record(now=now),
              "dormant": dormancy_record(now=now)}
    for _receiver, extra in nightly_steps.send(sender=Conto, now=now):
        counts.update(extra or {})
    counts["adm_unreconciled"] = adm_reconciliation(now=now, limit=0)["count"]  # §7.5, shown by its page
    return counts
