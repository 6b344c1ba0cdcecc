"""Table pages: the tables lobby, a table (live over the socket), a player's replay."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext
from django.views.decorators.http import require_POST

from apps.common.errors import DomainError, NotFoundError
from apps.common.net import request_ip
from apps.common.roles import is_staff_member
from apps.compliance.selectors import sanction_check_lobby
from apps.games.engines import ENGINES, get_engine
from apps.games.selectors import game_catalogue
from apps.matches import selectors as match_selectors
from apps.matches.models import Match
from apps.play.render import table_context, view_facts
from apps.play.replay import replay_context
from apps.players.selectors import recharge_status
from apps.players.services import profile_chat_hide

from . import selectors, services
from .forms import option_fields, option_problems, options_from_form, stake_from_form
from .render import chat_box_context, snapshot_load


def _lobby_refusal(user) -> str | None:
    """Why a sanctioned player may not use the lobby's pages (platform.md §7.4), or None."""
    if not user.is_authenticated or is_staff_member(user):
        return None
    try:
        sanction_check_lobby(player=user)
    except DomainError as exc:
        return exc.detail
    return None


def tables_lobby(request):
    refusal = _lobby_refusal(request.user)
    if refusal:
        return render(request, "errors/403.html", {"detail": refusal, "code": "sanctioned"}, status=403)
    game = request.GET.get("game") or None
    catalogue = game_catalogue()
    names = {g["id"]: g["name"] for g in catalogue}
    tables = [selectors.table_as_dict(t) for t in selectors.table_list(game=game, user=request.user)[:100]]
    for t in tables:
        t["game_name"] = names.get(t["game"], t["game"])
    template = "tables/_table_list.html" if request.htmx else "tables/lobby.html"
    games = [{**g, "options": option_fields(g["id"])} for g in catalogue]
    preselect = request.GET.get("new") if request.GET.get("new") in names else game
    credits_only = [g["id"] for g in catalogue if g["currencies"] == ["credits"]]
    return render(request, template, {"tables": tables, "games": games, "selected": game, "preselect": preselect,
                                      "credits_only": credits_only,
                                      "recharge": _recharge(request.user, game)})


def _recharge(user, game: str | None) -> dict | None:
    """The recharge button's facts, on the screens of a game played for credits only (poker,
    seed 001: "il tasto apposito nella schermata di entrata nel Poker"), for a player."""
    engine = ENGINES.get(game or "")
    if engine is None or engine.currencies != ("credits",) or not user.is_authenticated or is_staff_member(user):
        return None
    return recharge_status(player=user)


FIELD_LABELS = {"game": gettext_lazy("Game"), "players": gettext_lazy("Players"), "stake": gettext_lazy("Stake"),
                "currency": gettext_lazy("Currency"), "turn_seconds": gettext_lazy("Seconds per turn"),
                "game_options": gettext_lazy("Game options"), "face": gettext_lazy("Cards"),
                "show_points": gettext_lazy("Points shown during the hand")}


@login_required
@require_POST
def table_create_page(request):
    form = request.POST
    game = form.get("game")
    currency = form.get("currency") or "credits"
    problems = option_problems(game, form) if isinstance(game, str) else []
    if stake_from_form(form.get("stake"), currency) is None:
        problems.insert(0, _("Stake: write euro with a decimal comma, for example 2,50.") if currency == "cash"
                        else _("Stake: a whole number of credits, for example 50."))
    if problems:  # input that cannot be read: said in words, nothing is created
        messages.error(request, " ".join(problems))
        if isinstance(game, str) and game.isidentifier():
            return redirect(f"{reverse('tables:lobby')}?new={game}#create")
        return redirect("tables:lobby")
    data = {"game": game, "players": _int(form.get("players")), "stake": stake_from_form(form.get("stake"), currency),
            "currency": currency, "turn_seconds": _int(form.get("turn_seconds")) or 30,
            "official": form.get("official") == "on", "private": form.get("private") == "on",
            "spectators": form.get("spectators", "on") == "on", "face": form.get("face") or "auto",
            "show_points": form.get("show_points") == "on",
            "game_options": options_from_form(game, form) if isinstance(game, str) else {}}
    if data["players"] is None:
        data.pop("players")
    try:
        table = services.table_create(user=request.user, data=data, ip=request_ip(request))
    except DomainError as exc:
        fields = "; ".join(f"{FIELD_LABELS.get(k, k)}: {' '.join(map(str, v))}"
                           for k, v in exc.extra.get("fields", {}).items())
        messages.error(request, f"{exc.detail} {fields}".strip())
        if isinstance(game, str) and game.isidentifier():
            return redirect(f"{reverse('tables:lobby')}?new={game}#create")  # the form shows that game again
        return redirect("tables:lobby")
    return redirect("tables:table", table_id=table.pk)


