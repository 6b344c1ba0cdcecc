"""What matches do when a lower floor reports something (connected in MatchesConfig.ready)."""

from __future__ import annotations

from django.db import transaction

from apps.compliance.selectors import LOBBY_BLOCKING

from .services import match_forfeit_player


def forfeit_matches_of_sanctioned(sender, instance, created, **kwargs) -> None:
    """A sanction that keeps a player out of the lobby forfeits their running matches, once the
    sanction is committed (platform.md §7.4)."""
    if created and instance.kind in LOBBY_BLOCKING:
        player_id = instance.player_id
        transaction.on_commit(lambda: match_forfeit_player(player_id=player_id))
