"""REST plumbing: the error format of API.md, pagination, role permissions, idempotency."""

from __future__ import annotations

import hashlib
import json
import string
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.db import IntegrityError, transaction
from django.http import Http404, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from rest_framework import exceptions, permissions
from rest_framework.pagination import PageNumberPagination
from rest_framework.parsers import JSONParser
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.throttling import AnonRateThrottle, UserRateThrottle

from .errors import (
    Conflict,
    DomainError,
    ServiceUnavailable,
    StaffCannotPlay,
    ValidationFailed,
    survivors_run,
)
from .input import BadInput, json_loads_checked
from .models import IdempotencyRecord
from .net import request_ip
from .otp import otp_check
from .outage import RETRY_AFTER, is_outage, outage_log
from .roles import has_role, is_staff_member

_CODES = {
    exceptions.NotAuthenticated: "not_authenticated",
    exceptions.AuthenticationFailed: "not_authenticated",
    exceptions.PermissionDenied: "permission_denied",
    exceptions.NotFound: "not_found",
    exceptions.MethodNotAllowed: "method_not_allowed",
    exceptions.ParseError: "validation_error",
    exceptions.UnsupportedMediaType: "validation_error",
    exceptions.NotAcceptable: "not_acceptable",
    exceptions.Throttled: "throttled",
    ServiceUnavailable: "service_unavailable",  # 503: Redis or the broker unreachable (apps/common/outage.py)
}


def _flatten(detail: Any) -> Any:
    if isinstance(detail, dict):
        return {str(k): _flatten(v) if isinstance(v, dict) else [str(x) for x in (v if isinstance(v, list) else [v])]
                for k, v in detail.items()}
    return [str(x) for x in detail] if isinstance(detail, list) else [str(detail)]


def error_body(exc: Exception) -> tuple[dict[str, Any], int]:
    """The ``{"detail", "code"}`` body and status for any exception a view may raise."""
    if is_outage(exc):
        outage_log(exc, where="api")
        exc = ServiceUnavailable()
    if isinstance(exc, DomainError):
        return exc.as_dict(), exc.status
    if isinstance(exc, Http404):
        return {"detail": "Not found.", "code": "not_found"}, 404
    if isinstance(exc, DjangoPermissionDenied):
        return {"detail": "You do not have permission to do this.", "code": "permission_denied"}, 403
    if isinstance(exc, exceptions.ValidationError):
        fields = _flatten(exc.detail)
        if not isinstance(fields, dict):
            fields = {"non_field_errors": fields}
        first = next((f"{name}: {msgs[0]}" for name, msgs in fields.items() if msgs), "Invalid input.")
        return {"detail": f"Invalid input ({first})", "code": "validation_error", "fields": fields}, 400
    if isinstance(exc, exceptions.APIException):
        code = next((c for cls, c in _CODES.items() if isinstance(exc, cls)), None) or str(exc.default_code)
        return {"detail": str(exc.detail), "code": code}, exc.status_code
    raise exc


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    survivors_run(exc)  # what a refusal records though its transaction rolled back
    try:
        body, status = error_body(exc)
    except Exception:
        return None  # a real bug: let Django's 500 handling log it
    response = Response(body, status=status)
    if isinstance(exc, exceptions.NotAuthenticated | exceptions.AuthenticationFailed):
        view = context.get("view")
        request = context.get("request")
        if view is not None and request is not None:
            header = view.get_authenticate_header(request)
            if header:
                response["WWW-Authenticate"] = header
    if isinstance(exc, exceptions.Throttled) and exc.wait:
        response["Retry-After"] = str(int(exc.wait))
    if status == ServiceUnavailable.status:
        response["Retry-After"] = str(RETRY_AFTER)
    return response


def json_error(detail: str, code: str, status: int) -> JsonResponse:
    return JsonResponse({"detail": detail, "code": code}, status=status)


class CheckedJSONParser(JSONParser):
    """JSON bodies without deep nesting, NUL, lone surrogates or huge integers (platform.md §12).

    BadInputMiddleware refuses them before the view already; the parser checks again so a
    request that reaches DRF another way is held to the same rule."""

    def parse(self, stream, media_type=None, parser_context=None):
        encoding = (parser_context or {}).get("encoding", "utf-8")
        try:
            return json_loads_checked(stream.read().decode(encoding))
        except UnicodeDecodeError:
            raise exceptions.ValidationError({"body": ["The body is not valid UTF-8."]}) from None
        except BadInput as exc:
            raise exceptions.ValidationError({exc.field: [exc.message]}) from None


