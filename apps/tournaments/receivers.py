"""What the tournaments do when the matches app reports a finished match (docs/layers.md):
the round advances at once. The tick does the same for a match whose hook was missed. A
sanction that keeps a player out of the lobby closes their tournament sockets (4403)."""

from __future__ import annotations

from typing import Any

from django.db.models.signals import post_save

from apps.compliance.models import Sanction
from apps.compliance.selectors import LOBBY_BLOCKING
from apps.matches.signals import match_finished

from . import broadcast, play, services


def on_match_finished(sender: Any, match_id: int, outcome: dict[str, Any] | None = None, **kwargs: Any) -> None:
    outcome = outcome or {}
    services.tournament_match_finished(match_id=match_id,
                                       outcome=play.outcome_of(outcome.get("status", ""), outcome.get("result")))


def close_tournament_sockets_of_sanctioned(sender: Any, instance: Sanction, created: bool, **kwargs: Any) -> None:
    """A sanction that keeps a player out of the lobby closes their tournament pages' sockets at
    once (platform.md §7.4), after commit."""
    if created and instance.kind in LOBBY_BLOCKING:
        broadcast.sockets_close(user_id=instance.player_id, code=4403)


def connect() -> None:
    match_finished.connect(on_match_finished, dispatch_uid="mazziere_tournament_match_finished")
    post_save.connect(close_tournament_sockets_of_sanctioned, sender=Sanction,
                      dispatch_uid="mazziere_tournament_sockets_sanctioned")
