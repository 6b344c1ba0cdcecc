"""Staff notes about a player (regulation.md §9): append-only, audited ``player_note``."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from apps.audit.services import audit_record
from apps.common.errors import NotFoundError, ValidationFailed
from apps.common.roles import is_staff_member

from .models import PlayerNote


def player_of(player_id: Any) -> Any:
    """The player with this id: 404 for nobody and for staff (they are not players)."""
    try:
        user = get_user_model().objects.filter(pk=int(player_id)).first()
    except (TypeError, ValueError):
        user = None
    if user is None or is_staff_member(user):
        raise NotFoundError(_("No such player."))
    return user


def player_note_add(*, author: Any, player_id: Any, text: Any, ip: str | None = None) -> PlayerNote:
    if not isinstance(text, str) or not text.strip() or len(text) > 2000:
        raise ValidationFailed(_("A note of 1 to 2,000 characters."), fields={"text": [_("1 to 2,000 characters.")]})
    player = player_of(player_id)
    with transaction.atomic():
        note = PlayerNote.objects.create(player=player, author=author, text=text.strip(), created=timezone.now())
        audit_record(actor=author, action="player_note", target_type="player", target_id=player.pk,
                     after={"note": note.pk}, ip=ip)
    return note


def player_notes(*, player_id: int) -> QuerySet:
    return PlayerNote.objects.filter(player_id=player_id).select_related("author").order_by("-created", "-id")


def note_as_dict(note: PlayerNote) -> dict[str, Any]:
    return {"id": note.pk, "text": note.text, "author": note.author.get_username(),
            "created": timezone.localtime(note.created).isoformat()}
