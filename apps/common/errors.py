"""Domain errors: what services raise when a rule refuses a request.

Each carries the stable ``code`` and HTTP status of API.md's Appendix A and a sentence
for people. The REST API renders them as ``{"detail", "code"}``; pages show the
sentence; sockets send an error fragment. Services raise them before changing anything.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db import transaction
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


def keep_after_rollback(exc: Exception, record: Callable[[], Any]) -> None:
    """What a refusal must record even though the work it refuses rolls back (an AML signal,
    ADM's answer to a synchronous message, regulation.md §0.3 and §7.3): written now when no
    transaction is open, else carried by the refusal with the depth of transactions it was
    raised in, and written by whoever catches it once out of them (``survivors_run``: the API's
    error handler, the idempotency wrapper, the pages that catch a refusal)."""
    depth = len(transaction.get_connection().atomic_blocks)
    if depth:
        exc.survivors = [*getattr(exc, "survivors", ()), record]  # type: ignore[attr-defined]
        exc.survivors_depth = min(depth, getattr(exc, "survivors_depth", depth))  # type: ignore[attr-defined]
    else:
        record()


def survivors_run(exc: BaseException, *, inside: bool = False) -> None:
    """Write what a refusal carries, once, after its transaction rolled back (``inside``: the
    caller's own transaction commits them, as the idempotency wrapper's does)."""
    depth = len(transaction.get_connection().atomic_blocks)
    if not inside and depth >= getattr(exc, "survivors_depth", 0):
        return  # still inside the refused transaction: an outer catcher writes them
    for record in exc.__dict__.pop("survivors", ()):
        record()
