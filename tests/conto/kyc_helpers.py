"""Making conti and document files for the KYC tests."""

from __future__ import annotations

import datetime as dt
import struct
import zlib

from django.utils import timezone

from apps.adm.models import AdmMessage
from apps.conto import states as S
from apps.conto.models import Conto


def png(width: int = 4, height: int = 3) -> bytes:
    """A real, tiny PNG."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    raw = b"".join(b"\x00" + b"\x80\x80\x80" * width for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


PDF = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"
JPEG = b"\xff\xd8\xff\xe0" + b"\x00" * 64 + b"\xff\xd9"


def signed_up(user, *, code: str = "RSSMRA85C15H501R", state: str = S.IN_VERIFICA,
              kyc: str = S.DOCUMENTS_REQUIRED, accepted: bool = True) -> Conto:
    conto = Conto.objects.create(
        user=user, origin=S.ORIGIN_SIGNUP, state=state, kyc_status=kyc, codice_fiscale=code, first_name="Mario",
        last_name="Rossi", sex="M", birth_date=dt.date(1985, 3, 15),
        birth_place={"comune": "Roma", "provincia": "RM", "stato": "Italia"},
        document={"type": "carta_identita", "number": "CA12345AB", "issuer": "Comune di Roma",
                  "expires_at": (timezone.localdate() + dt.timedelta(days=900)).isoformat()})
    message = AdmMessage.objects.create(type="account_open", reference=f"player:{user.pk}", player_id=user.pk)
    if accepted:
        AdmMessage.objects.filter(pk=message.pk).update(status="accepted", code="SIM0000000000001")
    return conto
