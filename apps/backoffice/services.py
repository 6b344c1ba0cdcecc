"""The back office's writes: export requests and runs (the operator's table actions are the
tables' own services, apps/tables/staff.py)."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from apps.audit.services import audit_record
from apps.common.errors import ValidationFailed

from .exports import export_run, rows_total
from .models import Export
from .tasks import export_run_task

#: exports up to this many rows are written in the request; longer ones by a Celery task
SYNC_ROWS = 2000
ALLOWED = {Export.LEDGER: ("player", "entry_kind", "currency", "first", "last"), Export.PLAYERS: ("search",),
           Export.TOURNAMENT: ("tournament",)}


def export_request(*, actor: User, kind: object, fmt: object, params: dict, ip: str | None = None) -> Export:
    """Record an export (audited, platform.md §1: exports are staff actions) and run it: in the
    request when it is short, else by a task queued on commit."""
    if kind not in ALLOWED:
        raise ValidationFailed(_("Choose what to export: ledger, players or tournament_results."),
                               fields={"kind": [_("ledger, players or tournament_results")]})
    if fmt not in (Export.CSV, Export.XLSX):
        raise ValidationFailed(_("Choose a format: csv or xlsx."), fields={"format": [_("csv or xlsx")]})
    assert isinstance(kind, str) and isinstance(fmt, str)  # one of the choices above
    clean = {k: str(params[k])[:40] for k in ALLOWED[kind] if params.get(k) not in (None, "")}
    if kind == Export.TOURNAMENT and not str(clean.get("tournament", "")).isdigit():
        raise ValidationFailed(_("Which tournament? Give its id."), fields={"tournament": [_("A tournament id.")]})
    with transaction.atomic():
        export = Export.objects.create(kind=kind, format=fmt, params=clean, requested_by=actor)
        export.rows_total = rows_total(export)
        export.save(update_fields=["rows_total"])
        audit_record(actor=actor, action="export_requested", target=export, reason=f"{kind}.{fmt}",
                     after={"params": clean, "rows": export.rows_total}, ip=ip)
        if export.rows_total > getattr(settings, "EXPORT_SYNC_ROWS", SYNC_ROWS):
            transaction.on_commit(lambda: export_run_task.delay(export.pk))
    if export.rows_total <= getattr(settings, "EXPORT_SYNC_ROWS", SYNC_ROWS):
        export_run(export_id=export.pk)
        export.refresh_from_db()
    return export
