"""The national self-exclusion registry (Registro Unico delle Autoesclusioni, regulation.md
§3.4), behind a pluggable provider named by ``SELF_EXCLUSION_REGISTRY`` (read at each use).

The real registry cannot be reached from here: the default is a local stand-in table kept
with ``manage.py registry_exclusion`` and written by the ADM simulator."""

from __future__ import annotations

import datetime as dt
from typing import Any, Protocol

from django.conf import settings
from django.utils import timezone
from django.utils.module_loading import import_string
from django.utils.translation import gettext_lazy

from apps.common.errors import ServiceUnavailable

from .models import RegistryEntry, SelfExclusion


class RegistryUnavailable(ServiceUnavailable):
    code = "registry_unavailable"
    default_detail = gettext_lazy("The national self-exclusion registry cannot be reached: try again in a few "
                                  "minutes.")


class Registry(Protocol):
    def check(self, codice_fiscale: str) -> dict[str, Any]: ...

    def notify(self, exclusion: Any) -> None: ...


class LocalRegistry:
    """The stand-in: active entries (started, not ended, not removed) of the local table."""

    def check(self, codice_fiscale: str) -> dict[str, Any]:
        now = timezone.now()
        for entry in RegistryEntry.objects.filter(codice_fiscale=codice_fiscale, removed_at__isnull=True,
                                                  starts_at__lte=now):
            if entry.ends_at is None or entry.ends_at > now:
                return {"excluded": True, "scope": entry.scope, "until": entry.ends_at}
        return {"excluded": False, "scope": None, "until": None}

    def notify(self, exclusion: Any) -> None:
        """The local stand-in hears of exclusions through the ADM simulator (§7.2)."""


def registry() -> Registry:
    return import_string(getattr(settings, "SELF_EXCLUSION_REGISTRY", "apps.conto.registry.LocalRegistry"))()


def registry_check(codice_fiscale: str) -> dict[str, Any]:
    """The provider's answer; ``RegistryUnavailable`` (503) when it cannot answer."""
    try:
        return registry().check(codice_fiscale)
    except RegistryUnavailable:
        raise
    except Exception as exc:  # a provider's own transport failure is the same outage to us
        raise RegistryUnavailable() from exc


def registry_entry_add(*, codice_fiscale: str, days: int | None, scope: str = "all", source: str = "command",
                       now: dt.datetime | None = None) -> RegistryEntry:
    now = now or timezone.now()
    return RegistryEntry.objects.create(codice_fiscale=codice_fiscale, scope=scope, starts_at=now,
                                        ends_at=None if days is None else now + dt.timedelta(days=days),
                                        source=source)


def registry_entry_remove(*, codice_fiscale: str, now: dt.datetime | None = None) -> int:
    """End every active entry of the code (kept, never deleted)."""
    return RegistryEntry.objects.filter(codice_fiscale=codice_fiscale, removed_at__isnull=True).update(
        removed_at=now or timezone.now())


def registry_entry_from_adm(*, reference: str) -> None:
    """The ADM simulator accepted a ``self_exclusion`` (§7.2): the local stand-in learns it, so
    the registry answers for this codice fiscale as the real one would."""
    if getattr(settings, "ADM_TRANSPORT", "apps.adm.transport.Simulator") != "apps.adm.transport.Simulator":
        return
    _prefix, _sep, pk = reference.partition(":")
    exclusion = SelfExclusion.objects.select_related("conto").filter(pk=int(pk) if pk.isdigit() else 0).first()
    if exclusion is None or not exclusion.conto.codice_fiscale or exclusion.source != SelfExclusion.PLAYER:
        return
    code = exclusion.conto.codice_fiscale
    end = exclusion.end_at()
    RegistryEntry.objects.filter(codice_fiscale=code, source=f"adm:{exclusion.pk}", removed_at__isnull=True).update(
        removed_at=timezone.now())
    if end is None or end > timezone.now():
        RegistryEntry.objects.create(codice_fiscale=code, scope=exclusion.scope, starts_at=exclusion.starts_at,
                                     ends_at=end, source=f"adm:{exclusion.pk}")
