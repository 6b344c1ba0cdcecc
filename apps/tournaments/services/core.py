"""What every tournament write shares: the row lock, the version push, the limits of each step."""

from __future__ import annotations

import logging
import secrets
from datetime import timedelta
from typing import Any

from django.utils.translation import gettext as _

from apps.adm.services import adm_enqueue
from apps.common.errors import (
    NotFoundError,
)

from .. import broadcast
from ..models import Tournament

log = logging.getLogger(__name__)


REGISTRATION_CLOSES_BEFORE = timedelta(minutes=2)




EDITABLE_AFTER_REGISTRATION = ("name", "chat_enabled")




def _rng() -> secrets.SystemRandom:
    return secrets.SystemRandom()


def _locked(tournament_id: Any) -> Tournament:
    if type(tournament_id) is not int:
        raise NotFoundError(_("No such tournament."))
    t = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
    if t is None:
        raise NotFoundError(_("No such tournament."))
    return t


def _touch(t: Tournament) -> None:
    t.version += 1
    Tournament.objects.filter(pk=t.pk).update(version=t.version)
    broadcast.tournament_changed(tournament_id=t.pk, version=t.version)



def _adm_participation_cancel(*, reg_id: int, player_id: int, participation: str, txn_id: int | None) -> None:
    """regulation.md §7.1: each refund tells ADM the participation is cancelled (queued)."""
    if participation:
        adm_enqueue(type="participation_cancel", reference=f"registration:{reg_id}", player_id=player_id,
                    transaction_ids=[txn_id] if txn_id else [], payload={"participation": participation})
