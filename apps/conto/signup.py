"""Sign-up and identity (regulation.md §1.1, §1.2, §1.6): every field checked, then the
codice fiscale, age, uniqueness and the national registry, in that order; nothing is created
unless everything passes, and then the user, the conto, its limits and the ADM message are
written in one transaction."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model, password_validation
from django.core.exceptions import ValidationError as DjangoValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from apps.adm.services import adm_enqueue
from apps.common.errors import Conflict, DomainError, Forbidden, ValidationFailed

from . import states as S
from .codice_fiscale import is_adult, is_valid, mismatch_fields, normalise
from .errors import Underage
from .exclusions import SelfExcluded
from .limits import DAY_KEYS, limits_set_initial, limits_validate
from .models import Conto, IdentityRecord, SelfExclusion, StateChange
from .registry import registry_check
from .services import conto_ensure

USERNAME = re.compile(r"^[A-Za-z0-9_.-]{3,30}$")
NAME = re.compile(r"^[^\W\d_]+(?:[ '\-.]*[^\W\d_]*)*\.?$")
PROVINCIA = re.compile(r"^[A-Za-z]{2}$")
POSTAL_CODE = re.compile(r"^[0-9]{5}$")
MOBILE = re.compile(r"^\+[1-9][0-9]{7,14}$")
DOCUMENT_NUMBER = re.compile(r"^[A-Za-z0-9]{5,20}$")
DOCUMENT_TYPES = ("carta_identita", "passaporto", "patente")
IDENTITY_FIELDS = ("email", "first_name", "last_name", "sex", "birth_date", "birth_place", "codice_fiscale",
                   "residence", "mobile", "document")


class _Errors:
    def __init__(self) -> None:
        self.fields: dict[str, list[str]] = {}

    def add(self, name: str, message: str) -> None:
        self.fields.setdefault(name, []).append(message)


def _text(errors: _Errors, data: dict, name: str, *, low: int, high: int, pattern: re.Pattern | None = None,
          message: str | None = None, key: str | None = None) -> str:
    value = data.get(name)
    key = key or name
    if not isinstance(value, str) or not value.strip():
        errors.add(key, _("This field is required."))
        return ""
    value = value.strip()
    if not low <= len(value) <= high:
        errors.add(key, _("Between %(low)s and %(high)s characters.") % {"low": low, "high": high})
    elif pattern is not None and not pattern.match(value):
        errors.add(key, message or _("Not valid."))
    return value


def _date(errors: _Errors, data: dict, name: str, key: str | None = None) -> dt.date | None:
    value = data.get(name)
    key = key or name
    if not isinstance(value, str):
        errors.add(key, _("A date as YYYY-MM-DD."))
        return None
    try:
        return dt.date.fromisoformat(value) if re.match(r"^\d{4}-\d{2}-\d{2}$", value) else _bad_date()
    except ValueError:
        errors.add(key, _("A date as YYYY-MM-DD."))
        return None


def _bad_date() -> dt.date:
    raise ValueError


def _object(errors: _Errors, data: dict, name: str) -> dict:
    value = data.get(name)
    if not isinstance(value, dict):
        errors.add(name, _("This field is required."))
        return {}
    return value


def identity_clean(data: Any, *, errors: _Errors, today: dt.date, exclude_user_id: int | None = None) -> dict[str, Any]:
    """The identity fields of §1.1's table, checked; errors named with a dot for nested ones."""
    clean: dict[str, Any] = {}
    email = data.get("email")
    if not isinstance(email, str) or not email.strip() or len(email) > 254:
        errors.add("email", _("A valid email address."))
    else:
        try:
            validate_email(email.strip())
            clean["email"] = email.strip()
        except DjangoValidationError:
            errors.add("email", _("A valid email address."))
    name_message = _("Letters, spaces, apostrophes, hyphens and dots only.")
    clean["first_name"] = _text(errors, data, "first_name", low=1, high=60, pattern=NAME, message=name_message)
    clean["last_name"] = _text(errors, data, "last_name", low=1, high=60, pattern=NAME, message=name_message)
    sex = data.get("sex")
    if sex not in ("M", "F"):
        errors.add("sex", _("M or F, as the codice fiscale encodes it."))
    clean["sex"] = sex
    birth_date = _date(errors, data, "birth_date")
    if birth_date is not None and birth_date > today:
        errors.add("birth_date", _("The birth date cannot be in the future."))
        birth_date = None
    clean["birth_date"] = birth_date
    place = _object(errors, data, "birth_place")
    if place:
        stato = _text(errors, place, "stato", low=1, high=60, key="birth_place.stato")
        comune = place.get("comune")
        provincia = place.get("provincia")
        if stato.lower() == "italia":
            comune = _text(errors, place, "comune", low=1, high=60, key="birth_place.comune")
            provincia = _text(errors, place, "provincia", low=2, high=2, pattern=PROVINCIA,
                              message=_("Two letters."), key="birth_place.provincia")
        clean["birth_place"] = {"comune": comune if isinstance(comune, str) else "",
                                "provincia": (provincia or "").upper() if isinstance(provincia, str) else "",
                                "stato": stato}
    code = data.get("codice_fiscale")
    if not isinstance(code, str) or not code.strip():
        errors.add("codice_fiscale", _("This field is required."))
    clean["codice_fiscale"] = normalise(code) if isinstance(code, str) else ""
    residence = _object(errors, data, "residence")
    if residence:
        clean["residence"] = {
            "address": _text(errors, residence, "address", low=1, high=120, key="residence.address"),
            "postal_code": _text(errors, residence, "postal_code", low=5, high=5, pattern=POSTAL_CODE,
                                 message=_("Five digits."), key="residence.postal_code"),
            "comune": _text(errors, residence, "comune", low=1, high=60, key="residence.comune"),
            "provincia": _text(errors, residence, "provincia", low=2, high=2, pattern=PROVINCIA,
                               message=_("Two letters."), key="residence.provincia").upper(),
        }
    clean["mobile"] = _text(errors, data, "mobile", low=9, high=16, pattern=MOBILE,
                            message=_("An international number such as +393331234567."))
    clean["document"] = document_clean(data.get("document"), errors=errors, today=today)
    if "email" in clean:
        taken = Conto.objects.filter(email__iexact=clean["email"])
        if exclude_user_id is not None:
            taken = taken.exclude(user_id=exclude_user_id)
        if taken.exists():
            errors.add("email", _("This email address is already used by another gaming account."))
    return clean


