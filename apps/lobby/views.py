"""The lobby a player lands on (issue 25): the page, its live part (an htmx poll, see
docs/decisions.md) and its two one-click actions, "Gioca subito" and sitting at a waiting table."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from apps.common.errors import DomainError
from apps.common.net import request_ip
from apps.games.selectors import game_catalogue
from apps.tables.services import table_play_now, table_sit

from .selectors import lobby_live, payout_percentages


def lobby(request):
    """The games on offer with "Gioca subito", and the live part (tables, tournaments, online)."""
    return render(request, "lobby.html", {"games": game_catalogue(), **lobby_live(user=request.user)})


def lobby_live_part(request):
    """The live part alone, polled by the page every few seconds (with the header's balances)."""
    return render(request, "lobby/_live.html", {**lobby_live(user=request.user), "oob": True})


@login_required
@require_POST
def play_now(request, game: str):
    """"Gioca subito": the first open table of the game, or a new one; a refusal says why."""
    try:
        table = table_play_now(user=request.user, game=game, ip=request_ip(request))
    except DomainError as exc:
        messages.error(request, exc.detail)
        return redirect("lobby")
    return redirect("tables:table", table_id=table.pk)


@login_required
@require_POST
def sit(request, table_id: int):
    """One click on a waiting table: sit there (§8.1's refusals come back to the lobby)."""
    try:
        table_sit(user=request.user, table_id=table_id, ip=request_ip(request))
    except DomainError as exc:
        messages.error(request, exc.detail)
        return redirect("lobby")
    return redirect("tables:table", table_id=table_id)


def responsible_gaming(request):
    """The responsible-gaming page (regulation.md §4.3), open to everyone: the tools, the payout
    percentages of the regimes (§8), autoplay and abandonment."""
    return render(request, "conto/responsible_gaming.html", payout_percentages())
