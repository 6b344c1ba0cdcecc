"""What the tournaments do when the matches app reports a finished match (docs/layers.md):
the round advances at once. The tick does the same for a match whose hook was missed."""

from __future__ import annotations

from typing import Any

from apps.matches.signals import match_finished

from . import play, services


def on_match_finished(sender: Any, match_id: int, outcome: dict[str, Any] | None = None, **kwargs: Any) -> None:
    outcome = outcome or {}
    services.tournament_match_finished(match_id=match_id,
                                       outcome=play.outcome_of(outcome.get("status", ""), outcome.get("result")))


def connect() -> None:
    match_finished.connect(on_match_finished, dispatch_uid="mazziere_tournament_match_finished")