def document_clean(document: Any, *, errors: _Errors, today: dt.date) -> dict[str, Any]:
    if not isinstance(document, dict):
        errors.add("document", _("This field is required."))
        return {}
    kind = document.get("type")
    if kind not in DOCUMENT_TYPES:
        errors.add("document.type", _("Carta d'identità, passaporto or patente (a tessera sanitaria is not one)."))
    number = _text(errors, document, "number", low=5, high=20, pattern=DOCUMENT_NUMBER,
                   message=_("5 to 20 letters and digits."), key="document.number")
    issuer = _text(errors, document, "issuer", low=1, high=100, key="document.issuer")
    expires = _date(errors, document, "expires_at", key="document.expires_at")
    if expires is not None and expires <= today:
        errors.add("document.expires_at", _("The document has expired: use a valid one."))
    return {"type": kind, "number": number.upper(), "issuer": issuer,
            "expires_at": expires.isoformat() if expires else None}


def _identity_checks(clean: dict[str, Any], *, today: dt.date, exclude_user_id: int | None = None) -> None:
    """Checks (2)-(6) of §1.1 after the fields passed."""
    code = clean["codice_fiscale"]
    if not is_valid(code):
        raise DomainError(_("The codice fiscale is not valid: check it on your tessera sanitaria."),
                          code="codice_fiscale_invalid", fields=["codice_fiscale"])
    mismatch = mismatch_fields(code, birth_date=clean["birth_date"], sex=clean["sex"])
    if mismatch:
        raise DomainError(_("The codice fiscale does not agree with the birth date or sex you gave."),
                          code="codice_fiscale_mismatch", fields=mismatch)
    if not is_adult(clean["birth_date"], today):
        raise Underage(_("You must be 18 or older to open a gaming account."))
    taken = Conto.objects.filter(codice_fiscale=code)
    if exclude_user_id is not None:
        taken = taken.exclude(user_id=exclude_user_id)
    if taken.exists():
        raise _taken()
    answer = registry_check(code)
    if answer.get("excluded"):
        until = answer.get("until")
        exclusion = SelfExclusion(scope=answer.get("scope") or "all", starts_at=timezone.now(), ends_at=until)
        raise SelfExcluded(exclusion)


