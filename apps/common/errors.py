"""Domain errors: what services raise when a rule refuses a request.

Each carries the stable ``code`` and HTTP status of API.md's Appendix A and a sentence
for people. The REST API renders them as ``{"detail", "code"}``; pages show the
sentence; sockets send an error fragment. Services raise them before changing anything.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy


class DomainError(Exception):
    status = 400
    code = "validation_error"
    default_detail = gettext_lazy("The request is not valid.")

    def __init__(self, detail: str | None = None, *, code: str | None = None, status: int | None = None,
                 **extra: Any) -> None:
        self.detail = str(detail or self.default_detail)  # in the language active when raised
        if code:
            self.code = code
        if status:
            self.status = status
        self.extra = extra
        super().__init__(self.detail)

    def as_dict(self) -> dict[str, Any]:
        return {"detail": self.detail, "code": self.code, **self.extra}


class ValidationFailed(DomainError):
    """400 validation_error; ``fields`` maps names to lists of messages."""

    def __init__(self, detail: str | None = None, *, fields: dict[str, list[str]] | None = None) -> None:
        super().__init__(detail or gettext_lazy("Invalid input."), fields=fields or {})


class Conflict(DomainError):
    status = 409


class Forbidden(DomainError):
    status = 403
    code = "permission_denied"


class NotFoundError(DomainError):
    status = 404
    code = "not_found"
    default_detail = gettext_lazy("Not found.")


class ServiceUnavailable(DomainError):
    """503: a service the site needs (Redis, the broker) is unreachable (apps/common/outage.py)."""

    status = 503
    code = "service_unavailable"
    default_detail = gettext_lazy("The service is temporarily unavailable: try again in a minute.")


class InsufficientFunds(DomainError):
    status = 402
    code = "insufficient_funds"
    default_detail = gettext_lazy("There is not enough money in the wallet for this.")


class StaffCannotPlay(DomainError):
    status = 403
    code = "staff_cannot_play"
    default_detail = gettext_lazy("Staff accounts cannot play, register, sit or chat as players.")


class NicknameRequired(DomainError):
    status = 409
    code = "nickname_required"
    default_detail = gettext_lazy("Choose a nickname first: it is needed to play, register and chat.")


class Sanctioned(DomainError):
    status = 403
    code = "sanctioned"
