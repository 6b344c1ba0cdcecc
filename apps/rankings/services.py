"""XP for official matches (platform.md §9)."""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from apps.games.engines import ENGINES

from .models import XpAward

DEFAULT_XP = 10
LOSER_XP = 5


def xp_for_win(game: str) -> int:
    """The XP a win gives: declared by the game's registration (``Engine.xp``)."""
    return ENGINES[game].xp if game in ENGINES else DEFAULT_XP


def rankings_award_match(*, match: Any, teams: list[list[int]], winner: int | None, seats: list[Any],
                         held_back: bool = False) -> list[XpAward]:
    """Winners get the game's XP, losers and draws 5; abandoners nothing; practice, a shared IP
    at the table or a cancelled match: nobody anything (the match is flagged for compliance).
    ``held_back``: the owner now credits a match whose XP it held back (``awards_xp`` false:
    a tournament's matches when it finishes, §5.10); once per player and match either way."""
    if not match.official or match.flagged_same_ip or match.status != "finished":
        return []
    if not match.awards_xp and not held_back:
        return []  # e.g. tournament matches: credited when the tournament finishes (§5.10)
    winning = set(teams[winner]) if winner is not None else set()
    now = timezone.now()
    awards = []
    for ms in seats:
        if ms.player_id is None or ms.abandoned:
            continue
        won = ms.number in winning
        xp = xp_for_win(match.game) if won else LOSER_XP
        score = None
        if ENGINES[match.game].leaderboard_score:
            # every finished game counts on the leaderboard with its score; XP only for a win
            xp = xp if won else 0
            score = ((match.result or {}).get("scores") or [0])[0]
        if xp or won or score is not None:
            awards.append(XpAward(player_id=ms.player_id, game=match.game, match=match, xp=xp, won=won, score=score,
                                  created=now))
    return XpAward.objects.bulk_create(awards, ignore_conflicts=True)
