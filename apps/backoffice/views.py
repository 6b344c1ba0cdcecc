"""The back office's pages: they check the role, parse the input, make one domain call, render.

Pages use the admin's look (``admin/base_site.html``) and are linked from the admin index.
Anonymous visitors go to the admin login; a logged-in user without the role gets 403.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from urllib.parse import urlencode

from django.contrib import admin, messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.dateparse import parse_date
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from apps.common.errors import DomainError
from apps.common.net import request_ip
from apps.common.roles import COMPLIANCE, FINANCE, OPERATOR, has_role
from apps.matches.models import Match
from apps.players.selectors import player_get
from apps.tables.models import Table, TableMatch
from apps.tables.staff import seat_stand_up, table_chat_set, table_close, table_message
from apps.wallet.models import CURRENCIES

from . import selectors
from .blocks import dashboard_blocks
from .charts import euro, formatter
from .exports import export_file_name, exports_dir
from .models import Export
from .periods import PRESETS, period_parse, rome_today
from .services import export_request


def staff_page(*roles: str) -> Callable:
    def decorate(view: Callable) -> Callable:
        @wraps(view)
        def wrapped(request: HttpRequest, *args, **kwargs) -> HttpResponse:
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path(), reverse("admin:login"))
            if not has_role(request.user, *roles):
                raise PermissionDenied
            return view(request, *args, **kwargs)
        return wrapped
    return decorate


def _day(value: str | None):
    """A YYYY-MM-DD day, or None for anything else (``2026-02-31`` included)."""
    try:
        return parse_date(value or "")
    except ValueError:
        return None


def _context(request: HttpRequest, title: str, **extra) -> dict:
    """The admin's context without its app list down the side: the breadcrumbs hold the back
    office's links, and its figures and tables need the page's width."""
    return {**admin.site.each_context(request), "is_nav_sidebar_enabled": False, "title": title, **extra}


def _period(request: HttpRequest):
    try:
        return period_parse(name=request.GET.get("period", "7d"), first=request.GET.get("first"),
                            last=request.GET.get("last")), None
    except DomainError as exc:
        return period_parse(name="7d"), exc.detail


def _period_query(period) -> str:
    """The period as the staff socket's query string (consumers.socket_period reads it)."""
    if period.name != "custom":
        return urlencode({"period": period.name})
    return urlencode({"period": "custom", "first": period.first.isoformat(), "last": period.last.isoformat()})


@staff_page(OPERATOR, FINANCE)
def dashboard(request: HttpRequest) -> HttpResponse:
    period, error = _period(request)
    headline, blocks = dashboard_blocks(period=period)
    return render(request, "backoffice/dashboard.html", _context(
        request, _("Dashboard"), period=period, presets=PRESETS, error=error, blocks=blocks, headline=headline,
        online=selectors.online_now(), period_query=_period_query(period), is_operator=has_role(request.user, OPERATOR),
        is_finance=has_role(request.user, FINANCE)))


@staff_page(FINANCE)
def reconciliation(request: HttpRequest) -> HttpResponse:
    day = _day(request.GET.get("day")) or rome_today()
    report = selectors.reconciliation(day=day)
    for block in report["currencies"]:
        money = block["currency"] != "credits"
        show = euro if money else formatter("credits")
        block["shown"] = {"players": show(block["players"]), "escrows": show(block["escrows"]),
                          "total": show(block["total"]), "house": [(c, show(v)) for c, v in block["house"]]}
    for rows, names in ((report["kinds"], ("credited", "debited", "balance", "players")),
                        (report["entry_kinds"], ("credited", "debited", "net")),
                        (report["kind_totals"], ("players", "entries_net"))):
        for row in rows:
            show = euro if row["currency"] != "credits" else formatter("credits")
            row["shown"] = {name: show(row[name]) for name in names}
    return render(request, "backoffice/reconciliation.html", _context(
        request, _("Daily reconciliation"), report=report, day=day))


def _player_name(player) -> str:
    profile = getattr(player, "profile", None)
    return f"{profile.nickname} ({player.username})" if profile and profile.nickname else player.username


def _ref_player(reference: str) -> int | None:
    """The player a ``player:{id}`` reference names (welcome and passport credits...)."""
    head, _, tail = reference.partition(":")
    return int(tail) if head == "player" and tail.isdigit() else None


