"""Reading the ADM outbox."""

from __future__ import annotations

from .models import AdmMessage


def adm_accepted(*, type: str, reference: str) -> bool:  # noqa: A002
    """Whether ADM accepted a message of this type and reference (e.g. ``account_open``
    before a KYC approval, §1.7)."""
    return AdmMessage.objects.filter(type=type, reference=reference, status=AdmMessage.ACCEPTED).exists()
