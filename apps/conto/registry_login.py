"""The national registry at each login (regulation.md §3.4): found → an exclusion of the
registry's scope starts at once (``source: registry``, the registry's end, not revocable here);
no longer found → the registry's exclusion ends; unreachable → the login goes on and money play
and deposits answer 503 ``registry_unavailable`` until a check succeeds."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db import transaction
from django.utils import timezone

from . import states as S
from .exclusions import exclusion_stand_up, exclusion_tell
from .models import Conto, ExclusionChange, SelfExclusion
from .registry import RegistryUnavailable, registry_check
from .services import conto_state_set


def conto_registry_login(*, user: Any, now: dt.datetime | None = None) -> str:
    """Consult the registry for a conto with a codice fiscale; returns what happened."""
    now = now or timezone.now()
    conto = Conto.objects.filter(user_id=getattr(user, "pk", None)).first()
    if conto is None or not conto.codice_fiscale:
        return "skipped"
    try:
        answer = registry_check(conto.codice_fiscale)
    except RegistryUnavailable:
        Conto.objects.filter(pk=conto.pk).update(registry_unreachable=True)
        return "unreachable"
    with transaction.atomic():
        conto = Conto.objects.select_for_update().get(pk=conto.pk)
        if conto.registry_unreachable:
            conto.registry_unreachable = False
            conto.save(update_fields=["registry_unreachable"])
        current = [e for e in SelfExclusion.objects.select_for_update().filter(conto=conto) if e.active_at(now)]
        from_registry = [e for e in current if e.source == SelfExclusion.REGISTRY]
        if not answer.get("excluded"):
            for exclusion in from_registry:  # the registry no longer lists it: it ends
                exclusion.ends_at = now
                exclusion.save(update_fields=["ends_at"])
                ExclusionChange.objects.create(exclusion=exclusion, action="ended_by_registry", ends_at=now, at=now)
                exclusion_tell(exclusion, "ended")
            return "clear"
        scope = answer.get("scope") or SelfExclusion.ALL
        if scope not in SelfExclusion.SCOPES:
            scope = SelfExclusion.ALL
        covered = any(e.scope in (scope, SelfExclusion.ALL) for e in current)
        if covered:  # the player's own exclusion (which ADM told the registry of), or one already started
            return "covered"
        exclusion = SelfExclusion.objects.create(conto=conto, scope=scope, source=SelfExclusion.REGISTRY,
                                                 starts_at=now, ends_at=answer.get("until"),
                                                 indefinite_from=now if answer.get("until") is None else None)
        ExclusionChange.objects.create(exclusion=exclusion, action="started_by_registry", ends_at=exclusion.ends_at,
                                       at=now)
        exclusion_tell(exclusion, "started")
        exclusion_stand_up(exclusion)
        if scope == SelfExclusion.ALL and conto.state in (S.IN_VERIFICA, S.APERTO, S.SOSPESO) and \
                conto.state_reason != S.AUTOESCLUSIONE:
            conto_state_set(conto=conto, state=S.SOSPESO, state_reason=S.AUTOESCLUSIONE,
                            reason="national self-exclusion registry", remember=True, now=now)
    return "excluded"


def on_logged_in(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    """``user_logged_in`` (the login page, the admin login, any ``login()``)."""
    conto_registry_login(user=user)