class _RatesFromSettings:
    """DRF binds THROTTLE_RATES when its classes are defined; read them per request instead, so
    a settings change (tests that hit the limit) takes effect. The client's address is the one
    every other rule uses (trusted proxies, platform.md §7.1)."""

    def get_rate(self):
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)

    def get_ident(self, request):
        return request_ip(request) or "unknown"


class UserThrottle(_RatesFromSettings, UserRateThrottle):
    """600 requests a minute per user (platform.md §12)."""


class AnonThrottle(_RatesFromSettings, AnonRateThrottle):
    """120 requests a minute per anonymous IP (platform.md §12)."""


class Pagination(PageNumberPagination):
    page_size = 50


# -- permissions --------------------------------------------------------------------


class IsPlayer(permissions.BasePermission):
    """A logged-in player: staff and superusers are refused with ``staff_cannot_play``."""

    def has_permission(self, request, view) -> bool:
        if not request.user or not request.user.is_authenticated:
            raise exceptions.NotAuthenticated()
        if is_staff_member(request.user):
            raise StaffCannotPlay()
        return True


class IsPlayerAccount(permissions.BasePermission):
    """Own wallet/ledger: players only; staff have no wallet (403 permission_denied)."""

    def has_permission(self, request, view) -> bool:
        if not request.user or not request.user.is_authenticated:
            raise exceptions.NotAuthenticated()
        return not is_staff_member(request.user)


def role_permission(*roles: str) -> type[permissions.BasePermission]:
    """A permission class admitting superusers and members of any of ``roles``."""

    class HasRole(permissions.BasePermission):
        message = "Your role does not allow this."

        def has_permission(self, request, view) -> bool:
            if not request.user or not request.user.is_authenticated:
                raise exceptions.NotAuthenticated()
            if not has_role(request.user, *roles):
                return False
            otp_check(request.user)  # regulation.md §10: staff endpoints need a verified second factor
            return True

    HasRole.__name__ = f"HasRole_{'_'.join(roles)}"
    return HasRole


# -- idempotency ----------------------------------------------------------------------

_PRINTABLE = set(string.printable) - set("\t\n\r\x0b\x0c")


def _body_hash(request) -> str:
    try:
        data = request.data
        canonical = json.dumps(data, sort_keys=True, separators=(",", ":"), default=str)
    except Exception:
        canonical = request.body.decode("utf-8", "replace")
    return hashlib.sha256(canonical.encode()).hexdigest()


def idempotent(handler: Callable[..., Response]) -> Callable[..., Response]:
    """Replay the stored first answer for a repeated ``Idempotency-Key`` (platform.md §3.5).

    The key row is inserted in the same database transaction as the money movement, so a
    concurrent retry waits on the unique index and then replays the committed answer.
    Domain errors are answers too: they are stored and replayed like successes.
    """

    @wraps(handler)
    def wrapper(self, request, *args, **kwargs) -> Response:
        key = request.headers.get("Idempotency-Key")
        if key is None:
            return handler(self, request, *args, **kwargs)
        if not 1 <= len(key) <= 100 or not set(key) <= _PRINTABLE:
            raise ValidationFailed(
                _("The Idempotency-Key header must be 1 to 100 printable ASCII characters."),
                fields={"Idempotency-Key": [_("1 to 100 printable ASCII characters.")]},
            )
        fingerprint = (request.method, request.path, _body_hash(request))
        with transaction.atomic():
            try:
                with transaction.atomic():
                    record = IdempotencyRecord.objects.create(
                        user=request.user, key=key, method=fingerprint[0], path=fingerprint[1],
                        body_hash=fingerprint[2],
                    )
            except IntegrityError:
                record = IdempotencyRecord.objects.get(user=request.user, key=key)
                if (record.method, record.path, record.body_hash) != fingerprint:
                    raise Conflict(
                        _("This Idempotency-Key was already used for a different request."),
                        code="idempotency_conflict",
                    ) from None
                return HttpResponse(record.response_body, status=record.status_code,
                                    content_type="application/json")
            try:
                with transaction.atomic():
                    response = handler(self, request, *args, **kwargs)
            except (DomainError, exceptions.APIException) as exc:
                body, status = error_body(exc)
                response = Response(body, status=status)
                # what a refusal records: its savepoint rolled back, the key's transaction commits
                survivors_run(exc, inside=True)
            record.status_code = response.status_code
            record.response_body = JSONRenderer().render(response.data).decode()
            record.save(update_fields=["status_code", "response_body"])
            return HttpResponse(record.response_body, status=record.status_code, content_type="application/json")

    return wrapper


def json_body(request: Any) -> dict[str, Any]:
    """The request's JSON body, refused (400 ``validation_failed``) when it is not an object."""
    if not isinstance(request.data, dict):
        raise ValidationFailed(_("The body must be a JSON object."), fields={"body": [_("A JSON object.")]})
    return request.data
