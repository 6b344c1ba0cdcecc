"""The payment-provider interface (regulation.md §5.1) and the built-in test provider.

A provider is a class named by ``CASHIER_PROVIDER`` (read at each use) with a ``name`` and
three methods: ``deposit_start(deposit, test_outcome)``, ``payout(withdrawal)`` and
``callback_parse(body, headers)`` (the signature first). Why our own small interface and not
django-payments: docs/decisions.md.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from dataclasses import dataclass
from typing import Any, Protocol

from django.conf import settings
from django.utils.module_loading import import_string
from django.utils.translation import gettext as _

from apps.common.errors import DomainError, ValidationFailed
from apps.wallet.models import Deposit, Withdrawal

CONFIRMED, PENDING, DECLINED = "confirmed", "pending", "declined"
PAID, FAILED = "paid", "failed"


class ProviderUnavailable(DomainError):
    status = 503
    code = "provider_unavailable"

    def __init__(self, detail: str | None = None) -> None:
        super().__init__(detail or _("The payment provider does not answer: nothing was charged, try again in a "
                                     "few minutes."))


class CallbackInvalid(DomainError):
    status = 400
    code = "callback_invalid"


@dataclass(frozen=True)
class DepositAnswer:
    status: str  # confirmed | pending | declined
    provider_ref: str = ""
    redirect_url: str = ""


@dataclass(frozen=True)
class PayoutAnswer:
    status: str  # paid | pending | failed
    provider_ref: str = ""


@dataclass(frozen=True)
class CallbackEvent:
    event_id: str
    deposit_id: int
    status: str  # confirmed | declined


class Provider(Protocol):
    name: str
    accepts_test_outcome: bool

    def deposit_start(self, deposit: Deposit, *, test_outcome: str | None = None) -> DepositAnswer: ...

    def payout(self, withdrawal: Withdrawal) -> PayoutAnswer: ...

    def callback_parse(self, body: bytes, headers: Any) -> CallbackEvent: ...


def provider_current() -> Provider:
    return import_string(getattr(settings, "CASHIER_PROVIDER", "apps.cashier.providers.TestProvider"))()


def provider_named(name: str) -> Provider | None:
    current = provider_current()
    return current if current.name == name else None


def signing_key() -> bytes:
    """``CASHIER_TEST_SECRET``, else a random key kept in ``var/`` (made at first use)."""
    configured = getattr(settings, "CASHIER_TEST_SECRET", "")
    if configured:
        return configured.encode()
    path = settings.VAR_DIR / "cashier_test_secret"
    if not path.exists():
        path.write_text(secrets.token_hex(32))
        path.chmod(0o600)
    return path.read_text().strip().encode()


def callback_signature(body: bytes) -> str:
    """The test provider's ``X-Mazziere-Signature``: lowercase hex HMAC-SHA256 of the raw body."""
    return hmac.new(signing_key(), body, hashlib.sha256).hexdigest()


class TestProvider:
    """Confirms a deposit within the request unless told ``pending`` (it then waits for the
    callback) or ``declined``; pays a withdrawal within the approval. ``CASHIER_TEST_UNAVAILABLE``
    makes it unreachable, ``CASHIER_TEST_PAYOUT`` (paid | pending | failed) sets its payouts."""

    __test__ = False  # not a pytest class
    name = "test"
    accepts_test_outcome = True

    def _reachable(self) -> None:
        if getattr(settings, "CASHIER_TEST_UNAVAILABLE", False):
            raise ProviderUnavailable()

    def deposit_start(self, deposit: Deposit, *, test_outcome: str | None = None) -> DepositAnswer:
        self._reachable()
        outcome = test_outcome or CONFIRMED
        redirect = f"/accounts/cashier/?deposit={deposit.pk}" if outcome == PENDING else ""
        return DepositAnswer(status=outcome, provider_ref=f"test-d{deposit.pk}", redirect_url=redirect)

    def payout(self, withdrawal: Withdrawal) -> PayoutAnswer:
        self._reachable()
        return PayoutAnswer(status=getattr(settings, "CASHIER_TEST_PAYOUT", PAID) or PAID,
                            provider_ref=f"test-w{withdrawal.pk}")

    def callback_parse(self, body: bytes, headers: Any) -> CallbackEvent:
        signature = headers.get("X-Mazziere-Signature") or ""
        if not isinstance(signature, str) or not hmac.compare_digest(signature, callback_signature(body)):
            raise CallbackInvalid(_("The callback's signature is missing or wrong."))
        try:
            data = json.loads(body.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            raise CallbackInvalid(_("The callback is not JSON.")) from None
        if not isinstance(data, dict):
            raise CallbackInvalid(_("The callback is a JSON object."))
        event_id, deposit, status = data.get("event_id"), data.get("deposit"), data.get("status")
        if not isinstance(event_id, str) or not 1 <= len(event_id) <= 100 or type(deposit) is not int \
                or status not in (CONFIRMED, DECLINED):
            raise CallbackInvalid(_('A callback is {"event_id": text, "deposit": id, "status": "confirmed" or '
                                    '"declined"}.'))
        return CallbackEvent(event_id=event_id, deposit_id=deposit, status=status)


def outcome_check(provider: Provider, test_outcome: Any) -> str | None:
    """``test_outcome``: only with a provider that takes it, one of its three values."""
    if test_outcome is None:
        return None
    if not provider.accepts_test_outcome:
        raise ValidationFailed(_("test_outcome is only for the test provider."),
                               fields={"test_outcome": [_("Only with the test provider.")]})
    if test_outcome not in (CONFIRMED, PENDING, DECLINED):
        raise ValidationFailed(_("test_outcome is confirmed, pending or declined."),
                               fields={"test_outcome": [_("confirmed, pending or declined.")]})
    return test_outcome
