"""Serving an identity document's bytes (regulation.md §1.3): only here and on compliance's
pages, with the detected type, never sniffed, never cached, each view audited."""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse

from apps.common.errors import NotFoundError

from .documents import document_bytes
from .models import KycDocument
from .services import conto_audit


def kyc_document_serve(*, actor: Any, document_id: Any, ip: str | None = None) -> HttpResponse:
    try:
        document = KycDocument.objects.select_related("conto").get(pk=int(document_id))
        data = document_bytes(document)
    except (KycDocument.DoesNotExist, TypeError, ValueError, OSError):
        raise NotFoundError() from None
    conto_audit(actor=actor, action="kyc_document_view", conto=document.conto,
                after={"document": document.pk, "side": document.side}, ip=ip)
    response = HttpResponse(data, content_type=document.content_type)
    response["X-Content-Type-Options"] = "nosniff"
    response["Cache-Control"] = "no-store"
    response["Content-Disposition"] = f'inline; filename="document-{document.pk}-{document.side}"'
    return response
