"""The review area's writes: a sanction issued from chat lines checks that the lines exist
(chat sits above compliance, so compliance cannot) and records them as actioned by it."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from apps.chat.selectors import chat_messages_existing
from apps.chat.services import chat_messages_actioned
from apps.common.errors import ValidationFailed
from apps.compliance.models import Sanction
from apps.compliance.services import sanction_issue


def sanction_issue_for_messages(*, actor: User, data: dict[str, Any], ip: str | None = None) -> Sanction:
    """``POST /api/sanctions/`` and the review pages: validate the linked messages, issue the
    sanction (audited by compliance), record the lines as actioned by it (each audited as
    such, right after ``sanction_issue``), in one transaction."""
    messages = data.get("messages")
    ids: list[int] = []
    if messages not in (None, "", []):
        items = messages if isinstance(messages, list) else [messages]
        ids = [m for m in items if type(m) is int]
        if len(ids) == len(items):
            missing = set(ids) - chat_messages_existing(ids=ids)
            if missing:
                raise ValidationFailed(_("The sanction is not valid."), fields={
                    "messages": [f"No such chat message: {', '.join(str(m) for m in sorted(missing))}."]})
    with transaction.atomic():
        sanction = sanction_issue(actor=actor, player=data.get("player"), kind=data.get("kind"),
                                  duration=data.get("duration"), reason=data.get("reason"),
                                  messages=messages, ip=ip)
        chat_messages_actioned(actor=actor, sanction=sanction, ip=ip)
    return sanction