@staff_page(FINANCE, COMPLIANCE)
def ledger(request: HttpRequest) -> HttpResponse:
    """Ledger entries with filters: one player (``?player=id``), kind, currency, days."""
    player = None
    player_param = request.GET.get("player", "")
    if player_param:
        try:
            player = player_get(player_id=player_param)
        except DomainError:
            raise Http404 from None
    kind = request.GET.get("kind", "")
    currency = request.GET.get("currency", "") if request.GET.get("currency", "") in CURRENCIES else ""
    first, last = _day(request.GET.get("first")), _day(request.GET.get("last"))
    entries = selectors.ledger_entries(player_id=player.pk if player else None, kind=kind, currency=currency,
                                       first=first, last=last)
    page = Paginator(entries, 50).get_page(request.GET.get("page"))
    page.object_list = list(page.object_list)  # read once: the rows carry their refund split
    splits = selectors.refund_splits(entries=page.object_list)
    referenced = {_ref_player(e.transaction.reference) for e in page.object_list} - {None}
    names = selectors.player_names(ids=referenced) if referenced else {}
    for entry in page.object_list:
        entry.refund_split = splits.get((entry.transaction_id, entry.player_id))
        entry.reference_player = names.get(_ref_player(entry.transaction.reference))
    query = request.GET.copy()
    query.pop("page", None)
    return render(request, "backoffice/ledger.html", _context(
        request, _("Ledger of %(player)s") % {"player": _player_name(player)} if player else _("Ledger"),
        page=page, player=player, kinds=selectors.entry_kinds(), currencies=CURRENCIES,
        filters={"kind": kind, "currency": currency, "first": first, "last": last},
        query=query.urlencode(), can_export=has_role(request.user, FINANCE)))


@staff_page(FINANCE)
def exports(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        try:
            export = export_request(actor=request.user, kind=request.POST.get("kind"),
                                    fmt=request.POST.get("format"), params=request.POST.dict(),
                                    ip=request_ip(request))
        except DomainError as exc:
            messages.error(request, exc.detail)
            return redirect("backoffice:exports")
        return redirect("backoffice:export", export_id=export.pk)
    recent = Export.objects.select_related("requested_by").order_by("-id")[:20]
    return render(request, "backoffice/exports.html", _context(request, _("Exports"), exports=recent))


def _own_export(request: HttpRequest, export_id: int) -> Export:
    return get_object_or_404(Export.objects.select_related("requested_by"), pk=export_id)


@staff_page(FINANCE)
def export_page(request: HttpRequest, export_id: int) -> HttpResponse:
    return render(request, "backoffice/export.html", _context(
        request, _("Export %(id)s") % {"id": export_id}, export=_own_export(request, export_id)))


@staff_page(FINANCE)
def export_progress(request: HttpRequest, export_id: int) -> HttpResponse:
    """The progress bar alone (HTMX polls it every second until the file is ready)."""
    return render(request, "backoffice/_export_progress.html", {"export": _own_export(request, export_id)})


@staff_page(FINANCE)
def export_download(request: HttpRequest, export_id: int) -> HttpResponse:
    export = _own_export(request, export_id)
    path = exports_dir() / export_file_name(export)
    if export.status != Export.DONE or not path.exists():
        raise Http404
    return FileResponse(path.open("rb"), as_attachment=True, filename=path.name)


# -- the operator's tables ------------------------------------------------------------------


@staff_page(OPERATOR)
def tables(request: HttpRequest) -> HttpResponse:
    """Open tables, their seated players and the match in play, with the three actions."""
    rows = (Table.objects.filter(status=Table.OPEN).select_related("leader__profile")
            .prefetch_related("seats__player__profile").order_by("-id"))
    page = Paginator(rows, 25).get_page(request.GET.get("page"))
    playing = dict(TableMatch.objects.filter(table__in=[t.pk for t in page], match__status=Match.PLAYING)
                   .values_list("table_id", "match_id"))
    for table in page:
        table.playing = playing.get(table.pk)
    return render(request, "backoffice/tables.html", _context(request, _("Live tables"), page=page))


def _table_action(request: HttpRequest, action: Callable[[], object], done: str) -> HttpResponse:
    try:
        action()
    except DomainError as exc:
        messages.error(request, exc.detail)
    else:
        messages.success(request, done)
    return redirect("backoffice:tables")


@require_POST
@staff_page(OPERATOR)
def table_close_view(request: HttpRequest, table_id: int) -> HttpResponse:
    return _table_action(request, lambda: table_close(actor=request.user, table_id=table_id,
                                                      reason=request.POST.get("reason"), ip=request_ip(request)),
                         _("Table %(id)s closed.") % {"id": table_id})


@require_POST
@staff_page(OPERATOR)
def table_stand_up_view(request: HttpRequest, table_id: int) -> HttpResponse:
    return _table_action(request, lambda: seat_stand_up(
        actor=request.user, table_id=table_id, player_id=request.POST.get("player"),
        reason=request.POST.get("reason"), ip=request_ip(request)), _("The player was stood up."))


@require_POST
@staff_page(OPERATOR)
def table_chat_view(request: HttpRequest, table_id: int) -> HttpResponse:
    enabled = request.POST.get("enabled") == "1"
    return _table_action(request, lambda: table_chat_set(
        actor=request.user, table_id=table_id, enabled=enabled, reason=request.POST.get("reason"),
        ip=request_ip(request)),
        (_("Chat switched on at table %(id)s.") if enabled else _("Chat switched off at table %(id)s."))
        % {"id": table_id})


@require_POST
@staff_page(OPERATOR)
def table_message_view(request: HttpRequest, table_id: int) -> HttpResponse:
    return _table_action(request, lambda: table_message(
        actor=request.user, table_id=table_id, text=request.POST.get("text"),
        reason=request.POST.get("reason") or request.POST.get("text"), ip=request_ip(request)),
        _("Message sent to table %(id)s.") % {"id": table_id})
