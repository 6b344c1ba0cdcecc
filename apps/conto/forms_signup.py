"""The sign-up and identity pages' fields (regulation.md §1.1): flat names with dots for the
nested ones, so a field's error from the service lands next to its input."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.utils.translation import gettext_lazy as _

PERSON = [
    ("first_name", _("First name"), "text", {"autocomplete": "given-name", "maxlength": 60}),
    ("last_name", _("Surname"), "text", {"autocomplete": "family-name", "maxlength": 60}),
    ("sex", _("Sex (as in the codice fiscale)"), "select", {"choices": [("M", "M"), ("F", "F")]}),
    ("birth_date", _("Date of birth"), "date", {"autocomplete": "bday"}),
    ("codice_fiscale", _("Codice fiscale"), "text", {"maxlength": 20, "autocapitalize": "characters",
                                                     "spellcheck": "false"}),
]
BIRTH_PLACE = [
    ("birth_place.stato", _("Country of birth"), "text", {"value": "Italia", "maxlength": 60}),
    ("birth_place.comune", _("Town of birth (comune)"), "text", {"maxlength": 60}),
    ("birth_place.provincia", _("Province (2 letters)"), "text", {"maxlength": 2, "autocapitalize": "characters"}),
]
RESIDENCE = [
    ("residence.address", _("Address"), "text", {"autocomplete": "street-address", "maxlength": 120}),
    ("residence.postal_code", _("Postal code (CAP)"), "text", {"inputmode": "numeric", "maxlength": 5,
                                                              "autocomplete": "postal-code"}),
    ("residence.comune", _("Town (comune)"), "text", {"maxlength": 60}),
    ("residence.provincia", _("Province (2 letters)"), "text", {"maxlength": 2, "autocapitalize": "characters"}),
]
CONTACT = [
    ("email", _("Email"), "email", {"autocomplete": "email", "maxlength": 254}),
    ("mobile", _("Mobile (international, e.g. +393331234567)"), "tel", {"autocomplete": "tel", "maxlength": 16}),
]
DOCUMENT = [
    ("document.type", _("Identity document"), "select", {"choices": [
        ("carta_identita", _("Carta d'identità")), ("passaporto", _("Passport")), ("patente", _("Driving licence"))]}),
    ("document.number", _("Document number"), "text", {"maxlength": 20, "autocapitalize": "characters"}),
    ("document.issuer", _("Issued by"), "text", {"maxlength": 100}),
    ("document.expires_at", _("Valid until"), "date", {}),
]
ACCOUNT = [
    ("username", _("Username"), "text", {"autocomplete": "username", "maxlength": 30}),
    ("password", _("Password"), "password", {"autocomplete": "new-password"}),
]
LIMITS = [
    ("limits.deposit_day", _("Deposits per day (€)"), "money", {}),
    ("limits.spend_day", _("Spending per day (€)"), "money", {}),
    ("limits.time_day", _("Time per day (minutes)"), "number", {"min": 0, "max": 1440}),
]
INTEGER_FIELDS = {"limits.time_day"}
MONEY_FIELDS = {"limits.deposit_day", "limits.spend_day"}


def sections(*, with_account: bool, with_limits: bool) -> list[tuple[Any, list[tuple]]]:
    groups: list[tuple[Any, list[tuple]]] = []
    if with_account:
        groups.append((_("Your account"), ACCOUNT + CONTACT))
    else:
        groups.append((_("Contacts"), CONTACT))
    groups += [(_("Who you are"), PERSON), (_("Where you were born"), BIRTH_PLACE),
               (_("Where you live"), RESIDENCE), (_("Your identity document"), DOCUMENT)]
    if with_limits:
        groups.append((_("Your limits"), LIMITS))
    return groups


def nested(post: Any, *, with_account: bool, with_limits: bool) -> dict[str, Any]:
    """The service's JSON body from the page's flat fields (euro → cents for money limits)."""
    data: dict[str, Any] = {}
    for _title, fields in sections(with_account=with_account, with_limits=with_limits):
        for name, _label, _kind, _attrs in fields:
            raw = post.get(name, "")
            value: Any = raw.strip() if name != "password" else raw
            if name in INTEGER_FIELDS or name in MONEY_FIELDS:
                value = _number(value, cents=name in MONEY_FIELDS)
            target = data
            *parents, last = name.split(".")
            for parent in parents:
                target = target.setdefault(parent, {})
            target[last] = value
    data["accept_terms"] = post.get("accept_terms") == "on"
    return data


def _number(raw: str, *, cents: bool) -> Any:
    text = raw.replace(",", ".")
    try:
        if cents:
            euros = float(text)
            return round(euros * 100) if euros >= 0 and euros == euros else raw
        return int(text)
    except ValueError:
        return raw if raw else None


def caps_hint() -> dict[str, str]:
    caps = getattr(settings, "FIRST_ACTIVATION_CAPS", {})
    young = getattr(settings, "YOUNG_FIRST_ACTIVATION_CAPS", {})
    return {
        "limits.deposit_day": _("At most €%(cap)s (€%(young)s if you are under 25).") % {
            "cap": caps.get("deposit_day", 20000) // 100, "young": young.get("deposit_day", 5000) // 100},
        "limits.spend_day": _("At most €%(cap)s (€%(young)s if you are under 25).") % {
            "cap": caps.get("spend_day", 10000) // 100, "young": young.get("spend_day", 5000) // 100},
        "limits.time_day": _("At most %(cap)s minutes (%(young)s if you are under 25).") % {
            "cap": caps.get("time_day", 180), "young": young.get("time_day", 120)},
    }
