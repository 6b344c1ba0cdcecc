"""Chat lines: checked, stored before delivery, then announced by id (platform.md §7);
players' reports; compliance's hiding, review, word list and audited searches."""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.dispatch import Signal
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from apps.audit.services import audit_record
from apps.common.errors import (
    Conflict,
    DomainError,
    Forbidden,
    NicknameRequired,
    NotFoundError,
    Sanctioned,
    ValidationFailed,
)
from apps.common.roles import is_staff_member
from apps.compliance.models import Sanction
from apps.compliance.selectors import sanction_check_chat
from apps.players.selectors import nickname_of

from . import wordlist
from .models import ChatMessage, ChatReport, FlagWord

#: sent once a line is stored, inside its transaction, with ``message``; the tables (and the
#: lobby room) push it to their sockets after commit (chat never calls the tables)
chat_posted = Signal()
#: sent when compliance hides a line, with ``message``: the rooms take it off the screens
chat_hidden = Signal()

LOBBY = "lobby"


class ChatRefused(DomainError):
    status = 400


def flag_entries() -> list[wordlist.Entry]:
    """The word list in force: compliance's editable rows plus ``CHAT_FLAG_WORDS``."""
    rows = [wordlist.Entry(k, v, c) for k, v, c in FlagWord.objects.values_list("kind", "value", "category")]
    return rows + [wordlist.Entry("word", w, "other") for w in settings.CHAT_FLAG_WORDS]


def chat_post(*, user: Any, text: object, table: Any | None = None, match: Any | None = None, ip: str | None = None) -> ChatMessage:
    """Post a line to a table (or the lobby when ``table`` is None)."""
    if is_staff_member(user):
        raise Forbidden(_("Staff do not chat as players."), code="staff_cannot_play")
    nickname = nickname_of(user)
    if not nickname:
        raise NicknameRequired()
    if not isinstance(text, str):
        raise ChatRefused(_("A chat line is text."), code="chat_empty")
    text = text.strip()
    room = str(table.pk) if table is not None else LOBBY
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
    reasons = wordlist.matches(text, flag_entries())
    with transaction.atomic():
        recent = ChatMessage.objects.filter(sender=user, room=room, refused=False,
                                            created__gt=now - timedelta(seconds=seconds)).count()
        if recent >= limit:
            raise Conflict(_("Slow down: at most %(limit)s messages in %(seconds)s seconds.") % {"limit": limit, "seconds": seconds}, code="chat_rate_limited")
        message = ChatMessage.objects.create(sender=user, nickname=nickname, room=room, table=table, match=match,
                                             text=text, ip=ip, created=now, flagged=bool(reasons),
                                             flag_reasons=reasons)
        chat_posted.send(sender=ChatMessage, message=message)
    return message


#: the name a system line carries: the page shows it as the room's notice, never as a player
SYSTEM_NICKNAME = "Mazziere"


def chat_system_post(*, actor: User, table: Any, text: str, ip: str | None = None) -> ChatMessage:
    """A system line in a table's chat, written by staff (the back office's "message a table")."""
    text = (text or "").strip()
    if not text:
        raise ChatRefused(_("Write something first: the message is empty."), code="chat_empty")
    if len(text) > settings.CHAT_MAX_LENGTH:
        raise ChatRefused(_("A message has at most %(n)s characters.") % {"n": settings.CHAT_MAX_LENGTH}, code="chat_too_long")
    message = ChatMessage.objects.create(sender=actor, nickname=SYSTEM_NICKNAME, room=str(table.pk), table=table,
                                         text=text, ip=ip, created=timezone.now(), system=True)
    chat_posted.send(sender=ChatMessage, message=message)
    return message


def chat_report(*, user: Any, message_id: object, reason: object = "other", note: object = "") -> ChatMessage:
    """A player reports a line (platform.md §7.2): it enters the review queue with the reporter
    and the reason. Once per line and player (409 already_reported); not one's own line."""
    if type(message_id) is not int:
        raise DomainError(_("Which message? Give its id."), code="bad_frame")
    if is_staff_member(user):
        raise Forbidden(_("Staff review lines in the compliance area; reports are for players."))
    reason = reason or "other"
    if reason not in ChatReport.REASONS:
        raise ValidationFailed(_("Choose why you report it."),
                               fields={"reason": [_("One of %(choices)s.") % {"choices": ", ".join(ChatReport.REASONS)}]})
    if not isinstance(note, str) or len(note) > 200:
        raise ValidationFailed(_("The note is text of at most 200 characters."), fields={"note": [_("At most 200.")]})
    assert isinstance(reason, str)  # one of ChatReport.REASONS
    with transaction.atomic():
        message = ChatMessage.objects.select_for_update().filter(pk=message_id, refused=False).first()
        if message is None or message.hidden:
            raise NotFoundError(_("No such message."))
        if message.sender_id == user.pk:
            raise Conflict(_("You cannot report your own message."), code="cannot_report_own")
        try:
            with transaction.atomic():
                ChatReport.objects.create(message=message, reporter=user, reason=reason, note=note.strip(),
                                          created=timezone.now())
        except IntegrityError:
            raise Conflict(_("You already reported this message: compliance will look at it."),
                           code="already_reported") from None
        message.reports += 1
        message.flagged = True
        if "report" not in message.flag_reasons:
            message.flag_reasons = [*message.flag_reasons, "report"]
        message.reviewed_at = None  # a new report puts it back in the queue
        message.reviewed_by = None
        message.save(update_fields=["reports", "flagged", "flag_reasons", "reviewed_at", "reviewed_by"])
    return message


