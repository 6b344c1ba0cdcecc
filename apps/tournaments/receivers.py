"""What the tournaments do when a lower floor reports something (docs/layers.md): a finished
match advances the round at once (the tick does the same for a match whose hook was missed);
a sanction that keeps a player out of the lobby cancels their registrations in tournaments
not yet started, disqualifies them from running ones (platform.md §7.4, §5.7) and closes
their tournament sockets (4403)."""

from __future__ import annotations

from typing import Any

from apps.compliance.selectors import LOBBY_BLOCKING
from apps.compliance.signals import sanction_started
from apps.conto.signals import conto_busy
from apps.matches.signals import match_finished

from . import broadcast, play, services


def on_match_finished(sender: Any, match_id: int, outcome: dict[str, Any] | None = None, **kwargs: Any) -> None:
    outcome = outcome or {}
    services.tournament_match_finished(match_id=match_id,
                                       outcome=play.outcome_of(outcome.get("status", ""), outcome.get("result")))


def on_sanction_started(sender: Any, sanction_id: int, player_id: int, kind: str, **kwargs: Any) -> None:
    """Sent once, after the sanction's commit."""
    if kind in LOBBY_BLOCKING:
        services.tournaments_sanction_apply(player_id=player_id, sanction_id=sanction_id)
        broadcast.sockets_close(user_id=player_id, code=4403)


def busy_when_registered(sender: Any, player_id: int, **kwargs: Any) -> str | None:
    return services.tournaments_busy(player_id=player_id)


def connect() -> None:
    conto_busy.connect(busy_when_registered, dispatch_uid="mazziere_tournaments_conto_busy")
    match_finished.connect(on_match_finished, dispatch_uid="mazziere_tournament_match_finished")
    sanction_started.connect(on_sanction_started, dispatch_uid="mazziere_tournament_sanction_started")
