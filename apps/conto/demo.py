"""The demo players' conti (regulation.md §1.6): fictitious identities with valid codici
fiscali, approved placeholder documents valid 5 years, ``aperto``, origin ``demo``, limits at
the first caps, and ADM's account_open accepted. Only adds what is missing: safe to rerun."""

from __future__ import annotations

import datetime as dt
import hashlib
import secrets
import struct
import zlib
from typing import Any

from django.db import transaction
from django.utils import timezone

from apps.adm.models import AdmMessage
from apps.adm.sending import adm_send
from apps.adm.services import adm_enqueue

from . import states as S
from .documents import documents_dir
from .limits import first_activation_caps, limits_set_initial
from .models import Conto, IdentityRecord, KycDocument, KycEvent, StateChange

IDENTITIES: dict[str, dict[str, Any]] = {
    "mario": {"first_name": "Mario", "last_name": "Rossi", "sex": "M", "birth_date": dt.date(1985, 3, 15),
              "birth_place": {"comune": "Roma", "provincia": "RM", "stato": "Italia"},
              "codice_fiscale": "RSSMRA85C15H501R", "residence": {"address": "Via del Corso 1", "postal_code": "00186",
                                                                  "comune": "Roma", "provincia": "RM"},
              "mobile": "+393330000001"},
    "giulia": {"first_name": "Giulia", "last_name": "Bianchi", "sex": "F", "birth_date": dt.date(1990, 7, 22),
               "birth_place": {"comune": "Milano", "provincia": "MI", "stato": "Italia"},
               "codice_fiscale": "BNCGLI90L62F205R", "residence": {"address": "Corso Buenos Aires 10",
                                                                   "postal_code": "20124", "comune": "Milano",
                                                                   "provincia": "MI"},
               "mobile": "+393330000002"},
    "luca": {"first_name": "Luca", "last_name": "Verdi", "sex": "M", "birth_date": dt.date(1995, 11, 3),
             "birth_place": {"comune": "Napoli", "provincia": "NA", "stato": "Italia"},
             "codice_fiscale": "VRDLCU95S03F839H", "residence": {"address": "Via Toledo 5", "postal_code": "80134",
                                                                 "comune": "Napoli", "provincia": "NA"},
             "mobile": "+393330000003"},
    "anna": {"first_name": "Anna", "last_name": "Esposito", "sex": "F", "birth_date": dt.date(1998, 5, 9),
             "birth_place": {"comune": "Torino", "provincia": "TO", "stato": "Italia"},
             "codice_fiscale": "SPSNNA98E49L219R", "residence": {"address": "Via Roma 20", "postal_code": "10121",
                                                                 "comune": "Torino", "provincia": "TO"},
             "mobile": "+393330000004"},
}


def _placeholder_png(label: int) -> bytes:
    """A small grey card-shaped PNG standing for a document photo."""
    width, height = 86, 54

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    shade = 0xC0 + label * 0x10
    rows = b"".join(b"\x00" + bytes([shade, shade, 0xD8]) * width for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def _store(data: bytes) -> str:
    name = secrets.token_hex(24)
    folder = documents_dir()
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_bytes(data)
    return name


def conto_demo_ensure(*, user: Any, username: str, email: str) -> Conto | None:
    identity = IDENTITIES.get(username)
    if identity is None:
        return None
    existing = Conto.objects.filter(user_id=user.pk).first()
    if existing is not None and existing.origin == S.ORIGIN_DEMO:
        if existing.adm_account_code == "":
            _adm_open(existing)
        return existing
    now = timezone.now()
    expires = timezone.localdate(now) + dt.timedelta(days=5 * 365)
    document = {"type": "carta_identita", "number": f"CA{user.pk:05d}DM", "issuer": f"Comune di {identity['birth_place']['comune']}",
                "expires_at": expires.isoformat()}
    with transaction.atomic():
        fields = {**identity, "email": email, "document": document, "origin": S.ORIGIN_DEMO, "state": S.APERTO,
                  "state_reason": "", "kyc_status": S.APPROVED, "kyc_verified_at": now, "submitted_at": now,
                  "document_expires_at": expires, "state_changed_at": now, "last_activity_at": now}
        if existing is None:
            conto = Conto.objects.create(user=user, **fields)
        else:  # a legacy conto made on demand before the demo had identities
            Conto.objects.filter(pk=existing.pk).update(**fields)
            conto = Conto.objects.get(pk=existing.pk)
        StateChange.objects.create(conto=conto, state=S.APERTO, reason="demo account", at=now)
        IdentityRecord.objects.create(conto=conto, data={**{k: v for k, v in identity.items() if k != "birth_date"},
                                                         "birth_date": identity["birth_date"].isoformat(),
                                                         "document": document}, at=now)
        for number, side in enumerate((KycDocument.FRONT, KycDocument.BACK)):
            data = _placeholder_png(number)
            KycDocument.objects.create(conto=conto, submission=conto.submission, side=side, content_type="image/png",
                                       size=len(data), sha256=hashlib.sha256(data).hexdigest(),
                                       stored_name=_store(data), uploaded_at=now)
        KycEvent.objects.create(conto=conto, action=KycEvent.SUBMITTED, at=now)
        KycEvent.objects.create(conto=conto, action=KycEvent.APPROVED, reason="demo", at=now)
        if not conto.limits.exists():
            caps = first_activation_caps(is_young=False)
            day = {"deposit": caps["deposit_day"], "spend": caps["spend_day"]}
            limits_set_initial(conto=conto, values={
                "deposit_day": day["deposit"], "deposit_week": 7 * day["deposit"], "deposit_month": 30 * day["deposit"],
                "spend_day": day["spend"], "spend_week": 7 * day["spend"], "spend_month": 30 * day["spend"],
                "time_day": caps["time_day"]}, now=now)
    _adm_open(conto)
    return conto


def _adm_open(conto: Conto) -> None:
    """The demo's account_open, answered now by the simulator (a worker may not be up yet)."""
    message = AdmMessage.objects.filter(type="account_open", reference=f"player:{conto.user_id}").first()
    if message is None:
        with transaction.atomic():
            message = adm_enqueue(type="account_open", reference=f"player:{conto.user_id}", player_id=conto.user_id,
                                  payload={"codice_fiscale": conto.codice_fiscale, "origin": conto.origin})
    adm_send(message_id=message.pk)
    message.refresh_from_db()
    if message.status == AdmMessage.ACCEPTED:
        Conto.objects.filter(pk=conto.pk).update(adm_account_code=message.code)