def _taken() -> Conflict:
    return Conflict(_("A gaming account with this codice fiscale already exists: log in to it."),
                    code="codice_fiscale_taken")


def conto_sign_up(*, data: Any, now: dt.datetime | None = None) -> tuple[Any, Conto]:
    """§1.1: the user, the conto (in_verifica), its limits and ADM ``account_open``."""
    now = now or timezone.now()
    today = timezone.localdate(now)
    if not isinstance(data, dict):
        raise ValidationFailed(_("The body must be a JSON object."), fields={"body": [_("A JSON object is required.")]})
    errors = _Errors()
    User = get_user_model()
    username = _text(errors, data, "username", low=3, high=30, pattern=USERNAME,
                     message=_("3-30 letters, digits, dots, hyphens or underscores."))
    if username and not errors.fields.get("username") and User.objects.filter(username__iexact=username).exists():
        errors.add("username", _("This username is taken."))
    password = data.get("password")
    if not isinstance(password, str) or not password:
        errors.add("password", _("This field is required."))
    else:
        try:
            password_validation.validate_password(password, User(username=username, email=data.get("email") or ""))
        except DjangoValidationError as exc:
            for message in exc.messages:
                errors.add("password", message)
    clean = identity_clean(data, errors=errors, today=today)
    limits_raw = data.get("limits")
    probe = Conto(birth_date=clean.get("birth_date"))
    limits: dict[str, int] = {}
    if not isinstance(limits_raw, dict):
        errors.add("limits", _("Set your deposit, spending and time limits per day."))
    else:
        for key in DAY_KEYS:
            if key not in limits_raw:
                errors.add(f"limits.{key}", _("This limit is required."))
        try:
            limits = limits_validate(limits_raw, conto=probe, first=True, field_prefix="limits.")
        except ValidationFailed as exc:
            for name, messages in exc.extra["fields"].items():
                for message in messages:
                    errors.add(name, message)
    if data.get("accept_terms") is not True:
        errors.add("accept_terms", _("Accept the gaming contract to open an account."))
    if errors.fields:
        raise ValidationFailed(_("Some fields are not valid."), fields=errors.fields)
    _identity_checks(clean, today=today)
    try:
        with transaction.atomic():
            user = User.objects.create_user(username, email=clean["email"], password=password,
                                            first_name=clean["first_name"][:150], last_name=clean["last_name"][:150])
            play_until = None
            if getattr(settings, "KYC_PLAY_BEFORE_VERIFICATION", False):
                play_until = now + dt.timedelta(days=int(getattr(settings, "KYC_PLAY_BEFORE_VERIFICATION_DAYS", 30)))
            conto = Conto.objects.create(user=user, origin=S.ORIGIN_SIGNUP, state=S.IN_VERIFICA,
                                         kyc_status=S.DOCUMENTS_REQUIRED, state_changed_at=now, play_until=play_until,
                                         last_activity_at=now, **_identity_row(clean))
            StateChange.objects.create(conto=conto, state=S.IN_VERIFICA, reason="sign-up", at=now)
            IdentityRecord.objects.create(conto=conto, data=_identity_json(clean), by=user, at=now)
            limits_set_initial(conto=conto, values=limits, now=now)
            _account_open(conto)
    except IntegrityError as exc:
        # the unique indexes decide a race: one conto per codice fiscale, one user per name
        if Conto.objects.filter(codice_fiscale=clean["codice_fiscale"]).exists():
            raise _taken() from exc
        raise ValidationFailed(_("Some fields are not valid."),
                               fields={"username": [_("This username is taken.")]}) from exc
    return user, conto


