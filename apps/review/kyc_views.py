"""Compliance's KYC pages (regulation.md §1.7): the queue, oldest first with overdue rows in
red, and a submission beside its document images, checks and the three decisions."""

from __future__ import annotations

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from apps.common.errors import DomainError
from apps.common.net import request_ip
from apps.conto import kyc
from apps.conto.models import Conto
from apps.conto.presenters import conto_as_dict
from apps.conto.serving import kyc_document_serve
from apps.conto.words import DOCUMENT_WORDS, KYC_WORDS

from .views import compliance_required

DECISIONS = {"approve": kyc.kyc_approve, "resubmit": kyc.kyc_resubmit, "reject": kyc.kyc_reject}


@compliance_required
def kyc_queue(request):
    page = Paginator(kyc.kyc_queue(), 25).get_page(request.GET.get("page"))
    rows = [kyc.kyc_item(conto) for conto in page.object_list]
    return render(request, "review/kyc_queue.html", {"section": "kyc", "page": page, "rows": rows})


@compliance_required
def kyc_player(request, player_id: int):
    conto = Conto.objects.select_related("user").filter(user_id=player_id).first()
    if conto is None:
        raise Http404
    context = {"section": "kyc", "conto": conto, "account": conto_as_dict(conto), "item": kyc.kyc_item(conto),
               "pending": conto.kyc_status == "pending", "kyc_words": KYC_WORDS.get(conto.kyc_status, conto.kyc_status),
               "document_words": DOCUMENT_WORDS.get((conto.document or {}).get("type"), "")}
    return render(request, "review/kyc_player.html", context)


@compliance_required
@require_POST
def kyc_decide(request, player_id: int, decision: str):
    action = DECISIONS.get(decision)
    if action is None:
        raise Http404
    try:
        result = action(actor=request.user, player_id=player_id, reason=request.POST.get("reason", ""),
                        ip=request_ip(request))
    except DomainError as exc:
        messages.error(request, exc.detail)
        return redirect("review:kyc_player", player_id=player_id)
    messages.success(request, {"approve": _("Identity approved: the account is %(state)s."),
                               "resubmit": _("The player was asked to send the documents again."),
                               "reject": _("Identity rejected: the account is %(state)s.")}[decision]
                     % {"state": result["state"]})
    return redirect("review:kyc_queue")


@compliance_required
def kyc_document(request, document_id: int):
    """The image beside the data: served as the API serves it, audited the same way."""
    return kyc_document_serve(actor=request.user, document_id=document_id, ip=request_ip(request))
