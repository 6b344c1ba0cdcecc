"""The ADM transport (regulation.md §7.2), named by ``ADM_TRANSPORT`` (read at each message).

``send(message) -> {"accepted", "code", "reject_code", "reason"}``; ``AdmUnavailable`` on a
transport error or after ``ADM_SYNC_TIMEOUT_SECONDS``. The default local simulator accepts
every message with a 16-character code, rejects the types listed in ``ADM_SIMULATOR_REJECT``,
and with ``ADM_SIMULATOR_UNAVAILABLE`` answers nothing. A message id it has seen gets its first
answer again: the answer is kept on the message row itself (``code``/``reject_code``), which
survives restarts."""

from __future__ import annotations

import secrets
import string
from typing import Any, Protocol

from django.conf import settings
from django.utils.module_loading import import_string

from .models import AdmMessage

CODE_ALPHABET = string.digits + string.ascii_uppercase


class AdmUnavailable(Exception):
    """The central system did not answer."""


class Transport(Protocol):
    def send(self, message: AdmMessage) -> dict[str, Any]: ...


class Simulator:
    def send(self, message: AdmMessage) -> dict[str, Any]:
        if message.status != AdmMessage.PENDING:  # seen before: its first answer again
            return {"accepted": message.status == AdmMessage.ACCEPTED, "code": message.code,
                    "reject_code": message.reject_code, "reason": message.reason}
        if getattr(settings, "ADM_SIMULATOR_UNAVAILABLE", False):
            raise AdmUnavailable("simulator: unavailable")
        if message.type in list(getattr(settings, "ADM_SIMULATOR_REJECT", []) or []):
            return {"accepted": False, "code": "", "reject_code": "SIM_REJECTED",
                    "reason": "rifiutato dal simulatore"}
        return {"accepted": True, "code": "".join(secrets.choice(CODE_ALPHABET) for _ in range(16)),
                "reject_code": "", "reason": ""}


def transport() -> Transport:
    return import_string(getattr(settings, "ADM_TRANSPORT", "apps.adm.transport.Simulator"))()
