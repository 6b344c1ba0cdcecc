"""Payment instruments in the holder's name (regulation.md §5.2): a Luhn-valid card (only the
last four digits and a keyed hash are kept), an IBAN valid by ``stdnum.iban``, or an e-mail.
The hash is unique: one instrument belongs to one conto."""

from __future__ import annotations

import hashlib
import hmac
import re
import unicodedata
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _
from stdnum import iban, luhn

from apps.common.errors import Conflict, DomainError, ValidationFailed
from apps.wallet.models import Instrument

from .identity import cashier_identity_check


class NotInHolderName(DomainError):
    status = 400
    code = "instrument_not_in_holder_name"


def name_tokens(text: str) -> list[str]:
    """A name as compared: no case, no accents, no punctuation or spacing, any order."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    return sorted(t for t in re.split(r"[^a-z]+", plain) if t)


def _identifier(kind: str, raw: Any) -> tuple[str, str]:
    """(the normalised identifier, its masked form), or 400 naming ``identifier``."""
    text = raw.strip() if isinstance(raw, str) else ""
    if kind == Instrument.CARD:
        digits = re.sub(r"[\s-]", "", text)
        if re.fullmatch(r"[0-9]{13,19}", digits) and luhn.is_valid(digits):
            return digits, f"•••• {digits[-4:]}"
        problem = _("A card number of 13 to 19 digits that passes the Luhn check.")
    elif kind == Instrument.BANK_ACCOUNT:
        compact = iban.compact(text) if text else ""
        if compact and iban.is_valid(compact):
            return compact, f"{compact[:4]} •••• {compact[-4:]}"
        problem = _("A valid IBAN.")
    else:
        try:
            validate_email(text)
        except ValidationError:
            problem = _("A valid e-mail address.")
        else:
            local, _at, domain = text.lower().partition("@")
            return text.lower(), f"{local[:1]}•••@{domain}"
    raise ValidationFailed(_("The instrument is not valid."), fields={"identifier": [problem]})


def fingerprint(kind: str, identifier: str) -> str:
    """A keyed hash: the identifier itself is never kept (a card's digits least of all)."""
    return hmac.new(settings.SECRET_KEY.encode(), f"{kind}:{identifier}".encode(), hashlib.sha256).hexdigest()


def instrument_add(*, player: Any, kind: Any, holder_name: Any, identifier: Any) -> tuple[Instrument, bool]:
    """§5.2: (the instrument, created?). The player's own instrument given again is returned as it is."""
    fields: dict[str, list[str]] = {}
    if kind not in Instrument.KINDS:
        fields["kind"] = [_("card, bank_account or ewallet.")]
    if not isinstance(holder_name, str) or not 1 <= len(holder_name.strip()) <= 200:
        fields["holder_name"] = [_("The holder's name, 1 to 200 characters.")]
    if not isinstance(identifier, str) or not 1 <= len(identifier) <= 100:
        fields["identifier"] = [_("The card number, IBAN or e-mail, at most 100 characters.")]
    if fields:
        raise ValidationFailed(_("The instrument is not valid."), fields=fields)
    conto = cashier_identity_check(user=player)
    if name_tokens(holder_name) != name_tokens(f"{conto.first_name} {conto.last_name}"):
        raise NotInHolderName(_("The instrument must be in your own name, %(name)s: players never pay with "
                                "someone else's card or account.") % {"name": f"{conto.first_name} {conto.last_name}"})
    normal, masked = _identifier(kind, identifier)
    print_ = fingerprint(kind, normal)
    existing = Instrument.objects.filter(fingerprint=print_).first()
    if existing is not None:
        if existing.player_id != player.pk:
            raise Conflict(_("This instrument belongs to another gaming account."), code="instrument_in_use")
        return existing, False
    try:
        with transaction.atomic():
            return Instrument.objects.create(player=player, kind=kind, holder_name=holder_name.strip()[:200],
                                             masked=masked, fingerprint=print_), True
    except IntegrityError:  # the same instrument added at the same moment
        existing = Instrument.objects.get(fingerprint=print_)
        if existing.player_id != player.pk:
            raise Conflict(_("This instrument belongs to another gaming account."), code="instrument_in_use") from None
        return existing, False


def instrument_as_dict(instrument: Instrument) -> dict[str, Any]:
    return {"id": instrument.pk, "kind": instrument.kind, "holder_name": instrument.holder_name,
            "masked": instrument.masked, "created": instrument.created.isoformat()}


def instrument_of(*, player: Any, instrument_id: Any) -> Instrument:
    """The player's own instrument, else 400 naming ``instrument`` (never another's)."""
    found = Instrument.objects.filter(pk=instrument_id, player_id=player.pk).first() \
        if type(instrument_id) is int else None
    if found is None:
        raise ValidationFailed(_("Choose one of your own instruments."),
                               fields={"instrument": [_("One of your own instruments.")]})
    return found
