"""The back office's cashier and AML pages (regulation.md §5.4, §6): finance's withdrawal queue
with the automatic checks and one click with a reason; compliance's signals and cases. Each
POST makes one domain call and comes back to the page; every step is audited by its service."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy
from django.views.decorators.http import require_POST

from apps.adm.models import AdmMessage
from apps.adm.selectors import adm_day_summary, adm_messages
from apps.aml import services as aml
from apps.aml.models import RULES, AmlCase, AmlSignal
from apps.aml.selectors import signal_details_words
from apps.cashier import services as cashier
from apps.cashier.selectors import WITHDRAWAL_WORDS, withdrawal_queue, withdrawal_staff_dict
from apps.common.errors import DomainError
from apps.common.net import request_ip
from apps.common.roles import COMPLIANCE, FINANCE, OPERATOR, has_role
from apps.conto.selectors import rome_today
from apps.wallet.models import Withdrawal
from apps.wallet.selectors import adm_reconciliation

from .adm_api import day_param
from .views import _context, staff_page


def _back(request: HttpRequest, fallback: str) -> HttpResponse:
    target = request.POST.get("next") or ""
    return redirect(target if target.startswith("/backoffice/") else fallback)


def _run(request: HttpRequest, call: Any, success: str, fallback: str) -> HttpResponse:
    try:
        call()
    except DomainError as exc:
        messages.error(request, exc.detail)
    else:
        messages.success(request, success)
    return _back(request, fallback)


@staff_page(FINANCE, COMPLIANCE)
def withdrawals(request: HttpRequest) -> HttpResponse:
    wanted = request.GET.get("status", "waiting")
    rows = withdrawal_queue()
    if wanted == "waiting":
        rows = rows.filter(status__in=(Withdrawal.REQUESTED, Withdrawal.IN_REVIEW, Withdrawal.APPROVED))
    elif wanted in Withdrawal.STATUSES:
        rows = rows.filter(status=wanted)
    page = Paginator(rows, 50).get_page(request.GET.get("page"))
    return render(request, "backoffice/withdrawals.html", _context(
        request, _("Withdrawals"), page=page, rows=[withdrawal_staff_dict(w) for w in page], wanted=wanted,
        statuses=[("waiting", _("waiting (requested, in review, approved)")), *WITHDRAWAL_WORDS.items()],
        can_decide=has_role(request.user, FINANCE)))


@staff_page(FINANCE)
@require_POST
def withdrawal_step(request: HttpRequest, withdrawal_id: int, step: str) -> HttpResponse:
    if step not in ("review", "approve", "reject"):
        raise Http404
    ip, reason = request_ip(request), request.POST.get("reason", "")
    fallback = reverse("backoffice:withdrawals")
    if step == "review":
        return _run(request, lambda: cashier.withdrawal_review(actor=request.user, withdrawal_id=withdrawal_id, ip=ip),
                    _("Withdrawal %(id)s is being checked.") % {"id": withdrawal_id}, fallback)
    if step == "approve":
        return _run(request, lambda: cashier.withdrawal_approve(actor=request.user, withdrawal_id=withdrawal_id,
                                                                reason=reason, ip=ip),
                    _("Withdrawal %(id)s approved.") % {"id": withdrawal_id}, fallback)
    return _run(request, lambda: cashier.withdrawal_reject(actor=request.user, withdrawal_id=withdrawal_id,
                                                           reason=reason, ip=ip),
                _("Withdrawal %(id)s rejected: the money is back in the player's balance.") % {"id": withdrawal_id},
                fallback)


@staff_page(COMPLIANCE)
def aml_page(request: HttpRequest) -> HttpResponse:
    signals = AmlSignal.objects.select_related("player", "counterparty").order_by("-id")
    rule = request.GET.get("rule")
    if rule in RULES:
        signals = signals.filter(rule=rule)
    cases = AmlCase.objects.select_related("player").order_by("-id")
    page = Paginator(signals, 50).get_page(request.GET.get("page"))
    for signal in page:
        signal.words = signal_details_words(signal)
    return render(request, "backoffice/aml.html", _context(
        request, _("Anti-money-laundering"), signals=page,
        cases=cases[:100], rules=RULES, rule=rule if rule in RULES else ""))


@staff_page(COMPLIANCE)
def aml_case_page(request: HttpRequest, case_id: int) -> HttpResponse:
    case = AmlCase.objects.select_related("player", "opened_by").filter(pk=case_id).first()
    if case is None:
        raise Http404
    return render(request, "backoffice/aml_case.html", _context(
        request, _("AML case %(id)s") % {"id": case.pk}, case=case,
        signals=case.signals.all(), notes=case.notes.select_related("author"), history=case.history.select_related("by")))


@staff_page(COMPLIANCE)
@require_POST
def aml_case_open(request: HttpRequest) -> HttpResponse:
    raw_player = request.POST.get("player", "")
    player = get_user_model().objects.filter(pk=int(raw_player)).first() if raw_player.isdigit() else None
    signals = [int(s) for s in request.POST.getlist("signal") if s.isdigit()]
    if player is None:
        messages.error(request, _("No such player."))
        return redirect("backoffice:aml")
    try:
        case = aml.aml_case_open(actor=request.user, player=player, summary=request.POST.get("summary"),
                                 signals=signals, ip=request_ip(request))
    except DomainError as exc:
        messages.error(request, exc.detail)
        return redirect("backoffice:aml")
    messages.success(request, _("Case opened."))
    return redirect("backoffice:aml_case", case_id=case.pk)


@staff_page(COMPLIANCE)
@require_POST
def aml_case_step(request: HttpRequest, case_id: int, step: str) -> HttpResponse:
    if step not in ("review", "note", "close"):
        raise Http404
    ip = request_ip(request)
    fallback = reverse("backoffice:aml_case", args=[case_id])
    if step == "review":
        return _run(request, lambda: aml.aml_case_review(actor=request.user, case_id=case_id, ip=ip),
                    _("The case is in review."), fallback)
    if step == "note":
        return _run(request, lambda: aml.aml_case_note(actor=request.user, case_id=case_id,
                                                      text=request.POST.get("text"), ip=ip), _("Note added."), fallback)
    data = {k: request.POST.get(k) or None for k in ("outcome", "reason", "measure", "report_date", "protocol_number")}
    return _run(request, lambda: aml.aml_case_close(actor=request.user, case_id=case_id, data=data, ip=ip),
                _("The case is closed."), fallback)


#: an ADM message's status in the page's words
ADM_STATUS_WORDS = {"pending": pgettext_lazy("ADM message", "pending"),
                    "accepted": pgettext_lazy("ADM message", "accepted"),
                    "rejected": pgettext_lazy("ADM message", "rejected")}


@staff_page(OPERATOR, FINANCE, COMPLIANCE)
def adm_page(request: HttpRequest) -> HttpResponse:
    """§7.5: per Rome day and type, sent, accepted, rejected, pending; the list with filters."""
    try:
        day = day_param(request.GET.get("day"), default=rome_today())
    except DomainError:
        day = rome_today()
    status = request.GET.get("status") or None
    status = status if status in dict(AdmMessage.STATUSES) else None
    type_ = (request.GET.get("type") or "")[:100] or None
    rows = adm_messages(day=day, status=status, type=type_)
    page = Paginator(rows, 100).get_page(request.GET.get("page"))
    for message in page:
        message.status_words = ADM_STATUS_WORDS.get(message.status, message.status)
    return render(request, "backoffice/adm.html", _context(
        request, _("ADM central system"), summary=adm_day_summary(day=day), day=day, page=page,
        status=status or "", type=type_ or "", statuses=list(ADM_STATUS_WORDS.items())))


@staff_page(OPERATOR, FINANCE, COMPLIANCE)
def adm_reconciliation_page(request: HttpRequest) -> HttpResponse:
    return render(request, "backoffice/adm_reconciliation.html", _context(
        request, _("ADM reconciliation"), report=adm_reconciliation()))
