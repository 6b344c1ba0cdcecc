"""The conto's refusals (regulation.md Appendix A), in the contract's format."""

from __future__ import annotations

from django.utils.translation import gettext as _

from apps.common.errors import Conflict, DomainError, Forbidden

from . import states as S

_STATE_WORDS = {
    S.IN_VERIFICA: "identity not verified yet",
    S.SOSPESO: "suspended",
    S.BLOCCATO: "blocked",
    S.CHIUSO: "closed",
    S.DORMIENTE: "dormant",
}


class AccountNotOpen(Forbidden):
    code = "account_not_open"

    def __init__(self, *, state: str, state_reason: str = "", detail: str | None = None) -> None:
        if detail is None:
            if state == S.IN_VERIFICA:
                detail = _("Your gaming account is waiting for identity verification: money play, deposits "
                           "and withdrawals open once compliance approves your documents.")
            elif state == S.SOSPESO and state_reason == S.DOCUMENTI:
                detail = _("Your gaming account is suspended until a valid identity document is approved: "
                           "upload it from your account page.")
            elif state == S.SOSPESO:
                detail = _("Your gaming account is suspended: contact customer care.")
            elif state == S.BLOCCATO:
                detail = _("Your gaming account is blocked: contact customer care.")
            elif state == S.CHIUSO:
                detail = _("Your gaming account is closed.")
            elif state == S.DORMIENTE:
                detail = _("Your gaming account is dormant: contact customer care to reactivate it.")
            else:
                detail = _("Your gaming account is not open.")
        super().__init__(detail, state=state, state_reason=state_reason)


class InvalidTransition(Conflict):
    code = "invalid_transition"

    def __init__(self, detail: str | None = None) -> None:
        super().__init__(detail or _("This change is not possible from the account's current state."))


class Underage(DomainError):
    status = 403
    code = "underage"
