from django.shortcuts import render

from .selectors import game_catalogue


def lobby(request):
    """The lobby: the games on offer (tables and tournaments join it as they land)."""
    return render(request, "lobby.html", {"games": game_catalogue()})
