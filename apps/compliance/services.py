"""Writes of compliance: issuing and lifting sanctions (platform.md §7.4), each audited.

A freezing sanction is mirrored into the wallet through its services, by the issuing and
lifting services themselves, so the wallet can refuse a frozen spend without ever reading
sanctions. The floors above (tables' and the lobby's sockets, matches, tournaments) hear of a
new sanction through ``sanction_started``, after its commit (docs/layers.md)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from apps.audit.services import audit_record
from apps.common.errors import Conflict, DomainError, NotFoundError, ValidationFailed
from apps.common.roles import is_staff_member
from apps.wallet.services import authority_freeze, authority_settle, wallet_freeze_set

from .models import ACCOUNT_SUSPENSION, AUTHORITY_REPORT, KINDS, Sanction
from .signals import sanction_started

FREEZING = (ACCOUNT_SUSPENSION, AUTHORITY_REPORT)
ONE_MONTH = timedelta(days=30)
REASON_MAX = 2000
DECISIONS = ("release", "forfeit")


def sanction_freeze_sync(*, sanction: Sanction) -> None:
    """Write (or update, once lifted) the wallet freeze of an account suspension or an
    authority report; the latter also diverts arriving cash and bonus to house:authority_frozen.
    Called by ``sanction_issue`` and ``sanction_lift`` themselves, in their transaction."""
    if sanction.kind in FREEZING:
        wallet_freeze_set(player_id=sanction.player_id, reference=f"sanction:{sanction.pk}",
                          divert=sanction.kind == AUTHORITY_REPORT, starts_at=sanction.starts_at,
                          ends_at=sanction.ends_at, lifted_at=sanction.lifted_at)


def sanction_money_move(*, sanction: Sanction) -> None:
    """An authority report takes the player's cash and bonus to house:authority_frozen when
    issued; lifted with the authority's decision, the share is released or forfeited
    (platform.md §7.4). Each move runs once per sanction (the wallet's idempotency keys)."""
    if sanction.kind != AUTHORITY_REPORT:
        return
    reference = f"sanction:{sanction.pk}"
    if sanction.lifted_at is None:
        authority_freeze(player_id=sanction.player_id, reference=reference)
    elif sanction.decision in DECISIONS:
        authority_settle(player_id=sanction.player_id, reference=reference, decision=sanction.decision)


def _sanction_money(sanction: Sanction) -> None:
    """What a sanction moves, in the issuing or lifting transaction: the wallet's freeze, then
    an authority report's money (compliance's own service calls, never a model signal)."""
    sanction_freeze_sync(sanction=sanction)
    sanction_money_move(sanction=sanction)


def sanction_snapshot(sanction: Sanction) -> dict[str, Any]:
    """What the audit rows keep of a sanction (before/after)."""
    return {
        "id": sanction.pk, "player": sanction.player_id, "kind": sanction.kind, "duration": sanction.duration,
        "reason": sanction.reason, "starts_at": sanction.starts_at.isoformat(),
        "ends_at": sanction.ends_at.isoformat() if sanction.ends_at else None,
        "messages": list(sanction.message_ids),
        "lifted_at": sanction.lifted_at.isoformat() if sanction.lifted_at else None,
        "lift_reason": sanction.lift_reason, "decision": sanction.decision,
    }


def _int_id(value: Any) -> int | None:
    if type(value) is int:
        return value
    if isinstance(value, str) and value.strip().isdigit() and len(value.strip()) < 19:
        return int(value.strip())
    return None


def sanction_issue(*, actor: User, player: Any, kind: Any, duration: Any = None, reason: Any,
                   messages: Any = None, ip: str | None = None) -> Sanction:
    """Issue a sanction (platform.md §7.4): validated, one active per kind and player, audited
    with who, why and which messages. ``messages`` are chat line ids, already checked to exist
    by the caller above (chat sits above compliance)."""
    fields: dict[str, list[str]] = {}
    player_id = _int_id(player)
    target = None
    if player_id is None:
        fields["player"] = [_("A player id (integer).")]
    else:
        target = get_user_model().objects.filter(pk=player_id).first()
        if target is None:
            fields["player"] = [_("No such player.")]
        elif is_staff_member(target):
            fields["player"] = [_("Sanctions are for players, not staff accounts.")]
    if kind not in KINDS:
        fields["kind"] = [_("One of %(choices)s.") % {"choices": ", ".join(KINDS)}]
    if duration in (None, "") and kind in (ACCOUNT_SUSPENSION, AUTHORITY_REPORT):
        duration = "permanent"
    if duration not in ("1_month", "permanent"):
        fields["duration"] = [_("1_month or permanent.")]
    elif kind == AUTHORITY_REPORT and duration != "permanent":
        fields["duration"] = [_("An authority report is permanent: it lasts until the authority decides.")]
    if not isinstance(reason, str) or not reason.strip():
        fields["reason"] = [_("Say why: the reason is required.")]
    elif len(reason) > REASON_MAX:
        fields["reason"] = [_("At most %(n)s characters.") % {"n": REASON_MAX}]
    message_ids: list[int] = []
    if messages not in (None, ""):
        items = messages if isinstance(messages, list) else [messages]
        message_ids = [m for m in (_int_id(x) for x in items) if m is not None]
        if len(message_ids) != len(items) or len(items) > 100:
            fields["messages"] = [_("A list of at most 100 chat message ids (integers).")]
    if fields:
        raise ValidationFailed(_("The sanction is not valid."), fields=fields)
    assert target is not None and isinstance(reason, str)
    with transaction.atomic():
        get_user_model().objects.select_for_update(no_key=True).filter(pk=target.pk).first()  # one issue at a time (a row lock that leaves the wallet's foreign keys free)
        if Sanction.objects.active().filter(player=target, kind=kind).exists():
            raise Conflict(_("This player already has an active %(kind)s: lift it first to change its duration.")
                           % {"kind": str(kind).replace("_", " ")}, code="already_sanctioned")
        now = timezone.now()
        sanction = Sanction.objects.create(
            player=target, kind=kind, duration=duration, reason=reason.strip(), starts_at=now,
            ends_at=now + ONE_MONTH if duration == "1_month" else None, created_by=actor,
            message_ids=sorted(set(message_ids)))
        _sanction_money(sanction)
        audit_record(actor=actor, action="sanction_issue", target=sanction, reason=sanction.reason,
                     after=sanction_snapshot(sanction), ip=ip)
        sanction_id, player_id, sanction_kind = sanction.pk, sanction.player_id, sanction.kind
        # the floors above (sockets, matches, tournaments, the lobby's chat) hear of it once committed
        transaction.on_commit(lambda: sanction_started.send(sender=Sanction, sanction_id=sanction_id,
                                                            player_id=player_id, kind=sanction_kind))
    return sanction


def sanction_lift(*, actor: User, sanction_id: Any, reason: Any = "", decision: Any = None,
                  ip: str | None = None) -> Sanction:
    """Lift an active sanction; an authority report needs the authority's decision
    (``release`` or ``forfeit``), which moves the frozen share (platform.md §7.4). Audited."""
    pk = _int_id(sanction_id)
    if reason is None:
        reason = ""
    if not isinstance(reason, str) or len(reason) > REASON_MAX:
        raise ValidationFailed(_("The reason is text."), fields={"reason": [_("At most %(n)s characters.") % {"n": REASON_MAX}]})
    with transaction.atomic():
        sanction = Sanction.objects.select_for_update().filter(pk=pk).first() if pk is not None else None
        if sanction is None:
            raise NotFoundError(_("No such sanction."))
        if not sanction.active:
            raise Conflict(_("This sanction is not active: it was lifted or it has expired."), code="not_active")
        if sanction.kind == AUTHORITY_REPORT:
            if decision in (None, ""):
                raise DomainError(_("Lifting an authority report needs the authority's decision: release or "
                                  "forfeit."), code="decision_required", status=400)
            if decision not in DECISIONS:
                raise ValidationFailed(_("The decision is release or forfeit."),
                                       fields={"decision": [_("release or forfeit.")]})
        elif decision not in (None, ""):
            raise ValidationFailed(_("Only an authority report takes a decision."),
                                   fields={"decision": [_("Only for an authority report.")]})
        before = sanction_snapshot(sanction)
        sanction.lifted_at = timezone.now()
        sanction.lifted_by = actor
        sanction.lift_reason = reason.strip()
        sanction.decision = decision if sanction.kind == AUTHORITY_REPORT else ""
        sanction.save()
        _sanction_money(sanction)
        audit_record(actor=actor, action="sanction_lift", target=sanction, reason=sanction.lift_reason,
                     before=before, after=sanction_snapshot(sanction), ip=ip)
    return sanction


def sanctions_mark_expired() -> int:
    """The tick marks sanctions whose end has passed, for display (activity never waits for it)."""
    now = timezone.now()
    return Sanction.objects.filter(expired_at__isnull=True, lifted_at__isnull=True, ends_at__lte=now) \
        .update(expired_at=now)

