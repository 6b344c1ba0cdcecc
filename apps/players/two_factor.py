"""Staff two-factor authentication (regulation.md §10): enrolment, verification, recovery
codes and reset, on django-otp's TOTP and static devices. Every step is audited."""

from __future__ import annotations

import re
import secrets
import string
from base64 import b32encode
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _
from django_otp import login as otp_login
from django_otp.plugins.otp_static.models import StaticDevice, StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice
from rest_framework.authtoken.models import Token

from apps.audit.services import audit_record
from apps.common.errors import DomainError, Forbidden, ValidationFailed

from .models import StaffTokenOtp

RECOVERY_COUNT = 10
RECOVERY_LENGTH = 10
_RECOVERY = re.compile(r"^[a-z0-9]{10}$")
_TOTP = re.compile(r"^[0-9]{6}$")


class OtpInvalid(DomainError):
    code = "otp_invalid"


def _recovery_new(*, user: Any) -> list[str]:
    """A fresh set of recovery codes; the old set is void."""
    StaticDevice.objects.filter(user=user).delete()
    device = StaticDevice.objects.create(user=user, name="recovery", confirmed=True)
    alphabet = string.ascii_lowercase + string.digits
    codes = ["".join(secrets.choice(alphabet) for _i in range(RECOVERY_LENGTH)) for _n in range(RECOVERY_COUNT)]
    StaticToken.objects.bulk_create([StaticToken(device=device, token=code) for code in codes])
    return codes


def otp_device_as_dict(device: TOTPDevice) -> dict[str, Any]:
    return {"id": device.pk, "secret": b32encode(device.bin_key).decode(), "otpauth_url": device.config_url,
            "digits": device.digits, "period": device.step, "algorithm": "SHA1", "confirmed": device.confirmed}


@transaction.atomic
def otp_device_create(*, user: Any, ip: str | None = None) -> TOTPDevice:
    """A new TOTP device awaiting confirmation, replacing an unconfirmed one."""
    TOTPDevice.objects.filter(user=user, confirmed=False).delete()
    device = TOTPDevice.objects.create(user=user, name="totp", confirmed=False, digits=6, step=30, tolerance=1)
    audit_record(actor=user, action="otp_device_created", target=user, ip=ip)
    return device


def _failed(*, user: Any, ip: str | None) -> OtpInvalid:
    audit_record(actor=user, action="otp_failed", target=user, ip=ip)
    return OtpInvalid(_("The code is not valid."))


def _code(code: object) -> str:
    if not isinstance(code, str) or not code.strip():
        raise ValidationFailed(_("A code is required."), fields={"code": [_("A non-empty string is required.")]})
    return code.strip().lower()


def _throttle_check(devices: list[Any]) -> None:
    for device in devices:
        allowed, data = device.verify_is_allowed()
        if not allowed:
            wait = data.get("locked_until") if data else None
            raise DomainError(_("Too many wrong codes: wait a little and try again."), code="throttled", status=429,
                              **({"locked_until": wait.isoformat()} if wait else {}))


def otp_device_confirm(*, request: Any, code: object, ip: str | None = None) -> list[str]:
    """Confirm the pending device with a TOTP code: the session is verified, and the 10
    recovery codes are returned (shown once)."""
    user = request.user
    code = _code(code)
    device = TOTPDevice.objects.filter(user=user, confirmed=False).order_by("-pk").first()
    if device is None:
        raise DomainError(_("There is no device to confirm: create one first."), code="validation_error")
    _throttle_check([device])
    with transaction.atomic():
        if not (_TOTP.match(code) and device.verify_token(code)):
            raise_later = _failed(user=user, ip=ip)
        else:
            raise_later = None
            TOTPDevice.objects.filter(user=user).exclude(pk=device.pk).delete()
            device.confirmed = True
            device.save(update_fields=["confirmed"])
            codes = _recovery_new(user=user)
            audit_record(actor=user, action="otp_device_confirmed", target=user, ip=ip)
    if raise_later is not None:
        raise raise_later
    otp_login(request, device)
    return codes


def otp_code_check(*, user: Any, code: object, ip: str | None = None) -> tuple[Any, str]:
    """The device that accepts ``code`` (TOTP, else a recovery code, used up) and its method.
    Throttled devices refuse (429); a wrong code is audited and refused (400 otp_invalid)."""
    code = _code(code)
    totp = list(TOTPDevice.objects.filter(user=user, confirmed=True))
    static = list(StaticDevice.objects.filter(user=user, confirmed=True))
    if not totp:
        raise Forbidden(_("No second factor is enrolled yet."), code="otp_required", enrolled=False)
    _throttle_check(totp + static)
    with transaction.atomic():
        if _TOTP.match(code):
            for device in totp:
                if device.verify_token(code):
                    audit_record(actor=user, action="otp_verified", target=user, ip=ip, after={"method": "totp"})
                    return device, "totp"
        elif _RECOVERY.match(code):
            for device in static:
                if device.verify_token(code):
                    audit_record(actor=user, action="otp_recovery_used", target=user, ip=ip)
                    audit_record(actor=user, action="otp_verified", target=user, ip=ip, after={"method": "recovery"})
                    return device, "recovery"
        else:
            for device in totp + static:
                device.throttle_increment()
        failure = _failed(user=user, ip=ip)
    raise failure


def otp_verify(*, request: Any, code: object, ip: str | None = None) -> dict[str, Any]:
    """Verify the session of a logged-in staff member with a TOTP or recovery code."""
    device, method = otp_code_check(user=request.user, code=code, ip=ip)
    otp_login(request, device)
    left = StaticToken.objects.filter(device__user=request.user).count()
    return {"verified": True, "method": method, "recovery_codes_left": left}


@transaction.atomic
def otp_recovery_regenerate(*, user: Any, ip: str | None = None) -> list[str]:
    codes = _recovery_new(user=user)
    audit_record(actor=user, action="otp_recovery_regenerated", target=user, ip=ip)
    return codes


@transaction.atomic
def otp_reset(*, actor: Any, member: Any, reason: object, ip: str | None = None) -> None:
    """A superuser removes a member's devices and codes: the member enrols again."""
    if not isinstance(reason, str) or not reason.strip():
        raise ValidationFailed(_("A reason is required."), fields={"reason": [_("A non-empty string is required.")]})
    TOTPDevice.objects.filter(user=member).delete()
    StaticDevice.objects.filter(user=member).delete()
    StaffTokenOtp.objects.filter(key__in=Token.objects.filter(user=member).values("key")).delete()
    audit_record(actor=actor, action="otp_reset", target=member, reason=reason.strip(), ip=ip)


def otp_device_pending_get_or_create(*, user: Any, ip: str | None = None) -> TOTPDevice:
    """The enrolment page's device: the one awaiting confirmation, else a new one (so a
    reload does not change the secret the member may already have scanned)."""
    device = TOTPDevice.objects.filter(user=user, confirmed=False).order_by("-pk").first()
    return device or otp_device_create(user=user, ip=ip)
