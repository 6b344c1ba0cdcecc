from django.http import Http404
from django.shortcuts import render

from apps.games.engines import ENGINES

from .selectors import leaderboard


def leaderboard_page(request, game: str):
    if game not in ENGINES:
        raise Http404
    period = request.GET.get("period", "all")
    period = period if period in ("all", "month") else "all"
    return render(request, "rankings/leaderboard.html", {
        "game": ENGINES[game], "rows": leaderboard(game=game, period=period), "period": period,
        "games": sorted(ENGINES.values(), key=lambda e: e.name)})