def _message_locked(message_id: Any) -> ChatMessage:
    if type(message_id) is not int:
        raise NotFoundError(_("No such message."))
    message = ChatMessage.objects.select_for_update().filter(pk=message_id).first()
    if message is None:
        raise NotFoundError(_("No such message."))
    return message


def chat_message_hide(*, actor: User, message_id: Any, reason: Any = "", ip: str | None = None) -> ChatMessage:
    """Hide a line from players (platform.md §7.1): kept for review, recorded and audited.
    Hiding twice changes nothing and writes no second row."""
    if reason is None:
        reason = ""
    if not isinstance(reason, str) or len(reason) > 500:
        raise ValidationFailed(_("The reason is text."), fields={"reason": [_("At most 500 characters.")]})
    with transaction.atomic():
        message = _message_locked(message_id)
        if message.hidden:
            return message
        message.hidden = True
        message.hidden_at = timezone.now()
        message.hidden_by = actor
        if message.reviewed_at is None:
            message.reviewed_at, message.reviewed_by = message.hidden_at, actor
        message.save(update_fields=["hidden", "hidden_at", "hidden_by", "reviewed_at", "reviewed_by"])
        audit_record(actor=actor, action="chat_hide", target=message, reason=reason.strip(),
                     before={"hidden": False}, after={"hidden": True, "text": message.text}, ip=ip)
        chat_hidden.send(sender=ChatMessage, message=message)
    return message


def chat_message_review(*, actor: User, message_id: Any, ip: str | None = None) -> ChatMessage:
    """Take a flagged line out of the review queue ("nothing to do"): audited; the line stays as it is."""
    with transaction.atomic():
        message = _message_locked(message_id)
        if message.reviewed_at is None:
            message.reviewed_at, message.reviewed_by = timezone.now(), actor
            message.save(update_fields=["reviewed_at", "reviewed_by"])
            audit_record(actor=actor, action="chat_review", target=message, reason="reviewed: no action",
                         after={"flag_reasons": message.flag_reasons, "reports": message.reports}, ip=ip)
    return message


def chat_messages_actioned(*, actor: User, sanction: Sanction, ip: str | None = None) -> list[ChatMessage]:
    """The lines a sanction cites are reviewed *by that sanction*: out of the queue, marked with
    it, and one audit row each saying so (never "no action", which would contradict it). A
    line already actioned by another sanction keeps the first."""
    done = []
    with transaction.atomic():
        rows = ChatMessage.objects.select_for_update().filter(pk__in=sanction.message_ids).order_by("pk")
        for message in rows:
            if message.actioned_by_id is not None:
                continue
            before = {"reviewed_at": message.reviewed_at.isoformat() if message.reviewed_at else None}
            message.reviewed_at, message.reviewed_by, message.actioned_by = timezone.now(), actor, sanction
            message.save(update_fields=["reviewed_at", "reviewed_by", "actioned_by"])
            audit_record(actor=actor, action="chat_review", target=message,
                         reason=f"actioned: sanction #{sanction.pk} ({sanction.kind})", before=before,
                         after={"sanction": sanction.pk, "kind": sanction.kind, "flag_reasons": message.flag_reasons,
                                "reports": message.reports}, ip=ip)
            done.append(message)
    return done


# -- the word list -------------------------------------------------------------------------


