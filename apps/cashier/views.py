"""The player's cashier page /accounts/cashier/ (regulation.md §4.3, §5): balances, instruments,
deposits and withdrawals. Each form parses, makes one domain call and comes back to the page.
A form carries a one-time key: sent twice (a double click, a reload) it moves money once."""

from __future__ import annotations

import uuid

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from apps.common.errors import DomainError
from apps.common.input import euros_to_cents
from apps.common.roles import is_staff_member
from apps.conto.services import conto_ensure
from apps.wallet.models import Deposit, Instrument, Withdrawal
from apps.wallet.selectors import wallet_get

from . import selectors, services
from .identity import identity_ready
from .instruments import instrument_add
from .providers import provider_current

FORM_KEY_SECONDS = 24 * 3600


def _once(request) -> bool:
    """True the first time this form's key is seen (Redis ``add``): the second send is a repeat."""
    key = request.POST.get("form_key", "")
    if not key:
        return True
    return cache.add(f"cashier-form:{request.user.pk}:{key[:64]}", 1, FORM_KEY_SECONDS)


def _int(raw: str):
    return int(raw) if raw and raw.isdigit() else raw


@login_required
@require_http_methods(["GET"])
def cashier(request):
    if is_staff_member(request.user):
        return redirect("lobby")
    conto = conto_ensure(user=request.user)
    instruments = list(Instrument.objects.filter(player=request.user))
    deposits = selectors.deposits_as_dicts(list(Deposit.objects.filter(player=request.user).order_by("-id")[:50]))
    withdrawals = selectors.withdrawals_as_dicts(
        list(Withdrawal.objects.filter(player=request.user).order_by("-id")[:50]))
    masked = {i.pk: i.masked for i in instruments}
    for row in deposits + withdrawals:
        row["instrument_masked"] = masked.get(row["instrument"], "")
    return render(request, "cashier/cashier.html", {
        "wallet": wallet_get(player=request.user), "instruments": instruments, "deposits": deposits,
        "withdrawals": withdrawals, "identity_ready": identity_ready(conto), "conto": conto,
        "test_provider": provider_current().accepts_test_outcome, "form_key": uuid.uuid4().hex,
        "kinds": [(Instrument.CARD, _("Card")), (Instrument.BANK_ACCOUNT, _("Bank account (IBAN)")),
                  (Instrument.EWALLET, _("E-wallet (e-mail)"))],
    })


def _done(request, call, success: str):
    if not _once(request):
        messages.info(request, _("Already sent: nothing was done twice."))
        return redirect("cashier:cashier")
    try:
        call()
    except DomainError as exc:
        messages.error(request, exc.detail)
    else:
        messages.success(request, success)
    return redirect("cashier:cashier")


@login_required
@require_POST
def instrument(request):
    return _done(request, lambda: instrument_add(player=request.user, kind=request.POST.get("kind"),
                                                 holder_name=request.POST.get("holder_name"),
                                                 identifier=request.POST.get("identifier")),
                 _("Instrument added."))


@login_required
@require_POST
def deposit(request):
    outcome = request.POST.get("test_outcome") or None

    def call():
        made = services.deposit_create(player=request.user, amount_cents=euros_to_cents(request.POST.get("amount")),
                                       instrument=_int(request.POST.get("instrument", "")), test_outcome=outcome)
        if made.status == Deposit.DECLINED:
            raise DomainError(_("The payment provider declined the deposit: nothing was charged."))
    return _done(request, call, _("Deposit received."))


@login_required
@require_POST
def withdraw(request):
    return _done(request, lambda: services.withdrawal_request(
        player=request.user, amount_cents=euros_to_cents(request.POST.get("amount")),
        instrument=_int(request.POST.get("instrument", ""))),
        _("Withdrawal requested: the money is set aside until it is paid."))


@login_required
@require_POST
def withdrawal_cancel(request, withdrawal_id: int):
    return _done(request, lambda: services.withdrawal_cancel(player=request.user, withdrawal_id=withdrawal_id),
                 _("Withdrawal cancelled: the money is back in your balance."))