def _identity_row(clean: dict[str, Any]) -> dict[str, Any]:
    return {"first_name": clean["first_name"], "last_name": clean["last_name"], "sex": clean["sex"],
            "birth_date": clean["birth_date"], "birth_place": clean["birth_place"],
            "codice_fiscale": clean["codice_fiscale"], "residence": clean["residence"], "email": clean["email"],
            "mobile": clean["mobile"], "document": clean["document"]}


def _identity_json(clean: dict[str, Any]) -> dict[str, Any]:
    row = _identity_row(clean)
    row["birth_date"] = row["birth_date"].isoformat()
    return row


def _account_open(conto: Conto) -> None:
    adm_enqueue(type="account_open", reference=f"player:{conto.user_id}", player_id=conto.user_id,
                payload={"codice_fiscale": conto.codice_fiscale, "first_name": conto.first_name,
                         "last_name": conto.last_name, "birth_date": conto.birth_date.isoformat(),
                         "sex": conto.sex, "origin": conto.origin})


def conto_identity_update(*, user: Any, data: Any, now: dt.datetime | None = None) -> Conto:
    """``PATCH /api/me/account/`` (§1.3, §1.6): a legacy conto completes its identity (every
    identity field and ``accept_terms``, checked as at sign-up); a conto with an identity
    renews its document (``document`` alone): documents again, a verified identity stays so."""
    now = now or timezone.now()
    today = timezone.localdate(now)
    if not isinstance(data, dict) or not data:
        raise ValidationFailed(_("The body must be a JSON object."), fields={"body": [_("A JSON object is required.")]})
    conto = conto_ensure(user=user)
    errors = _Errors()
    if conto.identity_complete:
        unknown = set(data) - {"document"}
        if unknown or "document" not in data:
            for name in sorted(unknown) or ["document"]:
                errors.add(name, _("Only a new identity document can be given here."))
            raise ValidationFailed(_("Some fields are not valid."), fields=errors.fields)
        document = document_clean(data["document"], errors=errors, today=today)
        if errors.fields:
            raise ValidationFailed(_("Some fields are not valid."), fields=errors.fields)
        with transaction.atomic():
            conto = Conto.objects.select_for_update().get(pk=conto.pk)
            if conto.state not in (S.IN_VERIFICA, S.APERTO, S.SOSPESO):
                raise Forbidden(_("This gaming account cannot be changed."), code="account_not_open",
                                state=conto.state, state_reason=conto.state_reason)
            conto.document = document
            conto.kyc_status, conto.kyc_reason, conto.submitted_at = S.DOCUMENTS_REQUIRED, "", None
            conto.submission += 1
            conto.save(update_fields=["document", "kyc_status", "kyc_reason", "submitted_at", "submission"])
            IdentityRecord.objects.create(conto=conto, data={**_current_identity(conto), "document": document},
                                          by=user, at=now)
        return conto
    for name in ("username", "password", "limits"):
        if name in data:
            errors.add(name, _("This field cannot be changed here."))
    clean = identity_clean(data, errors=errors, today=today, exclude_user_id=user.pk)
    if data.get("accept_terms") is not True:
        errors.add("accept_terms", _("Accept the gaming contract to complete your account."))
    if errors.fields:
        raise ValidationFailed(_("Some fields are not valid."), fields=errors.fields)
    _identity_checks(clean, today=today, exclude_user_id=user.pk)
    try:
        with transaction.atomic():
            conto = Conto.objects.select_for_update().get(pk=conto.pk)
            for field, value in _identity_row(clean).items():
                setattr(conto, field, value)
            conto.kyc_status, conto.kyc_reason, conto.submitted_at = S.DOCUMENTS_REQUIRED, "", None
            conto.save()
            IdentityRecord.objects.create(conto=conto, data=_identity_json(clean), by=user, at=now)
            _account_open(conto)  # §7.1: sent when the identity is completed; approval waits for it
    except IntegrityError as exc:
        raise _taken() from exc
    return conto


def _current_identity(conto: Conto) -> dict[str, Any]:
    return {"first_name": conto.first_name, "last_name": conto.last_name, "sex": conto.sex,
            "birth_date": conto.birth_date.isoformat() if conto.birth_date else None,
            "birth_place": conto.birth_place, "codice_fiscale": conto.codice_fiscale, "residence": conto.residence,
            "email": conto.email, "mobile": conto.mobile}