def flag_word_add(*, actor: User, kind: Any, value: Any, category: Any, ip: str | None = None) -> FlagWord:
    """Add an entry to the word list (audited). Lines already written are not re-flagged."""
    fields: dict[str, list[str]] = {}
    if kind not in (FlagWord.WORD, FlagWord.PATTERN):
        fields["kind"] = [_("word or pattern.")]
    if not isinstance(value, str) or not value.strip() or len(value.strip()) > 200:
        fields["value"] = [_("A word or pattern of 1 to 200 characters.")]
    elif kind == FlagWord.PATTERN and wordlist.pattern_error(value.strip()):
        fields["value"] = [_("Not a valid regular expression: %(error)s.") % {"error": wordlist.pattern_error(value.strip())}]
    elif kind == FlagWord.WORD and not re.search(r"\w", value):
        fields["value"] = [_("A word has at least one letter or digit.")]
    if category not in FlagWord.CATEGORIES:
        fields["category"] = [_("One of %(choices)s.") % {"choices": ", ".join(FlagWord.CATEGORIES)}]
    if fields:
        raise ValidationFailed(_("The word list entry is not valid."), fields=fields)
    assert isinstance(value, str)
    value = value.strip() if kind == FlagWord.PATTERN else " ".join(value.lower().split())
    with transaction.atomic():
        if FlagWord.objects.filter(kind=kind, value=value).exists():
            raise Conflict(_("This entry is already in the list."), code="already_listed")
        entry = FlagWord.objects.create(kind=kind, value=value, category=category, created=timezone.now())
        audit_record(actor=actor, action="flag_word_add", target=entry, reason="word list",
                     after={"kind": kind, "value": value, "category": category}, ip=ip)
    return entry


def flag_word_remove(*, actor: User, entry_id: Any, ip: str | None = None) -> None:
    """Remove an entry (audited, with what it was)."""
    with transaction.atomic():
        entry = FlagWord.objects.select_for_update().filter(pk=entry_id).first() if type(entry_id) is int else None
        if entry is None:
            raise NotFoundError(_("No such word list entry."))
        audit_record(actor=actor, action="flag_word_remove", target=entry, reason="word list",
                     before={"kind": entry.kind, "value": entry.value, "category": entry.category}, ip=ip)
        entry.delete()


# -- searches (audited) -----------------------------------------------------------------------


def _parse_int(name: str, value: str, fields: dict[str, list[str]]) -> int | None:
    if value is None or value == "":
        return None
    value = str(value).strip()
    if not re.fullmatch(r"-?[0-9]{1,18}", value):
        fields[name] = [_("An integer id.")]
        return None
    return int(value)


def _parse_time(name: str, value: str, fields: dict[str, list[str]]) -> datetime | None:
    if not value:
        return None
    moment = None
    try:
        moment = parse_datetime(str(value).strip().replace(" ", "T", 1))
        if moment is None and re.fullmatch(r"\d{4}-\d{2}-\d{2}", str(value).strip()):
            moment = parse_datetime(f"{str(value).strip()}T00:00")
    except ValueError:
        moment = None
    if moment is None:
        fields[name] = [_("An ISO 8601 date or time, e.g. 2026-11-30T18:00:00Z.")]
        return None
    if timezone.is_naive(moment):
        moment = timezone.make_aware(moment, timezone.get_default_timezone())
    return moment


def chat_filters_parse(params: dict[str, Any]) -> dict[str, Any]:
    """The filters of platform.md §7.3 from a query string: 400 validation_error naming the
    malformed ones (nothing is searched)."""
    fields: dict[str, list[str]] = {}
    out: dict[str, Any] = {
        "player": _parse_int("player", params.get("player"), fields),
        "table": _parse_int("table", params.get("table"), fields),
        "match": _parse_int("match", params.get("match"), fields),
        "since": _parse_time("since", params.get("since"), fields),
        "until": _parse_time("until", params.get("until"), fields),
        "nickname": (params.get("nickname") or "").strip() or None,
        "q": (params.get("q") or "").strip() or None,
        "room": (params.get("room") or "").strip() or None,
        "ip": (params.get("ip") or "").strip() or None,
    }
    flagged = (params.get("flagged") or "").strip().lower()
    if flagged not in ("", "true", "false", "1", "0"):
        fields["flagged"] = [_("true or false.")]
    out["flagged"] = None if flagged == "" else flagged in ("true", "1")
    if out["room"] not in (None, LOBBY) and not re.fullmatch(r"[0-9]{1,18}", out["room"] or ""):
        fields["room"] = [_("lobby or a table id.")]
    for name in ("nickname", "q", "ip"):
        if out[name] is not None and len(out[name]) > 200:
            fields[name] = [_("At most 200 characters.")]
    if fields:
        raise ValidationFailed(_("The search filters are not valid."), fields=fields)
    return out


def chat_search_record(*, actor: User, filters: dict[str, Any], action: str = "chat_search",
                       ip: str | None = None) -> None:
    """Every search and export is audited (platform.md §1, §7.3), with its filters."""
    audit_record(actor=actor, action=action, target_type="chat", target_id="messages", reason="",
                 after={k: (v.isoformat() if isinstance(v, datetime) else v) for k, v in filters.items()
                        if v is not None}, ip=ip)
