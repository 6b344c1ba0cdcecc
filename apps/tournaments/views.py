"""Tournament pages: the lobby by game, a tournament's page (live over its socket), and the
register/unregister buttons. One domain call each; errors come back as a readable message."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from apps.common.errors import DomainError, NotFoundError, survivors_run
from apps.common.net import request_ip
from apps.common.roles import is_staff_member
from apps.compliance.selectors import sanction_check_lobby
from apps.games.engines import ENGINES

from . import selectors, services
from .render import match_page_context, tournament_context


def lobby_page(request):
    game = request.GET.get("game") or None
    if game not in ENGINES:
        game = None
    groups = selectors.lobby_groups(game=game)
    names = {gid: e.name for gid, e in ENGINES.items() if 2 in e.player_counts}
    rows = [(names.get(g, g), [selectors.tournament_as_dict(t, nicknames=False) for t in ts]) for g, ts in groups]
    return render(request, "tournaments/lobby.html", {"groups": rows, "selected": game,
                                                      "games": sorted(names.items(), key=lambda kv: kv[1]),
                                                      "my_matches": selectors.my_matches_in_play(user=request.user)})


def detail_page(request, tournament_id: int):
    t = selectors.tournament_get(tournament_id=tournament_id)
    template = "tournaments/_body.html" if request.htmx else "tournaments/detail.html"
    return render(request, template, tournament_context(t, request.user))


@login_required
def match_page(request, match_id: int):
    """A tournament match, drawn as a table's match (platform.md §5.7): a seated player sees
    their own hand and plays by clicking; anyone else logged in, staff included, watches the
    spectator's view. Live over /ws/tournaments/matches/{id}/."""
    if not is_staff_member(request.user):
        try:
            sanction_check_lobby(player=request.user)
        except DomainError as exc:
            return render(request, "errors/403.html", {"detail": exc.detail, "code": "sanctioned"}, status=403)
    try:
        context = match_page_context(match_id=match_id, user=request.user)
    except NotFoundError:
        raise Http404 from None
    return render(request, "tournaments/match.html", context)


@login_required
@require_POST
def register_page(request, tournament_id: int):
    try:
        services.tournament_register(user=request.user, tournament_id=tournament_id, ip=request_ip(request))
        messages.success(request, _msg("registered"))
    except DomainError as exc:
        survivors_run(exc)  # ADM's answer to a refused registration is kept (regulation.md §7.3)
        messages.error(request, exc.detail)
    return redirect("tournaments:detail", tournament_id=tournament_id)


@login_required
@require_POST
def unregister_page(request, tournament_id: int):
    try:
        services.tournament_unregister(user=request.user, tournament_id=tournament_id)
        messages.success(request, _msg("unregistered"))
    except DomainError as exc:
        messages.error(request, exc.detail)
    return redirect("tournaments:detail", tournament_id=tournament_id)


def _msg(what: str) -> str:
    return _("You are registered: good luck!") if what == "registered" else \
        _("You are no longer registered: your entry has been refunded.")
