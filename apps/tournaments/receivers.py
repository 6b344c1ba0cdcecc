"""What the tournaments do when the matches app reports a finished match (docs/layers.md).

Until the matches app sends ``match_finished``, the tick records finished tournament
matches (``services.tournaments_due_work``); with the hook, a round advances at once."""

from __future__ import annotations

from typing import Any

from . import services


def on_match_finished(sender: Any, match_id: int, outcome: dict[str, Any] | None = None, **kwargs: Any) -> None:
    services.tournament_match_finished(match_id=match_id, outcome=outcome)


def connect() -> None:
    try:
        from apps.matches.signals import match_finished  # noqa: PLC0415 - present once the matches app lands
    except ImportError:
        return
    match_finished.connect(on_match_finished, dispatch_uid="mazziere_tournament_match_finished")
