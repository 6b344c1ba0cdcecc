"""What matches do when a lower floor reports something (connected in MatchesConfig.ready)."""

from __future__ import annotations

from apps.compliance.selectors import LOBBY_BLOCKING

from .services import match_forfeit_player


def forfeit_matches_of_sanctioned(sender, sanction_id, player_id, kind, **kwargs) -> None:
    """A sanction that keeps a player out of the lobby forfeits their running matches, once the
    sanction is committed (``sanction_started``; platform.md §7.4)."""
    if kind in LOBBY_BLOCKING:
        match_forfeit_player(player_id=player_id)
