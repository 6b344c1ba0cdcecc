"""Chat lines: checked, stored before delivery, then announced by id (platform.md §7)."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.dispatch import Signal
from django.utils import timezone
from django.utils.translation import gettext as _

from apps.common.errors import Conflict, DomainError, Forbidden, NicknameRequired, NotFoundError, Sanctioned
from apps.common.roles import is_staff_member
from apps.compliance.selectors import sanction_check_chat
from apps.players.selectors import nickname_of

from .models import ChatMessage

#: sent once a line is stored, inside its transaction, with ``message``; the tables listen
#: and push it to the table's sockets after commit (chat never calls the tables)
chat_posted = Signal()


class ChatRefused(DomainError):
    status = 400


def _flagged(text: str) -> bool:
    lowered = text.lower()
    return any(word.lower() in lowered for word in settings.CHAT_FLAG_WORDS)


def chat_post(*, user, text: object, table=None, match=None, ip: str | None = None) -> ChatMessage:
    """Post a line to a table (or the lobby when ``table`` is None)."""
    if is_staff_member(user):
        raise Forbidden(_("Staff do not chat as players."), code="staff_cannot_play")
    nickname = nickname_of(user)
    if not nickname:
        raise NicknameRequired()
    if not isinstance(text, str):
        raise ChatRefused("A chat line is text.", code="chat_empty")
    text = text.strip()
    room = str(table.pk) if table is not None else "lobby"
    now = timezone.now()
    try:
        sanction_check_chat(player=user)
    except Sanctioned:
        ChatMessage.objects.create(sender=user, nickname=nickname, room=room, table=table, match=match,
                                   text=text[:settings.CHAT_MAX_LENGTH * 2], ip=ip, created=now, refused=True)
        raise
    if not text:
        raise ChatRefused(_("Write something first: the message is empty."), code="chat_empty")
    if len(text) > settings.CHAT_MAX_LENGTH:
        raise ChatRefused(_("A message has at most %(n)s characters.") % {"n": settings.CHAT_MAX_LENGTH}, code="chat_too_long")
    limit, seconds = settings.CHAT_RATE
    with transaction.atomic():
        recent = ChatMessage.objects.filter(sender=user, room=room, refused=False,
                                            created__gt=now - timedelta(seconds=seconds)).count()
        if recent >= limit:
            raise Conflict(_("Slow down: at most %(limit)s messages in %(seconds)s seconds.") % {"limit": limit, "seconds": seconds}, code="chat_rate_limited")
        message = ChatMessage.objects.create(sender=user, nickname=nickname, room=room, table=table, match=match,
                                             text=text, ip=ip, created=now, flagged=_flagged(text))
        chat_posted.send(sender=ChatMessage, message=message)
    return message


def chat_report(*, user, message_id: object) -> ChatMessage:
    if type(message_id) is not int:
        raise DomainError(_("Which message? Give its id."), code="bad_frame")
    with transaction.atomic():
        message = ChatMessage.objects.select_for_update().filter(pk=message_id, refused=False).first()
        if message is None:
            raise NotFoundError(_("No such message."))
        message.reports += 1
        message.flagged = True
        message.save(update_fields=["reports", "flagged"])
    return message
