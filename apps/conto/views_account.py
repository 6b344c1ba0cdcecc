"""The player's conto pages (regulation.md §1, §4.3): the account with its state in plain
words and the document upload, and the identity completion of a legacy account."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from apps.common.errors import DomainError
from apps.common.roles import is_staff_member

from . import forms_signup
from . import states as S
from .documents import document_upload, max_bytes
from .page_errors import field_rows, form_errors
from .presenters import conto_as_dict
from .services import conto_ensure
from .signup import conto_identity_update


def _players_only(request):
    if is_staff_member(request.user):
        messages.info(request, _("Staff accounts have no gaming account."))
        return redirect("lobby")
    return None


def state_words(account: dict) -> str:
    """The conto's state as a player reads it."""
    state, reason, kyc = account["state"], account["state_reason"], account["kyc_status"]
    if state == S.APERTO and kyc == S.LEGACY:
        return _("Open. Complete your identity to deposit and withdraw: the law asks for it.")
    if state == S.APERTO:
        return _("Open: you can play for money, deposit and withdraw.")
    if state == S.IN_VERIFICA:
        if kyc == S.PENDING:
            return _("Waiting for verification: compliance checks your documents within 72 hours.")
        return _("Waiting for your identity document: upload the front and the back below.")
    if state == S.SOSPESO and reason == S.AUTOESCLUSIONE:
        return _("Suspended by your self-exclusion: you can still withdraw, and play the tournaments you entered.")
    if state == S.SOSPESO and reason == S.DOCUMENTI:
        return _("Suspended: upload a valid identity document to open it again.")
    if state == S.SOSPESO:
        return _("Suspended by the operator: contact customer care.")
    return _("Not open (%(state)s).") % {"state": state}


@login_required
@require_http_methods(["GET"])
def account(request):
    refused = _players_only(request)
    if refused:
        return refused
    conto = conto_ensure(user=request.user)
    data = conto_as_dict(conto)
    context = {"account": data, "words": state_words(data), "conto": conto,
               "uploads_open": conto.kyc_status in S.KYC_ACCEPTS_UPLOADS and conto.identity_complete,
               "max_mb": max_bytes() // (1024 * 1024)}
    return render(request, "conto/account.html", context)


@login_required
@require_POST
def upload(request):
    refused = _players_only(request)
    if refused:
        return refused
    try:
        document_upload(user=request.user, side=request.POST.get("side"), file=request.FILES.get("file"))
    except DomainError as exc:
        messages.error(request, exc.detail)
    else:
        messages.success(request, _("Document received."))
    return redirect("conto:account")


@login_required
@require_http_methods(["GET", "POST"])
def identity(request):
    """A legacy account completes its identity (§1.6): the sign-up's fields but the account's."""
    refused = _players_only(request)
    if refused:
        return refused
    conto = conto_ensure(user=request.user)
    if conto.identity_complete:
        return redirect("conto:account")
    groups = forms_signup.sections(with_account=False, with_limits=False)
    errors: dict[str, list[str]] = {}
    form_error = None
    values = {k: v for k, v in request.POST.items() if k != "csrfmiddlewaretoken"}
    if request.method == "POST":
        try:
            conto_identity_update(user=request.user, data=forms_signup.nested(request.POST, with_account=False,
                                                                               with_limits=False))
        except DomainError as exc:
            errors, form_error = form_errors(exc)
        else:
            messages.success(request, _("Identity saved: now upload your identity document."))
            return redirect("conto:account")
    context = {"sections": field_rows(groups, values, errors, {}), "form_error": form_error,
               "terms_errors": errors.get("accept_terms", []), "accept_terms": request.POST.get("accept_terms") == "on"}
    return render(request, "conto/identity.html", context, status=400 if errors or form_error else 200)
