"""Identity documents (regulation.md §1.3): the type read from the first bytes, a size cap,
files kept outside every served path by a random name, served only to compliance."""

from __future__ import annotations

import hashlib
import os
import secrets
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from apps.common.errors import Conflict, DomainError, ValidationFailed

from . import states as S
from .models import Conto, KycDocument, KycEvent
from .services import conto_ensure

#: §1.3: what the first bytes of an accepted file are
SIGNATURES = ((b"\xff\xd8\xff", "image/jpeg"), (b"\x89PNG\r\n\x1a\n", "image/png"), (b"%PDF-", "application/pdf"))


def max_bytes() -> int:
    return int(getattr(settings, "KYC_DOCUMENT_MAX_BYTES", 5 * 1024 * 1024))


def documents_dir() -> Path:
    return Path(getattr(settings, "KYC_DOCUMENTS_DIR", "var/kyc"))


def sniff(head: bytes) -> str | None:
    for signature, content_type in SIGNATURES:
        if head.startswith(signature):
            return content_type
    return None


class DocumentTooLarge(DomainError):
    code = "document_too_large"

    def __init__(self) -> None:
        super().__init__(_("The file is larger than %(mb)s MB: send a smaller photo or scan.")
                         % {"mb": max_bytes() // (1024 * 1024)})


def _read_capped(file: Any) -> bytes:
    """The upload's bytes, refusing more than the cap without holding more than cap + 1."""
    cap = max_bytes()
    size = getattr(file, "size", None)
    if size is not None and size > cap:
        raise DocumentTooLarge()
    data = b""
    for chunk in file.chunks() if hasattr(file, "chunks") else [file.read()]:
        data += chunk
        if len(data) > cap:
            raise DocumentTooLarge()
    return data


def document_upload(*, user: Any, side: Any, file: Any) -> KycDocument:
    """Store one side of the current submission; both sides in → ``pending`` (§1.3)."""
    if side not in (KycDocument.FRONT, KycDocument.BACK):
        raise ValidationFailed(_("Say which side: front or back."), fields={"side": [_("front or back")]})
    if file is None or isinstance(file, str):
        raise ValidationFailed(_("Attach the file."), fields={"file": [_("A file is required.")]})
    data = _read_capped(file)
    content_type = sniff(data[:8])
    if not data or content_type is None:
        raise DomainError(_("The file is not a JPEG, PNG or PDF: send a photo or a scan of the document."),
                          code="document_invalid")
    conto = conto_ensure(user=user)
    if conto.kyc_status not in S.KYC_ACCEPTS_UPLOADS:
        raise Conflict(_("No documents are requested from you now."), code="documents_not_requested")
    now = timezone.now()
    stored_name = secrets.token_hex(24)
    folder = documents_dir()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / stored_name
    with transaction.atomic():
        conto = Conto.objects.select_for_update().get(pk=conto.pk)
        if conto.kyc_status not in S.KYC_ACCEPTS_UPLOADS:
            raise Conflict(_("No documents are requested from you now."), code="documents_not_requested")
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        document = KycDocument.objects.create(conto=conto, submission=conto.submission, side=side,
                                              content_type=content_type, size=len(data),
                                              sha256=hashlib.sha256(data).hexdigest(), stored_name=stored_name,
                                              uploaded_at=now)
        sides = set(KycDocument.objects.filter(conto=conto, submission=conto.submission)
                    .values_list("side", flat=True))
        if sides == {KycDocument.FRONT, KycDocument.BACK} and conto.kyc_status != S.PENDING:
            conto.kyc_status, conto.submitted_at = S.PENDING, now
            conto.save(update_fields=["kyc_status", "submitted_at"])
            KycEvent.objects.create(conto=conto, action=KycEvent.SUBMITTED, by=user, at=now)
    return document


def document_bytes(document: KycDocument) -> bytes:
    return (documents_dir() / document.stored_name).read_bytes()
