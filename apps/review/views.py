"""Compliance's review pages (platform.md §7.3-§7.5), server-rendered, for the `compliance`
group and superusers. The common path is short: the queue → a line's context → a sanction
button (three clicks). Every search, export, hide, sanction and word-list change is audited
by the service it calls."""

from __future__ import annotations

import csv
from datetime import timedelta
from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse, StreamingHttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from apps.chat import selectors as chat_selectors
from apps.chat import services as chat_services
from apps.chat.models import FlagWord
from apps.common.errors import DomainError
from apps.common.net import request_ip
from apps.common.roles import COMPLIANCE, has_role
from apps.common.spreadsheet import csv_safe_row
from apps.compliance import selectors as compliance_selectors
from apps.compliance.models import DURATION_CHOICES, KINDS
from apps.compliance.services import sanction_lift
from apps.matches.models import Match

from . import selectors
from .links import match_url
from .services import sanction_issue_for_messages

KIND_LABELS = {"chat_ban": gettext_lazy("Chat ban"), "lobby_ban": gettext_lazy("Lobby ban"),
               "account_suspension": gettext_lazy("Account suspension"),
               "authority_report": gettext_lazy("Authority report")}
#: the sanction buttons of a line's context page: a click shows what it will do, a second one
#: issues it (the reason is prefilled)
PRESETS = [("chat_ban", "1_month"), ("chat_ban", "permanent"), ("lobby_ban", "1_month"),
           ("lobby_ban", "permanent"), ("account_suspension", "1_month"), ("account_suspension", "permanent"),
           ("authority_report", "permanent")]


