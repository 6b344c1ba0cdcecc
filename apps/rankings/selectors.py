"""Leaderboards per game (platform.md §9)."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from django.db.models import Count, Max, Q, Sum
from django.utils import timezone

from apps.compliance.models import Sanction
from apps.games.engines import ENGINES
from apps.players.models import Profile

from .models import XpAward

ROME = ZoneInfo("Europe/Rome")


def month_start(now: datetime) -> datetime:
    local = now.astimezone(ROME)
    return local.replace(day=1, hour=0, minute=0, second=0, microsecond=0)


def leaderboard(*, game: str, period: str = "all", limit: int = 100) -> list[dict]:
    awards = XpAward.objects.filter(game=game)
    if period == "month":
        awards = awards.filter(created__gte=month_start(timezone.now()))
    hidden = Sanction.objects.active().filter(kind__in=["account_suspension", "authority_report"]) \
        .values("player_id")
    rows = (awards.exclude(player_id__in=hidden).values("player_id")
            .annotate(xp=Sum("xp"), matches=Count("id"), wins=Count("id", filter=Q(won=True)), best=Max("score")))
    nicknames = dict(Profile.objects.filter(user_id__in=[r["player_id"] for r in rows])
                     .values_list("user_id", "nickname"))
    ordered = sorted(rows, key=lambda r: (-r["xp"], -r["wins"], r["matches"],
                                          (nicknames.get(r["player_id"]) or "").lower()))
    rows = [{"position": i + 1, "nickname": nicknames.get(r["player_id"]), "xp": r["xp"],
             "matches": r["matches"], "wins": r["wins"]} for i, r in enumerate(ordered[:limit])]
    if game in ENGINES and ENGINES[game].leaderboard_score:  # its score goes to its leaderboard: each player's best game
        for row, r in zip(rows, ordered, strict=False):
            row["best_score"] = r["best"] or 0
    return rows