def _int(value):
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


@login_required
def table_page(request, table_id: int):
    refusal = _lobby_refusal(request.user)
    if refusal:
        return render(request, "errors/403.html", {"detail": refusal, "code": "sanctioned"}, status=403)
    try:
        table = selectors.table_get(table_id=table_id)
    except NotFoundError:
        raise Http404 from None
    match = table.matches.prefetch_related("match_seats__player").order_by("-id").first()
    access = selectors.table_access(table=table, user=request.user,
                                    match=match if match and match.status == Match.PLAYING else None)
    seated = table.seats.filter(player=request.user).exists()
    if access is None and not seated:
        # an uninvited player (or a spectator where none are allowed) gets a page that says why
        leader = getattr(getattr(table.leader, "profile", None), "nickname", None)
        return render(request, "tables/closed.html", {"table": table, "game": get_engine(table.game),
                                                      "leader": leader}, status=403)
    snapshot = snapshot_load(table_id=table.pk)
    if match is not None and snapshot is not None and snapshot.match is not None and snapshot.match.pk == match.pk:
        match = snapshot.match
    context = table_context(table=table, match=match, user=request.user, access=access, snapshot=snapshot)
    context.update(chat_box_context(table=table, user=request.user, access=access))
    context.update(recharge=_recharge(request.user, table.game))
    return render(request, "tables/table.html", context)


@login_required
@require_POST
def table_seat_action(request, table_id: int, what: str):
    """Sit, leave, ask for the next match or add a robot from the page; errors become messages."""
    try:
        if what == "sit":
            services.table_sit(user=request.user, table_id=table_id, seat=_int(request.POST.get("seat")),
                               ip=request_ip(request))
        elif what == "leave":
            services.table_leave(user=request.user, table_id=table_id)
        elif what == "ready":
            services.table_ready(user=request.user, table_id=table_id)
        elif what in ("sit-out", "sit-in"):
            services.table_sit_out(user=request.user, table_id=table_id, out=what == "sit-out")
        elif what == "robot":
            services.table_robot_add(user=request.user, table_id=table_id, seat=_int(request.POST.get("seat")))
        elif what == "invite":
            nickname = (request.POST.get("nickname") or "").strip()
            services.table_invite(user=request.user, table_id=table_id, nickname=nickname)
            messages.success(request, _("%(nickname)s is invited: they can now sit at this table.")
                             % {"nickname": nickname})
        else:
            raise Http404
    except DomainError as exc:
        if request.htmx:
            return render(request, "tables/_error.html", {"dom_id": f"table-{table_id}", "code": exc.code,
                                                          "detail": exc.detail})
        messages.error(request, exc.detail)
    if request.htmx:
        return HttpResponse(status=204)  # the socket re-renders the seats for everyone
    return redirect("tables:table", table_id=table_id)


@login_required
def my_matches(request):
    matches = list(match_selectors.player_finished_matches(user=request.user)[:50])
    names = {g["id"]: g["name"] for g in game_catalogue()}
    statuses = {Match.FINISHED: pgettext("match status", "finished"),
                Match.CANCELLED: pgettext("match status", "cancelled")}
    for m in matches:
        m.game_name = names.get(m.game, m.game)
        m.status_label = statuses.get(m.status, m.status)
    return render(request, "tables/my_matches.html", {"matches": matches})


@login_required
def match_replay_page(request, match_id: int):
    """A player's replay of their own finished match: only their own seat's view at each step."""
    try:
        match = match_selectors.match_get(match_id=match_id)
        log = match_selectors.match_log_get(match=match, user=request.user)
    except (NotFoundError, DomainError):
        raise Http404 from None
    ms = next((m for m in match.match_seats.all() if m.player_id == request.user.pk), None)
    seat = ms.number if ms else None
    if seat is None and not request.user.is_staff:
        raise PermissionDenied
    steps = match_selectors.match_replay(log=log, seat=seat)
    step = max(0, min(_int(request.GET.get("step")) or 0, len(steps) - 1))
    context = replay_context(match=match, steps=steps, index=step, seat=seat, table=selectors.match_table(match))
    context["facts"], context["card_facts"] = view_facts(steps[step]["view"], match.players)
    context["step"] = steps[step]
    return render(request, "tables/replay.html", context)


@login_required
@require_POST
def table_chat_hide(request, table_id: int):
    """The player hides the table chat for themselves, or shows it again (a toggle on the page)."""
    try:
        profile_chat_hide(user=request.user, hidden=request.POST.get("hidden") == "1")
    except DomainError as exc:
        messages.error(request, exc.detail)
    return redirect("tables:table", table_id=table_id)