def compliance_required(view):
    @wraps(view)
    def wrapper(request, *args, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not has_role(request.user, COMPLIANCE):
            raise PermissionDenied
        return view(request, *args, **kwargs)

    return wrapper


def _page(request, rows, size: int = 50):
    return Paginator(rows, size).get_page(request.GET.get("page") or 1)


def _querystring(request, **drop) -> str:
    params = request.GET.copy()
    for key in ("page", *drop):
        params.pop(key, None)
    return params.urlencode()


def _reports(page) -> dict[int, list]:
    return chat_selectors.chat_reports_of(message_ids=[m.pk for m in page])


def _base(section: str, **extra: Any) -> dict[str, Any]:
    return {"section": section, "kind_labels": KIND_LABELS, **extra}


@compliance_required
def queue(request):
    reviewed = request.GET.get("reviewed") == "1"
    page = _page(request, chat_selectors.chat_queue(reviewed=reviewed).select_related("table"))
    return render(request, "review/queue.html", _base(
        "queue", page=page, reports=_reports(page), reviewed=reviewed,
        waiting=chat_selectors.chat_queue().count()))


@compliance_required
def search(request):
    try:
        filters = chat_services.chat_filters_parse(request.GET)
    except DomainError as exc:
        return render(request, "review/search.html", _base(
            "search", errors=exc.extra.get("fields", {}), detail=exc.detail, page=None, params=request.GET),
            status=400)
    chat_services.chat_search_record(actor=request.user, filters=filters, ip=request_ip(request))
    page = _page(request, chat_selectors.chat_search(filters=filters))
    return render(request, "review/search.html", _base(
        "search", page=page, reports=_reports(page), params=request.GET, errors={},
        querystring=_querystring(request)))


class _Echo:
    def write(self, value: str) -> str:
        return value


@compliance_required
def export_csv(request):
    """The search's lines as CSV (audited as an export), streamed: every match, not one page."""
    try:
        filters = chat_services.chat_filters_parse(request.GET)
    except DomainError as exc:
        return HttpResponse(exc.detail, status=400, content_type="text/plain; charset=utf-8")
    chat_services.chat_search_record(actor=request.user, filters=filters, action="chat_export",
                                     ip=request_ip(request))
    writer = csv.writer(_Echo())
    header = ["id", "created", "player", "nickname", "room", "table", "match", "ip", "text", "hidden", "refused",
              "flagged", "flag_reasons", "reports"]

    def rows():
        yield writer.writerow(header)
        for m in chat_selectors.chat_search(filters=filters).iterator(chunk_size=500):
            # a spreadsheet must not run a line as a formula
            yield writer.writerow(csv_safe_row([m.pk, m.created.isoformat(), m.sender_id, m.nickname, m.room,
                                                m.table_id or "", m.match_id or "", m.ip or "", m.text, m.hidden,
                                                m.refused, m.flagged, " ".join(m.flag_reasons), m.reports]))

    stamp = timezone.now().strftime("%Y%m%d-%H%M")
    response = StreamingHttpResponse(rows(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="chat-{stamp}.csv"'
    return response


@compliance_required
def message_context(request, message_id: int):
    message = chat_selectors.chat_message_for_review(message_id=message_id)
    if message is None:
        raise Http404
    lines = chat_selectors.chat_context(message=message)
    moment = None
    if message.match_id:
        match = Match.objects.filter(pk=message.match_id).first()
        if match is not None:
            moment = selectors.match_moment(match=match, at=message.created)
    sanctions = compliance_selectors.sanctions_list(player_id=message.sender_id)[:10]
    room = _("lobby") if message.room == "lobby" else _("table %(n)s") % {"n": message.room}
    reason = _("Chat, message #%(id)s (%(room)s, %(when)s): «%(text)s»") % {
        "id": message.pk, "room": room, "when": timezone.localtime(message.created).strftime("%d/%m/%Y %H:%M"),
        "text": message.text[:200]}
    return render(request, "review/message.html", _base(
        "queue", message=message, lines=lines, moment=moment, match_link=match_url(message.match_id),
        reports=chat_selectors.chat_reports_of(message_ids=[message.pk])[message.pk],
        sanctions=sanctions, presets=PRESETS, reason=reason,
        sender_lines=[m for m in lines if m.sender_id == message.sender_id]))


@compliance_required
@require_POST
def message_hide(request, message_id: int):
    try:
        chat_services.chat_message_hide(actor=request.user, message_id=message_id,
                                        reason=request.POST.get("reason", ""), ip=request_ip(request))
        messages.success(request, _("The message is hidden from players; it stays here for review."))
    except DomainError as exc:
        messages.error(request, exc.detail)
    return redirect(request.POST.get("next") or reverse("review:message", args=[message_id]))


@compliance_required
@require_POST
def message_reviewed(request, message_id: int):
    try:
        chat_services.chat_message_review(actor=request.user, message_id=message_id, ip=request_ip(request))
        messages.success(request, _("Taken out of the queue: no action."))
    except DomainError as exc:
        messages.error(request, exc.detail)
    return redirect(request.POST.get("next") or reverse("review:queue"))


def _int(value: Any) -> int | Any:
    if isinstance(value, str) and value.strip().isdigit() and len(value.strip()) < 19:
        return int(value.strip())
    return value


@compliance_required
@require_POST
def sanction_new(request):
    form = request.POST
    preset = form.get("preset") or ""
    kind, _sep, duration = preset.partition(":")
    data = {"player": _int(form.get("player")), "kind": kind or form.get("kind"),
            "duration": duration or form.get("duration") or None, "reason": form.get("reason"),
            "messages": [_int(m) for m in form.getlist("messages")]}
    if form.get("confirm") != "1":
        return _sanction_confirm(request, data)
    try:
        sanction = sanction_issue_for_messages(actor=request.user, data=data, ip=request_ip(request))
    except DomainError as exc:
        fields = "; ".join(f"{k}: {' '.join(v)}" for k, v in exc.extra.get("fields", {}).items())
        messages.error(request, f"{exc.detail} {fields}".strip())
        return redirect(form.get("next") or reverse("review:sanctions"))
    messages.success(request, _("Sanction issued: %(kind)s for %(who)s.") % {
        "kind": KIND_LABELS[sanction.kind], "who": sanction.player.get_username()})
    return redirect(reverse("review:player", args=[sanction.player_id]))


def _sanction_confirm(request, data: dict[str, Any]):
    """The first click of a sanction button: what it will do (amounts to freeze or move,
    registrations to refund, matches forfeited), and the button that issues it. Nothing is
    written until that second POST."""
    kind, player_id = data["kind"], data["player"]
    known = isinstance(player_id, int) and get_user_model().objects.filter(pk=player_id).exists()
    if kind not in KINDS or not known:
        messages.error(request, _("The sanction is not valid.") + " " + (
            _("Unknown kind of sanction.") if kind not in KINDS else _("No such player.")))
        return redirect(request.POST.get("next") or reverse("review:sanctions"))
    duration = data["duration"] or ("permanent" if kind in ("account_suspension", "authority_report") else "")
    ids = [m for m in data["messages"] if isinstance(m, int)]
    consequences = selectors.sanction_consequences(player_id=player_id, kind=kind, duration=duration,
                                                   message_ids=ids)
    return render(request, "review/sanction_confirm.html", _base(
        "sanctions", c=consequences, reason=data["reason"] or "", message_ids=ids,
        next=_local(request.POST.get("next")) or reverse("review:player", args=[player_id])))


def _local(url: str | None) -> str | None:
    """A path of this site (the page to go back to), or None."""
    return url if url and url.startswith("/") and not url.startswith("//") else None


@compliance_required
def sanctions(request):
    active = {"1": True, "0": False}.get(request.GET.get("active", "1"))
    player = request.GET.get("player", "").strip()
    kind = request.GET.get("kind") if request.GET.get("kind") in KINDS else None
    rows = compliance_selectors.sanctions_list(player_id=int(player) if player.isdigit() else None,
                                               active=active, kind=kind)
    page = _page(request, rows)
    return render(request, "review/sanctions.html", _base(
        "sanctions", page=page, active=request.GET.get("active", "1"), player=player, kind=kind, kinds=KINDS,
        now=timezone.now(), querystring=_querystring(request)))


@compliance_required
@require_POST
def sanction_lift_page(request, sanction_id: int):
    try:
        sanction_lift(actor=request.user, sanction_id=sanction_id, reason=request.POST.get("reason", ""),
                      decision=request.POST.get("decision") or None, ip=request_ip(request))
        messages.success(request, _("Sanction lifted."))
    except DomainError as exc:
        messages.error(request, exc.detail)
    return redirect(request.POST.get("next") or reverse("review:sanctions"))


@compliance_required
def player(request, player_id: int):
    user = get_user_model().objects.select_related("profile").filter(pk=player_id).first()
    if user is None:
        raise Http404
    status = compliance_selectors.players_status_many(players=[user])[0]
    history = compliance_selectors.sanctions_list(player_id=user.pk)
    lines = chat_selectors.chat_search(filters={"player": user.pk})[:30]
    return render(request, "review/player.html", _base(
        "sanctions", target=user, status=status, history=history, lines=lines, now=timezone.now(),
        kinds=KINDS, durations=[d for d, _label in DURATION_CHOICES]))


@compliance_required
def words(request):
    if request.method == "POST":
        try:
            if request.POST.get("remove"):
                chat_services.flag_word_remove(actor=request.user, entry_id=_int(request.POST["remove"]),
                                               ip=request_ip(request))
                messages.success(request, _("Entry removed."))
            else:
                chat_services.flag_word_add(actor=request.user, kind=request.POST.get("kind"),
                                            value=request.POST.get("value"), category=request.POST.get("category"),
                                            ip=request_ip(request))
                messages.success(request, _("Entry added: new lines that match it are flagged."))
        except DomainError as exc:
            fields = "; ".join(f"{k}: {' '.join(v)}" for k, v in exc.extra.get("fields", {}).items())
            messages.error(request, f"{exc.detail} {fields}".strip())
        return redirect("review:words")
    entries = list(chat_selectors.flag_words())
    groups: dict[str, list[FlagWord]] = {}
    for entry in entries:
        groups.setdefault(entry.category, []).append(entry)
    return render(request, "review/words.html", _base(
        "words", groups=groups, categories=FlagWord.CATEGORIES, count=len(entries)))


@compliance_required
def signals(request):
    days = _int(request.GET.get("days") or "90")
    days = days if isinstance(days, int) and 1 <= days <= 3650 else 90
    since = timezone.now() - timedelta(days=days)
    return render(request, "review/signals.html", _base(
        "signals", days=days, shared=selectors.shared_ip_signals(since=since),
        shared_tournaments=selectors.shared_ip_tournaments(since=since),
        pairs=selectors.frequent_pairs(since=since), flows=selectors.chip_flows(since=since)))
